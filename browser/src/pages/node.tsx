// `/nodes/<slug path>`: a node page as the seed page shows it (its text, line by line, is
// the seed's: tests/test_browser.py compares them), then the branch's outline and the
// methods filed at the node. The By-model table is paged (?after= or ?before=, &from=,
// &size=: the shared Pager), sortable (?sort=newest|name|strongest|methods, &dir=asc|desc:
// its heads and the "Ordered by" links) and filtered by organization (?org=); its
// organization and release date columns show when asked (?columns=org,date).
import {
  BrowserNodeDocument,
  type BrowserNodeQuery,
  type ModelTreatmentOrderField,
} from "../../../clients/typescript/src/gql/graphql";
import { AdoptionChart } from "../adoption-chart";
import { answered } from "../api";
import { Downloads } from "../downloads";
import { Gone, History } from "../history";
import {
  atTable,
  type Column,
  Field,
  FilterForm,
  filtered,
  IndexProblem,
  type IndexState,
  indexState,
  indexUrl,
  orderBy,
  SortHeader,
} from "../index-table";
import { answeredSoFar, useQuery } from "../query";
import { href, pageArguments, type Place, TALL_ROW_PAGE_SIZES } from "../router";
import { useLatestRelease } from "../site-nav";
import { Markdown } from "../markdown";
import {
  Badge,
  Breadcrumb,
  Choices,
  Heading,
  helpUrl,
  Loading,
  ModelFactCells,
  Pager,
  plural,
  StrengthLegend,
  TableScroll,
  thousands,
  useTitle,
} from "../ui";

type Node = NonNullable<BrowserNodeQuery["node"]>;
type State = IndexState<ModelTreatmentOrderField>;

/** The By-model table's orders, by their name in the URL (the first, the API's default and
 * the seed page's, is the release date, which no column shows: the "Ordered by" links offer
 * each order, the heads their column's), and how "Ordered by" says each way round. */
const COLUMNS: readonly (Column<ModelTreatmentOrderField> & { ways: [string, string] })[] = [
  {
    key: "newest",
    label: "release date",
    field: "RELEASE_DATE",
    natural: "desc",
    ways: ["newest first", "oldest first"],
  },
  { key: "name", label: "name", field: "NAME", natural: "asc", ways: ["name", "name, Z to A"] },
  {
    key: "strongest",
    label: "strongest",
    field: "STRONGEST",
    natural: "desc",
    ways: ["strongest first", "weakest first"],
  },
  {
    key: "methods",
    label: "methods",
    field: "METHOD_COUNT",
    natural: "desc",
    ways: ["most methods", "fewest methods"],
  },
];
const [BY_DATE, BY_NAME, , BY_METHODS] = COLUMNS;
const FILTERS = ["org"] as const;

/** The By-model table's columns shown only when asked (``?columns=org,date``, in any order;
 * the seed page's table has neither), by their name in the URL, in the table's order. */
const EXTRA_COLUMNS = [
  { key: "org", label: "organization" },
  { key: "date", label: "release date" },
] as const;
type Shown = { organization: boolean; date: boolean };
/** A row's methods when either column shows (BrowserNode's `methodsPerRow`, 12 without):
 * the two take a sixth of the table's width from its methods, and 9 a row keep the rows as
 * tall as 12 do without them (a page of 25 as short; the rest: "N more methods"). */
const METHODS_BESIDE_FACTS = 9;

function shownColumns(state: State): Shown {
  const asked = (state.view.columns ?? "").split(",").map((key) => key.trim());
  return { organization: asked.includes("org"), date: asked.includes("date") };
}

/** "Columns: show organization · show release date" (or hide, when shown): each link the
 * same rows with that column shown or not. */
function ColumnChoice({ state, shown }: { state: State; shown: Shown }) {
  const on = { org: shown.organization, date: shown.date };
  const url = (key: keyof typeof on) => {
    const columns = EXTRA_COLUMNS.filter((column) => (column.key === key ? !on[column.key] : on[column.key]));
    // (No columns: no `columns`; indexUrl leaves out a blank value.)
    return atTable(state, indexUrl(state, { view: { columns: columns.map((column) => column.key).join(",") } }));
  };
  return (
    <span class="column-choice">
      Columns:{" "}
      {EXTRA_COLUMNS.map((column, at) => (
        <span key={column.key}>
          {at ? " · " : ""}
          <a href={url(column.key)}>
            {on[column.key] ? "hide" : "show"} {column.label}
          </a>
        </span>
      ))}
    </span>
  );
}

type Row = NonNullable<Node["byModel"]>["nodes"][number];

/** How many of a long row's methods it lists: a row whose methods are more than the page
 * asked for (12, or 9 beside the columns) lists two thirds of them and links the rest. At
 * L a root's rows all run to thousands of methods, and 25 rows of 12 made its page 6,032 px
 * tall; a row of at most 12 (the seed page's longest) still lists them all. */
function listedOf(methodCount: number, asked: number): number {
  return methodCount > asked ? Math.floor((asked * 2) / 3) : methodCount;
}

/** A By-model row's first methods, and a link to the model for the rest. */
function RowMethods({ row }: { row: Row }) {
  const asked = answered(row.methodsConnection, "methodsConnection").nodes;
  const methods = asked.slice(0, listedOf(row.methodCount, asked.length));
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

/** The By-model table: each row a model, its strongest treatment in the branch and its
 * first methods (and its organization and release date when ``shown``); its heads sort (by
 * name, by release date, by how many methods). */
function ByModelTable({ rows, state, shown }: { rows: Row[]; state: State; shown: Shown }) {
  return (
    <TableScroll label="By-model table">
      <table class={shown.organization || shown.date ? "with-facts" : undefined}>
        <thead>
          <tr>
            <SortHeader state={state} column={BY_NAME}>
              Model
            </SortHeader>
            {shown.organization ? <th scope="col">Organization</th> : null}
            {shown.date ? (
              <SortHeader state={state} column={BY_DATE}>
                Released
              </SortHeader>
            ) : null}
            <SortHeader state={state} column={BY_METHODS}>
              techniques
            </SortHeader>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                <a href={href.model(row.model.slug)}>{row.model.name}</a> <Badge strength={row.strongest} />
              </th>
              <ModelFactCells model={row.model} shown={shown} />
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
  );
}

function ByModel({ node, organizations, state }: { node: Node; organizations: Organizations; state: State }) {
  const byModel = answered(node.byModel, "node.byModel");
  const rows = byModel.nodes;
  const { org } = state.filters;
  const choices = organizations.map(({ name, modelCount }) => ({ name, label: `${name} (${thousands(modelCount)})` }));
  // An organization with no model here (a hand-made link) stays chosen, and shows no rows.
  if (org && !choices.some(({ name }) => name.toLowerCase() === org.toLowerCase())) {
    choices.unshift({ name: org, label: org });
  }
  const sorted = COLUMNS.find((column) => column === state.column) ?? COLUMNS[0];
  const shown = shownColumns(state);
  return (
    <section aria-labelledby="by-model" class="by-model">
      <h2 id="by-model">By model</h2>
      <p>
        Which of this branch's techniques each model's own documents describe, and how strongly. Under each
        model: its strongest treatment anywhere in the branch.
      </p>
      <StrengthLegend />
      <FilterForm
        state={state}
        label="Filter the By-model table"
        aside={rows.length || !filtered(state) ? <ColumnChoice state={state} shown={shown} /> : null}
      >
        <Field label="Organization">
          <select name="org">
            <option value="">any</option>
            {choices.map(({ name, label }) => (
              <option key={name} value={name} selected={name.toLowerCase() === org?.toLowerCase()}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </FilterForm>
      {rows.length || !filtered(state) ? (
        <>
          <ByModelTable rows={rows} state={state} shown={shown} />
          <Pager
            list={byModel}
            at={state.place}
            noun={["model", "models"]}
            label="By-model table"
            sizes={TALL_ROW_PAGE_SIZES}
            anchor="by-model"
            url={(at) => indexUrl(state, { place: at })}
          >
            <p>
              Ordered by{" "}
              <Choices
                choices={COLUMNS}
                current={sorted}
                label={(column) => column.ways[column === sorted && state.dir !== column.natural ? 1 : 0]}
                url={(column) => atTable(state, indexUrl(state, { column, dir: column.natural }))}
              />
              {filtered(state) ? `; only ${org}'s models` : ""}
            </p>
          </Pager>
          <Downloads page={indexUrl(state)} label="By-model table" />
        </>
      ) : (
        <p>
          No model of this organization has evidence in this branch.{" "}
          <a href={atTable(state, indexUrl(state, { filters: {} }))}>Show every model</a>.
        </p>
      )}
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

type Organizations = NonNullable<BrowserNodeQuery["organizations"]>;

export function NodePage({ path, place, query }: { path: string; place: Place; query: URLSearchParams }) {
  const state = indexState(href.node(path), COLUMNS, FILTERS, query, place, "by-model", ["columns"]);
  const { org } = state.filters;
  const filter = org ? { organization: org } : null;
  // The organizations only when their column shows: the seed page's request stays as it was.
  const shown = shownColumns(state);
  const asked = {
    ...(shown.organization ? { withOrganization: true } : {}),
    ...(shown.organization || shown.date ? { methodsPerRow: METHODS_BESIDE_FACTS } : {}),
  };
  const variables = { path, ...pageArguments(place), orderBy: orderBy(state), filter, ...asked };
  const loaded = useQuery(BrowserNodeDocument, variables);
  useLatestRelease(answeredSoFar(loaded)?.latest);
  const node = loaded.state === "done" ? loaded.data.node : null;
  useTitle(node ? node.path : loaded.state === "loading" ? null : `No node ${path}`);
  if (loaded.state === "loading") return <Loading />;
  // No such node: `node` is null, and the branch's organizations an error beside it.
  if (!node && loaded.state === "error" && loaded.partial?.node === null) return <Gone kind="node" subject={path} />;
  if (loaded.state === "error") return <IndexProblem state={state} error={loaded} />;
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
        <ByModel node={node} organizations={loaded.data.organizations ?? []} state={state} />
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
