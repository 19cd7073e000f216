// `/`: the taxonomy's roots with their counts (and their children, one click from any of
// them), its totals, and the search box.
import { BrowserHomeDocument } from "../../../clients/typescript/src/gql/graphql";
import { useQuery } from "../query";
import { href } from "../router";
import { SearchBox } from "../search-box";
import { ApiProblem, Heading, Loading, plural, useTitle } from "../ui";

export function HomePage() {
  const loaded = useQuery(BrowserHomeDocument, {});
  useTitle("Machine-learning techniques by model");
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") return <ApiProblem message={loaded.message} />;
  const { taxonomy, roots } = loaded.data;
  return (
    <>
      <Heading>Machine-learning techniques, by the models that describe them</Heading>
      <p class="lead">
        {plural(taxonomy.methodCount, "method")} filed at {plural(taxonomy.nodeCount, "node")} of a
        taxonomy, from {plural(taxonomy.sourceCount, "source")} of {plural(taxonomy.modelCount, "model")} (
        {plural(taxonomy.evidenceCount, "piece")} of evidence).
      </p>
      <SearchBox id="home-search" />
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
            {root.description ? <p>{root.description}</p> : null}
            {root.children.length ? (
              <ul class="children" aria-label={`Sub-branches of ${root.name}`}>
                {root.children.map((child) => (
                  <li key={child.id}>
                    <a href={href.node(child.slugPath)}>{child.name}</a>{" "}
                    <span class="count">{child.counts.methodsInBranch}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
