// Runs graphql-http's auditServer against the server at the URL given and prints every
// audit's result as one JSON array: [{id, name, status: "ok" | "warn" | "error", reason}].
import { auditServer } from 'graphql-http';

const url = process.argv[2];
if (!url) {
  console.error('usage: node audit.mjs http://127.0.0.1:8000/graphql');
  process.exit(2);
}
const results = await auditServer({ url });
const report = await Promise.all(
  results.map(async (result) => ({
    id: result.id,
    name: result.name,
    status: result.status,
    reason: result.status === 'ok' ? null : result.reason,
    response:
      result.status === 'ok'
        ? null
        : {
            status: result.response.status,
            headers: Object.fromEntries(result.response.headers),
            body: await result.response.text(),
          },
  })),
);
console.log(JSON.stringify(report));
