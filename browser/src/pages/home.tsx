// `/`: the taxonomy's roots with their counts (and their children, one click from any of
// them), its totals, the search box, and the latest release with what it changed.
import { BrowserHomeDocument, type BrowserHomeQuery } from "../../../clients/typescript/src/gql/graphql";
import { answered } from "../api";
import { answeredSoFar, useQuery } from "../query";
import { changesUrl } from "./changes";
import { CHANGE_KINDS, href } from "../router";
import { Markdown } from "../markdown";
import { SearchBox } from "../search-box";
import { useLatestRelease } from "../site-nav";
import { ApiProblem, Heading, Loading, loadedAt, plural, thousands, useTitle } from "../ui";

type Release = NonNullable<BrowserHomeQuery["releases"]>["nodes"][number];
type Counts = Record<(typeof KINDS)[number], number>;

const KINDS = CHANGE_KINDS;

/** One kind of record's changes in words: "2 added, 1 renamed"; "none" when nothing (the
 * releases index says the same). */
export function changed(counts: Counts): string {
  const parts = KINDS.filter((kind) => counts[kind]).map((kind) => `${thousands(counts[kind])} ${kind}`);
  return parts.length ? parts.join(", ") : "none";
}

/** The latest release: its number, when it was loaded, and what it changed against the one
 * before it, per kind of record, with a link to the changes page. */
function LatestRelease({ release }: { release: Release | undefined }) {
  if (!release) return null;
  const { changes } = release;
  return (
    <section aria-labelledby="latest-release" class="release">
      <h2 id="latest-release">Latest release</h2>
      <p>
        Release {release.number}, loaded {loadedAt(release.loadedAt)}
        {release.note ? ` (${release.note})` : ""}.
      </p>
      {!changes ? (
        <p>The first release: there is no release before it to compare with.</p>
      ) : changes.isEmpty ? (
        <p>It changed nothing against release {changes.from.number}.</p>
      ) : (
        <>
          <p>
            What it changed against release {changes.from.number}: {plural(changes.summary.total, "change")} (
            <a href={changesUrl(changes.from.number, release.number)}>the changes, one by one</a>).
          </p>
          <ul class="change-counts">
            <li>Nodes: {changed(changes.summary.nodes)}</li>
            <li>Methods: {changed(changes.summary.methods)}</li>
            <li>Models: {changed(changes.summary.models)}</li>
            <li>Treatments: {changed(changes.summary.treatments)}</li>
          </ul>
        </>
      )}
    </section>
  );
}

/** Sub-branches a root's card lists; the rest are folded under "N more sub-branches" (a
 * root can have a hundred: the page stays short, and each is still on it). */
const CHILDREN_SHOWN = 12;

type Root = BrowserHomeQuery["roots"][number];

function ChildList({ label, children }: { label: string; children: Root["children"] }) {
  return (
    <ul class="children" aria-label={label}>
      {children.map((child) => (
        <li key={child.id}>
          <a href={href.node(child.slugPath)}>{child.name}</a>{" "}
          <span class="count">{thousands(child.counts.methodsInBranch)}</span>
        </li>
      ))}
    </ul>
  );
}

/** A root's sub-branches, each with how many methods its branch has. */
function Children({ root }: { root: Root }) {
  const { children } = root;
  if (!children.length) return null;
  const label = `Sub-branches of ${root.name}`;
  if (children.length <= CHILDREN_SHOWN) return <ChildList label={label} children={children} />;
  return (
    <>
      <ChildList label={label} children={children.slice(0, CHILDREN_SHOWN)} />
      <details class="more-children">
        <summary>{plural(children.length - CHILDREN_SHOWN, "more sub-branch", "more sub-branches")}</summary>
        <ChildList label={`More sub-branches of ${root.name}`} children={children.slice(CHILDREN_SHOWN)} />
      </details>
    </>
  );
}

export function HomePage() {
  const loaded = useQuery(BrowserHomeDocument, {});
  useTitle("Machine-learning techniques by model");
  useLatestRelease(answeredSoFar(loaded)?.releases);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") return <ApiProblem message={loaded.message} />;
  const { taxonomy, roots } = loaded.data;
  const releases = answered(loaded.data.releases, "releases");
  return (
    <>
      <Heading>Machine-learning techniques, by the models that describe them</Heading>
      <p class="lead">
        {plural(taxonomy.methodCount, "method")} filed at {plural(taxonomy.nodeCount, "node")} of a
        taxonomy, from {plural(taxonomy.sourceCount, "source")} of {plural(taxonomy.modelCount, "model")} (
        {plural(taxonomy.evidenceCount, "piece")} of evidence).
      </p>
      <p>
        New here? <a href="/about">How to read these pages</a>: what core, used and mentioned mean, and what each
        count counts.
      </p>
      <SearchBox id="home-search" />
      <LatestRelease release={releases.nodes[0]} />
      <h2>Branches</h2>
      <ul class="cards">
        {roots.map((root) => (
          <li key={root.id} class="card">
            <h3>
              <a href={href.node(root.slugPath)}>{root.name}</a>
            </h3>
            <p class="counts">
              {plural(root.counts.methodsInBranch, "method")} · {plural(root.counts.modelsInBranch, "model")} ·{" "}
              {plural(root.counts.childCount, "sub-branch", "sub-branches")}
            </p>
            {root.description ? <Markdown text={root.description} /> : null}
            <Children root={root} />
          </li>
        ))}
      </ul>
    </>
  );
}
