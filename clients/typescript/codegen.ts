// graphql-codegen's client preset: typed documents for the operations in
// examples/operations and the taxonomy browser's (browser/operations), checked against
// schema.graphql. `make clients` regenerates src/gql/;
// tests/test_clients.py regenerates into a scratch folder (CODEGEN_OUT) and compares.
import type { CodegenConfig } from "@graphql-codegen/cli";

const config: CodegenConfig = {
  schema: "../../schema.graphql",
  documents: ["../../examples/operations/*.graphql", "../../browser/operations/*.graphql"],
  ignoreNoDocuments: false,
  generates: {
    [process.env.CODEGEN_OUT ?? "src/gql/"]: {
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
  },
};

export default config;
