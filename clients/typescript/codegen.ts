// graphql-codegen's client preset: typed documents for the operations in
// examples/operations and the taxonomy browser's (browser/operations), checked against
// schema.graphql; and, for Apollo Client's InMemoryCache, the schema's possibleTypes
// (fragment-matcher) and typed type policies (typescript-apollo-client-helpers), which
// src/apollo.ts uses. `make clients` regenerates src/gql/;
// tests/test_clients.py regenerates into a scratch folder (CODEGEN_OUT) and compares.
import type { CodegenConfig } from "@graphql-codegen/cli";

const out = process.env.CODEGEN_OUT ?? "src/gql/";

const config: CodegenConfig = {
  schema: "../../schema.graphql",
  documents: ["../../examples/operations/*.graphql", "../../browser/operations/*.graphql"],
  ignoreNoDocuments: false,
  generates: {
    [out]: {
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: {
        // Documents as strings (TypedDocumentString): fetch sends them as they are.
        documentMode: "string",
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { Date: "string", DateTime: "string" },
      },
    },
    // Which object types implement each interface and union (Entity, SearchHit): Apollo's
    // cache matches fragments on them by it (`new InMemoryCache({ possibleTypes })`).
    [`${out}possibleTypes.ts`]: {
      plugins: ["fragment-matcher"],
      config: { apolloClientVersion: 3, useExplicitTyping: true },
    },
    // StrictTypedTypePolicies: a type policy per object type, its keyFields and fields
    // checked against the schema's.
    [`${out}apolloHelpers.ts`]: {
      plugins: ["typescript-apollo-client-helpers"],
      config: { useTypeImports: true },
    },
  },
};

export default config;
