// `/nodes/<slug path>`: a node page as the seed page shows it (its text, line by line, is
// the seed's: tests/test_browser.py compares them), then the branch's outline and the
// methods filed at the node. The By-model table is paged (?after= or ?before=, &from=,
// &size=: the shared Pager) and sortable (?sort=).
import {
  BrowserNodeDocument,
  type BrowserNodeQuery,
  type ModelTreatmentOrder,
} from "../../../clients/typescript/src/gql/graphql";
import { AdoptionChart } from "../adoption-chart";
import { answered, cursorRefused } from "../api";
import { Downloads } from "../downloads";
import { Gone, History } from "../history";
import { answeredSoFar, useQuery } from "../query";
import { href, pageArguments, type Place, placeQuery, TALL_ROW_PAGE_SIZES } from "../router";
import { useLatestRelease } from "../site-nav";
import { Markdown } from "../markdown";
import {
  ApiProblem,
  Badge,
  Breadcrumb,
  Choices,
  Heading,
  helpUrl,
  Loading,
  PageGone,
  Pager,
  plural,
  StrengthLegend,
  TableScroll,
  thousands,
  useTitle,
} from "../ui";

type Node = NonNullable<BrowserNodeQuery["node"]>;

/** The By-model table's orders, by their name in the URL; the first is the API's default. */
const ORDERS: { key: string; label: string; order: ModelTreatmentOrder | null }[] = [
  { key: "newest", label: "newest first", order: null },
  { key: "name", label: "name", order: { field: "NAME", direction: "ASC" } },
  { key: "strongest", label: "strongest first", order: { field: "STRENGTH", direction: "DESC" } },
  { key: "methods", label: "most methods", order: { field: "METHOD_COUNT", direction: "DESC" } },
];

/** The node page at ``sort``'s order and ``at``'s page of the By-model table. */
function pageUrl(slugPath: string, sort: string, at: Place): string {
  const params = new URLSearchParams();
  if (sort !== ORDERS[0].key) params.set("sort", sort);
  return `${href.node(slugPath)}${placeQuery(at, params)}`;
}

type Row = NonNullable<Node["byModel"]>["nodes"][number];

/** A By-model row's first methods, and a link to the model for the rest. */
function RowMethods({ row }: { row: Row }) {
  const methods = answered(row.methodsConnection, "methodsConnection").nodes;
  return (
    <ul class="treatments" aria-label={`${row.model.name}: ${plural(row.methodCount, "method")}`}>
      {methods.map((treatment) => (
        <li key={treatment.id}>
          <a href={href.method(treatment.method.slug)}>{treatment.method.name}</a>{" "}
          <Badge strength={treatment.strength} />
        </li>
      ))}
      {row.methodCount > methods.length && (
        <li class="more">
          <a href={href.model(row.model.slug)}>{plural(row.methodCount - methods.length, "more method")}</a>
        </li>
      )}
    </ul>
  );
}

function ByModel({ node, sort, place }: { node: Node; sort: string; place: Place }) {
  const byModel = answered(node.byModel, "node.byModel");
  const rows = byModel.nodes;
  // Another order opens at the table's first page, at the same page size.
  const firstPage: Place = { after: null, before: null, from: 1, size: place.size };
  return (
    <section aria-labelledby="by-model" class="by-model">
      <h2 id="by-model">By model</h2>
      <p>
        Which of this branch's techniques each model's own documents describe, and how strongly. Under each
        model: its strongest treatment anywhere in the branch.
      </p>
      <StrengthLegend />
      <TableScroll label="By-model table">
        <table>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">techniques</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <th scope="row">
                  <a href={href.model(row.model.slug)}>{row.model.name}</a> <Badge strength={row.strongest} />
                </th>
                <td>
                  <RowMethods row={row} />
                  <span class="row-end" aria-hidden="true">
                    —
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <Pager
        list={byModel}
        at={place}
        noun={["model", "models"]}
        label="By-model table"
        sizes={TALL_ROW_PAGE_SIZES}
        anchor="by-model"
        url={(at) => pageUrl(node.slugPath, sort, at)}
      >
        <p>
          Ordered by{" "}
          <Choices
            choices={ORDERS}
            current={ORDERS.find((order) => order.key === sort) ?? null}
            label={(order) => order.label}
            url={(order) => `${pageUrl(node.slugPath, order.key, firstPage)}#by-model`}
          />
        </p>
      </Pager>
      <Downloads page={pageUrl(node.slugPath, sort, firstPage)} label="By-model table" />
    </section>
  );
}

/** Outline entries shown at first; the rest are folded under "N more sub-branches" (a node
 * can have a hundred children: the page stays short, and each is still on it). */
const OUTLINE_SHOWN = 24;

type Entry = Node["children"][number] | Node;

function OutlineEntry({ entry, node }: { entry: Entry; node: Node }) {
  return (
    <div class="outline-entry">
      <div class="outline-name">
        {entry.id === node.id ? entry.name : <a href={href.node(entry.slugPath)}>{entry.name}</a>}
      </div>
      <div>In this branch {thousands(entry.counts.methodsInBranch)}</div>
      <div>filed here {thousands(entry.counts.methodsFiledHere)}</div>
    </div>
  );
}

/** The branch's outline: its children with their counts, or the node itself when a leaf. */
function Outline({ node }: { node: Node }) {
  const entries: Entry[] = node.children.length ? node.children : [node];
  const rest = entries.slice(OUTLINE_SHOWN);
  return (
    <nav aria-label="Branch outline" class="outline">
      {entries.slice(0, OUTLINE_SHOWN).map((entry) => (
        <OutlineEntry key={entry.id} entry={entry} node={node} />
      ))}
      {rest.length ? (
        <details class="outline-more">
          <summary>{plural(rest.length, "more sub-branch", "more sub-branches")}</summary>
          <div class="outline-rest">
            {rest.map((entry) => (
              <OutlineEntry key={entry.id} entry={entry} node={node} />
            ))}
          </div>
        </details>
      ) : null}
      <a href="#by-model">By model</a>
      <a href={helpUrl("counts")}>What these counts mean</a>
    </nav>
  );
}

/** A node's sub-branches under their own heading, before its By-model table; a leaf's
 * outline (itself) stays after the table, where the seed page shows it. */
function SubBranches({ node }: { node: Node }) {
  return (
    <section aria-labelledby="sub-branches">
      <h2 id="sub-branches">
        Sub-branches <span class="count">{thousands(node.children.length)}</span>
      </h2>
      <Outline node={node} />
    </section>
  );
}

function FiledHere({ node }: { node: Node }) {
  const { nodes, totalCount } = answered(node.methods, "node.methods");
  return (
    <section aria-labelledby="filed-here">
      <h2 id="filed-here">Methods filed here</h2>
      {totalCount === 0 ? (
        <p>No method is filed at this node itself; see its sub-branches.</p>
      ) : (
        <>
          <p>
            {plural(totalCount, "method")} filed at this node, each with its strongest treatment and how many
            models treat it{nodes.length < totalCount ? ` (the first ${thousands(nodes.length)} shown)` : ""}.
          </p>
          {nodes.length < totalCount ? (
            <p>
              <a href={`${href.index("methods")}?${new URLSearchParams({ branch: node.slugPath, sort: "models" })}`}>
                Every method of this branch
              </a>
              , in the methods index: sortable, filterable and downloadable.
            </p>
          ) : null}
          <ul class="methods">
            {nodes.map((method) => (
              <li key={method.id}>
                <a href={href.method(method.slug)}>{method.name}</a>{" "}
                {method.strongest ? <Badge strength={method.strongest} /> : null}{" "}
                <span class="count">{plural(method.modelCount, "model")}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function NodePage({ path, place, sort }: { path: string; place: Place; sort: string | null }) {
  const chosen = ORDERS.find((order) => order.key === sort) ?? ORDERS[0];
  const variables = { path, ...pageArguments(place), orderBy: chosen.order };
  const loaded = useQuery(BrowserNodeDocument, variables);
  useLatestRelease(answeredSoFar(loaded)?.latest);
  const node = loaded.state === "done" ? loaded.data.node : null;
  useTitle(node ? node.path : loaded.state === "loading" ? null : `No node ${path}`);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") {
    if (cursorRefused(loaded.code) && (place.after || place.before)) {
      const first = { ...place, after: null, before: null, from: 1 };
      return <PageGone message={loaded.message} firstPage={`${pageUrl(path, chosen.key, first)}#by-model`} />;
    }
    return <ApiProblem message={loaded.message} />;
  }
  if (!node) return <Gone kind="node" subject={path} />;
  const { counts } = node;
  return (
    <>
      <Breadcrumb trail={node.ancestors} current={node.name} />
      <article class="node">
        <p class="kicker">taxonomy node · level {node.level}</p>
        <Heading>{node.name}</Heading>
        <p>
          {plural(counts.methodsInBranch, "method")} filed at this node or below it, from the sources of{" "}
          {plural(counts.modelsInBranch, "model")}.
        </p>
        <p class="path">{node.path}</p>
        {node.matchingAids.length ? (
          <p>Matching aids for the classifier: {node.matchingAids.join("; ")}.</p>
        ) : null}
        {node.description ? <Markdown text={node.description} /> : null}
        {node.children.length ? <SubBranches node={node} /> : null}
        <ByModel node={node} sort={chosen.key} place={place} />
        {node.children.length ? null : <Outline node={node} />}
        <FiledHere node={node} />
        <AdoptionChart
          points={answered(node.adoption, "node.adoption")}
          undated={answered(node.undatedModels, "node.undatedModels")}
          subject={`this branch's methods`}
        />
        <History subject="node" firstSeen={node.firstSeen} history={node.history} />
      </article>
    </>
  );
}
