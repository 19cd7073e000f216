// `/changes?since=N&until=M`: what changed from release N to release M (the newest when no
// `until`), net, per kind of record, each kind paged on its own by the shared Pager, forward
// and back: ?nodes= (or ?nodes-before=) and &nodes-from= say where the nodes' page is, the
// same for methods, models and treatments, and ?size= how many rows each list shows (10 by
// default: four lists on one page), so every page is its URL alone. ?kind= narrows it to one
// kind of change, ?type= to one kind of record; a form picks the two releases. Rows go by
// kind of change, one per record (a move with a rename is one row), and a removal's knock-on
// removals (what sat in it) are named under it, not listed.
import type { ComponentChildren } from "preact";

import {
  type BrowserChangesFieldChangeFragment as FieldChange,
  BrowserChangesDocument,
  type BrowserChangesQuery,
  type ChangeKind,
} from "../../../clients/typescript/src/gql/graphql";
import { answered, cursorRefused } from "../api";
import { Downloads } from "../downloads";
import { answeredSoFar, useQuery } from "../query";
import {
  CHANGE_KINDS,
  CHANGE_TYPES,
  CHANGES_PAGE_SIZES,
  type ChangeType,
  changesPlacesQuery,
  href,
  pageArguments,
  type Place,
  type Places,
} from "../router";
import { useLatestRelease } from "../site-nav";
import {
  ApiProblem,
  Badge,
  Choices,
  Heading,
  Loading,
  loadedAt,
  PageGone,
  Pager,
  plural,
  Problem,
  TableScroll,
  thousands,
  useTitle,
} from "../ui";
import { fieldText } from "../history";

const NO_LIST = {
  totalCount: 0,
  pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
  nodes: [],
};

/** The page's changes, each of its four lists answered (see `answered`); a list of a type
 * the page leaves out (?type=) is empty. */
function answeredLists(changes: NonNullable<BrowserChangesQuery["changes"]>, type: ChangeType | null) {
  const list = <T,>(value: T | null | undefined, name: List) =>
    type === null || type === name ? answered(value, `changes.${name}`) : (NO_LIST as T);
  return {
    ...changes,
    nodes: list(changes.nodes, "nodes"),
    methods: list(changes.methods, "methods"),
    models: list(changes.models, "models"),
    treatments: list(changes.treatments, "treatments"),
  };
}
type Changes = ReturnType<typeof answeredLists>;
/** The page sizes offered between releases further apart than one: their comparison costs
 * more, and the API's cost limit allows 25 rows a list (50 between a release and the next). */
const FAR_PAGE_SIZES = CHANGES_PAGE_SIZES.filter((size) => size <= 25);
/** The page size of each list while all four show: 25 rows each would take the page past
 * 5,000 px at 1280 px wide (at L, 5,955 px). A larger size shows its list alone. */
const OVERVIEW_PAGE_SIZE = CHANGES_PAGE_SIZES[0];
/** How many of a removal's knock-on removals it names (it says how many more). */
const KNOCK_ON_NAMED = 3;
const LISTS = CHANGE_TYPES;
type List = ChangeType;

/** The URL of the changes page between two releases, with each list at its place (its
 * first page when not given), of one ``kind`` of change or (null) every kind. */
export function changesUrl(
  since: number,
  until: number | null,
  places: Partial<Places> = {},
  kind: ChangeKind | null = null,
  type: ChangeType | null = null,
): string {
  const params = new URLSearchParams({ since: String(since) });
  if (until !== null) params.set("until", String(until));
  if (kind !== null) params.set("kind", kind.toLowerCase());
  if (type !== null) params.set("type", type);
  changesPlacesQuery(places, params);
  return `/changes?${params}`;
}

/** Links to the same comparison narrowed to one kind of change (each list from its first
 * page), or to every kind: a node removed takes its methods with it, and their removals
 * can bury the few changes a reader looks for. */
function KindFilter({ url, kind }: { url: (kind: ChangeKind | null) => string; kind: ChangeKind | null }) {
  const choices = [null, ...CHANGE_KINDS.map((word) => word.toUpperCase() as ChangeKind)];
  return (
    <nav aria-label="Kinds of change" class="table-controls">
      <p>
        Show:{" "}
        <Choices choices={choices} current={kind} label={(choice) => choice?.toLowerCase() ?? "all"} url={url} />
      </p>
    </nav>
  );
}

/** Links to the same comparison narrowed to one kind of record (nodes, methods, models or
 * treatments: the page shows that list alone), or to every kind. */
function TypeFilter({ url, type }: { url: (type: ChangeType | null) => string; type: ChangeType | null }) {
  const choices = [null, ...CHANGE_TYPES];
  return (
    <nav aria-label="Kinds of record" class="table-controls">
      <p>
        Of:{" "}
        <Choices choices={choices} current={type} label={(choice) => choice ?? "everything"} url={url} />
      </p>
    </nav>
  );
}

/** Which two releases to compare: any two retained (their numbers), with the filters kept.
 * A plain form (GET /changes): the page is its URL, as every other. */
function ReleasePicker({
  since,
  until,
  newest,
  kind,
  type,
  size,
}: {
  since: number;
  until: number;
  newest: number | null;
  kind: ChangeKind | null;
  type: ChangeType | null;
  size: number;
}) {
  return (
    <form class="release-picker" method="get" action="/changes" aria-label="Releases compared">
      <label>
        From release <input type="number" name="since" min={1} max={newest ?? undefined} value={since} required />
      </label>{" "}
      <label>
        to release <input type="number" name="until" min={1} max={newest ?? undefined} value={until} required />
      </label>{" "}
      {kind !== null ? <input type="hidden" name="kind" value={kind.toLowerCase()} /> : null}
      {type !== null ? <input type="hidden" name="type" value={type} /> : null}
      {size !== CHANGES_PAGE_SIZES[0] ? <input type="hidden" name="size" value={size} /> : null}
      <button type="submit">Compare</button> <a href={href.index("releases")}>Every release</a>
    </form>
  );
}

/** One kind's list of changes: a heading with its count, a table of the page's changes
 * (its head: ``columns``), and the list's pager ("11–20 of 90 nodes", the page size, the
 * first, previous and next pages of this list: the other lists stay where they are; the
 * page opens at this list). */
function Section({
  list,
  title,
  columns,
  connection,
  at,
  url,
  sizes,
  alone,
  children,
}: {
  list: List;
  title: string;
  columns: string[];
  connection: Parameters<typeof Pager>[0]["list"];
  at: Place;
  url: (list: List, place: Place | null) => string;
  sizes: readonly number[];
  alone: boolean;
  children: ComponentChildren;
}) {
  if (!connection.totalCount) return null;
  const anchor = `changes-${list}`;
  const noun = title.toLowerCase();
  return (
    <section aria-labelledby={anchor} class="changes">
      <h2 id={anchor}>
        {title} <span class="count">{thousands(connection.totalCount)}</span>
      </h2>
      <TableScroll label={`${title}: table`}>
        <table>
          <thead>
            <tr>
              {columns.map((column) => (
                <th scope="col" key={column}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </TableScroll>
      <Pager
        list={connection}
        at={at}
        noun={[noun.replace(/s$/, ""), noun]}
        label={`${title}: pages`}
        anchor={anchor}
        url={(place) => url(list, place)}
        sizes={sizes}
        sizesNote={alone ? undefined : `(past ${OVERVIEW_PAGE_SIZE}: ${noun} alone)`}
      />
      <Downloads page={url(list, null)} table={list} label={title} />
    </section>
  );
}

/** A rename or a move in words: "from “A”", "from a :: b to c :: d" (a move with a rename:
 * the paths say both names); then each changed field (see `fieldText`), after "; ". */
function detail(change: Named): string {
  const parts = change.fieldChanges.map(fieldText);
  if (change.kind === "RENAMED") parts.unshift(`from “${change.fromName ?? ""}”`);
  if (change.kind === "MOVED") parts.unshift(`from ${change.fromPath ?? "?"} to ${change.toPath ?? "?"}`);
  return parts.join("; ");
}

type NamedRecord = { name: string };
type KnockOnList = { totalCount: number; nodes: readonly NamedRecord[] } | null | undefined;

/** What a removal took with it: "with 1 sub-node and 4 methods", its first few named
 * (folded away), and how many more; nothing when it took nothing. */
function KnockOn({ lists, counts }: { lists: [string, KnockOnList][]; counts?: [string, number | null | undefined][] }) {
  const listed = lists.filter(([, list]) => list?.totalCount);
  const counted = (counts ?? []).filter(([, count]) => count);
  const parts = [
    ...listed.map(([noun, list]) => plural(list?.totalCount ?? 0, noun)),
    ...counted.map(([noun, count]) => plural(count ?? 0, noun)),
  ];
  if (!parts.length) return null;
  const summary = `with ${parts.join(" and ")} removed with it`;
  if (!listed.length) return <span class="knock-on">{summary}</span>;
  return (
    <details class="knock-on">
      <summary>{summary}</summary>
      <ul>
        {listed.map(([noun, list]) => {
          const more = (list?.totalCount ?? 0) - (list?.nodes.length ?? 0);
          const names = (list?.nodes ?? []).map((record) => record.name).join(", ");
          return (
            <li key={noun}>
              {noun}s: {names}
              {more > 0 ? ` and ${thousands(more)} more` : ""}
            </li>
          );
        })}
      </ul>
    </details>
  );
}

/** What happened, as a small tag: added, removed, moved, renamed, strengthened... */
function Kind({ kind }: { kind: string }) {
  return <span class={`kind change-${kind.toLowerCase()}`}>{kind.toLowerCase()}</span>;
}

type Named = {
  kind: string;
  kinds: readonly ChangeKind[];
  slug: string;
  name: string;
  fromName?: string | null;
  fromPath?: string | null;
  toPath?: string | null;
  fieldChanges: readonly FieldChange[];
};

/** A row per changed record: its name (a link while the record is there), what happened
 * (a move with a rename: both), and how (a rename's old name; a move's paths; its changed
 * fields; what a removal took with it: ``knockOn``). */
function Rows<T extends Named>({
  changes,
  link,
  knockOn,
}: {
  changes: readonly T[];
  link: (change: T) => string | null | undefined;
  knockOn?: (change: T) => ComponentChildren;
}) {
  return (
    <>
      {changes.map((change) => {
        const to = link(change);
        return (
          <tr key={change.slug}>
            <th scope="row">{to ? <a href={to}>{change.name}</a> : change.name}</th>
            <td>
              {change.kinds.map((kind, index) => (
                <span key={kind}>
                  {index ? ", " : ""}
                  <Kind kind={kind} />
                </span>
              ))}
            </td>
            <td>
              {detail(change)}
              {knockOn?.(change)}
            </td>
          </tr>
        );
      })}
    </>
  );
}

function Lists({
  changes,
  places,
  url,
  sizes,
  alone,
}: {
  changes: Changes;
  places: Places;
  url: (list: List, place: Place | null) => string;
  sizes: readonly number[];
  alone: boolean;
}) {
  const sections = { url, sizes, alone };
  return (
    <>
      <Section list="nodes" title="Nodes" columns={["Node", "Change", "Details"]} connection={changes.nodes} at={places.nodes} {...sections}>
        <Rows
          changes={changes.nodes.nodes}
          link={(change) => change.node && href.node(change.node.slugPath)}
          knockOn={(change) => (
            <KnockOn
              lists={[
                ["sub-node", change.knockOn?.nodes],
                ["method", change.knockOn?.methods],
              ]}
            />
          )}
        />
      </Section>
      <Section list="methods" title="Methods" columns={["Method", "Change", "Details"]} connection={changes.methods} at={places.methods} {...sections}>
        <Rows
          changes={changes.methods.nodes}
          link={(change) => change.method && href.method(change.method.slug)}
          knockOn={(change) => <KnockOn lists={[]} counts={[["treatment", change.knockOn?.treatmentCount]]} />}
        />
      </Section>
      <Section list="models" title="Models" columns={["Model", "Change", "Details"]} connection={changes.models} at={places.models} {...sections}>
        <Rows
          changes={changes.models.nodes}
          link={(change) => change.model && href.model(change.model.slug)}
          knockOn={(change) => <KnockOn lists={[]} counts={[["treatment", change.knockOn?.treatmentCount]]} />}
        />
      </Section>
      <Section
        list="treatments"
        title="Treatments"
        columns={["Model", "Method", "Change", "Strength", "Details"]}
        connection={changes.treatments}
        at={places.treatments}
        {...sections}
      >
        {changes.treatments.nodes.map((change) => (
          <tr key={`${change.kind}-${change.modelSlug}-${change.methodSlug}`}>
            <th scope="row">{change.model ? <a href={href.model(change.model.slug)}>{change.modelName}</a> : change.modelName}</th>
            <td>{change.method ? <a href={href.method(change.method.slug)}>{change.methodName}</a> : change.methodName}</td>
            <td>
              <Kind kind={change.kind} />
            </td>
            <td>
              {change.fromStrength ? <Badge strength={change.fromStrength} /> : null}
              {change.fromStrength && change.toStrength ? " → " : null}
              {change.toStrength ? <Badge strength={change.toStrength} /> : null}
            </td>
            <td>{change.fieldChanges.map(fieldText).join("; ")}</td>
          </tr>
        ))}
      </Section>
    </>
  );
}

/** The lists on this page with their counts, each a link to its table. */
function Contents({ changes }: { changes: Changes }) {
  const lists = LISTS.filter((list) => changes[list].totalCount);
  if (!lists.length) return null;
  return (
    <nav aria-label="Changes by kind" class="contents">
      <ul>
        {lists.map((list) => (
          <li key={list}>
            <a href={`#changes-${list}`}>{list[0].toUpperCase() + list.slice(1)}</a>{" "}
            <span class="count">{thousands(changes[list].totalCount)}</span>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function ChangesPage({
  since,
  until,
  places: asked,
  kind,
  type,
}: {
  since: number | null;
  until: number | null;
  places: Places;
  kind: ChangeKind | null;
  type: ChangeType | null;
}) {
  const sizes = since !== null && until === since + 1 ? CHANGES_PAGE_SIZES : FAR_PAGE_SIZES;
  // A size the comparison cannot have (50 between releases far apart): the largest it can;
  // with every list on the page, the overview's.
  const size = Math.min(asked.nodes.size, type === null ? OVERVIEW_PAGE_SIZE : sizes[sizes.length - 1]);
  const places = Object.fromEntries(LISTS.map((list) => [list, { ...asked[list], size }])) as Places;
  const paging = (list: List) => {
    const { first, after, last, before } = pageArguments(places[list]);
    return { [`${list}First`]: first, [`${list}After`]: after, [`${list}Last`]: last, [`${list}Before`]: before };
  };
  const variables = {
    kinds: kind === null ? null : [kind],
    since: since ?? 0,
    until,
    knockOn: KNOCK_ON_NAMED,
    ...paging("nodes"),
    ...paging("methods"),
    ...paging("models"),
    ...paging("treatments"),
    withNodes: type === null || type === "nodes",
    withMethods: type === null || type === "methods",
    withModels: type === null || type === "models",
    withTreatments: type === null || type === "treatments",
  };
  const loaded = useQuery(BrowserChangesDocument, variables);
  const latest = answeredSoFar(loaded)?.latest;
  useLatestRelease(latest);
  const answer = loaded.state === "done" ? answered(loaded.data.changes, "changes") : null;
  const changes = answer ? answeredLists(answer, type) : null;
  useTitle(changes ? `Changes from release ${changes.from.number} to ${changes.to.number}` : null);
  if (since === null) {
    return (
      <Problem title="Changes since which release?">
        <p>
          This page needs the earlier release's number: <code>/changes?since=1</code> (and <code>&amp;until=</code> a
          later one; the newest when left out).
        </p>
      </Problem>
    );
  }
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") {
    const paged = LISTS.some((list) => places[list].after || places[list].before);
    if (cursorRefused(loaded.code) && paged) {
      return <PageGone message={loaded.message} firstPage={changesUrl(since, until, {}, kind, type)} />;
    }
    if (loaded.code === "BAD_USER_INPUT") {
      return (
        <Problem title="Not a range of releases">
          <p>{loaded.message}</p>
        </Problem>
      );
    }
    if (loaded.code !== "NOT_FOUND") return <ApiProblem message={loaded.message} />;
    return (
      <Problem title="No such release">
        <p>{loaded.message}</p>
        <p>
          Old releases are pruned from time to time. See <a href="/">the home page</a> for the latest release.
        </p>
      </Problem>
    );
  }
  if (!changes) return <Loading />;
  // Each list's next page is of these same two releases, even when `until` was left out and
  // a newer release has come since: a cursor belongs to its comparison.
  const from = changes.from.number;
  const to = changes.to.number;
  /** The URL of this comparison with ``list`` at ``place`` (null: every list at its first
   * page, for a download), the other lists where they are, at its size (one for all). */
  const url = (list: List, place: Place | null) => {
    if (!place) return changesUrl(from, to, {}, kind, type);
    // A larger page than the overview's: this list alone, from the same row.
    if (type === null && place.size > OVERVIEW_PAGE_SIZE) return changesUrl(from, to, { [list]: place }, kind, list);
    const others = LISTS.map((other) => [other, { ...places[other], size: place.size }]);
    return changesUrl(from, to, { ...Object.fromEntries(others), [list]: place }, kind, type);
  };
  // Another filter: every list from its first page, at the same size.
  const firstPages = { nodes: { after: null, before: null, from: 1, size } };
  const ofKind = (choice: ChangeKind | null) => changesUrl(from, to, firstPages, choice, type);
  const ofType = (choice: ChangeType | null) => changesUrl(from, to, firstPages, kind, choice);
  const newest = latest?.nodes[0]?.number ?? null;
  const listed = LISTS.reduce((sum, list) => sum + changes[list].totalCount, 0);
  return (
    <>
      <Heading>
        Changes from release {changes.from.number} to {changes.to.number}
      </Heading>
      <p class="lead">
        Release {changes.from.number} was loaded {loadedAt(changes.from.loadedAt)}, release {changes.to.number}{" "}
        {loadedAt(changes.to.loadedAt)}.{" "}
        {changes.isEmpty
          ? "Nothing changed between them."
          : `Net changes: a record added then removed in between is no change. ${plural(listed, "change")}. ` +
            "What a removed node, method or model held (its sub-nodes, methods, treatments) went with it: " +
            "it is named under that removal, not listed again."}
      </p>
      <ReleasePicker since={from} until={to} newest={newest} kind={kind} type={type} size={size} />
      <KindFilter url={ofKind} kind={kind} />
      <TypeFilter url={ofType} type={type} />
      {kind !== null && !LISTS.some((list) => changes[list].totalCount) ? (
        <p>No change of this kind between them.</p>
      ) : null}
      <Contents changes={changes} />
      <Lists changes={changes} places={places} url={url} sizes={sizes} alone={type !== null} />
    </>
  );
}
