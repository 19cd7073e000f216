// The height of pages at 1280 x 800, their width at 390 px, and the title and description
// the server sets in their HTML (before any script), in Debian's headless Chromium, for the
// audit of issue 27 ("no page taller than about 5,000 px at 1280 x 800 on L"):
//
//   node page-heights.mjs BASE_URL PATH...
//
// Each PATH is loaded once its data is in (its heading there, no request pending). Prints
// one JSON line: { pages: [{ path, status, height, width390, title, description }] }.
import { chromium } from "playwright-core";

import { LAUNCH, onlyLocal } from "../tests/local_chromium.mjs";

const [base, ...paths] = process.argv.slice(2);
if (!base || !paths.length) {
  console.error("usage: node page-heights.mjs BASE_URL PATH...");
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

const browser = await chromium.launch(LAUNCH);
const blocked = [];
const measured = [];
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await onlyLocal(context, blocked);
  const page = await context.newPage();
  for (const path of paths) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}${path}`, { waitUntil: "load" });
    await page.locator("main h1").waitFor();
    await page.waitForLoadState("networkidle");
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: 390, height: 800 });
    const width390 = await page.evaluate(() => document.documentElement.scrollWidth);
    measured.push({ path, height, width390, ...(await served(path)) });
  }
  console.log(JSON.stringify({ pages: measured, blocked }));
} finally {
  await browser.close();
}
