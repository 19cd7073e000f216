// `/changes?since=N&until=M`: what changed from release N to release M (the newest when no
// `until`), net, per kind of record, each kind paged on its own: ?nodes=, ?methods=,
// ?models= and ?treatments= carry each list's cursor, so every page is its URL alone.
// ?kind= narrows it to one kind of change, ?type= to one kind of record; a form picks the
// two releases. Rows go by kind of change, one per record (a move with a rename is one
// row), and a removal's knock-on removals (what sat in it) are named under it, not listed.
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";

import {
  type BrowserChangesFieldChangeFragment as FieldChange,
  BrowserChangesDocument,
  type BrowserChangesQuery,
  type ChangeKind,
} from "../../../clients/typescript/src/gql/graphql";
import { answered } from "../api";
import { Downloads } from "../downloads";
import { answeredSoFar, useQuery } from "../query";
import { CHANGE_KINDS, CHANGE_TYPES, type ChangeType, type Cursors, href } from "../router";
import { useLatestRelease } from "../site-nav";
import { ApiProblem, Badge, Choices, Heading, Loading, loadedAt, plural, Problem, TableScroll, thousands, useTitle } from "../ui";
import { changeWords } from "../history";

const NO_LIST = { totalCount: 0, pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] };

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
/** Rows a list shows at a time: 50 between a release and the next (the common case), 25
 * between releases further apart, whose comparison costs more (the API's cost limit). */
const PAGE_SIZE = 50;
const FAR_PAGE_SIZE = 25;
/** How many of a removal's knock-on removals it names (it says how many more). */
const KNOCK_ON_NAMED = 3;
const LISTS = CHANGE_TYPES;
type List = ChangeType;

/** The URL of the changes page between two releases, at the given page of each list, of
 * one ``kind`` of change or (null) every kind. */
export function changesUrl(
  since: number,
  until: number | null,
  cursors: Partial<Cursors> = {},
  kind: ChangeKind | null = null,
  type: ChangeType | null = null,
): string {
  const params = new URLSearchParams({ since: String(since) });
  if (until !== null) params.set("until", String(until));
  if (kind !== null) params.set("kind", kind.toLowerCase());
  if (type !== null) params.set("type", type);
  for (const list of LISTS) {
    const cursor = cursors[list];
    if (cursor) params.set(list, cursor);
  }
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
}: {
  since: number;
  until: number;
  newest: number | null;
  kind: ChangeKind | null;
  type: ChangeType | null;
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
      <button type="submit">Compare</button> <a href={href.index("releases")}>Every release</a>
    </form>
  );
}

/** One kind's list of changes: a heading with its count, a table of the page's changes
 * (its head: ``columns``), and the links to the first and the next page of this list (the
 * other lists stay where they are; the page opens at this list). */
function Section({
  list,
  title,
  columns,
  connection,
  cursors,
  here,
  size,
  children,
}: {
  list: List;
  title: string;
  columns: string[];
  connection: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor?: string | null } };
  cursors: Cursors;
  here: (cursors: Partial<Cursors>) => string;
  size: number;
  children: ComponentChildren;
}) {
  if (!connection.totalCount) return null;
  const { hasNextPage, endCursor } = connection.pageInfo;
  const anchor = `changes-${list}`;
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
      {cursors[list] || hasNextPage ? (
        <nav aria-label={`${title}: pages`} class="table-controls">
          <p>
            {cursors[list] ? <a href={`${here({ ...cursors, [list]: null })}#${anchor}`}>First {title.toLowerCase()}</a> : null}
            {cursors[list] && hasNextPage ? " · " : ""}
            {hasNextPage && endCursor ? (
              <a href={`${here({ ...cursors, [list]: endCursor })}#${anchor}`}>
                Next {size} {title.toLowerCase()}
              </a>
            ) : null}
          </p>
        </nav>
      ) : null}
      <Downloads page={here({})} table={list} label={title} />
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

/** A changed field in words: `description: “A” → “B”` (“none” for no value); a list's
 * items added and removed: `matching aids: +“a” −“b”` (or “reordered”). */
function fieldText(change: FieldChange): string {
  const label = change.field.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
  if (change.fromItems && change.toItems) {
    const before = change.fromItems;
    const after = change.toItems;
    const added = after.filter((item) => !before.includes(item)).map((item) => `+“${item}”`);
    const removed = before.filter((item) => !after.includes(item)).map((item) => `−“${item}”`);
    return `${label}: ${[...added, ...removed].join(" ") || "reordered"}`;
  }
  const quoted = (value: string | null) => (value === null ? "none" : `“${value}”`);
  return `${label}: ${quoted(change.fromValue)} → ${quoted(change.toValue)}`;
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
  fieldChanges: FieldChange[];
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
  cursors,
  here,
  size,
}: {
  changes: Changes;
  cursors: Cursors;
  here: (c: Partial<Cursors>) => string;
  size: number;
}) {
  const sections = { cursors, here, size };
  return (
    <>
      <Section list="nodes" title="Nodes" columns={["Node", "Change", "Details"]} connection={changes.nodes} {...sections}>
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
      <Section list="methods" title="Methods" columns={["Method", "Change", "Details"]} connection={changes.methods} {...sections}>
        <Rows
          changes={changes.methods.nodes}
          link={(change) => change.method && href.method(change.method.slug)}
          knockOn={(change) => <KnockOn lists={[]} counts={[["treatment", change.knockOn?.treatmentCount]]} />}
        />
      </Section>
      <Section list="models" title="Models" columns={["Model", "Change", "Details"]} connection={changes.models} {...sections}>
        <Rows
          changes={changes.models.nodes}
          link={(change) => change.model && href.model(change.model.slug)}
          knockOn={(change) => <KnockOn lists={[]} counts={[["treatment", change.knockOn?.treatmentCount]]} />}
        />
      </Section>
      <Section
        list="treatments"
        title="Treatments"
        columns={["Model", "Method", "Change", "Strength"]}
        connection={changes.treatments}
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
  cursors,
  kind,
  type,
}: {
  since: number | null;
  until: number | null;
  cursors: Cursors;
  kind: ChangeKind | null;
  type: ChangeType | null;
}) {
  const size = since !== null && until === since + 1 ? PAGE_SIZE : FAR_PAGE_SIZE;
  const variables = {
    kinds: kind === null ? null : [kind],
    since: since ?? 0,
    until,
    first: size,
    knockOn: KNOCK_ON_NAMED,
    nodesAfter: cursors.nodes,
    methodsAfter: cursors.methods,
    modelsAfter: cursors.models,
    treatmentsAfter: cursors.treatments,
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
  // Another page of one list (#changes-<list> in the URL) opens at that list.
  useEffect(() => {
    const hash = window.location.hash;
    if (answer && hash.startsWith("#changes-")) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [answer]);
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
  const here = (next: Partial<Cursors>) => changesUrl(from, to, next, kind, type);
  const ofKind = (choice: ChangeKind | null) => changesUrl(from, to, {}, choice, type);
  const ofType = (choice: ChangeType | null) => changesUrl(from, to, {}, kind, choice);
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
      <ReleasePicker since={from} until={to} newest={newest} kind={kind} type={type} />
      <KindFilter url={ofKind} kind={kind} />
      <TypeFilter url={ofType} type={type} />
      {kind !== null && !LISTS.some((list) => changes[list].totalCount) ? (
        <p>No change of this kind between them.</p>
      ) : null}
      <Contents changes={changes} />
      <Lists changes={changes} cursors={cursors} here={here} size={size} />
    </>
  );
}
