// The header's links to the indexes (Models, Methods, Releases), to Changes and to Help (the
// about page, for newcomers). Changes: what the latest release changed against the one
// before it, or the releases index when there is no release before it to compare with. The latest release comes with each page's own data
// (`latest` in its operation: no round trip of the header's own), so until a page has its
// data, and on a page that has none, Changes leads to the releases index.
import { useEffect, useState } from "preact/hooks";

import { changesUrl } from "./pages/changes";
import { href, type IndexName } from "./router";

/** A release list's first release, as every page's operation selects it (`latest`). */
type Latest =
  | {
      readonly nodes: readonly {
        readonly number: number;
        readonly changes?: { readonly from: { readonly number: number } } | null;
      }[];
    }
  | null
  | undefined;

const RELEASES = href.index("releases");
let changesHref = RELEASES;
const listeners = new Set<(next: string) => void>();

/** Where the header's Changes link leads, given the latest release. */
export function latestChanges(latest: Latest): string {
  const newest = latest?.nodes[0];
  return newest?.changes ? changesUrl(newest.changes.from.number, newest.number) : RELEASES;
}

/** Tells the header about the latest release that came with a page's data. */
export function useLatestRelease(latest: Latest): void {
  useEffect(() => {
    if (!latest) return;
    const next = latestChanges(latest);
    if (next === changesHref) return;
    changesHref = next;
    for (const listener of listeners) listener(next);
  }, [latest]);
}

const LINKS: { name: IndexName; label: string }[] = [
  { name: "models", label: "Models" },
  { name: "methods", label: "Methods" },
  { name: "releases", label: "Releases" },
];

/** The header's links; the one of the page shown is marked as the current page. */
export function SiteNav({ path }: { path: string }) {
  const [changes, setChanges] = useState(changesHref);
  useEffect(() => {
    listeners.add(setChanges);
    setChanges(changesHref);
    return () => {
      listeners.delete(setChanges);
    };
  }, []);
  const current = (to: string) => (path === to ? "page" : undefined);
  return (
    <nav aria-label="Indexes" class="site-nav">
      <ul>
        {LINKS.map((link) => (
          <li key={link.name}>
            <a href={href.index(link.name)} aria-current={current(href.index(link.name))}>
              {link.label}
            </a>
          </li>
        ))}
        <li>
          <a href={changes} aria-current={current("/changes")}>
            Changes
          </a>
        </li>
        <li>
          <a href="/about" aria-current={current("/about")}>
            Help
          </a>
        </li>
      </ul>
    </nav>
  );
}
