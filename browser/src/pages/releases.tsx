// `/releases`: every retained release, a page at a time (the shared Pager), each with what it
// changed against the release before it and a link to those changes; the newest first, or the
// oldest first (?sort=release|loaded&dir=asc|desc: both heads order by release number, which
// is the order of loading), filtered by the note's text and the days loaded on (?q=,
// ?loaded-from=, ?loaded-to=), all in the URL. 25 a page: the API's cost limit allows 25
// releases' change summaries in a request.
import { BrowserReleasesDocument, type ReleaseOrderField } from "../../../clients/typescript/src/gql/graphql";
import { answered } from "../api";
import {
  type Column,
  day,
  Field,
  FilterForm,
  IndexList,
  IndexProblem,
  indexState,
  orderBy,
  SortHeader,
} from "../index-table";
import { answeredSoFar, useQuery } from "../query";
import { pageArguments, PAGE_SIZES, type Place } from "../router";
import { useLatestRelease } from "../site-nav";
import { Heading, Loading, loadedAt, plural, useTitle } from "../ui";
import { changesUrl } from "./changes";
import { changed } from "./home";

/** The page sizes of this index: the API's cost limit (50,000 by default) allows 25 releases
 * with their change summaries (1,900 each) in one request, not 50. */
const SIZES = [PAGE_SIZES[0]];
const KINDS = ["nodes", "methods", "models", "treatments"] as const;
/** Releases are numbered in the order they were loaded: both heads sort by the number. */
const COLUMNS: readonly Column<ReleaseOrderField>[] = [
  { key: "release", label: "Release", field: "NUMBER", natural: "desc" },
  { key: "loaded", label: "Loaded", field: "NUMBER", natural: "desc" },
];
const FILTERS = ["q", "loaded-from", "loaded-to"] as const;

export function ReleasesPage({ place, query }: { place: Place; query: URLSearchParams }) {
  const at: Place = { ...place, size: SIZES[0] };
  const state = indexState("/releases", COLUMNS, FILTERS, query, at);
  const { q } = state.filters;
  const filter = {
    noteContains: q ?? null,
    // A date that is no day is left out (the API would refuse it): the form shows what is applied.
    loadedFrom: day(state.filters["loaded-from"]),
    loadedTo: day(state.filters["loaded-to"]),
  };
  const loaded = useQuery(BrowserReleasesDocument, { ...pageArguments(at), filter, orderBy: orderBy(state) });
  useTitle("Releases");
  useLatestRelease(answeredSoFar(loaded)?.latest);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") return <IndexProblem state={state} error={loaded} />;
  const releases = answered(loaded.data.releases, "releases");
  return (
    <>
      <Heading>Releases</Heading>
      <p class="lead">
        Every load of the data that is kept, {state.dir === "asc" ? "oldest" : "newest"} first, with what it changed
        against the release before it.
      </p>
      <FilterForm state={state} label="Filter the releases">
        <Field label="Note contains">
          <input type="search" name="q" defaultValue={q ?? ""} />
        </Field>
        <Field label="Loaded on or after">
          <input type="date" name="loaded-from" defaultValue={filter.loadedFrom ?? ""} />
        </Field>
        <Field label="Loaded on or before">
          <input type="date" name="loaded-to" defaultValue={filter.loadedTo ?? ""} />
        </Field>
      </FilterForm>
      <IndexList state={state} list={releases} at={at} noun={["release", "releases"]} sizes={SIZES}>
        <table class="index releases">
          <thead>
            <tr>
              <SortHeader state={state} column={COLUMNS[0]} />
              <SortHeader state={state} column={COLUMNS[1]} />
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
      </IndexList>
    </>
  );
}
