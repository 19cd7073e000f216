// graphql-eslint's recommended rules for operations (`flat/operations-recommended`) over the
// operations of examples/operations and browser/operations, checked against schema.graphql.
// `no-deprecated` stays on: no operation of ours reads a deprecated field or argument.
// Run from the repository's root (files are matched from where ESLint runs):
//
//   clients/typescript/node_modules/.bin/eslint --config clients/typescript/eslint.config.mjs \
//     examples/operations browser/operations
//
// tests/test_apollo_cache.py runs it and wants no error and no warning.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import graphqlPlugin from "@graphql-eslint/eslint-plugin";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const operations = ["examples/operations/*.graphql", "browser/operations/*.graphql"];

export default [
  {
    files: operations,
    languageOptions: {
      parser: graphqlPlugin.parser,
      parserOptions: {
        graphQLConfig: {
          schema: join(root, "schema.graphql"),
          documents: operations.map((pattern) => join(root, pattern)),
        },
      },
    },
    plugins: { "@graphql-eslint": graphqlPlugin },
    rules: graphqlPlugin.configs["flat/operations-recommended"].rules,
  },
];
