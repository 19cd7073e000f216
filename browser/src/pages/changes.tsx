// `/changes?since=N&until=M`: what changed from release N to release M (the newest when no
// `until`), net, per kind of record, each kind paged on its own: ?nodes=, ?methods=,
// ?models= and ?treatments= carry each list's cursor, so every page is its URL alone.
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";

import {
  type BrowserChanges_FieldChangeFragment as FieldChange,
  BrowserChangesDocument,
  type BrowserChangesQuery,
  type ChangeKind,
} from "../../../clients/typescript/src/gql/graphql";
import { answered } from "../api";
import { Downloads } from "../downloads";
import { answeredSoFar, useQuery } from "../query";
import { CHANGE_KINDS, type Cursors, href } from "../router";
import { useLatestRelease } from "../site-nav";
import { ApiProblem, Badge, Choices, Heading, Loading, loadedAt, plural, Problem, TableScroll, thousands, useTitle } from "../ui";

/** The page's changes, each of its four lists answered (see `answered`). */
function answeredLists(changes: NonNullable<BrowserChangesQuery["changes"]>) {
  return {
    ...changes,
    nodes: answered(changes.nodes, "changes.nodes"),
    methods: answered(changes.methods, "changes.methods"),
    models: answered(changes.models, "changes.models"),
    treatments: answered(changes.treatments, "changes.treatments"),
  };
}
type Changes = ReturnType<typeof answeredLists>;
const PAGE_SIZE = 50;
const LISTS = ["nodes", "methods", "models", "treatments"] as const;
type List = (typeof LISTS)[number];

/** The URL of the changes page between two releases, at the given page of each list, of
 * one ``kind`` of change or (null) every kind. */
export function changesUrl(
  since: number,
  until: number | null,
  cursors: Partial<Cursors> = {},
  kind: ChangeKind | null = null,
): string {
  const params = new URLSearchParams({ since: String(since) });
  if (until !== null) params.set("until", String(until));
  if (kind !== null) params.set("kind", kind.toLowerCase());
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
  children,
}: {
  list: List;
  title: string;
  columns: string[];
  connection: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor?: string | null } };
  cursors: Cursors;
  here: (cursors: Partial<Cursors>) => string;
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
                Next {PAGE_SIZE} {title.toLowerCase()}
              </a>
            ) : null}
          </p>
        </nav>
      ) : null}
      <Downloads page={here({})} table={list} label={title} />
    </section>
  );
}

/** A rename or a move in words: "from “A”", "from a :: b to c :: d"; then each changed
 * field (see `fieldText`), after "; ". */
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

/** What happened, as a small tag: added, removed, moved, renamed, strengthened... */
function Kind({ kind }: { kind: string }) {
  return <span class={`kind change-${kind.toLowerCase()}`}>{kind.toLowerCase()}</span>;
}

type Named = {
  kind: string;
  slug: string;
  name: string;
  fromName?: string | null;
  fromPath?: string | null;
  toPath?: string | null;
  fieldChanges: FieldChange[];
};

/** A row per change of a named record: its name (a link while the record is there), what
 * happened, and how (a rename's old name; a node's or method's move; its changed fields). */
function Rows<T extends Named>({ changes, link }: { changes: T[]; link: (change: T) => string | null | undefined }) {
  return (
    <>
      {changes.map((change) => {
        const to = link(change);
        return (
          <tr key={`${change.kind}-${change.slug}`}>
            <th scope="row">{to ? <a href={to}>{change.name}</a> : change.name}</th>
            <td>
              <Kind kind={change.kind} />
            </td>
            <td>{detail(change)}</td>
          </tr>
        );
      })}
    </>
  );
}

function Lists({ changes, cursors, here }: { changes: Changes; cursors: Cursors; here: (c: Partial<Cursors>) => string }) {
  const sections = { cursors, here };
  return (
    <>
      <Section list="nodes" title="Nodes" columns={["Node", "Change", "Details"]} connection={changes.nodes} {...sections}>
        <Rows changes={changes.nodes.nodes} link={(change) => change.node && href.node(change.node.slugPath)} />
      </Section>
      <Section list="methods" title="Methods" columns={["Method", "Change", "Details"]} connection={changes.methods} {...sections}>
        <Rows changes={changes.methods.nodes} link={(change) => change.method && href.method(change.method.slug)} />
      </Section>
      <Section list="models" title="Models" columns={["Model", "Change", "Details"]} connection={changes.models} {...sections}>
        <Rows changes={changes.models.nodes} link={(change) => change.model && href.model(change.model.slug)} />
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
            <th scope="row">{change.model ? <a href={href.model(change.model.slug)}>{change.model.name}</a> : change.modelSlug}</th>
            <td>{change.method ? <a href={href.method(change.method.slug)}>{change.method.name}</a> : change.methodSlug}</td>
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
}: {
  since: number | null;
  until: number | null;
  cursors: Cursors;
  kind: ChangeKind | null;
}) {
  const variables = {
    kinds: kind === null ? null : [kind],
    since: since ?? 0,
    until,
    first: PAGE_SIZE,
    nodesAfter: cursors.nodes,
    methodsAfter: cursors.methods,
    modelsAfter: cursors.models,
    treatmentsAfter: cursors.treatments,
  };
  const loaded = useQuery(BrowserChangesDocument, variables);
  useLatestRelease(answeredSoFar(loaded)?.latest);
  const answer = loaded.state === "done" ? answered(loaded.data.changes, "changes") : null;
  const changes = answer ? answeredLists(answer) : null;
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
  const here = (next: Partial<Cursors>) => changesUrl(changes.from.number, changes.to.number, next, kind);
  const ofKind = (choice: ChangeKind | null) => changesUrl(changes.from.number, changes.to.number, {}, choice);
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
          : `Net changes: a record added then removed in between is no change. ${plural(
              changes.nodes.totalCount + changes.methods.totalCount + changes.models.totalCount + changes.treatments.totalCount,
              "change",
            )}.`}
      </p>
      <KindFilter url={ofKind} kind={kind} />
      {kind !== null && !LISTS.some((list) => changes[list].totalCount) ? (
        <p>No change of this kind between them.</p>
      ) : null}
      <Contents changes={changes} />
      <Lists changes={changes} cursors={cursors} here={here} />
    </>
  );
}
