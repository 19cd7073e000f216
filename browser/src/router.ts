// The address bar is the page's whole state: links change it with history.pushState (no
// reload), back and forward re-render from it, and a reload or a shared URL rebuilds the
// same page from it alone.
import { useEffect, useState } from "preact/hooks";

import type { ChangeKind, SearchType } from "../../clients/typescript/src/gql/graphql";

/** Each list of the changes page at its own page (see `changesPlaces`). */
export type Places = Record<ChangeType, Place>;

/** A release number from the URL: a whole number, or null. */
function releaseNumber(value: string | null): number | null {
  return value && /^\d+$/.test(value) ? Number(value) : null;
}

/** The page size a list opens at, unless its URL says another it offers; none in its URLs. */
export const DEFAULT_PAGE_SIZE = 25;

/** The page sizes of a list of one-line rows (search results, /models, /methods): 100 of
 * them keep a page under 5,000 px at 1280 px wide. */
export const PAGE_SIZES = [DEFAULT_PAGE_SIZE, 50, 100] as const;

/** The page sizes of a list whose rows run to several lines: a node's By-model rows (up to
 * 12 methods each), a method's models and a model's methods (up to 3 quotes each). At L, 25
 * of them are about 2,500 px, and 50 would take a page past 5,000 px: a reader who wants
 * more at once downloads the whole list. */
export const TALL_ROW_PAGE_SIZES = [10, DEFAULT_PAGE_SIZE] as const;

/** Where a paged list is, from the URL: ``?after=`` (the cursor of the item before the page)
 * or ``?before=`` (of the item after it), ``&from=`` the position of its first item (1 for
 * the first page, which has no cursor; cursors are opaque, so the links that make them say
 * where they lead) and ``&size=`` (one of the sizes the list offers; 25 when not given). */
export type Place = { after: string | null; before: string | null; from: number; size: number };

/** The URL parameters of a list's place: `after`, `before` and `from`; each list of the changes
 * page has its own (`nodes`, `nodes-before`, `nodes-from`: see `changesPlaces`). */
type PlaceNames = { after: string; before: string; from: string };

/** Where a list is from the URL's ``query``: a size the list does not offer (a link from
 * before it offered fewer) is the ``initial`` one. */
export function place(
  query: URLSearchParams,
  sizes: readonly number[] = PAGE_SIZES,
  names: PlaceNames = { after: "after", before: "before", from: "from" },
  initial: number = DEFAULT_PAGE_SIZE,
): Place {
  const size = sizes.find((allowed) => String(allowed) === query.get("size")) ?? initial;
  const after = query.get(names.after) || null;
  const before = after ? null : query.get(names.before) || null;
  const given = query.get(names.from);
  // Without a position (a URL made by hand), the page next to the first; the pager corrects
  // it at either end of the list.
  const from = given && /^[1-9]\d{0,8}$/.test(given) ? Number(given) : size + 1;
  return { after, before, from: after || before ? from : 1, size };
}

/** The page sizes of the changes page's lists; the first is the default. Four lists show at
 * once, so a short page: 10 rows each keeps the page under 5,000 px at 1280 px wide, and a
 * larger page shows its list alone (`?type=`; see pages/changes.tsx). */
export const CHANGES_PAGE_SIZES = [10, 25, 50] as const;

/** Each list of the changes page at its own place, one page size for all (``?size=``):
 * ``?nodes=`` the cursor of the nodes' page (the row before it), or ``?nodes-before=`` (the
 * row after it, paging back), and ``&nodes-from=`` its first row's position; the same for
 * methods, models and treatments. */
export function changesPlaces(query: URLSearchParams): Places {
  const at = (list: ChangeType) =>
    place(query, CHANGES_PAGE_SIZES, { after: list, before: `${list}-before`, from: `${list}-from` }, CHANGES_PAGE_SIZES[0]);
  return { nodes: at("nodes"), methods: at("methods"), models: at("models"), treatments: at("treatments") };
}

/** ``places`` in the changes page's query (beside ``params``): a list on its first page is
 * no parameter, nor is the default size. */
export function changesPlacesQuery(places: Partial<Places>, params: URLSearchParams): void {
  let size: number | null = null;
  for (const list of CHANGE_TYPES) {
    const at = places[list];
    if (!at) continue;
    size = at.size;
    if (at.after) params.set(list, at.after);
    else if (at.before) params.set(`${list}-before`, at.before);
    if (at.after || at.before) params.set(`${list}-from`, String(at.from));
  }
  if (size !== null && size !== CHANGES_PAGE_SIZES[0]) params.set("size", String(size));
}

/** ``place`` in a URL's query (beside ``params``): the first page at 25 is no parameter. */
export function placeQuery(at: Place, params = new URLSearchParams()): string {
  if (at.after) params.set("after", at.after);
  else if (at.before) params.set("before", at.before);
  if (at.after || at.before) params.set("from", String(at.from));
  if (at.size !== DEFAULT_PAGE_SIZE) params.set("size", String(at.size));
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** A list field's paging arguments for ``at``: forward with first/after, or back from a
 * ``before`` cursor with last/before (`first` and `last` together are refused). */
export function pageArguments(at: Place): {
  first: number | null;
  after: string | null;
  last: number | null;
  before: string | null;
} {
  return at.before
    ? { first: null, after: null, last: at.size, before: at.before }
    : { first: at.size, after: at.after, last: null, before: null };
}

export type Route =
  | { page: "home" }
  | { page: "about" }
  | { page: "node"; path: string; place: Place; query: URLSearchParams }
  | { page: "model"; slug: string; place: Place; query: URLSearchParams }
  | { page: "method"; slug: string; place: Place; query: URLSearchParams }
  | { page: "search"; q: string; place: Place; type: SearchType | null }
  | {
      page: "changes";
      since: number | null;
      until: number | null;
      places: Places;
      kind: ChangeKind | null;
      type: ChangeType | null;
    }
  | { page: "models" | "methods" | "releases"; place: Place; query: URLSearchParams }
  | { page: "missing"; path: string };

/** The indexes (/models, /methods, /releases): each a paged table; its order and filters
 * are in the URL's query too, read by the page itself. */
export const INDEXES = ["models", "methods", "releases"] as const;
export type IndexName = (typeof INDEXES)[number];

function decoded(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** The kinds of change, as the changes page's `?kind=` names them (lowercase). */
export const CHANGE_KINDS = ["added", "removed", "moved", "renamed", "changed", "strengthened", "weakened"] as const;

/** The kinds of record of the changes page, each a list of its own, as `?type=` names them. */
export const CHANGE_TYPES = ["nodes", "methods", "models", "treatments"] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** `?type=` of the changes page: one kind of record, or null (every kind; also for a word
 * that names none). */
function changeType(word: string | null): ChangeType | null {
  return CHANGE_TYPES.find((known) => known === word) ?? null;
}

/** `?kind=` of the changes page: one kind of change, or null (every kind; also for a word
 * that names none). */
function changeKind(word: string | null): ChangeKind | null {
  const kind = CHANGE_KINDS.find((known) => known === word);
  return kind ? (kind.toUpperCase() as ChangeKind) : null;
}

/** The types of hit, as the search page's `?type=` names them (lowercase). */
export const SEARCH_TYPES = ["nodes", "methods", "models", "sources"] as const;

/** `?type=` of the search page: one type of hit, or null (every type; also for a word that
 * names none). */
function searchType(word: string | null): SearchType | null {
  const type = SEARCH_TYPES.find((known) => known === word);
  return type ? (type.toUpperCase() as SearchType) : null;
}

/** The page a URL shows (the server serves the same HTML at each of these paths). */
export function route(url: URL): Route {
  const path = url.pathname;
  const query = url.searchParams;
  if (path === "/") return { page: "home" };
  if (path === "/about") return { page: "about" };
  if (path === "/search") {
    return { page: "search", q: query.get("q") ?? "", place: place(query), type: searchType(query.get("type")) };
  }
  if (path === "/changes") {
    const places = changesPlaces(query);
    const since = releaseNumber(query.get("since"));
    const until = releaseNumber(query.get("until"));
    const [kind, type] = [changeKind(query.get("kind")), changeType(query.get("type"))];
    return { page: "changes", since, until, places, kind, type };
  }
  const index = INDEXES.find((name) => path === `/${name}`);
  if (index) return { page: index, place: place(query), query };
  const [, kind, ...rest] = path.split("/");
  const slug = decoded(rest.join("/").replace(/\/+$/, ""));
  if (slug) {
    const at = place(query, TALL_ROW_PAGE_SIZES);
    if (kind === "nodes") return { page: "node", path: slug, place: at, query };
    if (kind === "models" && !slug.includes("/")) return { page: "model", slug, place: at, query };
    if (kind === "methods" && !slug.includes("/")) return { page: "method", slug, place: at, query };
  }
  return { page: "missing", path };
}

const listeners = new Set<() => void>();
let moved = false;

/** Whether this page was reached in place (a link, back or forward), not loaded: then its
 * heading takes the focus, where a fresh load leaves it at the top of the document. */
export function arrivedInPlace(): boolean {
  return moved;
}

/** Shows ``href`` (same origin) without a reload, as a new history entry. */
export function navigate(href: string, replace = false): void {
  const url = new URL(href, window.location.href);
  if (replace) window.history.replaceState(null, "", url);
  else window.history.pushState(null, "", url);
  window.scrollTo(0, 0);
  moved = true;
  for (const listener of listeners) listener();
}

/** The current URL, re-read on every navigation and on back and forward. */
export function useLocation(): URL {
  const [url, setUrl] = useState(() => new URL(window.location.href));
  useEffect(() => {
    const update = () => setUrl(new URL(window.location.href));
    const popped = () => {
      moved = true;
      update();
    };
    listeners.add(update);
    window.addEventListener("popstate", popped);
    return () => {
      listeners.delete(update);
      window.removeEventListener("popstate", popped);
    };
  }, []);
  return url;
}

/** Same-origin links navigate in place; a modified click (new tab, ...) is the browser's. */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest?.("a");
    if (!link || link.target || link.hasAttribute("download")) return;
    const url = new URL(link.href, window.location.href);
    if (url.origin !== window.location.origin || url.pathname.startsWith("/graphql")) return;
    if (url.pathname === window.location.pathname && url.search === window.location.search && url.hash) return;
    event.preventDefault();
    navigate(url.href);
  });
}

/** The URL of each kind of page. */
export const href = {
  node: (slugPath: string) => `/nodes/${slugPath.split("/").map(encodeURIComponent).join("/")}`,
  model: (slug: string) => `/models/${encodeURIComponent(slug)}`,
  method: (slug: string) => `/methods/${encodeURIComponent(slug)}`,
  search: (q: string, type: SearchType | null = null) =>
    `/search?${new URLSearchParams(type === null ? { q } : { q, type: type.toLowerCase() })}`,
  index: (name: IndexName) => `/${name}`,
};
