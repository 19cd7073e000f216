// The seed page's largest contentful paint in Debian's headless Chromium, for the benchmark
// (bench/page_paint.py, issue 18 item 5):
//
//   node page-paint.mjs BASE_URL PATH LOADS [WARM_UP]
//
// loads BASE_URL + PATH WARM_UP times uncounted (the server's first answers), then LOADS
// times, each in a new browser context (an empty HTTP cache: nothing of the page, its script,
// style sheet or data is cached), 1280 x 900, only this machine reachable. Each load waits
// for the page's data to be on screen (the By-model table's rows), then reads the largest
// contentful paint as Chromium reports it (PerformanceObserver, buffered) and the first
// contentful paint. Prints one JSON line: { loads: [{ lcpMs, fcpMs, element }], blocked }
// (element: the largest paint's tag and the start of its text).
import { chromium } from "playwright-core";

import { LAUNCH, onlyLocal } from "../tests/local_chromium.mjs";

const [base, path, loads, warmUp = "2"] = process.argv.slice(2);
if (!base || !path || !(Number(loads) > 0)) {
  console.error("usage: node page-paint.mjs BASE_URL PATH LOADS [WARM_UP]");
  process.exit(2);
}
const DATA_ON_SCREEN = "main .by-model tbody tr";

const browser = await chromium.launch(LAUNCH);
const blocked = [];

async function load() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    onlyLocal(context, blocked);
    const page = await context.newPage();
    const response = await page.goto(`${base}${path}`, { waitUntil: "load" });
    if (response?.status() !== 200) throw new Error(`GET ${path}: HTTP ${response?.status()}`);
    await page.locator(DATA_ON_SCREEN).first().waitFor();
    // Two frames: the rows' paint is reported after they are drawn.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    return await page.evaluate(
      () =>
        new Promise((resolve) => {
          new PerformanceObserver((list) => {
            const last = list.getEntries().at(-1);
            const fcp = performance.getEntriesByName("first-contentful-paint")[0];
            const element = last.element;
            resolve({
              lcpMs: Math.round(last.startTime * 10) / 10,
              fcpMs: fcp ? Math.round(fcp.startTime * 10) / 10 : null,
              element: element ? `${element.tagName.toLowerCase()}: ${element.textContent.trim().slice(0, 50)}` : null,
            });
          }).observe({ type: "largest-contentful-paint", buffered: true });
        }),
    );
  } finally {
    await context.close();
  }
}

try {
  for (let i = 0; i < Number(warmUp); i++) await load();
  const measured = [];
  for (let i = 0; i < Number(loads); i++) measured.push(await load());
  if (blocked.length) throw new Error(`requests beyond this machine were made: ${blocked}`);
  console.log(JSON.stringify({ loads: measured, blocked }));
} finally {
  await browser.close();
}
