// `/methods/<slug>`: a method, where it is filed, its strongest treatment, and the models
// that treat it, a page at a time (?after= or ?before=, &from=, &size=: the shared Pager),
// each with its first pieces of evidence and how many more it has.
import { BrowserMethodDocument, type BrowserMethodQuery } from "../../../clients/typescript/src/gql/graphql";
import { AdoptionChart } from "../adoption-chart";
import { answered, cursorRefused } from "../api";
import { Downloads } from "../downloads";
import { Gone, History } from "../history";
import { answeredSoFar, useQuery } from "../query";
import { href, pageArguments, type Place, placeQuery, TALL_ROW_PAGE_SIZES } from "../router";
import { useLatestRelease } from "../site-nav";
import {
  ApiProblem,
  Badge,
  Breadcrumb,
  ExternalLink,
  Heading,
  Loading,
  MoreEvidence,
  ModelFactCells,
  EVIDENCE_PER_ROW,
  PageGone,
  Pager,
  plural,
  StrengthLegend,
  TableScroll,
  useTitle,
} from "../ui";
import { Markdown } from "../markdown";

type Treatment = NonNullable<NonNullable<BrowserMethodQuery["method"]>["treatmentsConnection"]>["nodes"][number];

/** A treatment's first pieces of evidence, and how many more there are. */
function EvidenceList({ answer }: { answer: Treatment["evidenceConnection"] }) {
  const evidence = answered(answer, "evidenceConnection");
  return (
    <>
      {evidence.nodes.map((item) => (
        <figure key={item.id} class="quote">
          {item.quote ? <blockquote>{item.quote}</blockquote> : null}
          <figcaption>
            <Badge strength={item.strength} />{" "}
            {item.source ? <ExternalLink url={item.source.url}>{item.source.name}</ExternalLink> : "no source recorded"}
            {item.locator ? `, ${item.locator}` : ""}
          </figcaption>
        </figure>
      ))}
      <MoreEvidence evidence={evidence} />
    </>
  );
}

export function MethodPage({ slug, place }: { slug: string; place: Place }) {
  const loaded = useQuery(BrowserMethodDocument, { slug, ...pageArguments(place), evidencePerRow: EVIDENCE_PER_ROW });
  useLatestRelease(answeredSoFar(loaded)?.latest);
  const method = loaded.state === "done" ? loaded.data.method : null;
  useTitle(method ? method.name : loaded.state === "loading" ? null : `No method ${slug}`);
  const pageUrl = (at: Place) => `${href.method(slug)}${placeQuery(at)}`;
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") {
    return cursorRefused(loaded.code) && (place.after || place.before) ? (
      <PageGone message={loaded.message} firstPage={pageUrl({ ...place, after: null, before: null, from: 1 })} />
    ) : (
      <ApiProblem message={loaded.message} />
    );
  }
  if (!method) return <Gone kind="method" subject={slug} />;
  const { node } = method;
  const treatments = answered(method.treatmentsConnection, "method.treatmentsConnection");
  return (
    <>
      <Breadcrumb trail={[...node.ancestors, { name: node.name, slugPath: node.slugPath }]} current={method.name} />
      <article class="method">
        <p class="kicker">method</p>
        <Heading>{method.name}</Heading>
        <p class="lead">
          Filed at <a href={href.node(node.slugPath)}>{node.path}</a>.{" "}
          {method.strongest ? (
            <>
              Treated by {plural(method.modelCount, "model")}; strongest: <Badge strength={method.strongest} />
            </>
          ) : (
            "No model's documents describe it yet."
          )}
        </p>
        {method.description ? <Markdown text={method.description} /> : null}
        {method.aliases.length ? <p>Also called: {method.aliases.join("; ")}.</p> : null}
        <section aria-labelledby="treatments">
          <h2 id="treatments">Treatments by model</h2>
          {treatments.totalCount ? (
            <>
              <StrengthLegend />
              <TableScroll label="Treatments by model: table">
                <table class="by-model-of-method">
                  <thead>
                    <tr>
                      <th scope="col">Model</th>
                      <th scope="col">organization</th>
                      <th scope="col">released</th>
                      <th scope="col">treatment</th>
                      <th scope="col">evidence</th>
                    </tr>
                  </thead>
                  <tbody>
                    {treatments.nodes.map((treatment) => (
                      <tr key={treatment.id}>
                        <th scope="row">
                          <a href={href.model(treatment.model.slug)}>{treatment.model.name}</a>
                        </th>
                        <ModelFactCells model={treatment.model} />
                        <td>
                          <Badge strength={treatment.strength} />
                        </td>
                        <td>
                          <EvidenceList answer={treatment.evidenceConnection} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
              <Pager
                list={treatments}
                at={place}
                noun={["model", "models"]}
                label="Treatments by model: pages"
                sizes={TALL_ROW_PAGE_SIZES}
                anchor="treatments"
                url={pageUrl}
              />
              <Downloads page={href.method(slug)} label="Treatments by model" />
            </>
          ) : (
            <p>No model's documents describe this method.</p>
          )}
        </section>
        <AdoptionChart
          points={answered(method.adoption, "method.adoption")}
          undated={answered(method.undatedModels, "method.undatedModels")}
          subject="this method"
        />
        <History subject="method" firstSeen={method.firstSeen} history={method.history} />
      </article>
    </>
  );
}
