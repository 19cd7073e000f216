// What the releases did to one thing: the History section of the node, method and model
// pages (since when it exists, and each change since), and the page of a thing that is no
// longer there (a moved node's page goes to its new place; a removed one's says which
// release removed it: the server answers its URL with 410 Gone).
import { useEffect } from "preact/hooks";

import { BrowserFormerDocument, type ChangeKind } from "../../clients/typescript/src/gql/graphql";
import { useQuery } from "./query";
import { href, navigate } from "./router";
import { Loading, loadedAt, NotFound, plural, Problem, WaysOn } from "./ui";

type Release = { number: number; loadedAt: unknown };

/** The URL of what release ``number`` changed against the one before it. */
export function releaseChangesUrl(number: number): string {
  return `/changes?since=${number - 1}&until=${number}`;
}

/** One change in words: "moved from a :: b to c :: d", "renamed from “A” to “B”", "added". */
export function changeWords(change: {
  kinds: readonly ChangeKind[];
  fromName?: string | null;
  toName?: string | null;
  fromPath?: string | null;
  toPath?: string | null;
}): string {
  return change.kinds
    .map((kind) => {
      if (kind === "MOVED") return `moved from ${change.fromPath ?? "?"} to ${change.toPath ?? "?"}`;
      if (kind === "RENAMED") return `renamed from “${change.fromName ?? ""}” to “${change.toName ?? ""}”`;
      return kind.toLowerCase();
    })
    .join(", ");
}

/** A changed field as the API gives it: a value's before and after, or a list's items. */
type FieldChange = {
  field: string;
  fromValue?: string | null;
  toValue?: string | null;
  fromItems?: readonly string[] | null;
  toItems?: readonly string[] | null;
};

/** Longer values are cut to this many characters in a change's words (a description can be
 * pages long; its record's page has it whole). */
const VALUE_SHOWN = 200;

/** A changed field in words: `description: “A” → “B”` (“none” for no value; a value over
 * 200 characters cut with “…”); a list's items added and removed: `matching aids: +“a”
 * −“b”` (or “reordered”). */
export function fieldText(change: FieldChange): string {
  const label = change.field.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
  if (change.fromItems && change.toItems) {
    const before = change.fromItems;
    const after = change.toItems;
    const added = after.filter((item) => !before.includes(item)).map((item) => `+“${item}”`);
    const removed = before.filter((item) => !after.includes(item)).map((item) => `−“${item}”`);
    return `${label}: ${[...added, ...removed].join(" ") || "reordered"}`;
  }
  const quoted = (value: string | null | undefined) => {
    if (value === null || value === undefined) return "none";
    return value.length > VALUE_SHOWN ? `“${value.slice(0, VALUE_SHOWN)}…”` : `“${value}”`;
  };
  return `${label}: ${quoted(change.fromValue)} → ${quoted(change.toValue)}`;
}

type HistoryChange = Parameters<typeof changeWords>[0] & {
  release?: Release | null;
  fieldChanges?: readonly FieldChange[];
};

/** A history entry's change in words: what happened (`changeWords`), then which fields
 * changed and how (`fieldText`), after "; ". */
function entryWords(change: HistoryChange): string {
  return [changeWords(change), ...(change.fieldChanges ?? []).map(fieldText)].join("; ");
}

/** The History section: since which release the thing exists, and its changes since (the
 * latest ten), each linked to all that its release changed. */
export function History({
  subject,
  firstSeen,
  history,
}: {
  subject: string;
  firstSeen: Release;
  history: { totalCount: number; nodes: readonly HistoryChange[] } | null | undefined;
}) {
  const changes = history?.nodes ?? [];
  const earlier = (history?.totalCount ?? 0) - changes.length;
  return (
    <section aria-labelledby="history" class="history">
      <h2 id="history">History</h2>
      <p>
        This {subject} is in the taxonomy since release {firstSeen.number}, loaded {loadedAt(firstSeen.loadedAt)}
        {changes.length ? ". What the releases since changed of it:" : "; no release since has changed it."}
      </p>
      {earlier > 0 ? <p>{plural(earlier, "earlier change")} not shown.</p> : null}
      {changes.length ? (
        <ol class="history-list">
          {changes.map((change) =>
            change.release ? (
              <li key={change.release.number}>
                <a href={releaseChangesUrl(change.release.number)}>Release {change.release.number}</a> (
                {loadedAt(change.release.loadedAt)}): {entryWords(change)}
              </li>
            ) : null,
          )}
        </ol>
      ) : null}
    </section>
  );
}

/** A node, method or model page whose subject is not served: what was there, if anything.
 * A node that moved (or a node above it moved) goes to its new place, replacing the old
 * URL; a removed one says what it was and which release removed it. */
export function Gone({ kind, subject }: { kind: "node" | "method" | "model"; subject: string }) {
  const variables =
    kind === "node"
      ? { path: subject, node: true }
      : { slug: subject, method: kind === "method", model: kind === "model" };
  const loaded = useQuery(BrowserFormerDocument, variables);
  const data = loaded.state === "done" ? loaded.data : null;
  const movedTo = data?.formerNode?.node?.slugPath;
  useEffect(() => {
    if (movedTo) navigate(href.node(movedTo) + window.location.search, true);
  }, [movedTo]);
  if (loaded.state === "loading" || movedTo) return <Loading />;
  const former = data ? (data.formerNode ?? data.formerMethod ?? data.formerModel) : null;
  const place = data?.formerNode?.path ?? data?.formerMethod?.path;
  const removed = data?.formerNode?.changedIn ?? data?.formerMethod?.removedIn ?? data?.formerModel?.removedIn;
  if (!former || !removed) return <NotFound kind={kind} slug={subject} />;
  return (
    <Problem title={`The ${kind} “${former.name}” was removed`}>
      <p>
        The {kind} “{former.name}”{place ? ` at ${place}` : ""} was in this taxonomy until release{" "}
        {removed.number - 1}. Release {removed.number}, loaded {loadedAt(removed.loadedAt)}, removed it:{" "}
        <a href={releaseChangesUrl(removed.number)}>what release {removed.number} changed</a>. From here you can go to:
      </p>
      <WaysOn search={former.name} />
    </Problem>
  );
}
