// Compiles examples/operations/*.graphql and browser/operations/*.graphql (the taxonomy
// browser's) with two more clients than graphql-codegen:
// relay-compiler (this folder's node_modules) and gql.tada's `check` (gql-tada/, a project
// of its own: gql.tada's CLI needs TypeScript 5's JS API, which TypeScript 7 lacks). Each
// runs on a scratch copy, from the pinned packages only (no network), and any error fails.
//
//   node compile-operations.mjs [OPERATIONS_DIR] [SCHEMA]   (one folder instead of those two)
//
// A Relay app keeps each operation in a module whose name starts the operation's and
// ends in Query (Relay's naming rule, about where a document lives): the copy for
// relay-compiler is such a module, `NodePage` becoming `NodePageQuery`; the rest of the
// document is compiled as written (comment lines left out of the embedded copies).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const operationsDirs = process.argv[2]
  ? [resolve(process.argv[2])]
  : [join(here, "../../examples/operations"), join(here, "../../browser/operations")];
const operationsDir = operationsDirs.join(" and ");
const schema = resolve(process.argv[3] ?? join(here, "../../schema.graphql"));

const operations = operationsDirs.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith(".graphql"))
    .sort()
    .map((name) => {
      const text = readFileSync(join(dir, name), "utf8");
      const body = text.split("\n").filter((line) => !line.startsWith("#")).join("\n");
      if (body.includes("`") || body.includes("${")) {
        throw new Error(`${name}: a backtick or \${ cannot be embedded in a template literal`);
      }
      return { module: basename(name, ".graphql"), body };
    }),
);
if (operations.length === 0) throw new Error(`no operations in ${operationsDir}`);
const modules = operations.map(({ module }) => module);
const twice = modules.filter((module, i) => modules.indexOf(module) !== i);
if (twice.length) throw new Error(`an operation's file name twice: ${twice.join(", ")}`);

function run(tool, command, args, cwd) {
  try {
    execFileSync(command, args, { cwd, encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    process.stderr.write(`${tool} failed on ${operationsDir}:\n${error.stdout}${error.stderr}`);
    process.exit(1);
  }
}

const scratch = mkdtempSync(join(tmpdir(), "compile-operations-"));
try {
  // relay-compiler: a module per operation, artifacts in the scratch folder.
  const relay = join(scratch, "relay");
  mkdirSync(join(relay, "src"), { recursive: true });
  mkdirSync(join(relay, "generated"));
  for (const { module, body } of operations) {
    const named = body.replace(
      new RegExp(`^(query|mutation|subscription) ${module}\\b(?!Query)`, "m"),
      `$1 ${module}Query`,
    );
    writeFileSync(
      join(relay, "src", `${module}.ts`),
      `import { graphql } from "relay-runtime";\nexport const document = graphql\`\n${named}\n\`;\n`,
    );
  }
  writeFileSync(
    join(relay, "relay.config.json"),
    JSON.stringify({ src: "./src", schema, language: "typescript", artifactDirectory: "./generated" }),
  );
  run("relay-compiler", join(here, "node_modules/.bin/relay-compiler"), [], relay);

  // gql.tada: its introspection types from the schema, a typed `graphql` per operation,
  // then `gql.tada check` (validation against the schema) and tsc (the types resolve).
  const tada = join(scratch, "tada");
  mkdirSync(join(tada, "src"), { recursive: true });
  symlinkSync(join(here, "gql-tada/node_modules"), join(tada, "node_modules"), "dir");
  const plugin = { name: "gql.tada/ts-plugin", schema, tadaOutputLocation: "./src/graphql-env.d.ts" };
  writeFileSync(
    join(tada, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022", module: "ESNext", moduleResolution: "bundler", strict: true,
        noEmit: true, skipLibCheck: true, plugins: [plugin],
      },
      include: ["src/**/*.ts"],
    }),
  );
  writeFileSync(
    join(tada, "src", "graphql.ts"),
    'import { initGraphQLTada } from "gql.tada";\n' +
      'import type { introspection } from "./graphql-env.d.ts";\n' +
      "export const graphql = initGraphQLTada<{\n" +
      "  introspection: introspection;\n  scalars: { Date: string; DateTime: string };\n}>();\n",
  );
  for (const { module, body } of operations) {
    writeFileSync(
      join(tada, "src", `${module}.ts`),
      `import { graphql } from "./graphql";\nexport const ${module} = graphql(\`\n${body}\n\`);\n`,
    );
  }
  const bin = (name) => join(tada, "node_modules/.bin", name);
  run("gql.tada generate output", bin("gql.tada"), ["generate", "output"], tada);
  run("gql.tada check", bin("gql.tada"), ["check"], tada);
  run("tsc (gql.tada's types)", bin("tsc"), ["-p", "."], tada);
  console.log(`${operations.length} operations compile with relay-compiler and gql.tada`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
