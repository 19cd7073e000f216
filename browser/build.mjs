// Bundles the taxonomy browser (src/main.tsx, Preact, the generated client's typed documents
// and src/style.css) into ../api/static/browser/ with content-hashed names, and writes
// manifest.json there: which files the page loads (api/pages/browser.py reads it) and their sizes;
// and persisted-queries.json, the browser's documents by hash, which the server registers.
// `npm run build`; `make install` runs it.
//
// The persisted-query hashes (Apollo's APQ: the sha256 of the exact document text sent) are
// computed here, once, from the generated documents themselves, and compiled in: the page
// needs no hashing at run time (crypto.subtle exists only in secure contexts).
import { createHash } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

import { build } from "esbuild";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const outdir = here("../api/static/browser/");
const generated = here("../clients/typescript/src/gql/graphql.ts");

/** The browser's operations (browser/operations/*.graphql) by name: the sha256 of each
 * generated document's text, and that text. */
async function persistedDocuments() {
  const ours = new Set(
    readdirSync(here("operations/"))
      .filter((name) => name.endsWith(".graphql"))
      .map((name) => name.replace(/\.graphql$/, "")),
  );
  const bundled = await build({
    entryPoints: [generated],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "warning",
  });
  const module = await import(
    `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString("base64")}`
  );
  const documents = {};
  for (const value of Object.values(module)) {
    if (value === null || typeof value !== "object" || !(value instanceof String)) continue;
    const text = value.toString();
    const name = /\b(?:query|mutation)\s+(\w+)/.exec(text)?.[1];
    if (ours.has(name)) documents[name] = { hash: createHash("sha256").update(text).digest("hex"), text };
  }
  const missing = [...ours].filter((name) => !documents[name]);
  if (missing.length) throw new Error(`not generated (run \`make clients\`): ${missing.join(", ")}`);
  return documents;
}

const documents = await persistedDocuments();
const hashes = Object.fromEntries(Object.entries(documents).map(([name, { hash }]) => [name, hash]));
await rm(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: here("src/main.tsx") },
  outdir,
  entryNames: "[name]-[hash]",
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020"],
  jsx: "automatic",
  jsxImportSource: "preact",
  define: { PERSISTED_HASHES: JSON.stringify(hashes) },
  legalComments: "linked",
  metafile: true,
  logLevel: "warning",
});

const files = Object.keys(result.metafile.outputs).map((path) => basename(path));
const script = files.find((name) => name.endsWith(".js"));
const style = files.find((name) => name.endsWith(".css"));
if (!script || !style) throw new Error(`the build made no script or no style sheet: ${files}`);
// Each compressed once, here, beside itself: the server sends `name.gz` to a client that takes
// gzip (api/edge/precompressed.py), and no request spends CPU compressing.
const gzipped = (name) => {
  const compressed = gzipSync(readFileSync(`${outdir}/${name}`), { level: 9 });
  writeFileSync(`${outdir}/${name}.gz`, compressed);
  return compressed.length;
};
const manifest = {
  script,
  style,
  gzippedBytes: { [script]: gzipped(script), [style]: gzipped(style) },
};
await mkdir(outdir, { recursive: true });
await writeFile(`${outdir}/manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
// The documents by hash, as an allowlist is written: the server registers them at start, so
// that even a page's first view is one GET (and runs beside an allowlist).
const persisted = Object.fromEntries(Object.values(documents).map(({ hash, text }) => [hash, text]));
await writeFile(`${outdir}/persisted-queries.json`, `${JSON.stringify(persisted, null, 2)}\n`);
