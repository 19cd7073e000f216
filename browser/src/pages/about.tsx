// `/about`: the help page for newcomers, in plain words: what the taxonomy is, what core,
// used and mentioned mean, what each count counts, how to read the By-model table and the
// adoption chart, and what releases and changes are. Its words are its own; the taxonomy's
// totals come from the home page's operation (BrowserHome, so the page is one persisted GET
// like the others, and the header learns the latest release from it).
import { BrowserHomeDocument } from "../../../clients/typescript/src/gql/graphql";
import { answeredSoFar, useQuery } from "../query";
import { href } from "../router";
import { useLatestRelease } from "../site-nav";
import { Badge, Heading, plural, useTitle } from "../ui";

export function AboutPage() {
  const loaded = useQuery(BrowserHomeDocument, {});
  useTitle("How to read these pages");
  useLatestRelease(answeredSoFar(loaded)?.releases);
  const taxonomy = loaded.state === "done" ? loaded.data.taxonomy : null;
  return (
    <article class="about">
      <p class="kicker">help</p>
      <Heading>How to read these pages</Heading>
      <p class="lead">
        This is a map of machine-learning techniques, built from what AI models’ own documents (technical reports,
        papers, model cards) say about how each model was made.
        {taxonomy
          ? ` Right now it files ${plural(taxonomy.methodCount, "method")} in ${plural(taxonomy.nodeCount, "place")}, from the documents of ${plural(taxonomy.modelCount, "model")}.`
          : ""}
      </p>
      <nav aria-label="On this page" class="contents">
        <ul>
          <li>
            <a href="#tree">The tree</a>
          </li>
          <li>
            <a href="#strengths">Core, used, mentioned</a>
          </li>
          <li>
            <a href="#counts">The counts</a>
          </li>
          <li>
            <a href="#by-model">The By-model table</a>
          </li>
          <li>
            <a href="#adoption">The adoption chart</a>
          </li>
          <li>
            <a href="#releases">Releases and changes</a>
          </li>
        </ul>
      </nav>

      <section aria-labelledby="tree">
        <h2 id="tree">The tree</h2>
        <p>
          Techniques are sorted into a tree, from broad areas (such as <em>optimization</em>) down to narrow ones
          (such as <em>training parallelism</em>). Each place in the tree is a <strong>node</strong>; a node and
          everything below it is a <strong>branch</strong>. Each technique, called a <strong>method</strong> here, is
          filed at exactly one node. A node’s full name lists the nodes above it: <em>optimization :: training
          parallelism</em>. The line of links at the top of a page (the breadcrumb) shows the same path; click any
          part of it to go up.
        </p>
      </section>

      <section aria-labelledby="strengths">
        <h2 id="strengths">Core, used and mentioned</h2>
        <p>
          Each time a model’s documents talk about a method, we note how strongly. From strongest to weakest:
        </p>
        <dl class="terms">
          <dt>
            <Badge strength="CORE" />
          </dt>
          <dd>The method is one of the model’s own central contributions: the documents present it as part of what
            makes this model what it is.</dd>
          <dt>
            <Badge strength="USED" />
          </dt>
          <dd>The documents say the model uses the method, but it is not one of the model’s main points.</dd>
          <dt>
            <Badge strength="MENTIONED" />
          </dt>
          <dd>The documents name the method (to compare with it, say) without saying that the model uses it.</dd>
        </dl>
        <p>
          A model’s documents may talk about a method several times; the badge beside the pair shows the strongest
          of them. Beside a model’s name in a branch, the badge is the strongest it reaches for any method of that
          branch. Each badge comes from quotes you can read on the model’s and the method’s pages.
        </p>
      </section>

      <section aria-labelledby="counts">
        <h2 id="counts">The counts: “in this branch” and “filed here”</h2>
        <dl class="terms">
          <dt>In this branch</dt>
          <dd>The methods filed at the node or at any node below it. A top-level node counts everything under it.</dd>
          <dt>Filed here</dt>
          <dd>Only the methods filed at the node itself, not below it. Often 0 for a broad node, whose methods sit in
            its sub-branches.</dd>
          <dt>Models</dt>
          <dd>The models whose documents talk about at least one method of the branch, at any strength.</dd>
        </dl>
        <p>
          Counts are of different things, so they do not add up across a page: one model can treat many methods,
          and one method can be treated by many models.
        </p>
      </section>

      <section aria-labelledby="by-model">
        <h2 id="by-model">The By-model table</h2>
        <p>
          On a node’s page, the By-model table has one row per model that treats a method of the branch. The row
          starts with the model’s name and its strongest treatment anywhere in the branch, then lists the branch’s
          methods that the model treats, each with its own badge, strongest first. Long rows show their first 12
          methods and link to the model for the rest. Rows are newest model first (models without a release date
          last); you can order them by name, by strength or by how many methods they have. Long tables come a page
          at a time: the links under the table move between pages, and each page has its own address you can share.
          You can choose 10 or 25 rows a page (up to 100 in the indexes and search, whose rows are one line each);
          to have every row at once, download the table as CSV or JSON.
        </p>
      </section>

      <section aria-labelledby="adoption">
        <h2 id="adoption">The adoption chart</h2>
        <p>
          Node and method pages end with two small charts over the same quarters of a year: how many models
          released in each quarter treat the branch (or the method), and the running total so far. Point at a
          quarter to see its numbers. A model whose release date is not known cannot be put in a quarter: it is
          left out of the chart, and the page says how many are.
        </p>
      </section>

      <section aria-labelledby="releases">
        <h2 id="releases">Releases and changes</h2>
        <p>
          The data is updated from time to time. Each update is a numbered <strong>release</strong>;
          the <a href={href.index("releases")}>releases page</a> lists them, newest first (or oldest first), with
          what each changed, and finds them by their note or the days they were loaded on.
          The Changes link at the top of every page shows what the latest release changed: records added or
          removed, nodes and methods moved or renamed, and treatments that became stronger or weaker. An old link to
          something that has since moved or gone still leads somewhere that says so.
        </p>
      </section>

      <section aria-labelledby="start">
        <h2 id="start">Where to start</h2>
        <ul>
          <li>
            <a href="/">The home page</a>: the main branches and their counts.
          </li>
          <li>
            The search box at the top of every page: names of nodes, methods or models, typos forgiven.
          </li>
          <li>
            Every <a href={href.index("models")}>model</a> and every <a href={href.index("methods")}>method</a>, in
            tables you can sort and filter.
          </li>
          <li>
            For programmers: every page here is built from a public GraphQL API, which you can try in{" "}
            <a href="/graphql">GraphiQL</a>.
          </li>
        </ul>
      </section>
    </article>
  );
}
