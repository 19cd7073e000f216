// A page's one round trip: runs its operation when the variables change, drops an answer
// that arrives after the page has moved on, and keeps the error's words for the page.
import { useEffect, useState } from "preact/hooks";

import type { TypedDocumentString } from "../../clients/typescript/src/gql/graphql";
import { ApiError, execute } from "./api";

export type Loaded<T> =
  | { state: "loading" }
  | { state: "error"; message: string; code: string | null; partial: T | null }
  | { state: "done"; data: T };

export function useQuery<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): Loaded<TResult> {
  const key = JSON.stringify(variables);
  const [loaded, setLoaded] = useState<{ key: string; value: Loaded<TResult> }>({
    key,
    value: { state: "loading" },
  });
  useEffect(() => {
    const abort = new AbortController();
    setLoaded({ key, value: { state: "loading" } });
    execute(document, variables, abort.signal).then(
      (data) => {
        if (!abort.signal.aborted) setLoaded({ key, value: { state: "done", data } });
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        const message = error instanceof ApiError ? error.message : `Unexpected error: ${String(error)}`;
        const code = error instanceof ApiError ? error.code : null;
        const partial = error instanceof ApiError ? (error.partial as TResult | null) : null;
        setLoaded({ key, value: { state: "error", message, code, partial } });
      },
    );
    return () => abort.abort();
  }, [document, key]);
  return loaded.key === key ? loaded.value : { state: "loading" };
}

/** What a page's query brought: its data, or beside an error what the API did answer. */
export function answeredSoFar<T>(loaded: Loaded<T>): T | null {
  return loaded.state === "done" ? loaded.data : loaded.state === "error" ? loaded.partial : null;
}
