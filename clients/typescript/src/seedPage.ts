// The seed page through the generated client: a typed document sent with fetch to /graphql.
// NodePageDocument (typed by NodePageQuery and NodePageQueryVariables) is generated from
// examples/operations/NodePage.graphql by `make clients`.
import { NodePageDocument, type TypedDocumentString } from "./gql/graphql";

type GraphQLError = { message: string; extensions?: { code?: string } };

/** Runs one typed operation against the API's /graphql endpoint. */
export async function execute<TResult, TVariables>(
  endpoint: string,
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): Promise<TResult> {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  const body = (await response.json()) as { data?: TResult | null; errors?: GraphQLError[] };
  if (body.errors?.length) {
    throw new Error(body.errors.map((error) => error.message).join("; "));
  }
  if (!body.data) {
    throw new Error(`HTTP ${response.status}: no data`);
  }
  return body.data;
}

/** The seed page's By-model table, one line per model: `name strongest (n methods)`. */
export async function seedPage(
  endpoint = "http://127.0.0.1:8000/graphql",
  path = "optimization/training-parallelism",
): Promise<string[]> {
  const { node } = await execute(endpoint, NodePageDocument, { path });
  if (!node) {
    throw new Error(`no node at ${path}`);
  }
  // A field that takes arguments is null only beside its error, and execute() throws on those.
  if (!node.byModel) {
    throw new Error(`no By-model table at ${path}`);
  }
  return node.byModel.nodes.map(
    (row) => `${row.model.name} ${row.strongest.toLowerCase()} (${row.methodCount} methods)`,
  );
}
