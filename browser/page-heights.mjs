// The height of pages at 1280 x 800, their width at 390 px, how fast they paint and how long
// the server took, and the title and description the server sets in their HTML (before any
// script), in Debian's headless Chromium, for the audit of issue 27 ("no page taller than
// about 5,000 px at 1280 x 800 on L"):
//
//   node page-heights.mjs BASE_URL [--sizes] PATH...
//
// Each PATH is loaded in a new browser context (an empty HTTP cache) and measured once its
// data is in (its heading there, no request pending); with --sizes, so is each page size its
// pagers offer (their "show 25 · 50 a page" links). Prints one JSON line:
// { pages: [{ path, of, status, height, width390, lcpMs, htmlMs, apiMs, apiRequests, title,
// description }], blocked }: ``of`` the PATH whose pager offered a size (else absent);
// lcpMs the largest contentful paint as Chromium reports it;
// htmlMs the page's HTML and apiMs its slowest GraphQL request, each from the request sent
// to the answer's last byte (this machine's loopback: the server's time).
import { chromium } from "playwright-core";

import { LAUNCH, onlyLocal } from "../tests/local_chromium.mjs";

const [base, ...rest] = process.argv.slice(2);
const everySize = rest[0] === "--sizes";
const paths = everySize ? rest.slice(1) : rest;
if (!base || !paths.length) {
  console.error("usage: node page-heights.mjs BASE_URL [--sizes] PATH...");
  process.exit(2);
}

/** The <title> and meta description of the HTML the server sends (what a link preview reads). */
async function served(path) {
  const response = await fetch(`${base}${path}`, { headers: { accept: "text/html" }, redirect: "follow" });
  const html = await response.text();
  const title = html.match(/<title>([^<]*)<\/title>/)?.[1] ?? null;
  const description = html.match(/<meta name="description" content="([^"]*)"/)?.[1] ?? null;
  return { status: response.status, title, description };
}

/** From the request sent to the answer's last byte, in ms (Playwright's resource timing). */
function serverMs(request) {
  const timing = request.timing();
  return Math.round(timing.responseEnd - timing.requestStart);
}

/** The largest contentful paint so far, as Chromium reports it (buffered). */
function largestPaint(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((list) => resolve(Math.round(list.getEntries().at(-1).startTime))).observe({
          type: "largest-contentful-paint",
          buffered: true,
        });
        setTimeout(() => resolve(null), 2_000);
      }),
  );
}

const browser = await chromium.launch(LAUNCH);
const blocked = [];
const measured = [];
try {
  const queue = paths.map((path) => ({ path }));
  const seen = new Set(paths);
  for (const { path, of } of queue) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      onlyLocal(context, blocked);
      const page = await context.newPage();
      const api = [];
      page.on("requestfinished", (request) => {
        if (new URL(request.url()).pathname === "/graphql") api.push(serverMs(request));
      });
      const response = await page.goto(`${base}${path}`, { waitUntil: "load" });
      await page.locator("main h1").waitFor({ timeout: 60_000 });
      await page.waitForLoadState("networkidle");
      // Two frames: the data's paint is reported after it is drawn.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const lcpMs = await largestPaint(page);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      if (everySize) {
        const offered = await page.locator("nav.pager .sizes a").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
        for (const href of offered) {
          const sized = href.split("#")[0];
          if (!seen.has(sized)) queue.push({ path: sized, of: path });
          seen.add(sized);
        }
      }
      await page.setViewportSize({ width: 390, height: 800 });
      const width390 = await page.evaluate(() => document.documentElement.scrollWidth);
      const htmlMs = response ? serverMs(response.request()) : null;
      const apiMs = api.length ? Math.max(...api) : null;
      measured.push({ path, of, height, width390, lcpMs, htmlMs, apiMs, apiRequests: api.length, ...(await served(path)) });
    } finally {
      await context.close();
    }
  }
  console.log(JSON.stringify({ pages: measured, blocked }));
} finally {
  await browser.close();
}
