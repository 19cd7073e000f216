// `/releases`: every retained release, newest first, a page at a time (the shared Pager), each
// with what it changed against the release before it and a link to those changes. The API
// lists releases newest first only, with no filter: this index has that one order, and
// 25 a page (its cost limit allows 25 releases' change summaries in a request).
import { BrowserReleasesDocument } from "../../../clients/typescript/src/gql/graphql";
import { answered } from "../api";
import { IndexProblem, indexState, indexUrl } from "../index-table";
import { Downloads } from "../downloads";
import { answeredSoFar, useQuery } from "../query";
import { pageArguments, PAGE_SIZES, type Place } from "../router";
import { useLatestRelease } from "../site-nav";
import { Heading, Loading, loadedAt, Pager, plural, TableScroll, thousands, useTitle } from "../ui";
import { changesUrl } from "./changes";
import { changed } from "./home";

/** The page sizes of this index: the API's cost limit (50,000 by default) allows 25 releases
 * with their change summaries (1,900 each) in one request, not 50. */
const SIZES = [PAGE_SIZES[0]];
const KINDS = ["nodes", "methods", "models", "treatments"] as const;

export function ReleasesPage({ place, query }: { place: Place; query: URLSearchParams }) {
  const at: Place = { ...place, size: SIZES[0] };
  const state = indexState("/releases", [], [], query, at);
  const loaded = useQuery(BrowserReleasesDocument, pageArguments(at));
  useTitle("Releases");
  useLatestRelease(answeredSoFar(loaded)?.latest);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") return <IndexProblem state={state} error={loaded} />;
  const releases = answered(loaded.data.releases, "releases");
  return (
    <>
      <Heading>Releases</Heading>
      <p class="lead">
        Every load of the data that is kept, newest first, with what it changed against the release before it.
      </p>
      <h2 id="releases-list">{thousands(releases.totalCount)} {releases.totalCount === 1 ? "release" : "releases"}</h2>
      <TableScroll labelledBy="releases-list">
        <table class="index releases">
          <thead>
            <tr>
              <th scope="col" aria-sort="descending">
                Release
              </th>
              <th scope="col">Loaded</th>
              <th scope="col">Note</th>
              <th scope="col">What it changed</th>
            </tr>
          </thead>
          <tbody>
            {releases.nodes.map((release) => {
              const { changes } = release;
              return (
                <tr key={release.id}>
                  <th scope="row">{release.number}</th>
                  <td class="date">{loadedAt(release.loadedAt)}</td>
                  <td>{release.note ?? ""}</td>
                  <td>
                    {!changes ? (
                      <span class="count">the first release kept: none before it to compare with</span>
                    ) : changes.isEmpty ? (
                      `nothing, against release ${changes.from.number}`
                    ) : (
                      <>
                        <a href={changesUrl(changes.from.number, release.number)}>
                          {plural(changes.summary.total, "change")} since release {changes.from.number}
                        </a>
                        <ul class="change-counts">
                          {KINDS.filter((kind) => changes.summary[kind].total).map((kind) => (
                            <li key={kind}>
                              {kind[0].toUpperCase() + kind.slice(1)}: {changed(changes.summary[kind])}
                            </li>
                          ))}
                        </ul>
                      </>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      <Pager
        list={releases}
        at={at}
        noun={["release", "releases"]}
        label="Releases: pages"
        anchor="releases-list"
        url={(next) => indexUrl(state, { place: next })}
        sizes={SIZES}
      />
      <Downloads page={state.path} label="Releases" />
    </>
  );
}
