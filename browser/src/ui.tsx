// Pieces every page uses. Every value from the API goes into the page as a text child or an
// attribute, which Preact sets as text: nothing here ever parses API values as HTML.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

import type { Strength } from "../../clients/typescript/src/gql/graphql";
import { arrivedInPlace, href } from "./router";

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

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The page's heading, focused after each navigation in place so that a screen reader
 * starts there (as it starts at the top of a page freshly loaded). */
export function Heading({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (arrivedInPlace() && !document.querySelector("main [role=combobox]:focus")) {
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

export function Breadcrumb({ trail, current }: { trail: Crumb[]; current: string }) {
  return (
    <nav aria-label="Breadcrumb" class="breadcrumb">
      <ol>
        <li>
          <a href="/">Taxonomy</a>
        </li>
        {trail.map((crumb) => (
          <li key={crumb.slugPath}>
            <a href={href.node(crumb.slugPath)}>{crumb.name}</a>
          </li>
        ))}
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

export function NotFound({ kind, slug }: { kind: string; slug: string }) {
  return (
    <Problem title={`No ${kind} “${slug}”`}>
      <p>
        This taxonomy has no {kind} at <code>{slug}</code>. The link may be old (the data is
        reloaded from time to time) or mistyped. <a href={href.search(slug.split("/").pop() ?? slug)}>Search for it</a>{" "}
        or start from <a href="/">the taxonomy’s roots</a>.
      </p>
    </Problem>
  );
}

export function ApiProblem({ message }: { message: string }) {
  return (
    <Problem title="The API did not answer">
      <p>{message}</p>
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
