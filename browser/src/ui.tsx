// Pieces every page uses. Every value from the API goes into the page as a text child or an
// attribute, which Preact sets as text: nothing here ever parses API values as HTML.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

import type { Strength } from "../../clients/typescript/src/gql/graphql";
import { arrivedInPlace, href, PAGE_SIZES, type Place } from "./router";

export const SITE = "Taxonomy browser";

/** The tab's title: the page's subject, then the site. */
export function useTitle(subject: string | null): void {
  useEffect(() => {
    document.title = subject ? `${subject} · ${SITE}` : SITE;
  }, [subject]);
}

/** A strength as the seed page shows it: its lower-case name, coloured by rank. */
export function Badge({ strength }: { strength: Strength }) {
  const word = strength.toLowerCase();
  return <span class={`badge badge-${word}`}>{word}</span>;
}

/** A DateTime from the API (ISO 8601, UTC) to the minute: 2026-12-02 07:58 UTC. */
export function loadedAt(value: unknown): string {
  return `${String(value).slice(0, 16).replace("T", " ")} UTC`;
}

const NUMBER = new Intl.NumberFormat("en-US");

/** A number as every page shows one, with thousands separators: 1,234. Every number on a
 * page goes through this (plural() too), so that none shows as 1234. */
export function thousands(count: number): string {
  return NUMBER.format(count);
}

/** A count and its noun: "1 model", "1,234 models". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${thousands(count)} ${count === 1 ? one : many}`;
}

/** A table that scrolls sideways inside its box when the screen is narrower than it (the
 * page itself never does): the box is a labelled region that takes the focus, so the
 * keyboard can scroll it too. Every table of the browser is in one. Its name: the heading
 * ``labelledBy``, or ``label`` when that heading already names its section (two regions of
 * one name are one too many). */
export function TableScroll({
  labelledBy,
  label,
  children,
}: {
  labelledBy?: string;
  label?: string;
  children: ComponentChildren;
}) {
  return (
    <div class="table-scroll" role="region" aria-labelledby={labelledBy} aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** The help page's URL, at one of its sections. */
export function helpUrl(section: "strengths" | "counts" | "by-model" | "adoption" | "releases"): string {
  return `/about#${section}`;
}

/** What the badges mean, one link away: the three strengths as badges, and a link to the
 * help page's section on them. */
export function StrengthLegend() {
  return (
    <p class="legend">
      Treatments, strongest first: <Badge strength="CORE" /> <Badge strength="USED" /> <Badge strength="MENTIONED" />{" "}
      <a href={helpUrl("strengths")}>What these mean</a>
    </p>
  );
}

/** A paged list as the pager needs it: any connection with these fields. */
export type PagedList = {
  totalCount: number;
  nodes: readonly unknown[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor?: string | null;
    endCursor?: string | null;
  };
};

/** Where the shown page sits: the position of its first and last item. Cursors are opaque,
 * so the URL says where the page starts (``place.from``); at either end of the list the
 * API's flags say it exactly, and they win over a URL that is wrong. */
function shownRange(list: PagedList, at: Place): [number, number] {
  const shown = list.nodes.length;
  let from: number;
  if (!list.pageInfo.hasPreviousPage) from = 1;
  else if (!list.pageInfo.hasNextPage) from = Math.max(2, list.totalCount - shown + 1);
  else from = Math.min(Math.max(at.from, 2), Math.max(2, list.totalCount - shown));
  return [from, from + shown - 1];
}

/** A paged list's controls, under it (the node page's By-model table, the method page's
 * models, the model page's methods): where the page is ("26–50 of 594 models"), the page
 * sizes the list offers (router.ts: PAGE_SIZES or TALL_ROW_PAGE_SIZES), and links to the first, previous and next pages. Each is a URL
 * (``url`` of a place: the position, cursor and size in its query, the list's heading,
 * ``anchor``, as its fragment), so a reload or a shared link shows the same page; a page
 * reached that way opens at the list. ``children``: more controls (the node page's orders),
 * between the position and the links. ``sizes``: the page sizes offered, when a list cannot
 * have them all (tall rows; the releases index: the API's cost limit allows 25 releases'
 * changes); ``sizesNote``: what a size link does besides (the changes page's: shows the list
 * alone). */
/** The choices of one setting as links separated by " · ", the current one marked
 * (aria-current) and not a link: page sizes, orders, kinds of change, types of hit. */
export function Choices<T>({
  choices,
  current,
  label,
  url,
  describe,
}: {
  choices: readonly T[];
  current: T | null;
  label: (choice: T) => string;
  url: (choice: T) => string;
  describe?: (choice: T) => string;
}) {
  return (
    <>
      {choices.map((choice, index) => (
        <span key={label(choice)}>
          {index ? " · " : ""}
          {choice === current ? (
            <strong aria-current="true">{label(choice)}</strong>
          ) : (
            <a href={url(choice)} aria-label={describe?.(choice)}>
              {label(choice)}
            </a>
          )}
        </span>
      ))}
    </>
  );
}

export function Pager({
  list,
  at,
  noun,
  label,
  anchor,
  url,
  children,
  sizes = PAGE_SIZES,
  sizesNote,
}: {
  list: PagedList;
  at: Place;
  noun: [one: string, many: string];
  label: string;
  anchor: string;
  url: (place: Place) => string;
  children?: ComponentChildren;
  sizes?: readonly number[];
  sizesNote?: string;
}) {
  useEffect(() => {
    if (window.location.hash === `#${anchor}`) document.getElementById(anchor)?.scrollIntoView();
  }, [list, anchor]);
  const { totalCount, pageInfo } = list;
  const shown = list.nodes.length;
  const [from, to] = shownRange(list, at);
  const first: Place = { after: null, before: null, from: 1, size: at.size };
  const link = (place: Place) => `${url(place)}#${anchor}`;
  const named = (count: number) => (count === 1 ? noun[0] : noun[1]);

  // The previous page ends just before this one; when it would reach the list's start, it
  // is the first page (no cursor).
  let previous: Place | null = null;
  if (pageInfo.hasPreviousPage && pageInfo.startCursor) {
    previous = from - at.size <= 1 ? first : { after: null, before: pageInfo.startCursor, from: from - at.size, size: at.size };
  }
  const next: Place | null =
    pageInfo.hasNextPage && pageInfo.endCursor ? { after: pageInfo.endCursor, before: null, from: to + 1, size: at.size } : null;
  /** This page at another size: from the same first item (or, paged back, to the same last). */
  const resized = (size: number): Place => {
    if (at.after && shown) return { ...at, from, size };
    if (at.before && shown && to - size + 1 > 1) return { ...at, from: to - size + 1, size };
    return { ...first, size };
  };

  let where: string;
  if (!shown) where = `${thousands(totalCount)} ${named(totalCount)}; none past this point`;
  else if (from === 1 && to === totalCount) where = `${thousands(totalCount)} ${named(totalCount)}`;
  else where = `${thousands(from)}–${thousands(to)} of ${thousands(totalCount)} ${named(totalCount)}`;
  const links: { key: string; place: Place; text: string; rel?: string }[] = [];
  if (previous && previous !== first) links.push({ key: "first", place: first, text: "First page" });
  if (previous) {
    const count = Math.min(at.size, from - 1);
    links.push({ key: "previous", place: previous, text: `Previous ${thousands(count)} ${named(count)}`, rel: "prev" });
  }
  if (!shown && at.from > 1) links.push({ key: "first", place: first, text: "First page" });
  if (next) {
    const count = Math.min(at.size, totalCount - to);
    links.push({ key: "next", place: next, text: `Next ${thousands(count)} ${named(count)}`, rel: "next" });
  }
  return (
    <nav aria-label={label} class="table-controls pager">
      <p>
        <span class="position">{where}</span>
        {totalCount > Math.min(...sizes) && sizes.length > 1 ? (
          <span class="sizes">
            {" · show "}
            <Choices
              choices={sizes}
              current={at.size}
              label={String}
              url={(size) => link(resized(size))}
              describe={(size) => `${size} ${noun[1]} a page`}
            />{" "}
            a page{sizesNote ? ` ${sizesNote}` : ""}
          </span>
        ) : null}
      </p>
      {children}
      {links.length ? (
        <p>
          {links.map((item, index) => (
            <span key={item.key}>
              {index ? " · " : ""}
              <a href={link(item.place)} rel={item.rel}>
                {item.text}
              </a>
            </span>
          ))}
        </p>
      ) : null}
    </nav>
  );
}

/** The page's heading, focused after each navigation in place so that a screen reader
 * starts there (as it starts at the top of a page freshly loaded), unless the reader is
 * typing in a search box meanwhile (the header's, or the search page's own): a search typed
 * in the header while the page's data was on its way lost its letters to the heading, and
 * Enter then searched for nothing. */
export function Heading({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (arrivedInPlace() && !document.querySelector("[role=combobox]:focus")) {
      ref.current?.focus({ preventScroll: true });
    }
  }, []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

type Crumb = { name: string; slugPath: string };

/** Above this many levels the breadcrumb shows the first and the last two, and a button
 * between them that shows the rest. */
const CRUMBS_SHOWN = 4;

/** Where the page sits: the taxonomy, the nodes above, the page. Each level wraps onto the
 * next line as a whole when the screen is narrow; a deep trail (the Gene Ontology's go 13
 * levels down) is collapsed to its first and last levels until asked for. */
export function Breadcrumb({ trail, current }: { trail: Crumb[]; current: string }) {
  const [whole, setWhole] = useState(false);
  const folded = !whole && trail.length > CRUMBS_SHOWN;
  const hidden = folded ? trail.length - 3 : 0;
  const shown = folded ? [trail[0], ...trail.slice(-2)] : trail;
  return (
    <nav aria-label="Breadcrumb" class="breadcrumb">
      <ol>
        <li>
          <a href="/">Taxonomy</a>
        </li>
        {shown.flatMap((crumb, index) => [
          folded && index === 1 ? (
            <li key="more" class="more-crumbs">
              <button type="button" aria-label={`Show the ${hidden} levels between`} onClick={() => setWhole(true)}>
                …
              </button>
            </li>
          ) : null,
          <li key={crumb.slugPath}>
            <a href={href.node(crumb.slugPath)}>{crumb.name}</a>
          </li>,
        ])}
        <li aria-current="page">{current}</li>
      </ol>
    </nav>
  );
}

export function Loading() {
  return (
    <p class="status" role="status">
      Loading…
    </p>
  );
}

/** A page that cannot be shown: what is wrong and what to do. */
export function Problem({ title, children }: { title: string; children: ComponentChildren }) {
  useTitle(title);
  return (
    <section class="problem" role="alert">
      <Heading>{title}</Heading>
      {children}
    </section>
  );
}

/** Where to go from a page that is not there: home, search and the indexes. */
export function WaysOn({ search }: { search?: string }) {
  return (
    <ul class="ways-on">
      <li>
        <a href="/">The taxonomy’s home page</a>: its main branches
      </li>
      <li>
        <a href={search ? href.search(search) : "/search"}>{search ? `Search for “${search}”` : "Search"}</a>
      </li>
      <li>
        Every <a href={href.index("models")}>model</a>, <a href={href.index("methods")}>method</a> and{" "}
        <a href={href.index("releases")}>release</a>
      </li>
      <li>
        <a href="/about">What the pages show</a>, for newcomers
      </li>
    </ul>
  );
}

export function NotFound({ kind, slug }: { kind: string; slug: string }) {
  const last = slug.split("/").pop() ?? slug;
  return (
    <Problem title={`No ${kind} “${slug}”`}>
      <p>
        This taxonomy has no {kind} at <code>{slug}</code>. The link may be old (the taxonomy is
        updated from time to time, and things move or go) or mistyped. From here you can go to:
      </p>
      <WaysOn search={last.replace(/-/g, " ")} />
    </Problem>
  );
}

/** A page whose data did not come: what happened and what to do, in plain words; the
 * technical message folded away below, for a report. */
export function ApiProblem({ message }: { message: string }) {
  return (
    <Problem title="This page could not be loaded">
      <p>
        The server did not send what this page shows. This is usually brief: reload the page, or try again in a
        few minutes. If it keeps happening, the service may be down for maintenance.
      </p>
      <p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload this page
        </button>{" "}
        or <a href="/">go to the home page</a>.
      </p>
      <details>
        <summary>Details, for a report</summary>
        <p>{message}</p>
      </details>
    </Problem>
  );
}

/** How many pieces of evidence a treatment shows on the method and model pages (its
 * `evidenceConnection(first:)`); it says how many more it has. */
export const EVIDENCE_PER_ROW = 3;

/** A model's organization and release date as two cells of a table of models ("unknown"
 * where the data has none); ``shown``: which of the two (a node's By-model table shows each
 * only when asked). */
export function ModelFactCells({
  model,
  shown = { organization: true, date: true },
}: {
  model: { organization?: string | null; releaseDate?: string | null };
  shown?: { organization: boolean; date: boolean };
}) {
  const unknown = <span class="count">unknown</span>;
  return (
    <>
      {shown.organization ? <td>{model.organization ?? unknown}</td> : null}
      {shown.date ? <td class="date">{model.releaseDate ?? unknown}</td> : null}
    </>
  );
}

/** "2 more pieces of evidence": a treatment's evidence past the pieces shown. */
export function MoreEvidence({ evidence }: { evidence: { totalCount: number; nodes: readonly unknown[] } }) {
  const more = evidence.totalCount - evidence.nodes.length;
  if (more <= 0) return null;
  return (
    <p class="more">
      {thousands(more)} more {more === 1 ? "piece" : "pieces"} of evidence
    </p>
  );
}

/** A page of a list that the API refused: its cursor is from data replaced since (a new
 * load) or damaged. The rest of the URL still names the page's subject. */
export function PageGone({ message, firstPage }: { message: string; firstPage: string }) {
  return (
    <Problem title="That page of the list is gone">
      <p>{message}</p>
      <p>
        <a href={firstPage}>Start again from the first page</a>.
      </p>
    </Problem>
  );
}

/** An external link only when it is http(s): never a javascript: or data: URL from the data. */
export function ExternalLink({ url, children }: { url: string | null | undefined; children: ComponentChildren }) {
  let safe: string | null = null;
  try {
    const parsed = url ? new URL(url) : null;
    if (parsed && (parsed.protocol === "https:" || parsed.protocol === "http:")) safe = parsed.href;
  } catch {
    safe = null;
  }
  return safe ? (
    <a href={safe} rel="noopener noreferrer nofollow">
      {children}
    </a>
  ) : (
    <>{children}</>
  );
}

/** A quote from a source, with where it is from. */
export function Quote({
  quote,
  source,
  locator,
}: {
  quote: string | null | undefined;
  source: string | null | undefined;
  locator: string | null | undefined;
}) {
  if (!quote && !source) return null;
  const where = [source, locator].filter(Boolean).join(", ");
  return (
    <figure class="quote">
      {quote ? <blockquote>{quote}</blockquote> : null}
      {where ? <figcaption>{where}</figcaption> : null}
    </figure>
  );
}
