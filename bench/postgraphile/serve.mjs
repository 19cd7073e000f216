// The peer's server: PostGraphile 5 (graphile.config.mjs) on Node's http server, in
// PEER_WORKERS processes sharing one port (node:cluster), as our server runs 2 uvicorn
// workers. Started by bench/systems.py as
//   node --require ./polyfill.cjs serve.mjs   (PEER_DATABASE_URL, PEER_PORT, PEER_WORKERS)
import cluster from "node:cluster";
import { createServer } from "node:http";
import { postgraphile } from "postgraphile";
import { grafserv } from "postgraphile/grafserv/node";
import { makePgService } from "postgraphile/adaptors/pg";

import preset from "./graphile.config.mjs";

const workers = Number(process.env.PEER_WORKERS ?? "2");
const port = Number(process.env.PEER_PORT ?? "5678");

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on("exit", (worker, code) => {
    console.error(`peer worker ${worker.process.pid} exited (${code})`);
    process.exit(1);
  });
} else {
  const pgl = postgraphile({
    extends: [preset],
    pgServices: [
      makePgService({
        connectionString: process.env.PEER_DATABASE_URL,
        schemas: ["public"],
        // As many connections per process as our server's pool.
        poolConfig: { max: 5 },
      }),
    ],
  });
  const serv = pgl.createServ(grafserv);
  const server = createServer();
  serv.addTo(server).catch((error) => {
    console.error(error);
    process.exit(1);
  });
  server.listen(port, "127.0.0.1", () => console.log(`peer listening on ${port}`));
}
