// `/models/<slug>`: a model, its sources, its profile by top-level branch, and its methods,
// strongest first, each with the quotes that are its evidence.
import { BrowserModelDocument } from "../../../clients/typescript/src/gql/graphql";
import { answered } from "../api";
import { useQuery } from "../query";
import { href } from "../router";
import { ApiProblem, Badge, ExternalLink, Heading, Loading, NotFound, Quote, plural, useTitle } from "../ui";

const KINDS: Record<string, string> = {
  TECHNICAL_REPORT: "technical report",
  MODEL_CARD: "model card",
  BLOG_POST: "blog post",
  PAPER: "paper",
  OTHER: "other",
};

export function ModelPage({ slug }: { slug: string }) {
  const loaded = useQuery(BrowserModelDocument, { slug });
  const model = loaded.state === "done" ? loaded.data.model : null;
  useTitle(model ? model.name : loaded.state === "loading" ? null : `No model ${slug}`);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") return <ApiProblem message={loaded.message} />;
  if (!model) return <NotFound kind="model" slug={slug} />;
  const treatments = answered(model.treatments, "model.treatments");
  const facts = [model.organization, model.releaseDate ? `released ${model.releaseDate}` : "release date unknown"];
  return (
    <article class="model">
      <p class="kicker">model</p>
      <Heading>{model.name}</Heading>
      <p class="lead">{facts.filter(Boolean).join(" · ")}</p>

      <section aria-labelledby="sources">
        <h2 id="sources">Sources</h2>
        {model.sources.length ? (
          <ul>
            {model.sources.map((source) => (
              <li key={source.id}>
                <ExternalLink url={source.url}>{source.title}</ExternalLink>{" "}
                <span class="count">
                  {KINDS[source.kind] ?? source.kind}
                  {source.publishedOn ? `, ${source.publishedOn}` : ""}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p>No source is recorded for this model.</p>
        )}
      </section>

      <section aria-labelledby="profile">
        <h2 id="profile">Profile by branch</h2>
        {model.branches?.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Branch</th>
                <th scope="col">strongest</th>
                <th scope="col">methods</th>
              </tr>
            </thead>
            <tbody>
              {model.branches.map((branch) => (
                <tr key={branch.id}>
                  <th scope="row">
                    <a href={href.node(branch.node.slugPath)}>{branch.node.name}</a>
                  </th>
                  <td>
                    <Badge strength={branch.strongest} />
                  </td>
                  <td class="number">{branch.methodCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>No method of this model is filed in the taxonomy.</p>
        )}
      </section>

      <section aria-labelledby="methods">
        <h2 id="methods">Methods</h2>
        <p>
          {plural(treatments.totalCount, "method")}, strongest first
          {treatments.nodes.length < treatments.totalCount ? ` (the first ${treatments.nodes.length} shown)` : ""}.
        </p>
        <ul class="evidence-list">
          {treatments.nodes.map((treatment) => (
            <li key={treatment.id}>
              <p>
                <a href={href.method(treatment.method.slug)}>{treatment.method.name}</a>{" "}
                <Badge strength={treatment.strength} />{" "}
                <a class="count" href={href.node(treatment.method.node.slugPath)}>
                  {treatment.method.node.path}
                </a>
              </p>
              {treatment.evidence.map((evidence) => (
                <Quote
                  key={evidence.id}
                  quote={evidence.quote}
                  source={evidence.source?.title}
                  locator={evidence.locator}
                />
              ))}
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}
