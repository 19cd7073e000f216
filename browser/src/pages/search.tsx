// `/search?q=`: the ranked hits of every kind (nodes, methods, models, sources), paged (?after=).
import { BrowserSearchDocument } from "../../../clients/typescript/src/gql/graphql";
import { answered } from "../api";
import { answeredSoFar, useQuery } from "../query";
import { href } from "../router";
import { useLatestRelease } from "../site-nav";
import { describeHit, SearchBox } from "../search-box";
import { ApiProblem, Heading, Loading, plural, useTitle } from "../ui";

const PAGE_SIZE = 20;

function Results({ q, after }: { q: string; after: string | null }) {
  const loaded = useQuery(BrowserSearchDocument, { query: q, first: PAGE_SIZE, after });
  useLatestRelease(answeredSoFar(loaded)?.latest);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") return <ApiProblem message={loaded.message} />;
  const { totalCount, nodes, pageInfo } = answered(loaded.data.search, "search");
  if (totalCount === 0) {
    return (
      <p role="status">
        Nothing matches every word of “{q}”. Try fewer or shorter words, or browse from{" "}
        <a href="/">the taxonomy’s roots</a>.
      </p>
    );
  }
  return (
    <>
      <p role="status">
        {plural(totalCount, "result")} for “{q}”, best first.
      </p>
      <ol class="results">
        {nodes.map((hit) => {
          const { url, name, kind, detail } = describeHit(hit);
          return (
            <li key={hit.id}>
              <span class="kind">{kind}</span> <a href={url}>{name}</a>
              {detail ? <span class="count"> {detail}</span> : null}
            </li>
          );
        })}
      </ol>
      <nav aria-label="Result pages" class="table-controls">
        {after ? <a href={href.search(q)}>First results</a> : null}
        {after && pageInfo.hasNextPage ? " · " : ""}
        {pageInfo.hasNextPage && pageInfo.endCursor ? (
          <a href={`${href.search(q)}&${new URLSearchParams({ after: pageInfo.endCursor })}`}>More results</a>
        ) : null}
      </nav>
    </>
  );
}

export function SearchPage({ q, after }: { q: string; after: string | null }) {
  const words = q.trim();
  useTitle(words ? `Search: ${words}` : "Search");
  return (
    <>
      <Heading>{words ? `Search: ${words}` : "Search"}</Heading>
      <SearchBox initial={words} id="page-search" />
      {words ? <Results q={words} after={after} /> : <p>Type a few words: names of nodes, methods or models.</p>}
    </>
  );
}
