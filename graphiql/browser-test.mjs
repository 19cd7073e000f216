// Drives GraphiQL in Debian's headless Chromium with every request that is not to this
// machine blocked: GraphiQL opens, its documentation explorer lists the types, the sample
// query runs and its result shows, with its cost (`extensions.cost`). tests/test_graphiql_browser.py runs it against a live
// `taxonomy serve`:  node browser-test.mjs BASE_URL SCREENSHOT.png
import { chromium } from "playwright-core";

import { localChromium } from "../tests/local_chromium.mjs";

const [base, screenshot] = process.argv.slice(2);
if (!base || !screenshot) {
  console.error("usage: node browser-test.mjs BASE_URL SCREENSHOT.png");
  process.exit(2);
}

function step(message) {
  console.log(`graphiql-browser: ${message}`);
}

const { context, page, blocked, problems, close } = await localChromium(chromium);
try {
  // GraphiQL opens, on the sample query.
  const response = await page.goto(`${base}/graphql`, { waitUntil: "load" });
  if (response?.status() !== 200) throw new Error(`GET /graphql: ${response?.status()}`);
  const editor = page.locator(".graphiql-query-editor .CodeMirror");
  await editor.waitFor();
  const query = await editor.evaluate((element) => element.CodeMirror.getValue());
  // The example operation itself (examples/operations/NodePage.graphql), whatever its
  // variable's type says.
  if (!query.includes("query NodePage(") || !query.includes('"optimization/training-parallelism"')) {
    throw new Error(`the query editor does not hold the sample query:\n${query}`);
  }
  step("GraphiQL opened on the sample query");

  // The documentation explorer lists the types, from the schema's introspection.
  await page.getByRole("button", { name: "Show Documentation Explorer" }).click();
  const explorer = page.locator(".graphiql-doc-explorer");
  await explorer.getByText("Root Types").waitFor();
  await explorer.locator(".graphiql-doc-explorer-type-name", { hasText: /^Query$/ }).first().waitFor();
  const types = await explorer.locator(".graphiql-doc-explorer-type-name").allInnerTexts();
  for (const name of ["Query", "Node", "Model", "Method"]) {
    if (!types.includes(name)) throw new Error(`the docs list no type ${name}: ${types}`);
  }
  step(`the documentation explorer lists ${types.length} types (${types.slice(0, 6).join(", ")}, ...)`);

  // Query's fields open from the explorer.
  await explorer.locator(".graphiql-doc-explorer-type-name", { hasText: /^Query$/ }).first().click();
  await explorer.locator(".graphiql-doc-explorer-field-name", { hasText: /^node$/ }).first().waitFor();
  step("Query's fields are documented (node, ...)");

  // Run the query; the result pane shows the seed page.
  await page.locator("button.graphiql-execute-button").click();
  const result = page.locator(".graphiql-response .CodeMirror");
  await result.getByText("training parallelism").first().waitFor();
  const text = await result.evaluate((element) => element.CodeMirror.getValue());
  const data = JSON.parse(text);
  if (data.errors) throw new Error(`the query failed: ${text.slice(0, 2000)}`);
  if (data.data.node.name !== "training parallelism" || !text.includes('"Kimi K3"')) {
    throw new Error(`unexpected result: ${text.slice(0, 2000)}`);
  }
  step(`the result shows ${data.data.node.name}, ${data.data.node.byModel.nodes.length} models (Kimi K3 among them)`);

  // The response pane shows the answer whole, its cost too (docs/api-guide.md, "What a
  // query costs"): what the query was counted at, what it spent, and the limit.
  const cost = data.extensions?.cost;
  if (!cost || !(cost.requested > 0) || cost.spent < cost.requested || !(cost.limit > 0)) {
    throw new Error(`the response pane shows no cost: ${JSON.stringify(data.extensions)}`);
  }
  step(`the response pane shows the cost: requested ${cost.requested}, spent ${cost.spent}, limit ${cost.limit}`);

  // A dialog opens and closes (GraphiQL then writes its one inline style, which the
  // page's Content-Security-Policy allows by hash: api/endpoint/graphiql.py).
  await page.getByRole("button", { name: "Open settings dialog" }).click();
  await page.getByRole("dialog").waitFor();
  await page.keyboard.press("Escape");
  await page.getByRole("dialog").waitFor({ state: "detached" });
  step("the settings dialog opened and closed");

  await page.screenshot({ path: screenshot });
  step(`screenshot ${screenshot}`);
  if (blocked.length) throw new Error(`requests beyond this machine were made: ${blocked}`);
  if (problems.length) throw new Error(`the page had errors:\n${problems.join("\n")}`);
} catch (error) {
  try {
    await context.pages()[0]?.screenshot({ path: screenshot });
    console.error(`graphiql-browser: screenshot of the failure: ${screenshot}`);
  } catch {}
  if (blocked.length) console.error(`graphiql-browser: blocked: ${blocked.join(" ")}`);
  if (problems.length) console.error(`graphiql-browser: ${problems.join("\n")}`);
  throw error;
} finally {
  await close();
}
