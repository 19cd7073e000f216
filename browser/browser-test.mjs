// Drives the taxonomy browser in Debian's headless Chromium, with every request that is not
// to this machine blocked. tests/test_browser.py runs it against a live `taxonomy serve`:
//
//   node browser-test.mjs BASE_URL fixtures SEED_PAGE.txt ARTIFACTS_DIR
//     every page type loads without console errors, has a title and passes axe-core (no
//     serious or critical violation, light and dark at 1280 px, light at 390 px); the seed node's text is the seed
//     page's; one GraphQL round trip per page, persisted-query GETs; links, back, forward
//     and reload; search by keyboard only; 360 to 1,600 px wide; an API error's message; the
//     adoption charts of the seed node and a method have the API's periods as bars; a word a
//     list does not take (/methods?sort=sideways) is a 400 page that says which; the 404
//     and 400 pages have a search box that searches and a link home; a node's sub-branches
//     are under their own heading, before the By-model table; the model page has its History
//     section; a paper that is a model and its source (Mistral 7B) is one search result.
//   node browser-test.mjs BASE_URL changes ARTIFACTS_DIR
//     after the fixtures and an edited copy of them (tests/test_browser.py's edits): the home
//     page shows release 2 and its counts, the changes page lists the edits with links, and
//     an unknown release's page says so.
//   node browser-test.mjs BASE_URL paging ARTIFACTS_DIR
//     after three releases, /changes?since=1&until=2 shows 10 rows a list ("1–10 of 38
//     nodes"); at 50 a list (its size link), each list walked page by page by its "Next"
//     link and back by its "Previous 50" link (the other lists staying put, a reload keeping
//     the page); /changes?since=1 pages the newest comparison, 10 or 25 a list. The rows and
//     positions of every page are printed in the summary, for tests/test_browser.py to
//     compare with the reference.
//   node browser-test.mjs BASE_URL sizes SEED_PAGE.txt ARTIFACTS_DIR
//     a generated M-size set with a second release: every page kind at its biggest is at
//     most 5,000 px tall at 1280 x 800, passes axe-core at 1280 and 390 px wide and does
//     not scroll sideways at 390 px (the 404, 400 and 410 pages too), its HTML
//     carries its title and description; the seed page is still the seed's; the changes
//     page shows 10 rows a list; a changed method's and a changed model's History say which
//     field changed; the root with the most sub-branches has them all under their heading.
//   node browser-test.mjs BASE_URL hostile ARTIFACTS_DIR
//     names made of markup and script (tests/test_browser.py's dataset) show as text, and a
//     description's `javascript:` link as its text alone; the server keeps no persisted
//     query, so each page falls back to POSTing its document.
//   node browser-test.mjs GO_URL datasets PWC_URL DEEP_NODE METHOD ARTIFACTS_DIR
//     the real datasets (../shared/testdata), each served: the Gene Ontology's deepest node
//     DEEP_NODE has a folded breadcrumb that unfolds, and nothing scrolls sideways at 390 px;
//     the Papers with Code method METHOD's markdown description shows as paragraphs, bold
//     and http(s) links, no raw markdown; the home page's counts have thousands separators.
//   node browser-test.mjs BASE_URL method-paging METHOD MODEL ARTIFACTS_DIR
//     the fixtures and more models (tests/test_browser.py's): METHOD's page lists its models
//     25 a page ("26–50 of 60 models"), by its next and previous links, at 50 a page by its
//     size link, each page the API's, each URL (position, cursor, size) surviving a reload
//     and back; a row says how many more pieces of evidence it has; MODEL's page pages its
//     methods the same way. The positions shown are printed in the summary.
//
// Screenshots of each page go to ARTIFACTS_DIR; the last line printed is a JSON summary.
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import axe from "axe-core";
import { chromium } from "playwright-core";

import { localChromium } from "../tests/local_chromium.mjs";

const [base, mode, ...rest] = process.argv.slice(2);
if (!["fixtures", "hostile", "changes", "paging", "method-paging", "datasets", "walk", "sizes"].includes(mode) || !base) {
  console.error(
    "usage: node browser-test.mjs BASE fixtures|sizes SEED.txt DIR | BASE hostile|changes|paging|walk DIR | BASE method-paging METHOD MODEL DIR | GO datasets PWC DEEP_NODE METHOD DIR",
  );
  process.exit(2);
}
const summary = { mode, screenshots: [], axe: {}, checks: [] };

const started = performance.now();

/** A check passed: in the summary, and printed with the seconds since the start (a slow
 * step shows where a run waits). */
function step(message) {
  summary.checks.push(message);
  console.log(`browser-test: [${((performance.now() - started) / 1000).toFixed(1)} s] ${message}`);
}

function fail(message) {
  throw new Error(message);
}

const { context, page, blocked, problems, close } = await localChromium(chromium, {
  viewport: { width: 1280, height: 900 },
  consoleTypes: ["error", "warning"],
});
const graphql = []; // every request to /graphql: method, URL
// The page's requests still in flight, for idle(). Playwright's "networkidle" waits for a
// fixed 500 ms of quiet after each load (its docs discourage it in tests), 60-70 times a run,
// and after a click within the page it has fired already, so it waited for nothing there.
const inFlight = new Set();
let requestsStarted = 0;
page.on("request", (request) => {
  inFlight.add(request);
  requestsStarted += 1;
  const url = new URL(request.url());
  if (url.pathname === "/graphql") graphql.push({ method: request.method(), url: request.url() });
});
for (const done of ["requestfinished", "requestfailed"]) page.on(done, (request) => inFlight.delete(request));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the page shows a part still loading (ui.tsx's Loading: each query shows it
 * from the moment its part is drawn, before its request starts, until its data is in). A
 * document that a navigation replaces while it is asked counts as loading. */
function loading() {
  return page
    .evaluate(() =>
      [...document.querySelectorAll("main [role=status]")].some((status) => status.textContent === "Loading…"),
    )
    .catch(() => true);
}

/** Waits until none of the page's requests is in flight, nothing shows "Loading…", and no
 * request starts for ``quietMs`` (one that a finished one leads to, or that a timer starts
 * after a click or a key: the search box's suggestions, say). */
async function idle(quietMs = 100) {
  const deadline = performance.now() + 30_000;
  for (;;) {
    const seen = requestsStarted;
    if (!inFlight.size && !(await loading())) {
      await sleep(quietMs);
      if (!inFlight.size && requestsStarted === seen && !(await loading())) return;
    } else await sleep(10);
    if (performance.now() > deadline) {
      const urls = [...inFlight].map((r) => r.url()).join(", ") || "none";
      fail(`not settled after 30 s: in flight: ${urls}; "Loading…" shown: ${await loading()}`);
    }
  }
}

/** After a page opens, each request comes from a part as it is drawn, and each part shows
 * "Loading…" until its data is in: a short quiet is enough (84 opens in a fixtures run
 * waited 100 ms each before). */
const QUIET_AFTER_OPEN_MS = 25;

/** The page's main content as lines of text, as a reader copies it (empty lines dropped). */
async function lines() {
  const text = await page.locator("main").innerText();
  return text.split("\n").map((line) => line.trim()).filter(Boolean);
}

/** Opens ``path`` and waits for its heading (pages focus their h1 once their data is in). */
async function open(path, status = 200) {
  graphql.length = 0;
  const response = await page.goto(`${base}${path}`, { waitUntil: "load" });
  if (response?.status() !== status) fail(`GET ${path}: HTTP ${response?.status()}, not ${status}`);
  await page.locator("main h1").waitFor();
  await idle(QUIET_AFTER_OPEN_MS);
}

async function checkAxe(name) {
  // Injected once per document: axe-core's 0.5 MB of source took the renderer ~0.1 s to
  // compile at each of a run's ~40 checks, most of them on a document that had it already.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  const result = await page.evaluate(() =>
    window.axe.run(document, { resultTypes: ["violations"] }),
  );
  const bad = result.violations.filter((v) => ["serious", "critical"].includes(v.impact));
  summary.axe[name] = result.violations.map((v) => `${v.id} (${v.impact})`);
  if (bad.length) {
    fail(
      `axe-core on ${name}: ${bad
        .map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`)
        .join("\n")}`,
    );
  }
}

async function shot(name) {
  const path = join(rest.at(-1), `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  summary.screenshots.push(path);
}

/** A phone's width: the layout holds and axe-core passes at it as at 1280 px (issue 27). */
const PHONE = 390;

/** The open page at 360, 390, 768 and 1,600 px wide: nothing scrolls sideways (a screenshot of
 * each; a wide table scrolls inside its own box); at 390 px axe-core passes too. */
async function checkWidths(name) {
  for (const width of [360, PHONE, 768, 1600]) {
    await page.setViewportSize({ width, height: 900 });
    const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    if (scroll > inner) fail(`${name}: at ${width} px the page is ${scroll} px wide`);
    if (width === PHONE) await checkAxe(`${name} at ${PHONE} px`);
    await shot(`${name}-${width}px`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The open page at 390 px wide (a phone): nothing scrolls sideways, and axe-core passes. */
async function checkNarrow(name) {
  await page.setViewportSize({ width: PHONE, height: 900 });
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  if (scroll > PHONE) fail(`${name}: at ${PHONE} px the page is ${scroll} px wide`);
  await checkAxe(`${name} at ${PHONE} px`);
  await shot(`${name}-${PHONE}px`);
  await page.setViewportSize({ width: 1280, height: 900 });
  return scroll;
}

/** Drops the console's line about a response of ``status``, which that page is meant to have. */
function expectFailed(status) {
  const line = problems.findIndex((p) => p.startsWith("console error: Failed to load resource") && p.includes(`status of ${status}`));
  if (line < 0) fail(`no console line about the expected HTTP ${status}`);
  problems.splice(line, 1);
}

function clean(where) {
  if (problems.length) fail(`${where}: ${problems.join("\n")}`);
}

/** Each page: loads, one GraphQL GET (``trips``: a node, model or method page whose subject
 * is not there asks what was there too), a meaningful title, axe light and dark, screenshot. */
async function pageType(name, path, titleHas, status = 200, trips = 1) {
  await open(path, status);
  // The server registered the browser's documents at start: even a first view is one GET.
  const gets = graphql.filter((r) => r.method === "GET");
  if (graphql.length !== trips || gets.length !== trips) fail(`${name}: not ${trips} GraphQL GET: ${JSON.stringify(graphql)}`);
  const params = new URL(gets[0].url).searchParams;
  const extensions = JSON.parse(params.get("extensions") ?? "{}");
  if (params.has("query") || !/^[0-9a-f]{64}$/.test(extensions.persistedQuery?.sha256Hash ?? "")) {
    fail(`${name}: the GET is not a persisted query by hash: ${gets[0].url}`);
  }
  const title = await page.title();
  if (!title.includes(titleHas)) fail(`${name}: title ${JSON.stringify(title)} lacks ${JSON.stringify(titleHas)}`);
  await checkHeader(name);
  await checkAxe(name);
  await shot(name);
  await page.emulateMedia({ colorScheme: "dark" });
  await checkAxe(`${name} (dark)`);
  await page.emulateMedia({ colorScheme: "light" });
  if (status !== 200) expectFailed(status);
  clean(name);
  step(`${name} (${path}): HTTP ${status}, title "${title}", one persisted GET, header links, axe clean light and dark`);
}

/** A query's data, asked of the API outside the page (what the page must show). */
async function api(query, variables = {}) {
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const { data, errors } = await response.json();
  if (errors) fail(`the API refused ${query}: ${JSON.stringify(errors)}`);
  return data;
}

/** The rows of a download's body: a JSON array's objects, or a CSV's lines after its header
 * (each a line here: the fixtures' cells hold no line breaks). */
function downloadRows(extension, body) {
  if (extension === "json") return JSON.parse(body);
  const lines = body.split("\r\n");
  if (lines.at(-1) !== "") fail(`a CSV download does not end its last line: ${JSON.stringify(body.slice(-80))}`);
  return lines.slice(1, -1);
}

/** The open page's downloads of a table (the ``nth`` on the page): "Download CSV · Download
 * JSON", links (with `download`) to ``path``.csv and .json carrying the page's sort and
 * filter (``want``: each URL parameter's value, null for none); each answers the whole table,
 * ``total`` rows (JSON's first row's ``key`` is ``first``), in its content type. */
async function checkDownloads(where, { nth = 0, path, want = {}, total, key = null, first = null }) {
  const group = page.locator("main .downloads").nth(nth);
  const links = await group.locator("a").evaluateAll((as) => as.map((a) => ({ text: a.textContent.trim(), href: a.getAttribute("href"), download: a.hasAttribute("download") })));
  if (JSON.stringify(links.map((link) => link.text)) !== JSON.stringify(["Download CSV", "Download JSON"])) fail(`${where}: the download links are ${JSON.stringify(links)}`);
  for (const link of links) {
    const extension = link.text.endsWith("CSV") ? "csv" : "json";
    const url = new URL(link.href, base);
    if (url.pathname !== `${path}.${extension}` || !link.download) fail(`${where}: "${link.text}" links to ${link.href} (download: ${link.download}), not ${path}.${extension}`);
    for (const [name, value] of Object.entries(want)) {
      if (url.searchParams.get(name) !== value) fail(`${where}: "${link.text}" has ${name}=${url.searchParams.get(name)}, not ${value}`);
    }
    const response = await fetch(url);
    const body = await response.text();
    const media = extension === "csv" ? "text/csv" : "application/json";
    if (response.status !== 200 || !response.headers.get("content-type").startsWith(media)) fail(`${where}: ${url} answers ${response.status} ${response.headers.get("content-type")}: ${body.slice(0, 200)}`);
    const rows = downloadRows(extension, body);
    if (rows.length !== total) fail(`${where}: ${url} has ${rows.length} rows, the table ${total}`);
    if (extension === "json" && key && rows[0][key] !== first) fail(`${where}: ${url}'s first row has ${key} ${rows[0][key]}, not ${first}`);
  }
  step(`${where}: "Download CSV · Download JSON" under the table, with the page's ${JSON.stringify(want)}, each the table's ${total} rows`);
}

let latestChanges = null;

/** The header's links: Models, Methods, Releases, and Changes to what the latest release
 * changed (the API's latest release against the one before it), or to /releases when there
 * is no release before it. */
async function checkHeader(name) {
  if (latestChanges === null) {
    const newest = (await api("{ releases(first: 1) { nodes { number changes { from { number } } } } }")).releases.nodes[0];
    latestChanges = newest.changes ? `/changes?since=${newest.changes.from.number}&until=${newest.number}` : "/releases";
  }
  const nav = page.getByRole("navigation", { name: "Indexes" });
  for (const [label, href] of [["Models", "/models"], ["Methods", "/methods"], ["Releases", "/releases"], ["Changes", latestChanges], ["Help", "/about"]]) {
    const link = nav.getByRole("link", { name: label, exact: true });
    try {
      await link.and(page.locator(`[href="${href}"]`)).waitFor({ timeout: 5_000 });
    } catch {
      fail(`${name}: the header's ${label} link goes to ${await link.getAttribute("href").catch(() => "nowhere")}, not ${href}`);
    }
  }
}

/** The API's own adoption series for ``field`` (a query's selection), asked outside the page,
 * and how many models it leaves out for want of a release date. */
async function apiAdoption(field) {
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: `{ ${field} { adoption { period models cumulativeModels } undatedModels } }` }),
  });
  const { data } = await response.json();
  return Object.values(data)[0];
}

/** The open page's adoption chart: two charts, each with labelled ticks on both axes (their
 * values in order, from 0, the top at or over the series' largest); a bar and a dot per
 * period of the API's series, each period with a tooltip (<title>) of its numbers; the
 * hidden table's numbers (what a screen reader reads) the API's, period by period; and,
 * when the API counts undated models, the note that they are not plotted. */
async function checkAdoption(name, field) {
  const { adoption: expected, undatedModels } = await apiAdoption(field);
  if (!expected.length) fail(`${name}: the API's adoption series is empty, nothing to chart`);
  const bars = await page.locator(".adoption svg rect.bar").count();
  if (bars !== expected.length) fail(`${name}: ${bars} bars in the adoption chart, the API has ${expected.length} periods`);
  const rows = await page.locator(".adoption table tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [...tr.children].map((cell) => cell.textContent)),
  );
  const wanted = expected.map((point) => [point.period, NUMBER.format(point.models), NUMBER.format(point.cumulativeModels)]);
  if (JSON.stringify(rows) !== JSON.stringify(wanted)) {
    fail(`${name}: the adoption table ${JSON.stringify(rows)} is not the API's ${JSON.stringify(wanted)}`);
  }
  const line = (await page.locator(".adoption svg polyline.total").getAttribute("points")) ?? "";
  if (line.split(" ").length !== expected.length) fail(`${name}: the running-total line has points ${line}`);
  const ticks = {};
  for (const [chart, largest] of [["per-period", Math.max(...expected.map((p) => p.models))], ["running", expected.at(-1).cumulativeModels]]) {
    const y = (await page.locator(`.adoption .${chart} .y-tick text`).allTextContents()).map((t) => Number(t.replace(/,/g, "")));
    const x = await page.locator(`.adoption .${chart} .x-tick text`).allTextContents();
    if (y.length < 2 || y[0] !== 0 || y.at(-1) < largest || y.some((v, i) => i && v <= y[i - 1])) fail(`${name}: the ${chart} chart's y ticks ${y} (largest ${largest})`);
    if (x.length < Math.min(2, expected.length) || x.some((t) => !expected.some((p) => p.period === t))) fail(`${name}: the ${chart} chart's x ticks ${x}`);
    const titles = await page.locator(`.adoption .${chart} .point > title`).allTextContents();
    if (titles.length !== expected.length) fail(`${name}: the ${chart} chart has ${titles.length} tooltips, not ${expected.length}`);
    for (const [index, point] of expected.entries()) {
      const want = `${point.period} (`;
      if (!titles[index].startsWith(want) || !titles[index].includes(`${NUMBER.format(point.cumulativeModels)} in all`)) fail(`${name}: tooltip ${titles[index]}`);
    }
    ticks[chart] = `${y.length} y ticks, ${x.length} x ticks`;
  }
  const note = await page.locator(".adoption .undated").allTextContents();
  const wantNote = undatedModels === 0 ? [] : [undatedModels === 1 ? "1 model has no release date and is not plotted." : `${NUMBER.format(undatedModels)} models have no release date and are not plotted.`];
  if (JSON.stringify(note) !== JSON.stringify(wantNote)) fail(`${name}: the undated note ${JSON.stringify(note)}, the API has ${undatedModels} undated models`);
  step(`${name}: the adoption chart has the API's ${bars} periods as bars and a line, each with a tooltip; per period ${ticks["per-period"]}, running total ${ticks.running}; a table of the numbers; ${undatedModels} undated models noted`);
  return undatedModels;
}

/** The open node page's sub-branches: under their own heading ("Sub-branches N", N the
 * API's children), every child there (the folded ones too), the section before the By-model
 * table; a leaf has no such heading. */
async function checkSubBranches(name, slugPath) {
  const { node } = await api("query ($path: String!) { node(path: $path) { children { name } } }", { path: slugPath });
  const heading = page.locator("main h2#sub-branches");
  if (!node.children.length) {
    if (await heading.count()) fail(`${name}: a leaf shows a Sub-branches heading`);
    step(`${name}: no sub-branches, no Sub-branches heading`);
    return;
  }
  const said = (await heading.innerText()).replace(/\s+/g, " ").trim();
  if (said !== `Sub-branches ${NUMBER.format(node.children.length)}`) fail(`${name}: the sub-branches' heading says ${JSON.stringify(said)}, the API has ${node.children.length}`);
  const names = await page.locator("section:has(> h2#sub-branches) .outline-name").allTextContents();
  if (JSON.stringify(names) !== JSON.stringify(node.children.map((child) => child.name))) fail(`${name}: under Sub-branches ${JSON.stringify(names)}, not the API's children`);
  const before = await page.evaluate(() => {
    const branches = document.getElementById("sub-branches");
    const byModel = document.getElementById("by-model");
    return Boolean(branches && byModel && branches.compareDocumentPosition(byModel) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  if (!before) fail(`${name}: the sub-branches are not placed before the By-model table`);
  step(`${name}: its ${node.children.length} sub-branches under their own heading, before the By-model table`);
}

/** The open page that is no page (404, 400, 410): a search box that searches, and a link
 * home in its text. */
async function checkWaysOn(name) {
  const box = page.getByRole("search").getByRole("combobox", { name: "Search nodes, methods and models" });
  if (!(await box.isVisible())) fail(`${name}: no search box`);
  if (!(await page.locator('main a[href="/"]').count())) fail(`${name}: no link home`);
  const before = page.url();
  await box.fill("pipeline");
  await box.press("Enter");
  await page.waitForURL(`${base}/search?q=pipeline`);
  await page.locator("main h1", { hasText: "Search: pipeline" }).waitFor();
  await idle();
  await page.goBack();
  await page.waitForURL(before);
  await page.locator("main h1").waitFor();
  step(`${name}: a search box (it searches) and a link home`);
}

/** The open method page's models table: its columns (model, organization, release date,
 * treatment, evidence) and each row's model, organization and release date the API's
 * ("unknown" where it has none). */
async function checkMethodModels(slug) {
  const { method } = await api('query ($slug: String!) { method(slug: $slug) { treatmentsConnection(first: 25) { nodes { model { name organization releaseDate } } } } }', { slug });
  const table = page.locator("section:has(> #treatments) table");
  const heads = (await table.locator("thead th").allTextContents()).map((text) => text.replace(/[▲▼]/g, "").trim());
  if (JSON.stringify(heads) !== JSON.stringify(["Model", "organization", "released", "treatment", "evidence"])) fail(`${slug}'s models table has the columns ${JSON.stringify(heads)}`);
  const shown = await table.locator("tbody tr").evaluateAll((rows) => rows.map((row) => [...row.children].slice(0, 3).map((cell) => cell.textContent.trim())));
  const wanted = method.treatmentsConnection.nodes.map(({ model }) => [model.name, model.organization ?? "unknown", model.releaseDate ?? "unknown"]);
  if (JSON.stringify(shown) !== JSON.stringify(wanted)) fail(`${slug}'s models table shows ${JSON.stringify(shown)}, not the API's ${JSON.stringify(wanted)}`);
  if (!wanted.some((row) => row[1] !== "unknown") || !wanted.some((row) => row[2] !== "unknown")) fail(`${slug}: no model with an organization and a release date to show`);
  step(`${slug}'s models table: each model's organization and release date in columns of their own, the API's (${wanted.length} rows)`);
}

/** The API's By-model rows of ``path`` (the first 25): their models' names, and how many;
 * ``facts``, each row's organization and release date ("unknown" for none). */
async function apiByModel(path, variables = {}) {
  const { node } = await api(
    "query ($path: String!, $orderBy: ModelTreatmentOrder, $filter: ModelFilter) { node(path: $path) { byModel(first: 25, orderBy: $orderBy, filter: $filter) { totalCount nodes { model { name organization releaseDate } } } } }",
    { path, ...variables },
  );
  const models = node.byModel.nodes.map((row) => row.model);
  return {
    names: models.map((model) => model.name),
    total: node.byModel.totalCount,
    facts: models.map((model) => ({ Organization: model.organization ?? "unknown", Released: model.releaseDate ?? "unknown" })),
  };
}

/** The open node page's By-model table: its head's text (``head``: its columns), the heads
 * that say they sort (aria-sort) and its rows' models, which are ``expected`` (the API's,
 * and their organizations and release dates where the head has those columns); the URL has
 * ``want`` (each parameter's value, null for none). */
async function checkByModel(where, { expected, sorted, want, head: columns = ["Model", "techniques"] }) {
  const table = page.locator(".by-model table");
  const head = (await table.locator("thead tr").innerText()).replace(/[▲▼]/g, "").replace(/\s+\t/g, "\t").trim();
  if (head !== columns.join("\t")) fail(`${where}: the By-model head reads ${JSON.stringify(head)}, not ${JSON.stringify(columns.join("\t"))}`);
  const facts = columns.filter((column) => column === "Organization" || column === "Released");
  const cells = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].slice(0, -1).map((td) => td.textContent.trim())));
  const wanted = expected.facts.map((row) => facts.map((column) => row[column]));
  if (JSON.stringify(cells) !== JSON.stringify(wanted)) fail(`${where}: the rows' ${JSON.stringify(facts)} are\n${JSON.stringify(cells)}\nnot the API's\n${JSON.stringify(wanted)}`);
  // Each row's methods: all of them up to 12 (9 beside the organization and date columns, as
  // tall); a longer row its first 8 (6), and how many more.
  const most = facts.length ? 9 : 12;
  const short = facts.length ? 6 : 8;
  const lists = await table.locator("tbody ul.treatments").evaluateAll((uls) => uls.map((ul) => [Number(ul.getAttribute("aria-label").match(/: ([0-9,]+) methods?$/)[1].replace(/,/g, "")), ul.querySelectorAll("li:not(.more)").length, ul.querySelector("li.more")?.textContent ?? null]));
  for (const [count, listed, more] of lists) {
    const want = count > most ? short : count;
    const moreWanted = count > most ? `${count - short} more ${count - short === 1 ? "method" : "methods"}` : null;
    if (listed !== want || more !== moreWanted) fail(`${where}: a row of ${count} methods lists ${listed} and says ${more}, not ${want} and ${moreWanted}`);
  }
  const sorts = await table.locator("thead th[aria-sort]").evaluateAll((ths) =>
    Object.fromEntries(ths.map((th) => [th.textContent.replace(/[▲▼]/g, "").trim(), th.getAttribute("aria-sort")])),
  );
  if (JSON.stringify(sorts) !== JSON.stringify(sorted)) fail(`${where}: aria-sort says ${JSON.stringify(sorts)}, not ${JSON.stringify(sorted)}`);
  const shown = await table.locator("tbody tr th > a").allTextContents();
  if (JSON.stringify(shown) !== JSON.stringify(expected.names)) fail(`${where}: the rows\n${JSON.stringify(shown)}\nare not the API's\n${JSON.stringify(expected.names)}`);
  const url = new URL(page.url());
  for (const [key, value] of Object.entries(want)) {
    if (url.searchParams.get(key) !== value) fail(`${where}: the URL ${url.href} has ${key}=${url.searchParams.get(key)}, not ${value}`);
  }
  if (url.hash !== "#by-model" && Object.values(want).some((value) => value !== null)) fail(`${where}: the URL ${url.href} does not open at the table`);
  return lists;
}

/** A node's By-model table sorts by its heads (Model: name, techniques: how many methods;
 * aria-sort and ?sort=&dir=, a second click the other way round) and narrows to one
 * organization by its filter box (?org=, the order kept), each the API's rows; its downloads
 * follow the order and the filter; a reload keeps them, and "Clear the filters" drops it. */
async function checkByModelTable(slugPath) {
  const path = `/nodes/${slugPath}`;
  const heads = page.locator(".by-model thead");
  await open(path);
  await checkByModel(`${path}`, { expected: await apiByModel(slugPath), sorted: {}, want: { sort: null, dir: null, org: null } });
  await go(heads.getByRole("link", { name: "Model", exact: true }));
  const byName = { field: "NAME", direction: "ASC" };
  await checkByModel(`${path} by name`, { expected: await apiByModel(slugPath, { orderBy: byName }), sorted: { Model: "ascending" }, want: { sort: "name", dir: "asc" } });
  await go(heads.getByRole("link", { name: "Model", exact: true }));
  const zToA = { field: "NAME", direction: "DESC" };
  await checkByModel(`${path} by name, Z to A`, { expected: await apiByModel(slugPath, { orderBy: zToA }), sorted: { Model: "descending" }, want: { sort: "name", dir: "desc" } });
  if (!(await page.locator(".by-model strong[aria-current=true]", { hasText: "name, Z to A" }).count())) fail(`${path}: "Ordered by" does not say "name, Z to A"`);
  await go(heads.getByRole("link", { name: "techniques", exact: true }));
  const most = { field: "METHOD_COUNT", direction: "DESC" };
  const byMethods = await apiByModel(slugPath, { orderBy: most });
  const longest = await checkByModel(`${path} by methods`, { expected: byMethods, sorted: { techniques: "descending" }, want: { sort: "methods", dir: "desc" } });
  if (!longest.some(([count]) => count > 12)) fail(`${path}: no row of over 12 methods, whose list is cut to 8`);
  step(`${path}: the Model head sorts by name (aria-sort ascending, then descending: ?sort=name&dir=desc), techniques by how many methods; each the API's rows`);

  // The filter box: the branch's organization with the most models (the API's facet).
  const { organizations } = await api("query ($path: String!) { organizations(branch: { path: $path }) { name modelCount } }", { path: slugPath });
  const org = [...organizations].sort((a, b) => b.modelCount - a.modelCount)[0];
  await page.locator(".by-model").getByLabel("Organization").selectOption(org.name);
  await go(page.locator(".by-model").getByRole("button", { name: "Filter", exact: true }));
  const narrowed = await apiByModel(slugPath, { orderBy: most, filter: { organization: org.name } });
  if (!narrowed.total || narrowed.total >= byMethods.total || narrowed.total !== org.modelCount) fail(`${path}: ${org.name} narrows ${byMethods.total} rows to ${narrowed.total} (its facet: ${org.modelCount})`);
  const want = { sort: "methods", dir: "desc", org: org.name };
  await checkByModel(`${path} of ${org.name}`, { expected: narrowed, sorted: { techniques: "descending" }, want });
  if ((await position()) !== `${narrowed.total} models`) fail(`${path} of ${org.name} says ${await position()}`);
  await checkDownloads(`${path} of ${org.name}, by methods`, { path: `/download${path}`, want: { sort: "methods", org: org.name }, total: narrowed.total, key: "model", first: narrowed.names[0] });
  await page.reload();
  await settled();
  await checkByModel(`${path} of ${org.name}, reloaded`, { expected: narrowed, sorted: { techniques: "descending" }, want });
  await checkAxe(`${path} of ${org.name}`);
  await go(page.locator(".by-model").getByRole("link", { name: "Clear the filters", exact: true }));
  await checkByModel(`${path} unfiltered`, { expected: byMethods, sorted: { techniques: "descending" }, want: { sort: "methods", org: null } });
  // An organization with no model in the branch (a hand-made link): no table, a way back.
  await open(`${path}?org=No+Such+Lab`);
  if (await page.locator(".by-model table").count()) fail(`${path}?org=No+Such+Lab shows a table`);
  const none = page.locator(".by-model p", { hasText: "No model of this organization has evidence in this branch." });
  if (!(await none.getByRole("link", { name: "Show every model" }).count())) fail(`${path}?org=No+Such+Lab does not say so`);
  step(`${path}: the filter box narrows the table to ${org.name}'s ${narrowed.total} models (?org=, the order kept), the API's; its downloads too; a reload keeps it, "Clear the filters" drops it; an organization with none says so`);
}

/** A node's By-model table shows its models' organizations and release dates when asked
 * (?columns=org,date), and not by default (the seed's two columns; the page's request asks
 * no organization): "Columns: show organization · show release date" adds each, the order
 * kept; the Released head says the default order is newest first (aria-sort), and sorts
 * oldest first (?sort=newest&dir=asc), the columns kept; each the API's rows, organizations
 * and dates; the downloads follow the order and carry no `columns`; a reload keeps it all;
 * at 390 px nothing scrolls sideways and axe-core passes; "hide" gives the two columns back. */
async function checkByModelColumns(slugPath) {
  const path = `/nodes/${slugPath}`;
  const choice = page.locator(".by-model .column-choice");
  const heads = page.locator(".by-model thead");
  await open(path);
  const asked = JSON.parse(new URL(graphql.find((request) => request.method === "GET").url).searchParams.get("variables"));
  if ("withOrganization" in asked) fail(`${path} asks for organizations: ${JSON.stringify(asked)}`);
  const newest = await apiByModel(slugPath);
  await checkByModel(path, { expected: newest, sorted: {}, want: { columns: null } });
  if ((await choice.innerText()).trim() !== "Columns: show organization · show release date") fail(`${path}: the column choice reads ${await choice.innerText()}`);
  await go(choice.getByRole("link", { name: "show organization", exact: true }));
  await checkByModel(`${path}, organizations`, { expected: newest, sorted: {}, want: { columns: "org", sort: null }, head: ["Model", "Organization", "techniques"] });
  const withOrganization = JSON.parse(new URL(graphql.filter((request) => request.method === "GET").at(-1).url).searchParams.get("variables"));
  if (withOrganization.withOrganization !== true) fail(`${path}?columns=org does not ask for organizations: ${JSON.stringify(withOrganization)}`);
  await go(choice.getByRole("link", { name: "show release date", exact: true }));
  const both = ["Model", "Organization", "Released", "techniques"];
  const lists = await checkByModel(`${path}, organizations and dates`, { expected: newest, sorted: { Released: "descending" }, want: { columns: "org,date", sort: null }, head: both });
  if (!lists.some(([count]) => count > 9 && count <= 12)) fail(`${path}: no row of 10 to 12 methods, whose list the columns shorten`);
  if (!newest.facts.some((row) => row.Released === "unknown") || !newest.facts.some((row) => row.Organization !== "unknown")) fail(`${path}: no undated model, or no organization, to show`);
  await checkNarrow(`${path}?columns=org,date`);
  await go(heads.getByRole("link", { name: "Released", exact: true }));
  const oldest = await apiByModel(slugPath, { orderBy: { field: "RELEASE_DATE", direction: "ASC" } });
  if (JSON.stringify(oldest.names) === JSON.stringify(newest.names)) fail(`${path}: oldest first is newest first`);
  const want = { columns: "org,date", sort: "newest", dir: "asc" };
  await checkByModel(`${path}, oldest first`, { expected: oldest, sorted: { Released: "ascending" }, want, head: both });
  await checkDownloads(`${path}, oldest first, with its columns`, { path: `/download${path}`, want: { sort: "newest", dir: "asc", columns: null }, total: oldest.total, key: "model", first: oldest.names[0] });
  await page.reload();
  await settled();
  await checkByModel(`${path}, oldest first, reloaded`, { expected: oldest, sorted: { Released: "ascending" }, want, head: both });
  await checkAxe(`${path}?columns=org,date&sort=newest&dir=asc`);
  await go(choice.getByRole("link", { name: "hide organization", exact: true }));
  await checkByModel(`${path}, dates alone`, { expected: oldest, sorted: { Released: "ascending" }, want: { ...want, columns: "date" }, head: ["Model", "Released", "techniques"] });
  await go(choice.getByRole("link", { name: "hide release date", exact: true }));
  await checkByModel(`${path}, neither`, { expected: oldest, sorted: {}, want: { ...want, columns: null } });
  step(`${path}: "Columns: show organization · show release date" adds each (?columns=org,date, the API's; organizations asked only then; 9 methods a row beside them); the Released head sorts oldest first (aria-sort); downloads follow, without columns; reload keeps it; axe clean, no sideways scroll at 390 px; hidden again, the two columns`);
}

/** A treatments list's filter box (a method's models, a model's methods) on the page at
 * ``path``, in the section of heading ``anchor``: "Treatment at least: used or stronger" puts
 * ?strength=used in the URL and opens at the list, which ``check`` finds the API's at that
 * strength (``rowsOf``, fewer than all ``noun``); its downloads follow (the JSON's first
 * row's ``key`` the first row's); a reload keeps it, axe finds nothing, "Clear the filters"
 * shows them all again. The API's answers, unfiltered and used or stronger. */
async function checkStrengthFilter({ path, anchor, noun, key, rowsOf, check }) {
  const section = page.locator(`section:has(> #${anchor})`);
  await open(path);
  const all = await rowsOf(null);
  await check(path, all, null);
  await section.getByLabel("Treatment at least").selectOption("used");
  await go(section.getByRole("button", { name: "Filter", exact: true }));
  const used = await rowsOf("USED");
  if (!used.totalCount || used.totalCount >= all.totalCount) fail(`${path}: used or stronger does not narrow ${all.totalCount} ${noun}: ${used.totalCount}`);
  await check(`${path}, used or stronger`, used, "used");
  if (new URL(page.url()).hash !== `#${anchor}`) fail(`${path}: the filtered page ${page.url()} does not open at the ${noun}`);
  await checkDownloads(`${path}, used or stronger`, { path: `/download${path}`, want: { strength: "used" }, total: used.totalCount, key, first: used.nodes[0][key].name });
  await page.reload();
  await settled();
  await check(`${path}, used or stronger, reloaded`, used, "used");
  await checkAxe(`${path}, used or stronger`);
  await go(section.getByRole("link", { name: "Clear the filters", exact: true }));
  await check(`${path}, unfiltered again`, all, null);
  return { all, used };
}

/** Whether the open page is at ``strength=`` ``strength`` (null: none). */
function checkStrengthUrl(where, strength) {
  const url = new URL(page.url());
  if (url.searchParams.get("strength") !== strength) fail(`${where}: the URL ${url.href} has strength=${url.searchParams.get("strength")}, not ${strength}`);
}

/** The heads of ``table`` that say they sort (aria-sort), by their text without the arrow. */
async function sortedHeads(table) {
  return table.locator("thead th[aria-sort]").evaluateAll((ths) =>
    Object.fromEntries(ths.map((th) => [th.textContent.replace(/[▲▼]/g, "").trim(), th.getAttribute("aria-sort")])),
  );
}

/** A method page's models table by its filter box (checkStrengthFilter), in the API's
 * default order, which the treatment head says (aria-sort descending). */
async function checkMethodFilter(slug) {
  const path = `/methods/${slug}`;
  const rowsOf = async (minStrength) =>
    (await api("query ($slug: String!, $minStrength: Strength) { method(slug: $slug) { treatmentsConnection(first: 25, minStrength: $minStrength) { totalCount nodes { model { name } strength } } } }", { slug, minStrength })).method.treatmentsConnection;
  const table = page.locator("section:has(> #treatments) table");
  const check = async (where, expected, strength) => {
    const shown = await table.locator("tbody tr").evaluateAll((rows) => rows.map((row) => [row.children[0].textContent.trim(), row.children[3].textContent.trim()]));
    const wanted = expected.nodes.map((row) => [row.model.name, row.strength.toLowerCase()]);
    if (JSON.stringify(shown) !== JSON.stringify(wanted)) fail(`${where}: the rows ${JSON.stringify(shown)} are not the API's ${JSON.stringify(wanted)}`);
    const sorts = await sortedHeads(table);
    if (JSON.stringify(sorts) !== JSON.stringify({ treatment: "descending" })) fail(`${where}: aria-sort says ${JSON.stringify(sorts)}`);
    checkStrengthUrl(where, strength);
  };
  const { all, used } = await checkStrengthFilter({ path, anchor: "treatments", noun: "models", key: "model", rowsOf, check });
  step(`${path}: its filter box narrows its ${all.totalCount} models to the API's ${used.totalCount} used or stronger (?strength=used), its downloads too; aria-sort descending on treatment, the default order`);
}

/** A treatments table (a method's models, a model's methods) on the page at ``path``, in
 * the section of heading ``anchor``, filtered used or stronger (?strength=used), sorts by
 * its heads: each a link to its order in its natural direction, a second click the other
 * way round, the filter kept. ``orders``: each head's text, its key in the URL (?sort=),
 * the API's field and its natural direction, the table's first (the API's default) last,
 * so that its first click opens the default order again (no ?sort= in the URL). In each
 * order the rows (``shown``: each row's name) are the API's (``rowsOf(orderBy)``), only
 * that head says it sorts (aria-sort), and the URL says the order and the filter; the
 * downloads follow the order and the filter, and a reload keeps them. */
async function checkTreatmentOrders({ path, anchor, noun, key, orders, rowsOf, shown }) {
  const section = page.locator(`section:has(> #${anchor})`);
  const table = section.locator("table");
  await open(`${path}?strength=used`);
  const [defaultHead] = orders[orders.length - 1];
  const other = { asc: "desc", desc: "asc" };
  const check = async (where, orderBy, head, sort, dir) => {
    const expected = await rowsOf(orderBy);
    const names = expected.nodes.map((row) => row[key].name);
    const rows = await shown(table);
    if (JSON.stringify(rows) !== JSON.stringify(names)) fail(`${where}: the rows\n${JSON.stringify(rows)}\nare not the API's\n${JSON.stringify(names)}`);
    const sorts = await sortedHeads(table);
    const said = { [head]: orderBy.direction === "ASC" ? "ascending" : "descending" };
    if (JSON.stringify(sorts) !== JSON.stringify(said)) fail(`${where}: aria-sort says ${JSON.stringify(sorts)}, not ${JSON.stringify(said)}`);
    const url = new URL(page.url());
    const want = { sort, dir, strength: "used" };
    for (const [name, value] of Object.entries(want)) {
      if (url.searchParams.get(name) !== value) fail(`${where}: the URL ${url.href} has ${name}=${url.searchParams.get(name)}, not ${value}`);
    }
    if (url.hash !== `#${anchor}`) fail(`${where}: the URL ${url.href} does not open at the table`);
    return expected;
  };
  const checked = [];
  for (const [head, sort, field, natural] of orders) {
    for (const dir of [natural, other[natural]]) {
      await go(table.locator("thead").getByRole("link", { name: head, exact: true }));
      const isDefault = head === defaultHead && dir === natural;
      const orderBy = { field, direction: dir.toUpperCase() };
      const where = `${path}, used or stronger, by ${head} ${dir}`;
      const expected = await check(where, orderBy, head, isDefault ? null : sort, isDefault ? null : dir);
      checked.push(`${head} ${dir}`);
      if (head === orders[0][0] && dir !== natural) {
        // The other way round: its downloads follow, and a reload keeps it.
        await checkDownloads(where, { path: `/download${path}`, want: { sort, dir, strength: "used" }, total: expected.totalCount, key, first: expected.nodes[0][key].name });
        await page.reload();
        await settled();
        await check(`${where}, reloaded`, orderBy, head, sort, dir);
        await checkAxe(where);
      }
    }
  }
  step(`${path}: its ${noun} sort by the heads ${checked.join(", ")} (aria-sort, ?sort=&dir=, ?strength=used kept), each the API's rows; the downloads follow, a reload keeps the order`);
}

/** A model page's methods by its filter box (checkStrengthFilter), strongest first, their
 * count said over them. ``none``: a model none of whose methods is core, whose filtered page
 * says so (the filter box kept, no downloads) and links to every method. */
async function checkModelFilter(slug, none) {
  const path = `/models/${slug}`;
  const rowsOf = async (model, minStrength) =>
    (await api("query ($slug: String!, $minStrength: Strength) { model(slug: $slug) { treatments(first: 25, minStrength: $minStrength) { totalCount nodes { method { name } strength } } } }", { slug: model, minStrength })).model.treatments;
  const section = page.locator("section:has(> #methods)");
  const check = async (where, expected, strength) => {
    const shown = await section.locator("table tbody tr").evaluateAll((rows) => rows.map((row) => [row.querySelector("th > a").textContent.trim(), row.querySelector("td > .badge").textContent.trim()]));
    const wanted = expected.nodes.map((row) => [row.method.name, row.strength.toLowerCase()]);
    if (JSON.stringify(shown) !== JSON.stringify(wanted)) fail(`${where}: the methods ${JSON.stringify(shown)} are not the API's ${JSON.stringify(wanted)}`);
    const said = (await section.locator("p").first().textContent()).trim();
    const count = `${expected.totalCount} ${expected.totalCount === 1 ? "method" : "methods"}, strongest first.`;
    if (said !== count) fail(`${where}: the section says ${JSON.stringify(said)}, not ${JSON.stringify(count)}`);
    checkStrengthUrl(where, strength);
  };
  const { all, used } = await checkStrengthFilter({ path, anchor: "methods", noun: "methods", key: "method", rowsOf: (minStrength) => rowsOf(slug, minStrength), check });
  step(`${path}: its filter box narrows its ${all.totalCount} methods to the API's ${used.totalCount} used or stronger (?strength=used), its downloads too; a reload keeps it, "Clear the filters" drops it`);

  const nonePath = `/models/${none}`;
  if ((await rowsOf(none, "CORE")).totalCount !== 0 || !(await rowsOf(none, null)).totalCount) fail(`${nonePath}: not a model with methods and none core`);
  await open(`${nonePath}?strength=core`);
  await check(`${nonePath}?strength=core`, { totalCount: 0, nodes: [] }, "core");
  if (!(await section.getByLabel("Treatment at least").count())) fail(`${nonePath}?strength=core: no filter box`);
  if (await section.locator(".downloads").count()) fail(`${nonePath}?strength=core: downloads of no rows`);
  await go(section.getByRole("link", { name: "Show every method", exact: true }));
  await check(`${nonePath}, unfiltered`, await rowsOf(none, null), null);
  step(`${nonePath}?strength=core: no method that strong, the filter box kept, "Show every method" lists them all`);
}

const SEED_PATH = "/nodes/optimization/training-parallelism";

/** The open seed page's text is the seed's (``seedFile``), line for line; its By-model rows
 * exactly: their lines (the table's head first). */
async function checkSeed(seedFile) {
  const seed = (await readFile(seedFile, "utf8")).split("\n").map((l) => l.trim()).filter(Boolean);
  const shown = await lines();
  let at = 0;
  for (const line of seed) {
    const found = shown.indexOf(line, at);
    if (found < 0) fail(`the seed's line ${JSON.stringify(line)} is not on the page (in order) after line ${at}:\n${shown.join("\n")}`);
    at = found + 1;
  }
  const header = seed.indexOf("Model\ttechniques");
  const rows = seed.slice(header, seed.indexOf("training parallelism", header));
  const start = shown.indexOf(rows[0]);
  if (shown.slice(start, start + rows.length).join("\n") !== rows.join("\n")) {
    fail(`the By-model table is not the seed's rows, in order:\n${shown.slice(start, start + rows.length).join("\n")}`);
  }
  summary.seedRows = rows.length - 1;
  step(`the seed page's ${seed.length} lines show in order; its ${rows.length - 1} By-model rows exactly`);
  return rows;
}

/** A page reached by a link takes the focus to its heading (a screen reader starts there),
 * but a reader who has gone on to type in the header's search box while the page's data was
 * on its way keeps the box and every letter: the data is held back here until they have
 * typed. (The heading took the focus and the letters typed after it; Enter then searched
 * for nothing, once in a few runs of the keyboard check above.) */
async function checkHeadingFocus() {
  const methodLink = () => page.locator("main table a[href^='/methods/']").first();
  // Preact runs a page's effects (the heading's focus among them) after its next frame.
  const afterEffects = () =>
    page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  await open("/models/kimi-k3");
  const first = await methodLink().innerText();
  await methodLink().click();
  await page.locator("main h1", { hasText: first }).waitFor();
  await page
    .waitForFunction(() => document.activeElement === document.querySelector("main h1"), null, { timeout: 5_000 })
    .catch(() => fail(`a link to ${first}: its heading does not take the focus`));

  await open("/models/kimi-k3");
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  const hold = async (route) => {
    await held;
    await route.continue();
  };
  await page.route("**/graphql?**", hold);
  const second = await methodLink().innerText();
  await methodLink().click();
  await page.locator("main [role=status]", { hasText: "Loading…" }).waitFor();
  await page.locator("#site-search").focus();
  await page.keyboard.type("pipe");
  release();
  await page.locator("main h1", { hasText: second }).waitFor();
  await afterEffects();
  await page.keyboard.type("line");
  await idle();
  await page.unroute("**/graphql?**", hold);
  const [focused, typed] = await page.evaluate(() => [document.activeElement?.id, document.querySelector("#site-search").value]);
  if (focused !== "site-search" || typed !== "pipeline") {
    fail(`typing in the search box while ${second} loaded: the focus went to ${focused || "the page"}, the box holds ${JSON.stringify(typed)}`);
  }
  await page.keyboard.press("Enter");
  await page.waitForURL(`${base}/search?q=pipeline`);
  await page.locator("main h1", { hasText: "Search: pipeline" }).waitFor();
  await idle();
  clean("heading focus");
  step(`a link to ${first} focuses its heading; typing in the search box while ${second} loads keeps the box and its letters, and Enter searches them`);
}

async function fixtures(seedFile) {
  const seedPath = SEED_PATH;
  // The seed page, first: its text is the seed's, line for line.
  await pageType("node", seedPath, "optimization :: training parallelism");
  const rows = await checkSeed(seedFile);
  await checkSubBranches("the seed page (a leaf)", "optimization/training-parallelism");
  await checkAdoption("the seed page", 'node(path: "optimization/training-parallelism")');
  // What the badges and the counts mean, one link away.
  for (const [link, to] of [["What these mean", "/about#strengths"], ["What these counts mean", "/about#counts"]]) {
    const found = page.locator(`main a[href="${to}"]`, { hasText: link });
    if (!(await found.count())) fail(`the seed page has no "${link}" link to ${to}`);
  }
  step("the seed page links its strength legend and its counts to the help page");
  await checkDownloads("the seed page's By-model table", {
    path: `/download${seedPath}`,
    want: { sort: null },
    total: rows.length - 1,
    key: "model",
    first: "DeepSeek-V4.1-Flash",
  });
  // Clicked, the link downloads a file (the page stays where it is).
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV", exact: true }).click()]);
  if (file.suggestedFilename() !== "by-model-optimization-training-parallelism.csv") fail(`the seed page's CSV downloads as ${file.suggestedFilename()}`);
  if (new URL(page.url()).pathname !== seedPath) fail(`clicking "Download CSV" left the page for ${page.url()}`);
  step(`clicking "Download CSV" downloads ${file.suggestedFilename()} and stays on the page`);

  // A repeat view: the hash is known now, so one GET and no POST.
  await open(seedPath);
  if (graphql.length !== 1 || graphql[0].method !== "GET") fail(`a repeat view: ${JSON.stringify(graphql)}`);
  // Its largest contentful paint, as Chromium reports it (a figure, not a limit: this
  // machine's load varies).
  summary.seedLcpMs = await page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((entries) => resolve(Math.round(entries.getEntries().at(-1).startTime))).observe({
          type: "largest-contentful-paint",
          buffered: true,
        });
      }),
  );
  step(`a repeat view is one GET by hash (no document sent); largest contentful paint ${summary.seedLcpMs} ms`);

  // Layout from 360 to 1,600 px: nothing scrolls sideways; colours follow the scheme.
  await checkWidths("node");
  const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const light = await background();
  await page.emulateMedia({ colorScheme: "dark" });
  const dark = await background();
  await shot("node-dark");
  await page.emulateMedia({ colorScheme: "light" });
  if (light === dark) fail(`prefers-color-scheme changes nothing: ${light}`);
  step(`the layout holds at 360, 768 and 1,600 px; background ${light} light, ${dark} dark`);

  await pageType("home", "/", "Taxonomy browser");
  const home = await page.locator("main").innerText();
  if (!home.includes("Release 1, loaded ") || !home.includes("The first release: there is no release before it")) {
    fail(`the home page does not show the first release:\n${home}`);
  }
  step("the home page shows release 1 as the first release");
  await checkNarrow("home");
  // axe-core itself finds what it should: an image without a text alternative (critical).
  await page.evaluate(() => {
    const image = document.createElement("img");
    image.src = "data:,";
    document.querySelector("main")?.append(image);
  });
  try {
    await checkAxe("home with an image without alt");
    fail("axe-core found nothing wrong with an image without alt");
  } catch (error) {
    if (!String(error.message).includes("image-alt (critical)")) throw error;
  }
  step("axe-core reports an image without alt as critical (so it is really checking)");
  await pageType("model", "/models/kimi-k3", "Kimi K3");
  const kimi = (await api('{ model(slug: "kimi-k3") { treatments(first: 1) { totalCount nodes { method { name } } } } }')).model.treatments;
  await checkDownloads("the model page's methods", { path: "/download/models/kimi-k3", total: kimi.totalCount, key: "method", first: kimi.nodes[0].method.name });
  const history = (await page.locator("section.history:has(> h2#history)").innerText()).replace(/\n+/g, "\n");
  if (!/^History\nThis model is in the taxonomy since release 1, loaded .+; no release since has changed it\.$/.test(history)) fail(`the model's History section: ${JSON.stringify(history)}`);
  step("the model page's History section says since which release it is there, and that none changed it");
  await checkNarrow("model");
  await checkModelFilter("chinchilla-70b", "mimo-v2-6-pro");
  await checkTreatmentOrders({
    path: "/models/llama-3-1-405b",
    anchor: "methods",
    noun: "methods",
    key: "method",
    orders: [
      ["node", "node", "NODE", "asc"],
      ["Method", "name", "NAME", "asc"],
      ["treatment", "strongest", "STRONGEST", "desc"],
    ],
    rowsOf: async (orderBy) =>
      (await api("query ($orderBy: TreatmentsOfModelOrder) { model(slug: \"llama-3-1-405b\") { treatments(first: 25, minStrength: USED, orderBy: $orderBy) { totalCount nodes { method { name } } } } }", { orderBy })).model.treatments,
    shown: (table) => table.locator("tbody th > a").allTextContents(),
  });
  await pageType("method", "/methods/expert-parallelism", "Expert Parallelism");
  const treated = (await api('{ method(slug: "expert-parallelism") { treatmentsConnection(first: 1) { totalCount nodes { model { name } } } } }')).method.treatmentsConnection;
  await checkMethodModels("expert-parallelism");
  await checkDownloads("the method page's models", { path: "/download/methods/expert-parallelism", total: treated.totalCount, key: "model", first: treated.nodes[0].model.name });
  await checkAdoption("the method page", 'method(slug: "expert-parallelism")');
  await checkNarrow("method");
  await checkMethodFilter("multi-token-prediction");
  await checkTreatmentOrders({
    path: "/methods/sparse-mixture-of-experts",
    anchor: "treatments",
    noun: "models",
    key: "model",
    orders: [
      ["released", "release", "RELEASE_DATE", "desc"],
      ["Model", "name", "NAME", "asc"],
      ["treatment", "strongest", "STRONGEST", "desc"],
    ],
    rowsOf: async (orderBy) =>
      (await api("query ($orderBy: TreatmentsOfMethodOrder) { method(slug: \"sparse-mixture-of-experts\") { treatmentsConnection(first: 25, minStrength: USED, orderBy: $orderBy) { totalCount nodes { model { name } } } } }", { orderBy })).method.treatmentsConnection,
    shown: (table) => table.locator("tbody th > a").allTextContents(),
  });

  // The help page: linked from every page's header (checkHeader), it says what the
  // strengths and the counts mean, and its sections are the links' targets.
  await pageType("help", "/about", "How to read these pages");
  const help = await page.locator("main").innerText();
  for (const words of ["Core, used and mentioned", "In this branch", "Filed here", "The By-model table", "The adoption chart", "Releases and changes"]) {
    if (!help.includes(words)) fail(`the help page does not explain "${words}"`);
  }
  for (const id of ["strengths", "counts", "by-model", "adoption", "releases"]) {
    if (!(await page.locator(`#${id}`).count())) fail(`the help page has no #${id}`);
  }
  await checkNarrow("help");
  await open("/nodes/optimization/training-parallelism");
  await page.getByRole("navigation", { name: "Indexes" }).getByRole("link", { name: "Help", exact: true }).click();
  await page.waitForURL(`${base}/about`);
  await page.locator("main h1", { hasText: "How to read these pages" }).waitFor();
  step("the help page explains strengths, counts, the By-model table, the chart and releases; the header's Help link opens it");

  // A path that is no page: HTTP 404, and the page says so plainly, with ways on.
  await open("/no/such/page", 404);
  const missing = await page.locator("main").innerText();
  if (!missing.includes("There is no page here") || /Not Found/.test(missing)) fail(`the unknown path's page says: ${missing}`);
  for (const to of ["/", "/search", "/models", "/methods", "/releases", "/about"]) {
    if (!(await page.locator(`main a[href="${to}"]`).count())) fail(`the unknown path's page has no link to ${to}`);
  }
  if ((await page.title()) !== "There is no page here · Taxonomy browser") fail(`the unknown path's title: ${await page.title()}`);
  await checkAxe("unknown path");
  await checkNarrow("unknown path");
  await checkWaysOn("an unknown path (404)");
  await shot("unknown path");
  expectFailed(404);
  clean("unknown path");
  step("an unknown path: HTTP 404, \"There is no page here\" with links home, to search, the indexes and help; axe clean");

  // A word the list does not take: HTTP 400, and the page says which, not the list in its
  // first order; its link opens the list as it starts, and back comes to the refusal again.
  await open("/methods?sort=sideways", 400);
  const refused = await page.locator("main").innerText();
  if (!refused.includes("Not a page of this list") || !refused.includes("`sort` must be one of") || !refused.includes("got 'sideways'")) {
    fail(`/methods?sort=sideways says: ${refused}`);
  }
  if ((await page.locator("main table").count()) !== 0) fail("/methods?sort=sideways shows a table");
  if ((await page.title()) !== "Not a page of this list · Taxonomy browser") fail(`the refused page's title: ${await page.title()}`);
  await checkAxe("refused word");
  await checkNarrow("refused word");
  expectFailed(400);
  await checkWaysOn("a refused word (400)");
  clean("refused word");
  await page.getByRole("link", { name: "Open the list as it starts" }).click();
  await page.waitForURL(`${base}/methods`);
  await page.locator("main table.index tbody tr").first().waitFor();
  await page.goBack();
  await page.locator("main h1", { hasText: "Not a page of this list" }).waitFor();
  step("a word the list does not take (/methods?sort=sideways): HTTP 400, the page says which and links the list as it starts; axe clean");
  await pageType("search", "/search?q=parallel", "parallel");
  await searchFacets("parallel");
  await checkNarrow("search");
  const hits = (await api('{ search(query: "parallel", first: 1, types: [METHODS]) { totalCount nodes { ... on Method { name } } } }')).search;
  // A paper that is a model and that model's source (the fixtures' Mistral 7B) is one row,
  // the model's; asked for sources alone, it is there as its source.
  await open("/search?q=mistral+7b");
  const paperRows = async () => page.locator('ol.results > li:has(> a[href="/models/mistral-7b"])').evaluateAll((items) => items.map((item) => item.querySelector(".kind").textContent));
  const paper = await paperRows();
  if (JSON.stringify(paper) !== JSON.stringify(["model"])) fail(`search "mistral 7b": the paper's rows are ${JSON.stringify(paper)}, not one model row`);
  // Not go(): the results' count is a status line, which settled() waits to see gone.
  await page.getByRole("navigation", { name: "Result types" }).getByRole("link", { name: "Sources (1)", exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get("type") === "sources");
  await page.getByRole("navigation", { name: "Result types" }).locator("[aria-current=true]", { hasText: "Sources (1)" }).waitFor();
  await idle();
  const asSource = await paperRows();
  if (JSON.stringify(asSource) !== JSON.stringify(["source"])) fail(`search "mistral 7b", sources alone: the paper's rows are ${JSON.stringify(asSource)}`);
  step('search "mistral 7b": the paper that is a model and its source is one row, the model; sources alone show it as its source');
  await open("/search?q=parallel&type=methods");
  await checkDownloads("search, methods only", { path: "/download/search", want: { q: "parallel", type: "methods" }, total: hits.totalCount, key: "name", first: hits.nodes[0].name });
  await pageType("unknown node", "/nodes/optimization/no-such-node", "No node", 404, 2);
  if (!(await page.locator("main").innerText()).includes("This taxonomy has no node at optimization/no-such-node")) {
    fail("the unknown node's page does not say so");
  }
  await checkNarrow("unknown node");
  await checkWaysOn("an unknown node (404)");
  await pageType("unknown model", "/models/no-such-model", "No model", 404, 2);
  await indexes();

  // Links, back, forward and reload: each page from its URL alone.
  await open("/");
  await page.getByRole("link", { name: "training parallelism", exact: true }).click();
  await page.waitForURL(`${base}${seedPath}`);
  await page.locator("main h1", { hasText: "training parallelism" }).waitFor();
  await page.getByRole("link", { name: "Kimi K3", exact: true }).click();
  await page.waitForURL(`${base}/models/kimi-k3`);
  await page.locator("main h1", { hasText: "Kimi K3" }).waitFor();
  await page.goBack();
  await page.locator("main h1", { hasText: "training parallelism" }).waitFor();
  await page.goBack();
  await page.locator("main h1", { hasText: "Machine-learning techniques" }).waitFor();
  await page.goForward();
  await page.locator("main h1", { hasText: "training parallelism" }).waitFor();
  await page.reload();
  await page.locator("main h1", { hasText: "training parallelism" }).waitFor();
  if ((await page.title()) !== "optimization :: training parallelism · Taxonomy browser") fail(`title after reload: ${await page.title()}`);
  await page.getByRole("link", { name: "name", exact: true }).click();
  await page.waitForURL(`${base}${seedPath}?sort=name&dir=asc#by-model`);
  const first = await page.locator(".by-model tbody tr th").first().innerText();
  if (!first.startsWith("DeepSeek-V4-Flash")) fail(`sorted by name, the first row is ${first}`);
  await page.reload();
  if (!(await page.locator(".by-model tbody tr th").first().innerText()).startsWith("DeepSeek-V4-Flash")) fail("the order is lost on reload");
  await checkDownloads("the seed page sorted by name", { path: `/download${seedPath}`, want: { sort: "name" }, total: rows.length - 1, key: "model", first: "DeepSeek-V4-Flash" });
  await checkByModelTable("optimization");
  await checkByModelColumns("optimization/training-parallelism");
  // Paging the By-model table: 27 models in `architecture`, 25 a page.
  await open("/nodes/architecture");
  const rowsOf = () => page.locator(".by-model tbody tr").count();
  if ((await rowsOf()) !== 25) fail(`the first page of architecture has ${await rowsOf()} rows`);
  if ((await position()) !== "1–25 of 27 models") fail(`the first page of architecture says ${await position()}`);
  await checkSubBranches("architecture", "architecture");
  const undated = await checkAdoption("architecture", 'node(path: "architecture")');
  if (!undated) fail("architecture has no undated models in the fixtures: the undated note is untested");
  await checkNarrow("architecture");
  await page.getByRole("link", { name: "Next 2 models" }).click();
  await page.waitForURL(/\/nodes\/architecture\?after=[^&]+&from=26#by-model$/);
  await page.getByRole("link", { name: "Previous 25 models" }).waitFor();
  if ((await rowsOf()) !== 2) fail(`the second page of architecture has ${await rowsOf()} rows`);
  if ((await position()) !== "26–27 of 27 models") fail(`the second page of architecture says ${await position()}`);
  await page.reload();
  await page.getByRole("link", { name: "Previous 25 models" }).waitFor();
  if ((await rowsOf()) !== 2) fail("the second page is lost on reload");
  await page.getByRole("link", { name: "Previous 25 models" }).click();
  await page.waitForURL(`${base}/nodes/architecture#by-model`);
  await page.getByRole("link", { name: "Next 2 models" }).waitFor();
  if ((await rowsOf()) !== 25) fail(`back on the first page, architecture has ${await rowsOf()} rows`);
  clean("navigation");
  step("links, back, forward and reload keep each page; the By-model order and page are in the URL");

  // Search by keyboard only: Tab to the box, type, Down to a suggestion, Enter.
  await open("/methods/expert-parallelism");
  await page.locator("body").focus();
  let tabs = 0;
  while (!(await page.evaluate(() => document.activeElement?.id === "site-search"))) {
    await page.keyboard.press("Tab");
    if (++tabs > 10) fail("Tab never reaches the search box");
  }
  await page.keyboard.type("tensor parallelism");
  // The suggestions for the whole words (under load, those for a part may show first).
  await page.getByRole("option").filter({ hasText: "Tensor Parallelism" }).first().waitFor();
  await idle();
  await page.keyboard.press("ArrowDown");
  const chosen = await page.locator("[role=option][aria-selected=true]").innerText();
  const active = await page.locator("#site-search").getAttribute("aria-activedescendant");
  if (!active) fail("the combobox does not say which suggestion is active");
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => !url.pathname.startsWith("/methods/expert-parallelism"));
  await page.locator("main h1").waitFor();
  const landed = await page.locator("main h1").innerText();
  if (!chosen.includes(landed)) fail(`chose ${JSON.stringify(chosen)}, landed on ${JSON.stringify(landed)}`);
  step(`keyboard: Tab ×${tabs} to the search box, type, Down, Enter opens "${landed}"`);
  await page.locator("#site-search").focus();
  await page.keyboard.type("pipeline");
  await page.keyboard.press("Enter");
  await page.waitForURL(`${base}/search?q=pipeline`);
  await page.locator("ol.results li").first().waitFor();
  const firstHit = page.locator("ol.results a").first();
  const hitName = await firstHit.innerText();
  await firstHit.focus();
  await page.keyboard.press("Enter");
  await page.locator("main h1", { hasText: hitName }).waitFor();
  await page.goBack();
  await page.locator("main h1", { hasText: "Search: pipeline" }).waitFor();
  await page.locator("ol.results li").first().waitFor();
  await idle();
  clean("search");
  step(`keyboard: Enter without a suggestion opens the results; Enter on "${hitName}" opens it; back returns`);
  await checkHeadingFocus();

  // An API that fails: the page says so (the failed request's console line is expected).
  await context.route("**/graphql?**", (route) => route.fulfill({ status: 503, body: "overloaded" }));
  await page.goto(`${base}/models/kimi-k3`);
  await page.getByRole("alert").waitFor();
  const said = await page.getByRole("alert").innerText();
  const details = await page.locator("[role=alert] details").textContent();
  if (!said.includes("This page could not be loaded") || !said.includes("reload the page") || /API|HTTP/.test(said)) fail(`the API error says: ${said}`);
  if (!details.includes("HTTP 503")) fail(`the API error's details: ${details}`);
  await shot("api-error");
  await context.unroute("**/graphql?**");
  expectFailed(503);
  clean("API error");
  step("an API error shows as a message on the page");

  // The harness: a request beyond this machine is listed (the run fails on it) and goes
  // nowhere (tests/local_chromium.mjs).
  const listed = blocked.length;
  const away = await page.goto("http://example.com/taxonomy").then(
    () => "it loaded",
    (error) => error.message,
  );
  if (!away.includes("ERR_NAME_NOT_RESOLVED")) fail(`a page of example.com: ${away}`);
  if (blocked.slice(listed).join() !== "http://example.com/taxonomy") fail(`listed beyond this machine: ${blocked.slice(listed)}`);
  blocked.splice(listed);
  step("a page beyond this machine is listed as such and does not load (ERR_NAME_NOT_RESOLVED)");
}

const NUMBER = new Intl.NumberFormat("en-US");

/** The open index's rows, each its cells' text. */
async function indexRows() {
  return page.locator("table.index tbody tr").evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent.trim())));
}

/** Which column heads of the open index say they sort, and how: {Released: "descending"}. */
async function sortedBy() {
  const heads = await page.locator("table.index thead th[aria-sort]").evaluateAll((ths) =>
    ths.map((th) => [th.querySelector("a")?.textContent.replace(/[▲▼]/g, "").trim() ?? th.textContent.trim(), th.getAttribute("aria-sort")]),
  );
  return Object.fromEntries(heads);
}

/** Checks the open index: its rows are ``expected`` (the API's), its sort is ``sorted``
 * (aria-sort), its URL has ``want`` (see checkPage: a value, true for any, null for none). */
async function checkIndex(where, { expected, sorted, want = {} }) {
  const shown = await indexRows();
  if (JSON.stringify(shown) !== JSON.stringify(expected)) {
    fail(`${where}: the rows\n${JSON.stringify(shown)}\nare not the API's\n${JSON.stringify(expected)}`);
  }
  const sorts = await sortedBy();
  if (JSON.stringify(sorts) !== JSON.stringify(sorted)) fail(`${where}: aria-sort says ${JSON.stringify(sorts)}, not ${JSON.stringify(sorted)}`);
  const url = new URL(page.url());
  for (const [key, value] of Object.entries(want)) {
    const got = url.searchParams.get(key);
    if (value === null ? got !== null : value === true ? !got : got !== value) fail(`${where}: the URL ${url.href} has ${key}=${got}, not ${value}`);
  }
}

const MODELS_QUERY = `query ($first: Int, $after: String, $filter: ModelFilter, $orderBy: ModelOrder) {
  models(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {
    totalCount pageInfo { endCursor } nodes { name organization releaseDate branches { methodCount } } } }`;
const METHODS_QUERY = `query ($first: Int, $after: String, $filter: MethodFilter, $orderBy: MethodOrder) {
  methods(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {
    totalCount pageInfo { endCursor } nodes { name strongest modelCount node { path } } } }`;

/** The API's models as the models index shows them: name, organization, release date, methods. */
async function apiModels(variables) {
  const { models } = await api(MODELS_QUERY, { first: 25, ...variables });
  const rows = models.nodes.map((model) => [
    model.name,
    model.organization ?? "unknown",
    model.releaseDate ?? "unknown",
    NUMBER.format(model.branches.reduce((sum, branch) => sum + branch.methodCount, 0)),
  ]);
  return { rows, total: models.totalCount, endCursor: models.pageInfo.endCursor };
}

/** The API's methods as the methods index shows them: name, where filed, strongest, models. */
async function apiMethods(variables) {
  const { methods } = await api(METHODS_QUERY, { first: 25, ...variables });
  const rows = methods.nodes.map((method) => [
    method.name,
    method.node.path,
    method.strongest?.toLowerCase() ?? "none",
    NUMBER.format(method.modelCount),
  ]);
  return { rows, total: methods.totalCount, endCursor: methods.pageInfo.endCursor };
}

/** The search page of ``q``: each type's count as the API gives it, a link to that type's
 * hits alone (?type=, marked current there), and the found words marked in the hits. */
async function searchFacets(q) {
  const { search } = await api("query($q: String!) { search(query: $q) { facets { type count } } }", { q });
  const facets = search.facets.filter((facet) => facet.count);
  const nav = page.getByRole("navigation", { name: "Result types" });
  const label = (facet) => `${facet.type[0]}${facet.type.slice(1).toLowerCase()} (${facet.count.toLocaleString("en-US")})`;
  for (const facet of facets) {
    if (!(await nav.getByRole("link", { name: label(facet), exact: true }).count())) fail(`search: no link "${label(facet)}"`);
  }
  if (!(await page.locator("ol.results mark").count())) fail(`search "${q}": no found word is marked`);
  const methods = facets.find((facet) => facet.type === "METHODS");
  if (!methods) fail(`search "${q}" finds no method`);
  // Not go(): the results' count is a status line, which settled() waits to see gone.
  await nav.getByRole("link", { name: label(methods), exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get("type") === "methods");
  await nav.locator("[aria-current=true]", { hasText: label(methods) }).waitFor();
  await idle();
  const kinds = await page.locator("ol.results .kind").allTextContents(); // as in the DOM, not as styled
  if (!kinds.length || kinds.some((kind) => kind !== "method")) fail(`type=methods lists ${JSON.stringify(kinds)}`);
  const current = await nav.locator("[aria-current=true]").innerText();
  if (current !== label(methods)) fail(`type=methods marks "${current}" as current`);
  const shown = (await page.getByRole("status").innerText()).split(" ")[0];
  if (shown !== methods.count.toLocaleString("en-US")) fail(`type=methods says ${shown} results, not ${methods.count}`);
  step(`search "${q}": each type's count links to its hits alone (?type=); the found words are marked`);
}

/** Clicks ``locator`` (a link or a button that changes the URL) and waits for the new page. */
async function go(locator) {
  const before = page.url();
  await locator.click();
  await page.waitForURL((url) => url.href !== before);
  await settled();
  return new URL(page.url());
}

/** The indexes on the fixtures: each page loads (one persisted GET, axe, widths), shows the
 * API's first rows, sorts by its column heads (aria-sort, the URL), filters by its form (the
 * URL), pages by the shared Pager, and keeps all of it on reload. */
async function indexes() {
  const models = await apiModels({});
  await pageType("models", "/models", "Models");
  await checkIndex("/models", { expected: models.rows, sorted: { Model: "ascending" }, want: { sort: null, dir: null } });
  if ((await position()) !== `1–25 of ${models.total} models`) fail(`/models says ${await position()}`);
  await checkWidths("models");
  step(`/models: the API's first 25 of ${models.total} models by name (aria-sort ascending on Model)`);

  // Sorting: by release date, newest first, then oldest first; the order is in the URL.
  await go(page.getByRole("link", { name: "Released", exact: true }));
  const newest = await apiModels({ orderBy: { field: "RELEASE_DATE", direction: "DESC" } });
  await checkIndex("/models by release", { expected: newest.rows, sorted: { Released: "descending" }, want: { sort: "release", dir: "desc" } });
  await go(page.getByRole("link", { name: "Released", exact: true }));
  const oldest = await apiModels({ orderBy: { field: "RELEASE_DATE", direction: "ASC" } });
  await checkIndex("/models by release, oldest first", { expected: oldest.rows, sorted: { Released: "ascending" }, want: { sort: "release", dir: "asc" } });
  await page.reload();
  await settled();
  await checkIndex("/models by release, reloaded", { expected: oldest.rows, sorted: { Released: "ascending" }, want: { sort: "release", dir: "asc" } });
  step("/models: the Released head sorts newest first, then oldest first (aria-sort, ?sort=release&dir=); a reload keeps it");

  // Paging in that order: the next page is the API's next, and back.
  await go(page.getByRole("link", { name: `Next ${models.total - 25} models`, exact: true }));
  const second = await apiModels({ orderBy: { field: "RELEASE_DATE", direction: "ASC" }, after: oldest.endCursor });
  await checkIndex("/models, second page", { expected: second.rows, sorted: { Released: "ascending" }, want: { sort: "release", after: true, from: "26" } });
  if ((await position()) !== `26–${models.total} of ${models.total} models`) fail(`the second page says ${await position()}`);
  await go(page.getByRole("link", { name: "Previous 25 models", exact: true }));
  await checkIndex("/models, back to the first page", { expected: oldest.rows, sorted: { Released: "ascending" }, want: { after: null, before: null, sort: "release" } });
  step(`/models: "Next ${models.total - 25} models" shows the API's 26–${models.total} in the same order, "Previous" the first page`);

  // Filters: an organization (the API's first choice) and a date range, kept with the order.
  const { organizations } = await api("{ organizations { name modelCount } }");
  const org = organizations[0];
  await page.getByLabel("Organization").selectOption(org.name);
  await page.getByLabel("Released on or after").fill("2024-01-01");
  await go(page.getByRole("button", { name: "Filter", exact: true }));
  const filter = { organization: org.name, releasedAfter: "2024-01-01" };
  const narrowed = await apiModels({ filter, orderBy: { field: "RELEASE_DATE", direction: "ASC" } });
  if (!narrowed.total || narrowed.total >= models.total) fail(`the filter ${JSON.stringify(filter)} does not narrow: ${narrowed.total}`);
  await checkIndex("/models filtered", {
    expected: narrowed.rows,
    sorted: { Released: "ascending" },
    want: { org: org.name, "released-from": "2024-01-01", "released-to": null, sort: "release", dir: "asc", after: null },
  });
  await checkDownloads("/models filtered", {
    path: "/download/models",
    want: { org: org.name, "released-from": "2024-01-01", sort: "release", dir: "asc", after: null },
    total: narrowed.total,
    key: "model",
    first: narrowed.rows[0][0],
  });
  const heading = await page.locator("#models-list").innerText();
  if (heading !== `${narrowed.total} ${narrowed.total === 1 ? "model matches" : "models match"} the filters`) fail(`the filtered list's heading: ${heading}`);
  await checkAxe("models filtered");
  await page.reload();
  await settled();
  await checkIndex("/models filtered, reloaded", { expected: narrowed.rows, sorted: { Released: "ascending" }, want: { org: org.name } });
  if ((await page.getByLabel("Organization").inputValue()) !== org.name) fail("the form does not show the organization filtered by");
  await shot("models-filtered");
  await go(page.getByRole("link", { name: "Clear the filters", exact: true }));
  await checkIndex("/models unfiltered", { expected: oldest.rows, sorted: { Released: "ascending" }, want: { org: null, "released-from": null } });
  // A name that matches nothing: no table, a way back.
  await page.getByLabel("Name contains").fill("no model is called this");
  await go(page.getByRole("button", { name: "Filter", exact: true }));
  if (!(await page.locator("main").innerText()).includes("No model matches.")) fail("a filter matching nothing does not say so");
  step(`/models: filtered by ${org.name} released from 2024-01-01: the API's ${narrowed.total} models, in the URL, kept by reload; "Clear the filters"`);

  const methods = await apiMethods({});
  await pageType("methods", "/methods", "Methods");
  await checkIndex("/methods", { expected: methods.rows, sorted: { Method: "ascending" } });
  await checkWidths("methods");
  await go(page.getByRole("link", { name: "Model count", exact: true }));
  const most = await apiMethods({ orderBy: { field: "MODEL_COUNT", direction: "DESC" } });
  await checkIndex("/methods by model count", { expected: most.rows, sorted: { "Model count": "descending" }, want: { sort: "models", dir: "desc" } });
  await go(page.getByRole("link", { name: "Strongest", exact: true }));
  const strongest = await apiMethods({ orderBy: { field: "STRONGEST", direction: "DESC" } });
  await checkIndex("/methods by strongest", { expected: strongest.rows, sorted: { Strongest: "descending" }, want: { sort: "strongest", dir: "desc" } });
  await go(page.getByRole("link", { name: "Method", exact: true }));
  await checkIndex("/methods by name again", { expected: methods.rows, sorted: { Method: "ascending" }, want: { sort: null, dir: null } });
  step("/methods: sorted by Model count, Strongest and Method, each the API's order, aria-sort and the URL");
  await go(page.getByRole("link", { name: `Next 25 methods`, exact: true }));
  const next = await apiMethods({ after: methods.endCursor });
  await checkIndex("/methods, second page", { expected: next.rows, sorted: { Method: "ascending" }, want: { after: true, from: "26" } });
  if ((await position()) !== `26–50 of ${methods.total} methods`) fail(`the methods' second page says ${await position()}`);
  await go(page.getByRole("link", { name: `${methods.total > 100 ? 100 : 50} methods a page`, exact: true }));
  if (!(await position()).startsWith(`26–`)) fail(`at another size the page does not keep its first item: ${await position()}`);
  // The branch filter: a root (from the API's roots), and at least used.
  const root = (await api("{ roots { name slugPath } }")).roots[0];
  await page.getByLabel("Branch").selectOption(root.slugPath);
  await page.getByLabel("Strongest treatment").selectOption("used");
  await go(page.getByRole("button", { name: "Filter", exact: true }));
  const inBranch = await apiMethods({ first: Number(new URL(page.url()).searchParams.get("size")), filter: { branch: { path: root.slugPath }, minStrength: "USED" } });
  if (!inBranch.total || inBranch.total >= methods.total) fail(`the branch filter does not narrow: ${inBranch.total}`);
  await checkIndex("/methods in a branch", { expected: inBranch.rows, sorted: { Method: "ascending" }, want: { branch: root.slugPath, strength: "used", after: null } });
  await checkAxe("methods filtered");
  await checkDownloads("/methods in a branch", { path: "/download/methods", want: { branch: root.slugPath, strength: "used", size: null }, total: inBranch.total, key: "method", first: inBranch.rows[0][0] });
  step(`/methods: pages by the Pager (26–50 of ${methods.total}), at another size keeps its first item, filtered to ${root.name} at used or stronger: the API's ${inBranch.total}`);
  // A branch that is not there: the page says so, with a way back.
  await open("/methods?branch=no/such/branch");
  const said = await page.locator("main").innerText();
  if (!said.includes("Not a filter this list takes") || !said.includes("Show the list without filters")) fail(`an unknown branch: ${said}`);
  clean("methods");

  const { releases } = await api("{ releases(first: 25) { totalCount nodes { number changes { from { number } summary { total } } } } }");
  await pageType("releases", "/releases", "Releases");
  const rows = await indexRows();
  if (JSON.stringify(rows.map((row) => row[0])) !== JSON.stringify(releases.nodes.map((release) => String(release.number)))) {
    fail(`/releases shows ${JSON.stringify(rows)}, the API has ${JSON.stringify(releases.nodes)}`);
  }
  if (JSON.stringify(await sortedBy()) !== JSON.stringify({ Release: "descending" })) fail(`/releases aria-sort: ${JSON.stringify(await sortedBy())}`);
  for (const [index, release] of releases.nodes.entries()) {
    const { changes } = release;
    // Read at once: waiting for a link that a release without changes rightly lacks would
    // take the default timeout (20 s) every run.
    const link = await page.locator("table.index tbody tr").nth(index).evaluate((row) => row.querySelector("a")?.getAttribute("href") ?? null);
    const wanted = changes && changes.summary.total ? `/changes?since=${changes.from.number}&until=${release.number}` : null;
    if (link !== wanted) fail(`release ${release.number} links to ${link}, not ${wanted}`);
  }
  await checkWidths("releases");
  await checkDownloads("/releases", { path: "/download/releases", total: releases.totalCount, key: "release", first: releases.nodes[0].number });
  step(`/releases: the API's ${releases.totalCount} releases newest first (aria-sort descending), each linked to its changes`);
}

/** After loading the fixtures, then an edited copy: node `serving` renamed "model serving",
 * method `fresh-method` ("Fresh Method") added at training parallelism. */
async function changes() {
  await pageType("home", "/", "Taxonomy browser");
  const home = await page.locator("main").innerText();
  for (const wanted of ["Release 2, loaded ", "against release 1: 2 changes", "Nodes: 1 renamed", "Methods: 1 added", "Models: none"]) {
    if (!home.includes(wanted)) fail(`the home page lacks ${JSON.stringify(wanted)}:\n${home}`);
  }
  step("the home page shows release 2 and what it changed, per kind");
  await page.getByRole("link", { name: "the changes, one by one" }).click();
  await page.waitForURL(`${base}/changes?since=1&until=2`);
  await page.locator("main h1", { hasText: "Changes from release 1 to 2" }).waitFor();
  await pageType("changes", "/changes?since=1", "Changes from release 1 to 2");
  const shown = {};
  for (const list of LISTS) shown[list] = await changeRows(list);
  const wanted = {
    nodes: [["model serving", "renamed", "from “serving”"]],
    methods: [["Fresh Method", "added", ""]],
    models: [],
    treatments: [],
  };
  if (JSON.stringify(shown) !== JSON.stringify(wanted)) fail(`the changes page shows ${JSON.stringify(shown)}`);
  // One kind of change at a time: in the URL, each list narrowed, the choice marked.
  const kinds = page.getByRole("navigation", { name: "Kinds of change" });
  for (const [kind, nodes, methods] of [["renamed", wanted.nodes, []], ["added", [], wanted.methods], ["weakened", [], []]]) {
    await go(kinds.getByRole("link", { name: kind, exact: true }));
    if (new URL(page.url()).searchParams.get("kind") !== kind) fail(`the ${kind} filter went to ${page.url()}`);
    const narrowed = { nodes: await changeRows("nodes"), methods: await changeRows("methods") };
    if (JSON.stringify(narrowed) !== JSON.stringify({ nodes, methods })) fail(`kind=${kind} shows ${JSON.stringify(narrowed)}`);
    const current = await kinds.locator("[aria-current=true]").innerText();
    if (current !== kind) fail(`kind=${kind} marks ${current} as current`);
  }
  if (!(await page.locator("main p", { hasText: "No change of this kind between them." }).count())) {
    fail("kind=weakened: no word of nothing found");
  }
  await go(kinds.getByRole("link", { name: "all", exact: true }));
  if (new URL(page.url()).searchParams.has("kind")) fail(`"all" kept a kind: ${page.url()}`);
  step("the changes page narrows every list to one kind of change, in the URL");
  await checkDownloads("the changes page's nodes", { path: "/download/changes/nodes", want: { since: "1", until: "2", kind: null }, total: 1, key: "name", first: "model serving" });
  await checkDownloads("the changes page's methods", { nth: 1, path: "/download/changes/methods", want: { since: "1", until: "2" }, total: 1, key: "name", first: "Fresh Method" });
  for (const heading of ["Nodes 1", "Methods 1"]) {
    if (!(await page.getByRole("heading", { name: heading, exact: true }).count())) fail(`no heading "${heading}"`);
  }
  await checkWidths("changes");
  for (const [name, url] of [["model serving", "/nodes/inference/serving"], ["Fresh Method", "/methods/fresh-method"]]) {
    const link = await page.getByRole("link", { name, exact: true }).getAttribute("href");
    if (link !== url) fail(`the changes page links ${name} to ${link}, not ${url}`);
  }
  await page.getByRole("link", { name: "Fresh Method", exact: true }).click();
  await page.locator("main h1", { hasText: "Fresh Method" }).waitFor();
  step("the changes page lists the edits per kind, each linked to its page");
  await pageType("releases", "/releases", "Releases");
  const releaseRows = await indexRows();
  if (releaseRows.length !== 2 || releaseRows[0][0] !== "2" || !releaseRows[0][3].startsWith("2 changes since release 1") || !releaseRows[1][3].startsWith("the first release kept")) {
    fail(`/releases after two loads: ${JSON.stringify(releaseRows)}`);
  }
  await go(page.getByRole("link", { name: "2 changes since release 1", exact: true }));
  if (new URL(page.url()).search !== "?since=1&until=2") fail(`release 2's changes link went to ${page.url()}`);
  await open("/releases");
  await go(page.getByRole("navigation", { name: "Indexes" }).getByRole("link", { name: "Changes", exact: true }));
  await page.locator("main h1", { hasText: "Changes from release 1 to 2" }).waitFor();
  step("/releases lists release 2 with its changes linked; the header's Changes link opens them");
  await releasesIndex();
  await pageType("unknown release", "/changes?since=9", "No such release", 404);
  const said = await page.locator("main").innerText();
  if (!said.includes("there is no release 9")) fail(`the unknown release's page says: ${said}`);
  step("an unknown release's changes page says there is no such release");
  clean("changes");
}

const RELEASES_QUERY = `query ($filter: ReleaseFilter, $orderBy: ReleaseOrder) {
  releases(first: 25, filter: $filter, orderBy: $orderBy) { totalCount nodes { number loadedAt note } } }`;

/** The API's releases (numbers, as the releases index's first column shows them). */
async function apiReleases(variables) {
  const { releases } = await api(RELEASES_QUERY, variables);
  return { numbers: releases.nodes.map((release) => String(release.number)), total: releases.totalCount, nodes: releases.nodes };
}

/** The open releases index: its rows' release numbers are ``expected`` (the API's), its sort
 * ``sorted`` (aria-sort), its URL has ``want``. */
async function checkReleases(where, { expected, sorted, want = {} }) {
  const shown = (await indexRows()).map((row) => row[0]);
  if (JSON.stringify(shown) !== JSON.stringify(expected)) fail(`${where}: releases ${JSON.stringify(shown)}, the API's ${JSON.stringify(expected)}`);
  const sorts = await sortedBy();
  if (JSON.stringify(sorts) !== JSON.stringify(sorted)) fail(`${where}: aria-sort says ${JSON.stringify(sorts)}, not ${JSON.stringify(sorted)}`);
  const url = new URL(page.url());
  for (const [key, value] of Object.entries(want)) {
    const got = url.searchParams.get(key);
    if (value === null ? got !== null : got !== value) fail(`${where}: the URL ${url.href} has ${key}=${got}, not ${value}`);
  }
}

/** /releases after the two loads of changes(): the Release and Loaded heads sort the newest
 * or the oldest first (aria-sort, ?sort=&dir=, kept by reload), the filter form narrows by
 * the note's text and the days loaded on (the URL), each the API's rows; the downloads follow. */
async function releasesIndex() {
  const asc = { field: "NUMBER", direction: "ASC" };
  const newest = await apiReleases({});
  const oldest = await apiReleases({ orderBy: asc });
  if (newest.total !== 2 || JSON.stringify(oldest.numbers) !== JSON.stringify([...newest.numbers].reverse())) fail(`the API's releases: ${JSON.stringify([newest, oldest])}`);
  await open("/releases");
  await checkReleases("/releases", { expected: newest.numbers, sorted: { Release: "descending" }, want: { sort: null, dir: null } });
  await go(page.getByRole("link", { name: "Release", exact: true }));
  await checkReleases("/releases, oldest first", { expected: oldest.numbers, sorted: { Release: "ascending" }, want: { sort: "release", dir: "asc" } });
  await page.reload();
  await settled();
  await checkReleases("/releases, oldest first, reloaded", { expected: oldest.numbers, sorted: { Release: "ascending" }, want: { sort: "release", dir: "asc" } });
  await go(page.getByRole("link", { name: "Loaded", exact: true }));
  await checkReleases("/releases by loading", { expected: newest.numbers, sorted: { Loaded: "descending" }, want: { sort: "loaded", dir: "desc" } });
  await go(page.getByRole("link", { name: "Loaded", exact: true }));
  await checkReleases("/releases by loading, oldest first", { expected: oldest.numbers, sorted: { Loaded: "ascending" }, want: { sort: "loaded", dir: "asc" } });
  if (!(await page.locator("main p.lead").innerText()).includes("oldest first")) fail("/releases oldest first does not say so");
  step("/releases: the Release and Loaded heads sort the newest first, then the oldest first (aria-sort, ?sort=&dir=); a reload keeps it");

  // The note's text: release 2's note (any case), in the same order.
  const word = newest.nodes[0].note.split(" ")[0].toUpperCase();
  await page.getByLabel("Note contains").fill(word);
  await go(page.getByRole("button", { name: "Filter", exact: true }));
  const noted = await apiReleases({ filter: { noteContains: word }, orderBy: asc });
  if (noted.total !== 1) fail(`the note filter ${word} does not narrow to one release: ${noted.total}`);
  await checkReleases("/releases by note", { expected: noted.numbers, sorted: { Loaded: "ascending" }, want: { q: word, sort: "loaded", dir: "asc", after: null } });
  const heading = await page.locator("#releases-list").innerText();
  if (heading !== "1 release matches the filters") fail(`the filtered releases' heading: ${heading}`);
  await checkAxe("releases filtered");
  await checkDownloads("/releases by note", { path: "/download/releases", want: { q: word, sort: "loaded", dir: "asc" }, total: 1, key: "release", first: Number(noted.numbers[0]) });
  await shot("releases-filtered");
  step(`/releases: "Note contains ${word}" shows the API's one release, in the URL (?q=), the downloads too`);

  // The days loaded on: both releases were loaded today (UTC); the day before has none.
  const today = newest.nodes[0].loadedAt.slice(0, 10);
  const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  await go(page.getByRole("link", { name: "Clear the filters", exact: true }));
  await page.getByLabel("Loaded on or before").fill(yesterday);
  await go(page.getByRole("button", { name: "Filter", exact: true }));
  if ((await apiReleases({ filter: { loadedTo: yesterday } })).total !== 0) fail(`releases loaded by ${yesterday}`);
  if (!(await page.locator("main").innerText()).includes("No release matches.")) fail(`loaded-to=${yesterday} does not say no release matches`);
  await page.getByLabel("Loaded on or before").fill("");
  await page.getByLabel("Loaded on or after").fill(today);
  await go(page.getByRole("button", { name: "Filter", exact: true }));
  const fromToday = await apiReleases({ filter: { loadedFrom: today }, orderBy: asc });
  await checkReleases("/releases loaded from today", { expected: fromToday.numbers, sorted: { Loaded: "ascending" }, want: { "loaded-from": today, "loaded-to": null, sort: "loaded" } });
  if (fromToday.total !== 2) fail(`releases loaded from ${today}: ${fromToday.total}`);
  step(`/releases: loaded on or before ${yesterday} matches none (said so), on or after ${today} both, in the URL`);

  // A word the list does not take: a 400 that says which (the server reads it as the download does).
  await open("/releases?sort=size", 400);
  const refused = await page.locator("main").innerText();
  if (!refused.includes("`sort` must be one of release, loaded") || (await page.locator("main table").count()) !== 0) fail(`/releases?sort=size says: ${refused}`);
  expectFailed(400);
  clean("releases index");
  step("/releases?sort=size: HTTP 400 that says the sorts it takes, no table");
}

const LISTS = ["nodes", "methods", "models", "treatments"];

/** The changes page's rows of one list, each its cells' text (as in the DOM, not as styled). */
async function changeRows(list) {
  return page
    .locator(`section:has(> #changes-${list}) tbody tr`)
    .evaluateAll((rows) =>
      rows.map((row) =>
        [...row.children].map((cell) => {
          // What a removal took with it is told apart (knockOnRows), not part of the row's text.
          const copy = cell.cloneNode(true);
          for (const knockOn of copy.querySelectorAll(".knock-on")) knockOn.remove();
          return copy.textContent.trim();
        }),
      ),
    );
}

/** Every list's rows as the open changes page shows them. */
async function allChangeRows() {
  return Object.fromEntries(await Promise.all(LISTS.map(async (list) => [list, await changeRows(list)])));
}

/** Waits for the page's data: no request pending, no "Loading…", its heading there. */
async function settled() {
  await idle();
  await page.locator("main [role=status]").waitFor({ state: "detached" });
  await page.locator("main h1").waitFor();
}

/** Follows the link named ``name`` on the changes page and waits for its rows: the URL gets
 * (or drops) ``list``'s cursor, keeps ``since`` and ``until``, and opens at that list. */
async function followPaging(name, list, since, until) {
  const before = page.url();
  const link = typeof name === "string" ? page.getByRole("link", { name, exact: true }) : name;
  await link.click();
  await page.waitForURL((url) => url.href !== before);
  await settled();
  await page.locator("main h1", { hasText: `Changes from release ${since} to ${until}` }).waitFor();
  const url = new URL(page.url());
  if (url.searchParams.get("since") !== String(since) || url.searchParams.get("until") !== String(until)) {
    fail(`"${name}" went to ${url.href}: not since=${since}&until=${until}`);
  }
  if (url.hash !== `#changes-${list}`) fail(`"${name}" went to ${url.href}: not at #changes-${list}`);
  const [top, atBottom] = await page.locator(`#changes-${list}`).evaluate((heading) => [
    heading.getBoundingClientRect().top,
    window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2,
  ]);
  // At the top of the window; lower only when the page ends too soon to scroll it up there.
  if (top < -2 || top > (atBottom ? 700 : 200)) fail(`"${name}": the ${list} heading is ${top} px from the top, not in view`);
  return url;
}

/** Each removal's knock-on removals on the open changes page, by the removal's name: what
 * its row says it took with it ("with 1 sub-node and 4 methods removed with it") and, once
 * unfolded, the names it lists. */
async function knockOnRows(list) {
  const rows = page.locator(`section:has(> #changes-${list}) tbody tr:has(.knock-on)`);
  for (const summary of await rows.locator("details.knock-on summary").all()) await summary.click();
  return rows.evaluateAll((found) =>
    Object.fromEntries(
      found.map((row) => {
        const knockOn = row.querySelector(".knock-on");
        const said = (knockOn.querySelector("summary") ?? knockOn).textContent.trim();
        const named = [...knockOn.querySelectorAll("li")].map((item) => item.textContent.trim());
        return [row.querySelector("th").textContent.trim(), [said, ...named]];
      }),
    ),
  );
}

/** After the three releases of tests/walk_releases.py (test_walk_releases.py): the changes
 * page's release picker, its filters by kind of change and of record, knock-on removals
 * grouped under their cause, a move with a rename as one row; a node's history; a moved
 * node's old URL (301) and a removed method's (410). */
async function walk() {
  await pageType("changes", "/changes?since=1&until=2", "Changes from release 1 to 2");
  const shown = await allChangeRows();
  const wanted = {
    nodes: [
      ["expert routing", "removed", ""],
      ["tokenizers", "moved, renamed", "from data :: tokenization to architecture :: tokenizers"],
    ],
    methods: [
      ["Fresh Method", "added", ""],
      ["BPE Tokenization", "renamed", "from “Byte-Pair Encoding”"],
    ],
    models: [["Kimi K2", "removed", ""]],
    treatments: [],
  };
  if (JSON.stringify(shown) !== JSON.stringify(wanted)) fail(`the changes from 1 to 2: ${JSON.stringify(shown)}`);
  const lead = await page.locator("main .lead").innerText();
  if (!lead.includes("5 changes.") || !lead.includes("it is named under that removal")) fail(`the lead: ${lead}`);
  step("changes 1 to 2: by kind of change, a move with a rename one row, no knock-on removal listed");
  const nodes = await knockOnRows("nodes");
  const grouped = nodes["expert routing"] ?? [];
  if (grouped[0] !== "with 1 sub-node and 4 methods removed with it" || !grouped[1]?.includes("load balancing") || !grouped[2]?.startsWith("methods: ") || !grouped[2]?.endsWith(" and 1 more")) {
    fail(`expert routing's knock-on removals: ${JSON.stringify(nodes)}`);
  }
  const models = await knockOnRows("models");
  if (JSON.stringify(models) !== JSON.stringify({ "Kimi K2": ["with 8 treatments removed with it"] })) fail(`Kimi K2's: ${JSON.stringify(models)}`);
  await checkAxe("changes, knock-on removals unfolded");
  await checkWidths("changes-walk");
  step(`knock-on removals under their cause: ${JSON.stringify(grouped)}; Kimi K2 ${models["Kimi K2"]}`);

  const types = page.getByRole("navigation", { name: "Kinds of record" });
  await go(types.getByRole("link", { name: "models", exact: true }));
  if (new URL(page.url()).searchParams.get("type") !== "models") fail(`the models filter went to ${page.url()}`);
  const onlyModels = await allChangeRows();
  if (JSON.stringify(onlyModels) !== JSON.stringify({ nodes: [], methods: [], models: wanted.models, treatments: [] })) {
    fail(`type=models shows ${JSON.stringify(onlyModels)}`);
  }
  await go(page.getByRole("navigation", { name: "Kinds of change" }).getByRole("link", { name: "renamed", exact: true }));
  const url = new URL(page.url());
  if (url.searchParams.get("kind") !== "renamed" || url.searchParams.get("type") !== "models") fail(`kind=renamed went to ${url.href}`);
  await go(page.getByRole("navigation", { name: "Kinds of record" }).getByRole("link", { name: "everything", exact: true }));
  const renamed = await allChangeRows();
  if (JSON.stringify(renamed) !== JSON.stringify({ nodes: [wanted.nodes[1]], methods: [wanted.methods[1]], models: [], treatments: [] })) {
    fail(`kind=renamed shows ${JSON.stringify(renamed)}`);
  }
  step("filters: type=models shows the models alone; kind=renamed keeps it, and finds the move with a rename");

  // The picker: any two releases, also the first; the filters stay.
  const picker = page.getByRole("form", { name: "Releases compared" });
  await picker.getByLabel("From release").fill("2");
  await picker.getByLabel("to release").fill("3");
  await picker.getByRole("button", { name: "Compare" }).click();
  await page.waitForURL((to) => to.searchParams.get("since") === "2");
  await settled();
  const picked = new URL(page.url());
  if (picked.searchParams.get("until") !== "3" || picked.searchParams.get("kind") !== "renamed") fail(`the picker went to ${picked.href}`);
  await go(page.getByRole("navigation", { name: "Kinds of change" }).getByRole("link", { name: "all", exact: true }));
  await page.locator("main h1", { hasText: "Changes from release 2 to 3" }).waitFor();
  const third = await allChangeRows();
  const wantedThird = {
    nodes: [
      ["tokenizer design", "renamed", "from “tokenizers”"],
      ["hyperparameter scaling", "changed", "description: none → “Scaling rules.”"],
    ],
    methods: [["SentencePiece", "removed", ""]],
    models: [],
    treatments: [],
  };
  if (JSON.stringify(third) !== JSON.stringify(wantedThird)) fail(`the changes from 2 to 3: ${JSON.stringify(third)}`);
  const methods = await knockOnRows("methods");
  if (!/^with \d+ treatments? removed with it$/.test(methods.SentencePiece?.[0] ?? "")) fail(`SentencePiece's: ${JSON.stringify(methods)}`);
  await picker.getByLabel("From release").fill("1");
  await picker.getByLabel("to release").fill("3");
  await picker.getByRole("button", { name: "Compare" }).click();
  await page.waitForURL((to) => to.searchParams.get("since") === "1" && to.searchParams.get("until") === "3");
  await page.locator("main h1", { hasText: "Changes from release 1 to 3" }).waitFor();
  const whole = await allChangeRows();
  if (whole.nodes[1]?.[0] !== "tokenizer design" || whole.nodes[1]?.[1] !== "moved, renamed") fail(`1 to 3: ${JSON.stringify(whole.nodes)}`);
  step("the release picker compares 2 with 3, then the first release with the newest");

  await pageType("node", "/nodes/architecture/tokenization", "architecture :: tokenizer design");
  const history = await page.locator("section.history").innerText();
  const entries = await page.locator("section.history li").allInnerTexts();
  if (!history.includes("since release 1") || entries.length !== 2) fail(`the history section: ${history}`);
  if (!entries[0].startsWith("Release 2") || !entries[0].includes("moved from data :: tokenization to architecture :: tokenizers, renamed from “tokenization” to “tokenizers”")) {
    fail(`history entry 1: ${entries[0]}`);
  }
  if (!entries[1].startsWith("Release 3") || !entries[1].includes("renamed from “tokenizers” to “tokenizer design”")) fail(`history entry 2: ${entries[1]}`);
  await go(page.locator("section.history").getByRole("link", { name: "Release 2", exact: true }));
  if (new URL(page.url()).search !== "?since=1&until=2") fail(`the history's release link went to ${page.url()}`);
  step(`the node's history, oldest first: ${JSON.stringify(entries)}; each entry links its release's changes`);
  // A change of other fields than the name or place says which, and how.
  await open("/nodes/optimization/hyperparameter-scaling");
  const described = await page.locator("section.history li").allInnerTexts();
  if (described.length !== 1 || !described[0].startsWith("Release 3") || !described[0].endsWith("): changed; description: none → “Scaling rules.”")) {
    fail(`the described node's history: ${JSON.stringify(described)}`);
  }
  step(`a history entry says which fields changed: ${JSON.stringify(described)}`);

  const moved = await page.goto(`${base}/nodes/data/tokenization`, { waitUntil: "load" });
  await page.locator("main h1").waitFor();
  const hops = [];
  for (let request = moved?.request().redirectedFrom(); request; request = request.redirectedFrom()) {
    hops.push([(await request.response())?.status(), request.url()]);
  }
  if (new URL(page.url()).pathname !== "/nodes/architecture/tokenization" || hops[0]?.[0] !== 301) {
    fail(`the moved node's old URL: ${page.url()} by ${JSON.stringify(hops)}`);
  }
  step("a moved node's old URL answers 301 to its new place");

  await pageType("removed method", "/methods/top-k-routing", "Top-k Routing", 410, 2);
  const gone = await page.locator("main").innerText();
  if (!gone.includes("The method “Top-k Routing” was removed") || !gone.includes("Release 2, loaded")) fail(`the removed method's page: ${gone}`);
  const links = await page.locator("main a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  for (const wantedLink of ["/changes?since=1&until=2", "/", "/search?q=Top-k+Routing"]) {
    if (!links.includes(wantedLink)) fail(`the removed method's page lacks a link to ${wantedLink}: ${links}`);
  }
  await checkNarrow("removed method");
  step("a removed method's URL answers 410: what it was, the release that removed it, search and home");
  clean("walk");
}

/** The pager of one list of the open changes page: where its page is ("11–20 of 90 nodes"). */
async function listPosition(list) {
  return (await page.locator(`section:has(> #changes-${list}) nav.pager .position`).innerText()).trim();
}

/** After three releases (tests/test_browser.py): every list of the changes from 1 to 2 at
 * first 10 rows a list ("1–10 of N nodes"), where a list's "Next" leaves the others on their
 * first page; then, at 50 a list (each list's size link: the list alone), each list page by
 * page by its "Next" link; the rows and positions of every page go into the summary. */
async function paging() {
  await pageType("changes", "/changes?since=1&until=2", "Changes from release 1 to 2");
  await checkWidths("changes");
  summary.firstPositions = {};
  for (const list of LISTS) {
    const rows = await changeRows(list);
    if (rows.length > 10) fail(`${list}: ${rows.length} rows on a first page of 10`);
    if (rows.length) summary.firstPositions[list] = await listPosition(list);
  }
  step(`the changes page shows 10 rows a list at first: ${JSON.stringify(summary.firstPositions)}`);
  // With every list on the page, one list's next page leaves the others where they are.
  const overview = await allChangeRows();
  const longest = LISTS.reduce((most, list) => (overview[list].length > overview[most].length ? list : most));
  const nextTen = await followPaging(`Next 10 ${longest}`, longest, 1, 2);
  if (nextTen.searchParams.get(`${longest}-from`) !== "11") fail(`"Next 10 ${longest}" went to ${nextTen.href}`);
  const moved = await allChangeRows();
  for (const other of LISTS.filter((l) => l !== longest)) {
    if (JSON.stringify(moved[other]) !== JSON.stringify(overview[other])) fail(`paging ${longest} moved ${other} too`);
  }
  if (JSON.stringify(moved[longest]) === JSON.stringify(overview[longest])) fail(`"Next 10 ${longest}" showed the same rows`);
  // A size of 25 or 50 (over 5,000 px with four lists) shows the list alone (?type=), as said.
  const note = await page.locator(`section:has(> #changes-${longest}) nav.pager .sizes`).innerText();
  if (note.replace(/\s+/g, " ").trim() !== `· show 10 · 25 · 50 a page (past 10: ${longest} alone)`) fail(`the ${longest} pager offers ${JSON.stringify(note)}`);
  step(`"Next 10 ${longest}" pages ${longest} alone, the other lists stay on their first page; its sizes say ${JSON.stringify(note.trim())}`);
  summary.pages = {};
  summary.positions = {};
  for (const list of LISTS) {
    await open("/changes?since=1&until=2");
    const title = list[0].toUpperCase() + list.slice(1);
    const pager = page.getByRole("navigation", { name: `${title}: pages` });
    const pages = [];
    const positions = [];
    if (overview[list].length) {
      // The list's own size link: this list alone at 50 a page, from its first row.
      const url = await followPaging(pager.getByRole("link", { name: `50 ${list} a page`, exact: true }), list, 1, 2);
      if (url.searchParams.get("size") !== "50" || url.searchParams.get("type") !== list) fail(`the size link of ${list} went to ${url.href}`);
      const alone = await allChangeRows();
      if (JSON.stringify(alone[list].slice(0, 10)) !== JSON.stringify(overview[list])) fail(`${list}'s size link: not its first page at 50`);
      for (const other of LISTS.filter((l) => l !== list)) {
        if (alone[other].length) fail(`${list}'s size link: ${other} shown too`);
      }
      pages.push(alone[list]);
      positions.push(await listPosition(list));
    }
    const next = pager.getByRole("link", { name: new RegExp(`^Next \\d+ ${list}$`) });
    while (await next.count()) {
      const url = await followPaging(next, list, 1, 2);
      if (!url.searchParams.get(list) || url.searchParams.get(`${list}-from`) !== String(50 * pages.length + 1)) {
        fail(`the next page of ${list} has no ${list} cursor or position: ${url.href}`);
      }
      const now = await allChangeRows();
      if (url.searchParams.get("type") !== list || url.searchParams.get("size") !== "50") fail(`paging ${list} alone left it: ${url.href}`);
      for (const other of LISTS.filter((l) => l !== list)) {
        if (now[other].length) fail(`paging ${list} alone showed ${other} too`);
        if (url.searchParams.has(other)) fail(`paging ${list} put a ${other} cursor in ${url.href}`);
      }
      pages.push(now[list]);
      positions.push(await listPosition(list));
      if (pages.length > 20) fail(`${list}: more than 20 pages`);
    }
    summary.pages[list] = pages;
    summary.positions[list] = positions;
    if (pages.length <= 1) continue;
    step(`${title}: ${pages.length} pages at 50 by its "Next" links (${positions.join(", ")}), the list alone`);
    await shot(`changes-${list}-last-page`);
    await page.reload();
    await settled();
    if (JSON.stringify(await changeRows(list)) !== JSON.stringify(pages.at(-1))) fail(`${list}: a reload loses the page`);
    await followPaging(pager.getByRole("link", { name: `Previous 50 ${list}`, exact: true }), list, 1, 2);
    if (pages.length === 2 && new URL(page.url()).searchParams.has(list)) fail(`the first page of ${list} keeps a ${list} cursor`);
    if (JSON.stringify(await changeRows(list)) !== JSON.stringify(pages.at(-2))) fail(`${list}: "Previous 50" is not the page before`);
    await page.goBack();
    await settled();
    if (JSON.stringify(await changeRows(list)) !== JSON.stringify(pages.at(-1))) fail(`${list}: back is not the last page`);
    step(`${title}: a reload keeps the last page, "Previous 50 ${list}" shows the page before, back the last again`);
  }
  if (!Object.values(summary.pages).some((pages) => pages.length > 1)) fail("no list had a second page");
  // Without `until`: the newest release, and the next pages stay with that comparison.
  await open("/changes?since=1");
  const newest = (await page.locator("main h1").innerText()).match(/to (\d+)$/)?.[1];
  const paged = LISTS.find((list) => summary.pages[list].length > 1);
  // Releases further apart: 10 a page, 25 at most (their comparison costs more).
  const sizes = await page.locator(`section:has(> #changes-${paged}) nav.pager .sizes`).innerText();
  if (sizes.replace(/\s+/g, " ").trim() !== `· show 10 · 25 a page (past 10: ${paged} alone)`) fail(`/changes?since=1 offers ${JSON.stringify(sizes)}`);
  await page.getByRole("link", { name: `Next 10 ${paged}`, exact: true }).click();
  await page.waitForURL(/[?&]until=/);
  const url = new URL(page.url());
  if (url.searchParams.get("until") !== newest) fail(`the next page of /changes?since=1 is ${url.href}, not until=${newest}`);
  summary.newest = Number(newest);
  step(`/changes?since=1 compares with the newest release, ${newest}, 10 or 25 a page; its next pages name it (until=${newest})`);
  clean("paging");
}

/** No page taller than this at 1280 x 800 (issue 27: "about 5,000 px" on L). */
const MAX_HEIGHT = 5_000;

/** The server's title and description of ``path`` in its HTML, before any script runs. */
async function servedMeta(path) {
  const html = await (await fetch(`${base}${path}`, { headers: { accept: "text/html" } })).text();
  const entity = (text) => text.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
  return {
    title: entity(html.match(/<title>([^<]*)<\/title>/)?.[1] ?? ""),
    description: entity(html.match(/<meta name="description" content="([^"]*)"/)?.[1] ?? ""),
  };
}

/** The page sizes the open page's pagers offer, and for each pager the page at its largest
 * size: ``path`` itself when it is at that size already, else the pager's link to it. */
async function largestSizes(path) {
  const pagers = await page.locator("nav.pager .sizes").evaluateAll((spans) =>
    spans.map((span) => ({
      current: Number(span.querySelector("strong[aria-current]")?.textContent),
      links: [...span.querySelectorAll("a")].map((a) => [Number(a.textContent), a.getAttribute("href").split("#")[0]]),
    })),
  );
  const sizes = new Set();
  const pages = new Set();
  for (const { current, links } of pagers) {
    const largest = Math.max(current, ...links.map(([size]) => size));
    for (const size of [current, ...links.map(([size]) => size)]) sizes.add(size);
    pages.add(largest === current ? path : links.find(([size]) => size === largest)[1]);
  }
  return { sizes: [...sizes].sort((a, b) => a - b), pages: [...pages] };
}

/** A generated M-size set with a second release (tests/test_browser.py): every page kind at
 * its biggest, and each paged list at the largest page size it offers, is at most
 * MAX_HEIGHT px tall at 1280 x 800 (the sizes offered and the pages measured at the largest
 * go into the summary); each page at its default size passes axe-core at 1280 and at 390 px
 * (its folded sub-branches too) and does not scroll sideways at 390 px; its HTML carries its title and
 * a description; the seed page is still the seed's;
 * the changes page shows 10 rows a list ("1–10 of 1,234 nodes"); a method's history says
 * which fields changed; search results page 25 at a time. The heights go into the summary. */
async function sizes(seedFile) {
  const found = await api(`{
    top: methods(first: 1, orderBy: { field: MODEL_COUNT, direction: DESC }) {
      nodes { slug treatmentsConnection(first: 1) { nodes { model { slug } } } } }
    roots { slugPath counts { methodsFiledHere childCount } children { slugPath counts { methodsFiledHere } } }
    changes(since: 1, until: 2) {
      changed: methods(combined: true, kinds: [CHANGED], first: 1) { nodes { slug fieldChanges { field } } }
      removed: methods(combined: true, kinds: [REMOVED], first: 1) { nodes { slug } }
      changedModel: models(combined: true, kinds: [CHANGED], first: 1) { nodes { slug fieldChanges { field } } } } }`);
  const nodes = found.roots.flatMap((root) => [root, ...root.children]);
  const mostFiled = nodes.reduce((most, node) => (node.counts.methodsFiledHere > most.counts.methodsFiledHere ? node : most));
  const widest = found.roots.reduce((most, root) => (root.counts.childCount > most.counts.childCount ? root : most));
  const [top] = found.top.nodes;
  const [changed] = found.changes.changed.nodes;
  const [removed] = found.changes.removed.nodes;
  const [changedModel] = found.changes.changedModel.nodes;
  if (!changed?.fieldChanges.length || !removed || !changedModel?.fieldChanges.length) fail(`no changed or removed method or changed model in release 2: ${JSON.stringify(found.changes)}`);
  const pages = [
    ["home", "/"],
    ["seed node", SEED_PATH],
    ["node with the most methods filed", `/nodes/${mostFiled.slugPath}`],
    ["root with the most sub-branches", `/nodes/${widest.slugPath}`],
    ["method with the most models", `/methods/${top.slug}`],
    ["model", `/models/${top.treatmentsConnection.nodes[0].model.slug}`],
    ["changed method", `/methods/${changed.slug}`],
    ["search", "/search?q=attention"],
    ["changes", "/changes?since=1&until=2"],
    ["changes since", "/changes?since=1"],
    ["models", "/models"],
    ["methods", "/methods"],
    ["releases", "/releases"],
    ["about", "/about"],
    ["no page", "/no/such/page", 404],
    ["refused word", "/methods?sort=sideways", 400],
    ["removed method", `/methods/${removed.slug}`, 410],
  ];
  summary.heights = {};
  summary.largest = {};
  for (const [name, path, status = 200] of pages) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await open(path, status);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    summary.heights[path] = height;
    summary.largest[name] = await largestSizes(path);
    await checkAxe(`${name} at M`);
    if (height > MAX_HEIGHT) {
      await shot(`too-tall-${name}`);
      fail(`${name} (${path}) is ${height} px tall at 1280 x 800: more than ${MAX_HEIGHT}`);
    }
    await page.setViewportSize({ width: PHONE, height: 800 });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > PHONE) fail(`${name} (${path}): at ${PHONE} px the page is ${width} px wide`);
    await checkAxe(`${name} at M, ${PHONE} px`);
    const served = await servedMeta(path);
    const title = await page.title();
    if (served.title === "Taxonomy browser" || !served.title.endsWith(" · Taxonomy browser")) fail(`${name}: the served title is ${JSON.stringify(served.title)}`);
    if (status === 200 && !path.startsWith("/changes") && served.title !== title) fail(`${name}: served as ${JSON.stringify(served.title)}, shown as ${JSON.stringify(title)}`);
    if (served.description.length < 40) fail(`${name}: the served description is ${JSON.stringify(served.description)}`);
    if (status !== 200) expectFailed(status);
    step(`${name} (${path}): ${height} px tall, ${width} px wide at ${PHONE} px, axe clean at 1280 and ${PHONE} px; served as ${JSON.stringify(served.title)}: ${JSON.stringify(served.description)}`);
  }
  // Each paged list at the largest page size it offers (a reader's choice): no taller.
  for (const [name, { pages: largest }] of Object.entries(summary.largest)) {
    for (const path of largest.filter((path) => !(path in summary.heights))) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await open(path);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      summary.heights[path] = height;
      if (height > MAX_HEIGHT) {
        await shot(`too-tall-${name}-largest`);
        fail(`${name} at its largest page size (${path}) is ${height} px tall at 1280 x 800: more than ${MAX_HEIGHT}`);
      }
      await page.setViewportSize({ width: 390, height: 800 });
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) fail(`${name} (${path}): at 390 px the page is ${width} px wide`);
      step(`${name} at its largest page size (${path}): ${height} px tall`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await open(SEED_PATH);
  await checkSeed(seedFile);

  await open("/changes?since=1&until=2");
  summary.changesPositions = {};
  for (const list of LISTS) {
    const rows = await changeRows(list);
    if (rows.length > 10) fail(`changes: ${rows.length} ${list} rows on a page of 10`);
    if (!rows.length) continue;
    const position = await listPosition(list);
    summary.changesPositions[list] = position;
    if (rows.length === 10 && !/^1–10 of [\d,]+ \w+$/.test(position)) fail(`changes: the ${list} pager says ${position}`);
  }
  step(`the changes page at M: 10 rows a list, ${JSON.stringify(summary.changesPositions)}`);

  await open(`/methods/${changed.slug}`);
  const entries = await page.locator("section.history li").allInnerTexts();
  const field = changed.fieldChanges[0].field;
  if (!entries.some((entry) => entry.startsWith("Release 2") && entry.includes(`): changed; ${field}: `))) {
    fail(`the changed method's history does not say its ${field} changed: ${JSON.stringify(entries)}`);
  }
  step(`the changed method's history says which field changed: ${JSON.stringify(entries)}`);
  // A changed model's History section: since when it is there, and which field changed.
  await open(`/models/${changedModel.slug}`);
  const modelHistory = (await page.locator("section.history:has(> h2#history)").innerText()).replace(/\n+/g, "\n");
  const modelField = changedModel.fieldChanges[0].field;
  if (!modelHistory.includes("This model is in the taxonomy since release 1, loaded ") || !/\nRelease 2 \([^)]*\): changed; /.test(modelHistory) || !modelHistory.includes(`; ${modelField}`)) {
    fail(`the changed model's History does not say since when it is there and that its ${modelField} changed: ${JSON.stringify(modelHistory)}`);
  }
  step(`the changed model's History section: ${JSON.stringify(modelHistory)}`);
  await open(`/nodes/${widest.slugPath}`);
  await checkSubBranches("the root with the most sub-branches at M", widest.slugPath);

  // Search results page as every list does: 25 a page, where they are, next and previous.
  const { totalCount } = (await api('{ search(query: "attention", first: 1) { totalCount } }')).search;
  if (totalCount <= 50) fail(`"attention" finds ${totalCount} results at M: too few to page`);
  const all = NUMBER.format(totalCount);
  const hits = () => page.locator("main ol.results > li > a").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  await open("/search?q=attention");
  const firstHits = await hits();
  if ((await position()) !== `1–25 of ${all} results` || firstHits.length !== 25) fail(`search: ${await position()}, ${firstHits.length} hits`);
  // (Not `follow`: the results' count is a status of its own, there to stay.)
  const followResults = async (name) => {
    const before = page.url();
    await page.getByRole("link", { name, exact: true }).click();
    await page.waitForURL((url) => url.href !== before);
    await idle();
    await page.locator("main p.status").waitFor({ state: "detached" });
    return new URL(page.url());
  };
  const next = await followResults("Next 25 results");
  if (next.searchParams.get("from") !== "26" || !next.searchParams.get("after")) fail(`search's next page: ${next.href}`);
  const secondHits = await hits();
  if ((await position()) !== `26–50 of ${all} results` || secondHits.some((hit) => firstHits.includes(hit))) {
    fail(`search's second page: ${await position()}, ${JSON.stringify(secondHits)}`);
  }
  const back = await followResults("Previous 25 results");
  if (back.searchParams.has("after") || JSON.stringify(await hits()) !== JSON.stringify(firstHits)) fail(`search's previous page: ${back.href}`);
  step(`search pages its ${all} results: 1–25, 26–50 by "Next 25 results", back by "Previous 25 results"`);
  clean("sizes");
}

/** The open page's pager: where its page is ("26–50 of 60 models"). */
async function position() {
  return (await page.locator("nav.pager .position").innerText()).trim();
}

/** The API's whole list of ``field`` (a query's connection, at most 100 items), each item's
 * ``name`` (a function of the item). */
async function apiList(field, name) {
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: `{ ${field} }` }),
  });
  const { data, errors } = await response.json();
  if (errors) fail(`the API refused ${field}: ${JSON.stringify(errors)}`);
  return Object.values(data)[0].list.nodes.map(name);
}

/** Follows the link named ``name`` (in place) and waits for the page it leads to. */
async function follow(name) {
  const before = page.url();
  await page.getByRole("link", { name, exact: true }).click();
  await page.waitForURL((url) => url.href !== before);
  await settled();
  return new URL(page.url());
}

/** Checks the open paged list: its position, its rows (the API's, ``from`` on), the URL's
 * query (``want``: each parameter's value, or true for any, or null for none), and that the
 * page opened at the list's heading ``anchor``. */
async function checkPage(where, { rows, expected, from, size, text, want, anchor }) {
  const shown = await rows();
  const wanted = expected.slice(from - 1, from - 1 + size);
  if (JSON.stringify(shown) !== JSON.stringify(wanted)) {
    fail(`${where}: the rows ${JSON.stringify(shown)} are not the API's ${from}.. ${JSON.stringify(wanted)}`);
  }
  if ((await position()) !== text) fail(`${where}: the pager says ${JSON.stringify(await position())}, not ${JSON.stringify(text)}`);
  const url = new URL(page.url());
  for (const [key, value] of Object.entries(want)) {
    const got = url.searchParams.get(key);
    if (value === null ? got !== null : value === true ? !got : got !== value) {
      fail(`${where}: the URL ${url.href} has ${key}=${got}, not ${value}`);
    }
  }
  if (anchor && url.hash === `#${anchor}`) {
    const top = await page.locator(`#${anchor}`).evaluate((heading) => heading.getBoundingClientRect().top);
    if (top < -2 || top > 200) fail(`${where}: the list's heading is ${top} px from the top, not in view`);
  }
  summary.positions.push(text);
}

/** The fixtures and more models (tests/test_browser.py): ``method``'s page of models and
 * ``model``'s page of methods, page by page. */
async function methodPaging(method, model) {
  summary.positions = [];
  const models = await apiList(
    `method(slug: "${method}") { list: treatmentsConnection(first: 100) { nodes { model { name } } } }`,
    (item) => item.model.name,
  );
  const total = models.length;
  if (total <= 50 || total > 75) fail(`${method} has ${total} models: the test wants 51 to 75`);
  const rows = () => page.locator("section:has(> #treatments) tbody th").evaluateAll((cells) => cells.map((cell) => cell.querySelector("a").textContent));
  const list = { rows, expected: models, anchor: "treatments" };
  const methodUrl = `/methods/${method}`;

  await pageType("method-first-page", methodUrl, "");
  await checkPage("the first page", { ...list, from: 1, size: 25, text: `1–25 of ${total} models`, want: { after: null, before: null, from: null, size: null } });
  if (await page.getByRole("link", { name: /^Previous/ }).count()) fail("the first page links to a previous page");
  await follow("Next 25 models");
  await checkPage("the second page", { ...list, from: 26, size: 25, text: `26–50 of ${total} models`, want: { after: true, from: "26", size: null } });
  await checkAxe("method-second-page");
  await page.reload();
  await settled();
  await checkPage("the second page, reloaded", { ...list, from: 26, size: 25, text: `26–50 of ${total} models`, want: { after: true, from: "26" } });
  const rest = total - 50;
  await follow(`Next ${rest} models`);
  await checkPage("the last page", { ...list, from: 51, size: 25, text: `51–${total} of ${total} models`, want: { after: true, from: "51" } });
  if (await page.getByRole("link", { name: /^Next/ }).count()) fail("the last page links to a next page");
  await shot("method-last-page");
  // Back a page: from the last page's first item (`before`), with `last`.
  await follow("Previous 25 models");
  await checkPage("the second page, paged back", { ...list, from: 26, size: 25, text: `26–50 of ${total} models`, want: { before: true, after: null, from: "26" } });
  await page.reload();
  await settled();
  await checkPage("the second page paged back, reloaded", { ...list, from: 26, size: 25, text: `26–50 of ${total} models`, want: { before: true, from: "26" } });
  await follow("Previous 25 models");
  await checkPage("the first page again", { ...list, from: 1, size: 25, text: `1–25 of ${total} models`, want: { after: null, before: null, from: null } });
  await page.goBack();
  await settled();
  await checkPage("back", { ...list, from: 26, size: 25, text: `26–50 of ${total} models`, want: { before: true, from: "26" } });
  step(`${method}: 25 a page, "1–25", "26–50", "51–${total} of ${total} models" by Next and Previous, each the API's rows; reload and back keep each`);

  // 10 a page: the size goes into the URL and stays with the next page. (No 50: 50 rows of
  // models with their quotes take a page past 5,000 px at L.)
  await open(methodUrl);
  const offered = await page.locator("nav.pager .sizes").innerText();
  if (offered.replace(/\s+/g, " ").trim() !== "· show 10 · 25 a page") fail(`${method}'s pager offers ${JSON.stringify(offered)}`);
  await follow("10 models a page");
  await checkPage("10 a page", { ...list, from: 1, size: 10, text: `1–10 of ${total} models`, want: { size: "10", after: null } });
  if ((await page.locator("nav.pager strong[aria-current]").innerText()) !== "10") fail("the page size shown is not 10");
  await page.reload();
  await settled();
  await checkPage("10 a page, reloaded", { ...list, from: 1, size: 10, text: `1–10 of ${total} models`, want: { size: "10" } });
  await follow("Next 10 models");
  await checkPage("10 a page, the second", { ...list, from: 11, size: 10, text: `11–20 of ${total} models`, want: { size: "10", after: true, from: "11" } });
  // Back to 25 a page from there: the page keeps its first item.
  await follow("25 models a page");
  await checkPage("25 a page from item 11", { ...list, from: 11, size: 25, text: `11–35 of ${total} models`, want: { size: null, after: true, from: "11" } });
  await checkWidths("method-paged");
  step(`${method}: "10 models a page" puts size=10 in the URL, kept by reload and by the next page; back at 25 the page keeps its first item`);

  // Each row shows its first 3 pieces of evidence and says how many more it has.
  await open(methodUrl);
  const evidence = await page.locator("section:has(> #treatments) tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [tr.querySelectorAll("figure.quote").length, tr.querySelector("p.more")?.textContent ?? ""]),
  );
  const counts = await apiList(
    `method(slug: "${method}") { list: treatmentsConnection(first: 25) { nodes { evidenceConnection { totalCount } } } }`,
    (item) => item.evidenceConnection.totalCount,
  );
  const wantedEvidence = counts.map((count) => [
    Math.min(count, 3),
    count > 4 ? `${count - 3} more pieces of evidence` : count === 4 ? "1 more piece of evidence" : "",
  ]);
  if (JSON.stringify(evidence) !== JSON.stringify(wantedEvidence)) fail(`the rows' evidence ${JSON.stringify(evidence)}, not ${JSON.stringify(wantedEvidence)}`);
  if (!evidence.some(([, more]) => more)) fail("no row has more evidence than it shows");
  step(`${method}: each row shows its first 3 pieces of evidence and "N more pieces of evidence"`);

  // The model page pages its methods the same way.
  const methods = await apiList(
    `model(slug: "${model}") { list: treatments(first: 100) { nodes { method { name } } } }`,
    (item) => item.method.name,
  );
  if (methods.length <= 25 || methods.length > 50) fail(`${model} has ${methods.length} methods: the test wants 26 to 50`);
  const methodRows = () => page.locator("section:has(> #methods) table tbody th > a").evaluateAll((links) => links.map((link) => link.textContent));
  const modelList = { rows: methodRows, expected: methods, anchor: "methods" };
  await pageType("model-first-page", `/models/${model}`, "");
  await checkPage("the model's first page", { ...modelList, from: 1, size: 25, text: `1–25 of ${methods.length} methods`, want: { after: null } });
  await follow(`Next ${methods.length - 25} methods`);
  await checkPage("the model's second page", { ...modelList, from: 26, size: 25, text: `26–${methods.length} of ${methods.length} methods`, want: { after: true, from: "26" } });
  await page.reload();
  await settled();
  await checkPage("the model's second page, reloaded", { ...modelList, from: 26, size: 25, text: `26–${methods.length} of ${methods.length} methods`, want: { after: true, from: "26" } });
  await follow("Previous 25 methods");
  await checkPage("the model's first page again", { ...modelList, from: 1, size: 25, text: `1–25 of ${methods.length} methods`, want: { after: null, before: null } });
  step(`${model}: its ${methods.length} methods 25 a page, by Next and Previous, each the API's`);

  // Sorted by a head (Method: by name, Z to A), its pages follow that order, the pager's
  // links keeping it, each the API's.
  const zToA = await apiList(
    `model(slug: "${model}") { list: treatments(first: 100, orderBy: {field: NAME, direction: DESC}) { nodes { method { name } } } }`,
    (item) => item.method.name,
  );
  const heads = page.locator("section:has(> #methods) thead");
  await go(heads.getByRole("link", { name: "Method", exact: true }));
  await go(heads.getByRole("link", { name: "Method", exact: true }));
  const sortedList = { ...modelList, expected: zToA };
  const byName = { sort: "name", dir: "desc" };
  await checkPage("the model's first page, Z to A", { ...sortedList, from: 1, size: 25, text: `1–25 of ${methods.length} methods`, want: { ...byName, after: null } });
  await follow(`Next ${methods.length - 25} methods`);
  await checkPage("the model's second page, Z to A", { ...sortedList, from: 26, size: 25, text: `26–${methods.length} of ${methods.length} methods`, want: { ...byName, after: true, from: "26" } });
  await follow("Previous 25 methods");
  await checkPage("the model's first page, Z to A, again", { ...sortedList, from: 1, size: 25, text: `1–25 of ${methods.length} methods`, want: { ...byName, after: null, before: null } });
  const sorts = await sortedHeads(page.locator("section:has(> #methods) table"));
  if (JSON.stringify(sorts) !== JSON.stringify({ Method: "descending" })) fail(`${model} by name, Z to A: aria-sort says ${JSON.stringify(sorts)}`);
  step(`${model}: by name, Z to A (the Method head twice: ?sort=name&dir=desc), its methods page by Next and Previous in that order, each the API's`);
  clean("method paging");
}

async function hostile() {
  const marks = ["<script>window.__pwned = 1</script>", '<img src=x onerror="window.__pwned = 2">', "<b>bold</b>"];
  const visits = [
    ["/", "home"],
    ["/nodes/evil", "node"],
    ["/models/evil-model", "model"],
    ["/methods/evil-method", "method"],
    ["/search?q=evil", "search"],
  ];
  for (const [path, name] of visits) {
    await open(path);
    // This server keeps no persisted query: the GET by hash is answered
    // PersistedQueryNotFound, and the page sends its document.
    const methods = graphql.map((request) => request.method).join(" then ");
    if (methods !== "GET then POST") fail(`${name}: the persisted-query fallback went ${methods}`);
    const text = await page.locator("main").innerText();
    for (const mark of marks) {
      if (!text.includes(mark)) fail(`${name}: ${JSON.stringify(mark)} is not shown as text:\n${text}`);
    }
    const injected = await page.evaluate(() => ({
      pwned: window.__pwned ?? null,
      elements: document.querySelectorAll("#app img, #app script, #app b, #app iframe").length,
      scripted: [...document.querySelectorAll("#app a")].filter((a) => !/^https?:/.test(a.href)).length,
    }));
    if (injected.pwned !== null || injected.elements || injected.scripted) {
      fail(`${name}: markup from the data took effect: ${JSON.stringify(injected)}`);
    }
    if (name === "method") {
      // The description's markdown link to a javascript: URL is its text alone.
      const link = await page.locator(".description a").count();
      if (link || !text.includes("click me") || text.includes("](javascript:")) fail(`method: the javascript: link shows as ${link} links in ${text}`);
    }
    await shot(`hostile-${name}`);
    clean(name);
    step(`${name}: markup and script in names show as text, nothing runs (GET, then POST)`);
  }
}

/** The real datasets: ``base`` serves the Gene Ontology's, ``pwc`` the Papers with Code
 * catalogue's (tests/test_browser.py loads them). */
async function datasets(pwc, deepNode, markdownMethod) {
  // The GO's deepest node: its breadcrumb folds the middle levels, and unfolds on request.
  const level = deepNode.split("/").length;
  await open(`/nodes/${deepNode}`);
  const crumbs = () => page.locator("nav.breadcrumb li").count();
  const folded = await crumbs();
  if (folded !== 1 + 1 + 1 + 2 + 1) fail(`the breadcrumb of a node at level ${level} shows ${folded} items, not Taxonomy, the first, …, the last two and the node`);
  await checkNarrow("go-deepest");
  await checkAxe("go-deepest");
  await page.locator("nav.breadcrumb button").click();
  if ((await crumbs()) !== level + 1) fail(`unfolded, the breadcrumb shows ${await crumbs()} items, not ${level + 1}`);
  const width = await checkNarrow("go-deepest-unfolded");
  step(`the GO's deepest node (level ${level}): its breadcrumb shows ${folded} items, ${level + 1} unfolded; at 390 px the page is ${width} px wide`);
  clean("go");

  // Papers with Code: a method's markdown is paragraphs, bold and http(s) links, not marks.
  const url = `${pwc}/methods/${markdownMethod}`;
  graphql.length = 0;
  await page.goto(url, { waitUntil: "load" });
  await page.locator("main h1").waitFor();
  await idle();
  const description = page.locator("main .description");
  const text = await description.innerText();
  const strong = await description.locator("strong").allTextContents();
  const links = await description.locator("a").evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href")]));
  if (!strong.length || /\*\*|\]\(/.test(text)) fail(`${markdownMethod}: the description shows markdown: ${text}`);
  if (!links.length || links.some(([, href]) => !/^https?:\/\//.test(href))) fail(`${markdownMethod}: the description's links ${JSON.stringify(links)}`);
  await checkAxe("pwc-method");
  await checkNarrow("pwc-method");
  step(`${markdownMethod}: its description is markdown rendered: ${strong.length} bold, ${links.length} http(s) links (${links[0][0]}), no ** or ](`);

  // Counts of a thousand and more have thousands separators.
  await page.goto(`${pwc}/`, { waitUntil: "load" });
  await page.locator("main h1").waitFor();
  const { taxonomy } = await (await fetch(`${pwc}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ taxonomy { methodCount modelCount } }" }),
  })).json().then((answer) => answer.data);
  const lead = await page.locator("main .lead").innerText();
  for (const count of [taxonomy.methodCount, taxonomy.modelCount]) {
    if (count < 1000) fail(`the PwC catalogue has ${count}: no thousands to separate`);
    if (!lead.includes(NUMBER.format(count)) || lead.includes(String(count))) fail(`the home page's counts lack thousands separators: ${lead}`);
  }
  await page.goto(`${pwc}/methods`, { waitUntil: "load" });
  await page.locator("nav.pager .position").waitFor();
  const shownAt = await position();
  if (!shownAt.includes(`of ${NUMBER.format(taxonomy.methodCount)} methods`)) fail(`/methods says ${shownAt}`);
  step(`thousands separated: the home page says ${NUMBER.format(taxonomy.methodCount)} methods and ${NUMBER.format(taxonomy.modelCount)} models; /methods "${shownAt}"`);
  clean("pwc");
}

try {
  if (mode === "fixtures") await fixtures(rest[0]);
  else if (mode === "sizes") await sizes(rest[0]);
  else if (mode === "datasets") await datasets(rest[0], rest[1], rest[2]);
  else if (mode === "changes") await changes();
  else if (mode === "paging") await paging();
  else if (mode === "walk") await walk();
  else if (mode === "method-paging") await methodPaging(rest[0], rest[1]);
  else await hostile();
  if (blocked.length) fail(`requests beyond this machine were made: ${blocked}`);
} catch (error) {
  try {
    await page.screenshot({ path: join(rest.at(-1), "failure.png") });
    console.error(`browser-test: screenshot of the failure: ${join(rest.at(-1), "failure.png")}`);
  } catch {}
  if (blocked.length) console.error(`browser-test: blocked: ${blocked.join(" ")}`);
  if (problems.length) console.error(`browser-test: ${problems.join("\n")}`);
  throw error;
} finally {
  await close();
}
console.log(JSON.stringify(summary));
