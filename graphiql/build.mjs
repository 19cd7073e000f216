// Bundles src/main.jsx, GraphiQL and React into ../api/static/graphiql/ (main.js, main.css),
// which the app serves at /graphiql-assets/, each beside its gzipped copy (main.js.gz: 1.5 MB of
// script goes over the wire as about 0.4 MB; api/edge/precompressed.py sends it to a client that
// takes gzip). `npm run build`; `make install` runs it.
import { readFile, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

import { build } from "esbuild";

const outdir = fileURLToPath(new URL("../api/static/graphiql/", import.meta.url));

await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { main: fileURLToPath(new URL("src/main.jsx", import.meta.url)) },
  outdir,
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020"],
  jsx: "automatic",
  define: { "process.env.NODE_ENV": '"production"' },
  // Only for websocket subscriptions, which this API has none of; never loaded.
  external: ["graphql-ws"],
  legalComments: "linked",
  logLevel: "warning",
});
for (const name of ["main.js", "main.css"]) {
  const path = `${outdir}/${name}`;
  await writeFile(`${path}.gz`, gzipSync(await readFile(path), { level: 9 }));
}
