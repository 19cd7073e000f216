// The taxonomy browser: one page per URL of DESIGN.md §6, each built from one GraphQL
// round trip through the generated client's typed documents. api/pages/browser.py serves the
// same HTML (an empty #app, this script and its style sheet) at each of those URLs.
import { render } from "preact";

import { AboutPage } from "./pages/about";
import { ChangesPage } from "./pages/changes";
import { HomePage } from "./pages/home";
import { MethodPage } from "./pages/method";
import { MethodsPage } from "./pages/methods";
import { ModelPage } from "./pages/model";
import { ModelsPage } from "./pages/models";
import { NodePage } from "./pages/node";
import { ReleasesPage } from "./pages/releases";
import { SearchPage } from "./pages/search";
import { interceptLinks, route, type Route, useLocation } from "./router";
import { SearchBox } from "./search-box";
import { SiteNav } from "./site-nav";
import { Problem, SITE, WaysOn } from "./ui";

import "./style.css";

function Page({ at }: { at: Route }) {
  switch (at.page) {
    case "home":
      return <HomePage />;
    case "about":
      return <AboutPage />;
    case "node":
      return <NodePage key={at.path} path={at.path} place={at.place} query={at.query} />;
    case "model":
      return <ModelPage key={at.slug} slug={at.slug} place={at.place} query={at.query} />;
    case "method":
      return <MethodPage key={at.slug} slug={at.slug} place={at.place} query={at.query} />;
    case "search":
      return <SearchPage q={at.q} place={at.place} type={at.type} />;
    case "changes":
      return <ChangesPage since={at.since} until={at.until} places={at.places} kind={at.kind} type={at.type} />;
    case "models":
      return <ModelsPage place={at.place} query={at.query} />;
    case "methods":
      return <MethodsPage place={at.place} query={at.query} />;
    case "releases":
      return <ReleasesPage place={at.place} query={at.query} />;
    default:
      return (
        <Problem title="There is no page here">
          <p>
            There is no page at <code>{at.path}</code>. The link may be mistyped, or it may be old: the taxonomy is
            updated from time to time. From here you can go to:
          </p>
          <WaysOn />
        </Problem>
      );
  }
}

/** The URL this document was loaded at, and why the server refused it (HTTP 400: a word or
 * a place its list does not take; api/pages/browser.py puts the reason in `data-refused`). */
const loaded = {
  href: window.location.href,
  refused: document.querySelector("#app main[data-refused]")?.getAttribute("data-refused") ?? null,
};

/** A page the server refused, in its words, while the reader is at that URL: never the
 * list in another order, or another list, than the link asked for. */
function Refused({ reason, path }: { reason: string; path: string }) {
  return (
    <Problem title="Not a page of this list">
      <p>{reason}</p>
      <p>
        <a href={path}>Open the list as it starts</a>, or go on from here:
      </p>
      <WaysOn />
    </Problem>
  );
}

function App() {
  const url = useLocation();
  const at = route(url);
  const refused = loaded.refused !== null && url.href === loaded.href ? loaded.refused : null;
  const ownSearch = at.page === "home" || at.page === "search";
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="site">
        <a class="brand" href="/">
          {SITE}
        </a>
        <SiteNav path={url.pathname} />
        {ownSearch ? null : <SearchBox key={url.href} id="site-search" />}
      </header>
      <main id="main">
        {refused === null ? <Page at={at} /> : <Refused reason={refused} path={url.pathname} />}
      </main>
      <footer class="site">
        <p>
          Every page here is built from the public GraphQL API: explore it in <a href="/graphql">GraphiQL</a>.
        </p>
      </footer>
    </>
  );
}

const root = document.getElementById("app");
if (root) {
  root.textContent = "";
  interceptLinks(document.body);
  render(<App />, root);
}
