// One GraphQL operation per page, fetched as Apollo's automatic persisted queries speak it
// (api/edge/persisted_queries.py): a GET that carries only the document's sha256, so that HTTP
// caches and the server's response cache answer repeat views; when the server does not know
// the hash yet (PersistedQueryNotFound), one POST with the document registers it.
import type { TypedDocumentString } from "../../clients/typescript/src/gql/graphql";

/** Operation name -> sha256 of its document text, computed by build.mjs. */
declare const PERSISTED_HASHES: Record<string, string>;

const ENDPOINT = "/graphql";
const ACCEPT = "application/graphql-response+json, application/json";

type GraphQLError = { message: string; extensions?: { code?: string } };
type Answer<T> = { data?: T | null; errors?: GraphQLError[] };

/** What went wrong talking to the API, in words for the page; with the API's error code
 * when it refused the request (NOT_FOUND: the page asked for something not there;
 * BAD_USER_INPUT: for something that cannot be). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
    /** What the API answered beside its errors (the fields without one): for the parts of a
     * page that do not need the refused field (the header's latest release). */
    readonly partial: unknown = null,
  ) {
    super(message);
  }
}

/** Whether the API refused a page's cursor: a load has overtaken it (CURSOR_EXPIRED), or
 * it is not one of the API's (BAD_USER_INPUT, when the page had a cursor to give). */
export function cursorRefused(code: string | null): boolean {
  return code === "CURSOR_EXPIRED" || code === "BAD_USER_INPUT";
}

/** A field that takes arguments is nullable and null only beside its error (docs/api-guide.md,
 * "Errors stay on their field"); execute() throws on any error, so a page that has its data
 * has every such field. This tells the type checker so, and says so plainly if it ever isn't. */
export function answered<T>(value: T | null | undefined, field: string): T {
  if (value === null || value === undefined) {
    throw new ApiError(`The API left ${field} unanswered. Reload to try again.`);
  }
  return value;
}

function operationName(text: string): string {
  const name = /\b(?:query|mutation)\s+(\w+)/.exec(text)?.[1];
  if (!name) throw new ApiError("a document without an operation name");
  return name;
}

async function answer<T>(request: Promise<Response>): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await request;
  } catch {
    throw new ApiError("The API could not be reached. Check that the server is running, then reload.");
  }
  try {
    return (await response.json()) as Answer<T>;
  } catch {
    throw new ApiError(`The API answered HTTP ${response.status} without a GraphQL result. Reload to try again.`);
  }
}

function notFound(errors: GraphQLError[] | undefined): boolean {
  return Boolean(
    errors?.some(
      (error) =>
        error.extensions?.code === "PERSISTED_QUERY_NOT_FOUND" ||
        error.message === "PersistedQueryNotFound",
    ),
  );
}

/** Runs one typed operation: GET by hash first, the document itself only when asked for. */
export async function execute<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
  signal?: AbortSignal,
): Promise<TResult> {
  const query = document.toString();
  const operation = operationName(query);
  const sha256Hash = PERSISTED_HASHES[operation];
  if (!sha256Hash) throw new ApiError(`no persisted-query hash for ${operation}: rebuild the browser`);
  const extensions = { persistedQuery: { version: 1, sha256Hash } };
  const params = new URLSearchParams({
    operationName: operation,
    variables: JSON.stringify(variables ?? {}),
    extensions: JSON.stringify(extensions),
  });
  let body = await answer<TResult>(
    fetch(`${ENDPOINT}?${params}`, { headers: { accept: ACCEPT }, signal }),
  );
  if (notFound(body.errors)) {
    body = await answer<TResult>(
      fetch(ENDPOINT, {
        method: "POST",
        headers: { accept: ACCEPT, "content-type": "application/json" },
        body: JSON.stringify({ query, operationName: operation, variables, extensions }),
        signal,
      }),
    );
  }
  if (body.errors?.length) {
    throw new ApiError(
      `The API refused the request: ${body.errors.map((e) => e.message).join("; ")}`,
      body.errors[0].extensions?.code ?? null,
      body.data ?? null,
    );
  }
  if (!body.data) throw new ApiError("The API answered without data. Reload to try again.");
  return body.data;
}
