// Runs every operation of examples/operations and browser/operations twice through Apollo
// Client's InMemoryCache, made by src/apollo.ts's createCache() (this API's possibleTypes and
// type policies), against a live server, all in one cache:
//
//   node --conditions=development apollo-cache-check.mjs ENDPOINT VARIABLES_JSON [--without-type-policies]
//   node --conditions=development apollo-cache-check.mjs --policies-only [SCHEMA]
//
// VARIABLES_JSON maps each operation's name to its variables (every operation needs an entry,
// `{}` for none). First every operation is fetched from the network (network-only), then
// every one again with cache-first. It checks that
// - Apollo says nothing: no console.warn or console.error (its "Cache data may be lost when
//   replacing the ... field" and "Missing field" among them), with Apollo's development
//   build and messages loaded;
// - the second round sends no request: each operation is answered from the cache, after all
//   the others were written into it;
// - what Apollo answers, both times, and cache.readQuery are the data the server sent;
// - every object type of schema.graphql without an `id` (but Query) has a type policy that
//   merges it, and possibleTypes is the schema's.
// It prints a JSON summary and exits 1 on any failure. `--without-type-policies` uses a cache
// with possibleTypes only, to show what the policies prevent (tests/test_apollo_cache.py);
// `--policies-only` checks only the policies and possibleTypes, against SCHEMA if given.
// src/apollo.ts is compiled by this folder's pinned tsc into a scratch folder first.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format, isDeepStrictEqual } from "node:util";

import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from "@apollo/client";
import { loadDevMessages, loadErrorMessages } from "@apollo/client/dev";
import { __DEV__ } from "@apollo/client/utilities/environment";
import { buildSchema, isAbstractType, isObjectType } from "graphql";
import { map } from "rxjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
const OPERATION_DIRS = [join(root, "examples/operations"), join(root, "browser/operations")];

const [endpoint, variablesFile] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const withoutTypePolicies = process.argv.includes("--without-type-policies");
const policiesOnly = process.argv.includes("--policies-only");
if (!policiesOnly && (!endpoint || !variablesFile)) {
  process.stderr.write("usage: node --conditions=development apollo-cache-check.mjs ENDPOINT VARIABLES_JSON\n");
  process.exit(2);
}
const failures = [];

// Apollo's warnings exist only in its development build (the `development` export condition).
if (__DEV__ !== true) {
  process.stderr.write("Apollo's production build was loaded: run node with --conditions=development\n");
  process.exit(2);
}
loadDevMessages();
loadErrorMessages();

// src/apollo.ts, compiled as it is shipped.
const scratch = mkdtempSync(join(tmpdir(), "apollo-cache-check-"));
let apollo;
try {
  symlinkSync(join(here, "node_modules"), join(scratch, "node_modules"), "dir");
  const out = join(scratch, "out");
  const tsc = join(here, "node_modules/.bin/tsc");
  try {
    execFileSync(tsc, ["-p", here, "--noEmit", "false", "--rootDir", join(here, "src"), "--outDir", out], {
      encoding: "utf8",
      stdio: "pipe",
    });
  } catch (error) {
    process.stderr.write(`tsc failed on src/:\n${error.stdout}${error.stderr}`);
    process.exit(1);
  }
  apollo = await import(pathToFileURL(join(out, "apollo.js")).href);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

// Every object type without an `id` has a policy that merges it; possibleTypes is the schema's.
const schemaFile = policiesOnly && endpoint ? endpoint : join(root, "schema.graphql");
const schema = buildSchema(readFileSync(schemaFile, "utf8"));
const rootTypes = new Set(
  [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean).map((t) => t.name),
);
const valueObjects = Object.values(schema.getTypeMap())
  .filter((type) => isObjectType(type) && !type.name.startsWith("__") && !rootTypes.has(type.name))
  .filter((type) => !("id" in type.getFields()))
  .map((type) => type.name)
  .sort();
for (const name of valueObjects) {
  const policy = apollo.typePolicies[name];
  if (!policy || (policy.merge !== true && typeof policy.merge !== "function")) {
    failures.push(`${name} has no \`id\` and no type policy that merges it (src/apollo.ts)`);
  }
}
for (const name of Object.keys(apollo.typePolicies)) {
  if (!valueObjects.includes(name)) failures.push(`src/apollo.ts has a policy for ${name}, not an object type without an id`);
}
const schemaPossibleTypes = Object.fromEntries(
  Object.values(schema.getTypeMap())
    .filter((type) => isAbstractType(type) && !type.name.startsWith("__"))
    .map((type) => [type.name, schema.getPossibleTypes(type).map((t) => t.name).sort()]),
);
const shipped = Object.fromEntries(Object.entries(apollo.possibleTypes).map(([k, v]) => [k, [...v].sort()]));
if (!isDeepStrictEqual(shipped, schemaPossibleTypes)) {
  failures.push(`possibleTypes ${JSON.stringify(shipped)} is not the schema's ${JSON.stringify(schemaPossibleTypes)}`);
}
if (policiesOnly) {
  process.stdout.write(`${JSON.stringify({ valueObjectTypes: valueObjects.length, failures }, null, 2)}\n`);
  process.exit(failures.length ? 1 : 0);
}

// The operations and their variables.
const variables = JSON.parse(readFileSync(variablesFile, "utf8"));
const operations = OPERATION_DIRS.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith(".graphql"))
    .sort()
    .map((file) => ({ name: basename(file, ".graphql"), text: readFileSync(join(dir, file), "utf8") })),
);
for (const { name } of operations) {
  if (!(name in variables)) failures.push(`${name}: no variables given (\`{}\` for none)`);
}
for (const name of Object.keys(variables)) {
  if (!operations.some((op) => op.name === name)) failures.push(`variables for ${name}, which is no operation`);
}

// Apollo's console output, captured from here on.
const said = [];
for (const level of ["warn", "error"]) {
  console[level] = (...args) => said.push({ level, message: format(...args) });
}

// A link that records each request and the data the server sent for it.
const sent = [];
const recording = new ApolloLink((operation, forward) =>
  forward(operation).pipe(
    map((result) => {
      sent.push({ name: operation.operationName, data: structuredClone(result.data), errors: result.errors });
      return result;
    }),
  ),
);
const cache = withoutTypePolicies ? new InMemoryCache({ possibleTypes: apollo.possibleTypes }) : apollo.createCache();
const client = new ApolloClient({ cache, link: ApolloLink.from([recording, new HttpLink({ uri: endpoint })]) });

const fromNetwork = new Map();
const rounds = { first: { requests: 0 }, second: { requests: 0 } };
for (const round of ["first", "second"]) {
  for (const { name, text } of operations) {
    const query = gql(text);
    const vars = variables[name] ?? {};
    const before = sent.length;
    let answer;
    try {
      answer = await client.query({
        query,
        variables: vars,
        fetchPolicy: round === "first" ? "network-only" : "cache-first",
      });
    } catch (error) {
      failures.push(`${name} (${round} run): ${error}`);
      continue;
    }
    const requests = sent.slice(before);
    rounds[round].requests += requests.length;
    if (round === "first") {
      if (requests.length !== 1) {
        failures.push(`${name}: ${requests.length} requests on the first run, not 1`);
        continue;
      }
      const [{ data, errors }] = requests;
      if (errors?.length) failures.push(`${name}: the server answered errors ${JSON.stringify(errors)}`);
      if (!data || Object.values(data).some((value) => value === null)) {
        failures.push(`${name}: no data for its variables ${JSON.stringify(vars)}: ${JSON.stringify(data)}`);
      }
      fromNetwork.set(name, data);
    } else if (requests.length !== 0) {
      failures.push(`${name}: the second run sent ${requests.length} request(s), not answered from the cache`);
    }
    const data = fromNetwork.get(name);
    if (!isDeepStrictEqual(answer.data, data)) {
      failures.push(`${name} (${round} run): Apollo's answer differs from the server's data`);
    }
    if (round === "second") {
      let cached;
      try {
        cached = cache.readQuery({ query, variables: vars });
      } catch (error) {
        failures.push(`${name}: cache.readQuery failed: ${error}`);
      }
      if (!isDeepStrictEqual(cached, data)) failures.push(`${name}: cache.readQuery differs from the server's data`);
    }
  }
}

failures.push(...said.map(({ level, message }) => `console.${level}: ${message}`));
const summary = {
  operations: operations.map((op) => op.name),
  valueObjectTypes: valueObjects.length,
  requests: { first: rounds.first.requests, second: rounds.second.requests },
  warnings: said.filter((s) => s.level === "warn").length,
  errors: said.filter((s) => s.level === "error").length,
  said,
  failures,
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
process.exit(failures.length ? 1 : 0);
