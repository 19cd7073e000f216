// Debian's headless Chromium as the browser tests drive it (graphiql/browser-test.mjs,
// browser/browser-test.mjs): a throwaway profile, only this machine reachable (anything
// else is blocked and listed), and every page error, console error or warning and failed
// local request collected. Each driver passes its own playwright-core's `chromium`.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const LOCAL = new Set(["127.0.0.1", "localhost", "[::1]"]);
export const TIMEOUT = 20_000;

/** How the drivers launch Debian's Chromium: headless, no sandbox (a container), nothing
 * started in the background that would reach beyond this machine, and no host name but
 * this machine's resolved (what onlyLocal lists goes nowhere). */
export const LAUNCH = {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]",
  ],
  timeout: TIMEOUT,
};

/** Lists in ``blocked`` every request of ``context`` for anything beyond this machine, as it
 * starts; LAUNCH's resolver rules make it fail. Listening costs nothing a request, where
 * routing each request through the driver to let it go on took ~3 s of Chromium's and the
 * driver's CPU in a run of the browser test, and delayed each paint that bench/ measures. */
export function onlyLocal(context, blocked) {
  context.on("request", (request) => {
    const url = new URL(request.url());
    if (!["data:", "blob:"].includes(url.protocol) && !LOCAL.has(url.hostname)) blocked.push(url.href);
  });
}

/** { context, page, blocked, problems, close }; `consoleTypes`: the console messages that are
 * problems. */
export async function localChromium(
  chromium,
  { viewport = { width: 1400, height: 900 }, consoleTypes = ["error"] } = {},
) {
  const profile = await mkdtemp(join(tmpdir(), "taxonomy-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { ...LAUNCH, viewport });
  const session = { context, blocked: [], problems: [] };
  onlyLocal(context, session.blocked);
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(TIMEOUT);
  page.on("pageerror", (error) => session.problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (consoleTypes.includes(message.type())) {
      session.problems.push(`console ${message.type()}: ${message.text()}`);
    }
  });
  page.on("requestfailed", (request) => {
    // net::ERR_ABORTED is the page calling a request off itself: the search box drops the
    // suggestions of a word already typed past (AbortController), a navigation those of
    // the page it leaves. Under a busy machine one is still in flight. A server that fails
    // shows another error (an empty response, a reset connection).
    if (request.failure()?.errorText === "net::ERR_ABORTED") return;
    if (LOCAL.has(new URL(request.url()).hostname)) {
      session.problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
    }
  });
  page.on("dialog", (dialog) => {
    session.problems.push(`a dialog opened: ${dialog.message()}`);
    return dialog.dismiss();
  });
  session.page = page;
  session.close = async () => {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  };
  return session;
}
