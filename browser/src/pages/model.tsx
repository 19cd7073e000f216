// `/models/<slug>`: a model, its sources, its profile by top-level branch, and its methods,
// a page at a time (?after= or ?before=, &from=, &size=: the shared Pager), each with its
// first quotes of evidence and how many more it has, filtered by strength
// (?strength=core|used, as a method's models) and sorted by the table's heads (?sort=
// strongest|name|node, &dir=: strongest first by default, the API's orders).
import {
  BrowserModelDocument,
  type BrowserModelQuery,
  type TreatmentsOfModelOrderField,
} from "../../../clients/typescript/src/gql/graphql";
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
  EVIDENCE_PER_ROW,
  ExternalLink,
  Heading,
  Loading,
  MoreEvidence,
  Pager,
  Quote,
  plural,
  StrengthLegend,
  TableScroll,
  thousands,
  useTitle,
} from "../ui";

const KINDS: Record<string, string> = {
  TECHNICAL_REPORT: "technical report",
  MODEL_CARD: "model card",
  BLOG_POST: "blog post",
  PAPER: "paper",
  OTHER: "other",
};

/** The methods table's orders (the first, strongest first, the API's default), by their
 * name in the URL, and how the count over the table says each (its natural direction, then
 * the other way round). */
const COLUMNS: readonly (Column<TreatmentsOfModelOrderField> & { ways: [string, string] })[] = [
  {
    key: "strongest",
    label: "treatment",
    field: "STRONGEST",
    natural: "desc",
    ways: ["strongest first", "weakest first"],
  },
  { key: "name", label: "Method", field: "NAME", natural: "asc", ways: ["by name", "by name, Z to A"] },
  { key: "node", label: "node", field: "NODE", natural: "asc", ways: ["in tree order", "in reverse tree order"] },
];
const [BY_STRENGTH, BY_NAME, BY_NODE] = COLUMNS;

type Treatment = NonNullable<NonNullable<BrowserModelQuery["model"]>["treatments"]>["nodes"][number];

/** A treatment's first quotes of evidence, and how many more there are. */
function EvidenceQuotes({ answer }: { answer: Treatment["evidenceConnection"] }) {
  const evidence = answered(answer, "evidenceConnection");
  return (
    <>
      {evidence.nodes.map((item) => (
        <Quote key={item.id} quote={item.quote} source={item.source?.name} locator={item.locator} />
      ))}
      <MoreEvidence evidence={evidence} />
    </>
  );
}

export function ModelPage({ slug, place, query }: { slug: string; place: Place; query: URLSearchParams }) {
  const state = indexState(href.model(slug), COLUMNS, ["strength"], query, place, "methods");
  const minimum = MIN_STRENGTHS.find((choice) => choice.value === state.filters.strength) ?? null;
  const minStrength = minimum?.strength ?? null;
  const variables = { slug, ...pageArguments(place), evidencePerRow: EVIDENCE_PER_ROW, minStrength, orderBy: orderBy(state) };
  const column = COLUMNS.find((candidate) => candidate === state.column) ?? BY_STRENGTH;
  const loaded = useQuery(BrowserModelDocument, variables);
  useLatestRelease(answeredSoFar(loaded)?.latest);
  const model = loaded.state === "done" ? loaded.data.model : null;
  useTitle(model ? model.name : loaded.state === "loading" ? null : `No model ${slug}`);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") return <IndexProblem state={state} error={loaded} />;
  if (!model) return <Gone kind="model" subject={slug} />;
  const treatments = answered(model.treatments, "model.treatments");
  const sources = answered(model.sourcesConnection, "model.sourcesConnection");
  const facts = [model.organization, model.releaseDate ? `released ${model.releaseDate}` : "release date unknown"];
  return (
    <article class="model">
      <p class="kicker">model</p>
      <Heading>{model.name}</Heading>
      <p class="lead">{facts.filter(Boolean).join(" · ")}</p>

      <section aria-labelledby="sources">
        <h2 id="sources">Sources</h2>
        {sources.totalCount ? (
          <ul>
            {sources.nodes.map((source) => (
              <li key={source.id}>
                <ExternalLink url={source.url}>{source.name}</ExternalLink>{" "}
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
        {sources.nodes.length < sources.totalCount ? (
          <p>
            The first {thousands(sources.nodes.length)} of {plural(sources.totalCount, "source")}.
          </p>
        ) : null}
      </section>

      <section aria-labelledby="profile">
        <h2 id="profile">Profile by branch</h2>
        {model.branches?.length ? (
          <TableScroll label="Profile by branch: table">
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
                    <td class="number">{thousands(branch.methodCount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : (
          <p>No method of this model is filed in the taxonomy.</p>
        )}
      </section>

      <section aria-labelledby="methods">
        <h2 id="methods">Methods</h2>
        <p>
          {plural(treatments.totalCount, "method")}, {column.ways[state.dir === column.natural ? 0 : 1]}.
        </p>
        <StrengthLegend />
        {treatments.totalCount || filtered(state) ? (
          <FilterForm state={state} label="Filter the methods">
            <StrengthField label="Treatment at least" none="any" choices={MIN_STRENGTHS} chosen={minimum} />
          </FilterForm>
        ) : null}
        {treatments.totalCount ? (
          <TableScroll label="Methods: table">
            <table class="methods-of-model">
              <thead>
                <tr>
                  <SortHeader state={state} column={BY_NAME} />
                  <SortHeader state={state} column={BY_STRENGTH} />
                  <SortHeader state={state} column={BY_NODE} />
                  <th scope="col">evidence</th>
                </tr>
              </thead>
              <tbody>
                {treatments.nodes.map((treatment) => (
                  <tr key={treatment.id}>
                    <th scope="row">
                      <a href={href.method(treatment.method.slug)}>{treatment.method.name}</a>
                    </th>
                    <td>
                      <Badge strength={treatment.strength} />
                    </td>
                    <td>
                      <a href={href.node(treatment.method.node.slugPath)}>{treatment.method.node.path}</a>
                    </td>
                    <td>
                      <EvidenceQuotes answer={treatment.evidenceConnection} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : null}
        {treatments.totalCount ? (
          <>
            <Pager
              list={treatments}
              at={place}
              noun={["method", "methods"]}
              label="Methods: pages"
              sizes={TALL_ROW_PAGE_SIZES}
              anchor="methods"
              url={(at) => indexUrl(state, { place: at })}
            />
            <Downloads page={indexUrl(state)} label="Methods" />
          </>
        ) : filtered(state) ? (
          <p>
            No method of this model is that strong.{" "}
            <a href={atTable(state, indexUrl(state, { filters: {} }))}>Show every method</a>.
          </p>
        ) : null}
      </section>
      <History subject="model" firstSeen={model.firstSeen} history={model.history} />
    </article>
  );
}
