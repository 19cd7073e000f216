// GraphiQL for /graphql, bundled with everything it needs so that the page loads nothing
// from another origin. api/endpoint/graphiql.py writes the page: a #graphiql element to render into
// and the sample query in #graphiql-query; this file is built into api/static/graphiql/.
import { createGraphiQLFetcher } from "@graphiql/toolkit";
import { explorerPlugin } from "@graphiql/plugin-explorer";
import { GraphiQL } from "graphiql";
import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";

import "graphiql/style.css";
import "@graphiql/plugin-explorer/style.css";
import "./page.css";

// As Strawberry's page does: ?query=, ?variables= and ?headers= open GraphiQL on a shared
// query, and editing keeps them in the address bar.
const parameters = Object.fromEntries(new URLSearchParams(window.location.search));

function updateURL(changes) {
  Object.assign(parameters, changes);
  const search = new URLSearchParams(
    Object.entries(parameters).filter(([, value]) => Boolean(value)),
  ).toString();
  window.history.replaceState(null, "", search ? `?${search}` : window.location.pathname);
}

const endpoint = window.location.href.split(/[?#]/)[0];
const sampleQuery = document.getElementById("graphiql-query")?.textContent ?? "";
const fetcher = createGraphiQLFetcher({ url: endpoint });
const plugins = [explorerPlugin()];

function App() {
  const [query, setQuery] = useState(parameters.query || sampleQuery);
  const [variables, setVariables] = useState(parameters.variables);
  const [headers, setHeaders] = useState(parameters.headers);
  return (
    <GraphiQL
      fetcher={fetcher}
      plugins={plugins}
      query={query}
      variables={variables}
      headers={headers}
      onEditQuery={(value) => {
        setQuery(value);
        updateURL({ query: value === sampleQuery ? "" : value });
      }}
      onEditVariables={(value) => {
        setVariables(value);
        updateURL({ variables: value });
      }}
      onEditHeaders={(value) => setHeaders(value)}
      defaultEditorToolsVisibility={true}
      inputValueDeprecation={true}
      isHeadersEditorEnabled={true}
    />
  );
}

createRoot(document.getElementById("graphiql")).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
