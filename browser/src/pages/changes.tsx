// `/changes?since=N&until=M`: what changed from release N to release M (the newest when no
// `until`), net, per kind of record, each kind paged on its own: ?nodes=, ?methods=,
// ?models= and ?treatments= carry each list's cursor, so every page is its URL alone.
import type { ComponentChildren } from "preact";

import { BrowserChangesDocument, type BrowserChangesQuery } from "../../../clients/typescript/src/gql/graphql";
import { useQuery } from "../query";
import { type Cursors, href } from "../router";
import { ApiProblem, Badge, Heading, Loading, loadedAt, plural, Problem, useTitle } from "../ui";

type Changes = BrowserChangesQuery["changes"];
const PAGE_SIZE = 50;
const LISTS = ["nodes", "methods", "models", "treatments"] as const;
type List = (typeof LISTS)[number];

/** The URL of the changes page between two releases, at the given page of each list. */
export function changesUrl(since: number, until: number | null, cursors: Partial<Cursors> = {}): string {
  const params = new URLSearchParams({ since: String(since) });
  if (until !== null) params.set("until", String(until));
  for (const list of LISTS) {
    const cursor = cursors[list];
    if (cursor) params.set(list, cursor);
  }
  return `/changes?${params}`;
}

/** One kind's list of changes: a heading with its count, the page's items, and a link to
 * the next page of this list (the other lists stay where they are). */
function Section({
  list,
  title,
  connection,
  cursors,
  here,
  children,
}: {
  list: List;
  title: string;
  connection: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor?: string | null } };
  cursors: Cursors;
  here: (cursors: Partial<Cursors>) => string;
  children: ComponentChildren;
}) {
  if (!connection.totalCount) return null;
  const { hasNextPage, endCursor } = connection.pageInfo;
  return (
    <section aria-labelledby={`changes-${list}`}>
      <h2 id={`changes-${list}`}>
        {title}: {connection.totalCount}
      </h2>
      <ul class="changes">{children}</ul>
      <nav aria-label={`${title}: pages`} class="table-controls">
        {cursors[list] ? <a href={here({ ...cursors, [list]: null })}>First {title.toLowerCase()}</a> : null}
        {cursors[list] && hasNextPage ? " · " : ""}
        {hasNextPage && endCursor ? (
          <a href={here({ ...cursors, [list]: endCursor })}>
            Next {PAGE_SIZE} {title.toLowerCase()}
          </a>
        ) : null}
      </nav>
    </section>
  );
}

/** A rename or a move in words: "renamed from A", "moved from a/b to c/d". */
function how(change: {
  kind: string;
  fromName?: string | null;
  fromPath?: string | null;
  toPath?: string | null;
}): string {
  if (change.kind === "RENAMED") return `renamed from “${change.fromName ?? ""}”`;
  if (change.kind === "MOVED") return `moved from ${change.fromPath ?? "?"} to ${change.toPath ?? "?"}`;
  return change.kind.toLowerCase();
}

function Lists({ changes, cursors, here }: { changes: Changes; cursors: Cursors; here: (c: Partial<Cursors>) => string }) {
  return (
    <>
      <Section list="nodes" title="Nodes" connection={changes.nodes} cursors={cursors} here={here}>
        {changes.nodes.nodes.map((change) => (
          <li key={`${change.kind}-${change.slug}`}>
            {change.node ? <a href={href.node(change.node.slugPath)}>{change.name}</a> : change.name}{" "}
            <span class="count">{how(change)}</span>
          </li>
        ))}
      </Section>
      <Section list="methods" title="Methods" connection={changes.methods} cursors={cursors} here={here}>
        {changes.methods.nodes.map((change) => (
          <li key={`${change.kind}-${change.slug}`}>
            {change.method ? <a href={href.method(change.method.slug)}>{change.name}</a> : change.name}{" "}
            <span class="count">{how(change)}</span>
          </li>
        ))}
      </Section>
      <Section list="models" title="Models" connection={changes.models} cursors={cursors} here={here}>
        {changes.models.nodes.map((change) => (
          <li key={`${change.kind}-${change.slug}`}>
            {change.model ? <a href={href.model(change.model.slug)}>{change.name}</a> : change.name}{" "}
            <span class="count">{how(change)}</span>
          </li>
        ))}
      </Section>
      <Section list="treatments" title="Treatments" connection={changes.treatments} cursors={cursors} here={here}>
        {changes.treatments.nodes.map((change) => (
          <li key={`${change.kind}-${change.modelSlug}-${change.methodSlug}`}>
            {change.model ? <a href={href.model(change.model.slug)}>{change.model.name}</a> : change.modelSlug} ·{" "}
            {change.method ? <a href={href.method(change.method.slug)}>{change.method.name}</a> : change.methodSlug}{" "}
            <span class="count">{change.kind.toLowerCase()}</span>
            {change.before ? (
              <>
                {" "}
                from <Badge strength={change.before} />
              </>
            ) : null}
            {change.after ? (
              <>
                {" "}
                to <Badge strength={change.after} />
              </>
            ) : null}
          </li>
        ))}
      </Section>
    </>
  );
}

export function ChangesPage({ since, until, cursors }: { since: number | null; until: number | null; cursors: Cursors }) {
  const variables = {
    since: since ?? 0,
    until,
    first: PAGE_SIZE,
    nodesAfter: cursors.nodes,
    methodsAfter: cursors.methods,
    modelsAfter: cursors.models,
    treatmentsAfter: cursors.treatments,
  };
  const loaded = useQuery(BrowserChangesDocument, variables);
  const changes = loaded.state === "done" ? loaded.data.changes : null;
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
    if (loaded.code !== "BAD_USER_INPUT") return <ApiProblem message={loaded.message} />;
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
  const here = (next: Partial<Cursors>) => changesUrl(changes.from.number, until, next);
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
      <Lists changes={changes} cursors={cursors} here={here} />
    </>
  );
}
