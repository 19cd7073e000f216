// A screenshot of one page of the taxonomy browser in Debian's headless Chromium (only this
// machine reachable), once its data is on screen: `make screenshot` makes README's
// docs/node-page.png with it, from the seed node's page on the fixtures.
//
//   node screenshot.mjs BASE_URL PATH OUT.png [WIDTH] [full|HEIGHT]
//
// Waits up to a minute for BASE_URL/readyz (a server just started), then for the page's
// heading and for the network to be idle; light colour scheme; WIDTH 1200 px; the whole page
// (full) or the top HEIGHT px of it.
import { chromium } from "playwright-core";

import { localChromium } from "../tests/local_chromium.mjs";

const [base, path, out, width = "1200", height = "full"] = process.argv.slice(2);
if (!base || !path || !out) {
  console.error("usage: node screenshot.mjs BASE_URL PATH OUT.png [WIDTH] [full|HEIGHT]");
  process.exit(2);
}

const deadline = Date.now() + 60_000;
for (;;) {
  try {
    if ((await fetch(`${base}/readyz`)).ok) break;
  } catch {}
  if (Date.now() > deadline) throw new Error(`${base} was not ready within a minute`);
  await new Promise((wait) => setTimeout(wait, 300));
}

const full = height === "full";
const { page, problems, blocked, close } = await localChromium(chromium, {
  viewport: { width: Number(width), height: full ? 900 : Number(height) },
});
try {
  await page.emulateMedia({ colorScheme: "light" });
  const response = await page.goto(`${base}${path}`, { waitUntil: "load" });
  if (response?.status() !== 200) throw new Error(`GET ${path}: HTTP ${response?.status()}`);
  await page.locator("main h1").waitFor();
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: out, fullPage: full });
  if (problems.length || blocked.length) throw new Error([...problems, ...blocked].join("\n"));
  console.log(`wrote ${out}: ${path} at ${width} px`);
} finally {
  await close();
}
