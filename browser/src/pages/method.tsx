// `/methods/<slug>`: a method, where it is filed, its strongest treatment, and the models
// that treat it, a page at a time (?after= or ?before=, &from=, &size=: the shared Pager),
// each with its first pieces of evidence and how many more it has, filtered by strength
// (?strength=core|used), sorted by the table's heads (?sort=strongest|name|release, &dir=:
// strongest first by default, the API's orders).
import {
  BrowserMethodDocument,
  type BrowserMethodQuery,
  type TreatmentsOfMethodOrderField,
} from "../../../clients/typescript/src/gql/graphql";
import { AdoptionChart } from "../adoption-chart";
import { answered } from "../api";
import { Downloads } from "../downloads";
import { Gone, History } from "../history";
import {
  atTable,
  type Column,
  FilterForm,
  filtered,
  IndexProblem,
  indexState,
  indexUrl,
  MIN_STRENGTHS,
  orderBy,
  SortHeader,
  StrengthField,
} from "../index-table";
import { answeredSoFar, useQuery } from "../query";
import { href, pageArguments, type Place, TALL_ROW_PAGE_SIZES } from "../router";
import { useLatestRelease } from "../site-nav";
import {
  Badge,
  Breadcrumb,
  ExternalLink,
  Heading,
  Loading,
  MoreEvidence,
  ModelFactCells,
  EVIDENCE_PER_ROW,
  Pager,
  plural,
  StrengthLegend,
  TableScroll,
  useTitle,
} from "../ui";
import { Markdown } from "../markdown";

/** The models table's orders, by their name in the URL (the first, strongest first, the
 * API's default). */
const COLUMNS: readonly Column<TreatmentsOfMethodOrderField>[] = [
  { key: "strongest", label: "treatment", field: "STRONGEST", natural: "desc" },
  { key: "name", label: "Model", field: "NAME", natural: "asc" },
  { key: "release", label: "released", field: "RELEASE_DATE", natural: "desc" },
];
const [BY_STRENGTH, BY_NAME, BY_RELEASE] = COLUMNS;

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

export function MethodPage({ slug, place, query }: { slug: string; place: Place; query: URLSearchParams }) {
  const state = indexState(href.method(slug), COLUMNS, ["strength"], query, place, "treatments");
  const minimum = MIN_STRENGTHS.find((choice) => choice.value === state.filters.strength) ?? null;
  const minStrength = minimum?.strength ?? null;
  const variables = { slug, ...pageArguments(place), evidencePerRow: EVIDENCE_PER_ROW, minStrength, orderBy: orderBy(state) };
  const loaded = useQuery(BrowserMethodDocument, variables);
  useLatestRelease(answeredSoFar(loaded)?.latest);
  const method = loaded.state === "done" ? loaded.data.method : null;
  useTitle(method ? method.name : loaded.state === "loading" ? null : `No method ${slug}`);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") return <IndexProblem state={state} error={loaded} />;
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
          {method.modelCount ? (
            <>
              <StrengthLegend />
              <FilterForm state={state} label="Filter the models">
                <StrengthField label="Treatment at least" none="any" choices={MIN_STRENGTHS} chosen={minimum} />
              </FilterForm>
            </>
          ) : null}
          {treatments.totalCount ? (
            <>
              <TableScroll label="Treatments by model: table">
                <table class="by-model-of-method">
                  <thead>
                    <tr>
                      <SortHeader state={state} column={BY_NAME} />
                      <th scope="col">organization</th>
                      <SortHeader state={state} column={BY_RELEASE} />
                      <SortHeader state={state} column={BY_STRENGTH} />
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
                url={(at) => indexUrl(state, { place: at })}
              />
              <Downloads page={indexUrl(state)} label="Treatments by model" />
            </>
          ) : filtered(state) ? (
            <p>
              No model treats this method that strongly.{" "}
              <a href={atTable(state, indexUrl(state, { filters: {} }))}>Show every model</a>.
            </p>
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
