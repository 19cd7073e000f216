// `/search?q=`: the ranked hits of every kind (nodes, methods, models, sources), paged by the
// shared Pager (?after= or ?before=, &from=, &size=: "26–50 of 120 results"), each with its
// fragment (the found words marked); the types' counts link to one type's hits (?type=).
import { BrowserSearchDocument, type SearchType } from "../../../clients/typescript/src/gql/graphql";
import { answered, cursorRefused } from "../api";
import { Downloads } from "../downloads";
import { answeredSoFar, useQuery } from "../query";
import { href, pageArguments, type Place, placeQuery } from "../router";
import { useLatestRelease } from "../site-nav";
import { describeHit, SearchBox } from "../search-box";
import { ApiProblem, Choices, Heading, Loading, PageGone, Pager, plural, thousands, useTitle } from "../ui";

/** The results page at ``at`` (its first page at the default size: no paging parameter). */
function resultsUrl(q: string, type: SearchType | null, at: Place): string {
  const url = new URL(href.search(q, type), window.location.origin);
  return `${url.pathname}${placeQuery(at, url.searchParams)}`;
}

type Snippet = { text: string; highlights: readonly { start: number; end: number }[] };

/** A hit's fragment with the found words marked: text nodes and <mark>s, never HTML. */
function Fragment({ snippet }: { snippet: Snippet }) {
  const parts = [];
  let at = 0;
  for (const { start, end } of snippet.highlights) {
    if (start < at || end <= start) continue; // the API's ranges are in order, apart
    parts.push(snippet.text.slice(at, start), <mark key={start}>{snippet.text.slice(start, end)}</mark>);
    at = end;
  }
  parts.push(snippet.text.slice(at));
  return <span class="snippet">{parts}</span>;
}

/** Every type's count, each a link to that type's hits alone (the current one marked). */
function Facets({
  q,
  type,
  facets,
}: {
  q: string;
  type: SearchType | null;
  facets: readonly { type: SearchType; count: number }[];
}) {
  const counted = facets.filter((facet) => facet.count);
  const label = (choice: SearchType | null) => {
    const facet = counted.find((each) => each.type === choice);
    return facet ? `${facet.type[0]}${facet.type.slice(1).toLowerCase()} (${thousands(facet.count)})` : "All";
  };
  return (
    <nav aria-label="Result types" class="table-controls">
      <p>
        <Choices
          choices={[null, ...counted.map((facet) => facet.type)]}
          current={type}
          label={label}
          url={(choice) => href.search(q, choice)}
        />
      </p>
    </nav>
  );
}

function Results({ q, place, type }: { q: string; place: Place; type: SearchType | null }) {
  const variables = { query: q, ...pageArguments(place), types: type === null ? null : [type] };
  const loaded = useQuery(BrowserSearchDocument, variables);
  useLatestRelease(answeredSoFar(loaded)?.latest);
  const first: Place = { ...place, after: null, before: null, from: 1 };
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") {
    return cursorRefused(loaded.code) && (place.after || place.before) ? (
      <PageGone message={loaded.message} firstPage={resultsUrl(q, type, first)} />
    ) : (
      <ApiProblem message={loaded.message} />
    );
  }
  const results = answered(loaded.data.search, "search");
  const { totalCount, nodes, edges, facets } = results;
  if (totalCount === 0 && !facets.some((facet) => facet.count)) {
    return (
      <p role="status">
        Nothing matches every word of “{q}”. Try fewer or shorter words, or browse from{" "}
        <a href="/">the taxonomy’s roots</a>.
      </p>
    );
  }
  const here = href.search(q, type);
  return (
    <>
      <Facets q={q} type={type} facets={facets} />
      <p role="status" id="results">
        {plural(totalCount, "result")} for “{q}”, best first.
      </p>
      <ol class="results">
        {nodes.map((hit, index) => {
          const { url, name, kind, detail } = describeHit(hit);
          const snippet = edges[index].snippet;
          return (
            <li key={hit.id}>
              <span class="kind">{kind}</span>{" "}
              {/* Found in the name: marked there; elsewhere: the fragment it was found in. */}
              <a href={url}>{snippet.text === name ? <Fragment snippet={snippet} /> : name}</a>
              {detail ? <span class="count"> {detail}</span> : null}
              {snippet.text !== name ? (
                <>
                  <br />
                  <Fragment snippet={snippet} />
                </>
              ) : null}
            </li>
          );
        })}
      </ol>
      <Pager
        list={results}
        at={place}
        noun={["result", "results"]}
        label="Result pages"
        anchor="results"
        url={(at) => resultsUrl(q, type, at)}
      />
      <Downloads page={here} label="Results" />
    </>
  );
}

export function SearchPage({ q, place, type }: { q: string; place: Place; type: SearchType | null }) {
  const words = q.trim();
  useTitle(words ? `Search: ${words}` : "Search");
  return (
    <>
      <Heading>{words ? `Search: ${words}` : "Search"}</Heading>
      <SearchBox initial={words} id="page-search" />
      {words ? <Results q={words} place={place} type={type} /> : <p>Type a few words: names of nodes, methods or models.</p>}
    </>
  );
}
