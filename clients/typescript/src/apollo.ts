// Apollo Client's InMemoryCache for this API, set up so that it just works: every object
// with an `id` is normalized by it (IDs are unique across types, and Apollo's default key,
// `__typename:id`, keeps each object once); fragments on the Entity interface and the
// SearchHit union match by the schema's possibleTypes (generated, src/gql/possibleTypes.ts);
// and every object type without an `id` (counts, summaries, connections, edges, page info,
// changes) is merged field by field where two operations select different fields of it,
// instead of the later one replacing the earlier one (and Apollo warning "Cache data may be
// lost when replacing the ... field").
//
//   import { ApolloClient, HttpLink } from "@apollo/client";
//   import { createCache } from "./apollo.js";
//   const client = new ApolloClient({ cache: createCache(), link: new HttpLink({ uri }) });
//
// The policies are typed by the generated StrictTypedTypePolicies (src/gql/apolloHelpers.ts):
// a type or field the schema lacks fails `tsc`, and so does an object type without an `id`
// that has no policy here (ValueObjectType, from the generated types). A list of pages read
// with `after` is not concatenated: that is a field policy of the application's choice
// (Apollo's `relayStylePagination()`), added with `createCache({ Node: { fields: ... } })`.
import { InMemoryCache, type TypePolicies } from "@apollo/client/cache";
import type { StrictTypedTypePolicies } from "./gql/apolloHelpers.js";
import generated from "./gql/possibleTypes.js";

/** Each interface and union of the schema, with the object types that belong to it. */
export const possibleTypes: Record<string, string[]> = generated.possibleTypes;

type PolicyFields<T extends keyof StrictTypedTypePolicies> = keyof NonNullable<
  NonNullable<StrictTypedTypePolicies[T]>["fields"]
>;

/** The schema's object types without an `id` (value objects), less the root type Query. */
export type ValueObjectType = Exclude<
  {
    [T in keyof StrictTypedTypePolicies]-?: "id" extends PolicyFields<T> ? never : T;
  }[keyof StrictTypedTypePolicies],
  "Query"
>;

// `merge: true`: a new value of the type is merged into the one cached at the same field
// (the same arguments), as Apollo does for normalized objects. For a type reached only
// through a list (edges, adoption points) it has nothing to merge, Apollo replacing a list
// whole without warning; it is there so that such a type is covered should it be a field.
const merged = { merge: true } as const;

/** A policy for every object type without an `id`: merged, never replaced. */
export const typePolicies = {
  AdoptionPoint: merged,
  ChangeCounts: merged,
  ChangeSummary: merged,
  Changes: merged,
  EvidenceConnection: merged,
  EvidenceEdge: merged,
  FieldChange: merged,
  FormerNode: merged,
  FormerRecord: merged,
  KnockOn: merged,
  MethodChange: merged,
  MethodChangeConnection: merged,
  MethodChangeEdge: merged,
  MethodConnection: merged,
  MethodEdge: merged,
  MethodTreatmentConnection: merged,
  MethodTreatmentEdge: merged,
  ModelChange: merged,
  ModelChangeConnection: merged,
  ModelChangeEdge: merged,
  ModelConnection: merged,
  ModelEdge: merged,
  ModelTreatmentConnection: merged,
  ModelTreatmentEdge: merged,
  NodeChange: merged,
  NodeChangeConnection: merged,
  NodeChangeEdge: merged,
  NodeConnection: merged,
  NodeCounts: merged,
  NodeEdge: merged,
  Organization: merged,
  PageInfo: merged,
  ReleaseConnection: merged,
  ReleaseEdge: merged,
  ReleaseTotals: merged,
  SearchConnection: merged,
  SearchFacet: merged,
  SearchHitEdge: merged,
  SearchSnippet: merged,
  SourceConnection: merged,
  SourceEdge: merged,
  StrengthCounts: merged,
  TaxonomySummary: merged,
  TextRange: merged,
  TreatmentChange: merged,
  TreatmentChangeConnection: merged,
  TreatmentChangeEdge: merged,
} satisfies StrictTypedTypePolicies & Required<Pick<StrictTypedTypePolicies, ValueObjectType>>;

/** An InMemoryCache with this API's possibleTypes and type policies; `more` adds policies
 * of the application's own (field policies such as pagination), applied after these. */
export function createCache(more: TypePolicies = {}): InMemoryCache {
  const cache = new InMemoryCache({ possibleTypes, typePolicies });
  cache.policies.addTypePolicies(more);
  return cache;
}
