// `/search?q=`: the ranked hits of every kind (nodes, methods, models, sources), paged (?after=),
// each with its fragment (the found words marked); the types' counts link to one type's hits
// (?type=).
import { BrowserSearchDocument, type SearchType } from "../../../clients/typescript/src/gql/graphql";
import { answered } from "../api";
import { Downloads } from "../downloads";
import { answeredSoFar, useQuery } from "../query";
import { href } from "../router";
import { useLatestRelease } from "../site-nav";
import { describeHit, SearchBox } from "../search-box";
import { ApiProblem, Choices, Heading, Loading, plural, thousands, useTitle } from "../ui";

const PAGE_SIZE = 20;

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

function Results({ q, after, type }: { q: string; after: string | null; type: SearchType | null }) {
  const loaded = useQuery(BrowserSearchDocument, { query: q, first: PAGE_SIZE, after, types: type === null ? null : [type] });
  useLatestRelease(answeredSoFar(loaded)?.latest);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") return <ApiProblem message={loaded.message} />;
  const { totalCount, nodes, edges, pageInfo, facets } = answered(loaded.data.search, "search");
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
      <p role="status">
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
      <nav aria-label="Result pages" class="table-controls">
        {after ? <a href={here}>First results</a> : null}
        {after && pageInfo.hasNextPage ? " · " : ""}
        {pageInfo.hasNextPage && pageInfo.endCursor ? (
          <a href={`${here}&${new URLSearchParams({ after: pageInfo.endCursor })}`}>More results</a>
        ) : null}
      </nav>
      <Downloads page={here} label="Results" />
    </>
  );
}

export function SearchPage({ q, after, type }: { q: string; after: string | null; type: SearchType | null }) {
  const words = q.trim();
  useTitle(words ? `Search: ${words}` : "Search");
  return (
    <>
      <Heading>{words ? `Search: ${words}` : "Search"}</Heading>
      <SearchBox initial={words} id="page-search" />
      {words ? <Results q={words} after={after} type={type} /> : <p>Type a few words: names of nodes, methods or models.</p>}
    </>
  );
}
