/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** How a record changed between two releases. */
export type ChangeKind =
  /** Not in the first release; in the second. */
  | 'ADDED'
  /** Another served field has another value (a description, matching aids, aliases, an organization, a release date, documents, a treatment's evidence: `fieldChanges` says which), and the record is neither moved nor renamed (a moved or renamed record's change carries its `fieldChanges` too), nor a treatment's strength changed. */
  | 'CHANGED'
  /** A node under another parent, a method filed at another node. */
  | 'MOVED'
  /** In the first release; not in the second. */
  | 'REMOVED'
  /** The same slug with another name. */
  | 'RENAMED'
  /** A model treats the method more strongly than before. */
  | 'STRENGTHENED'
  /** A model treats the method less strongly than before. */
  | 'WEAKENED';

/** Narrows a list of methods; every given condition must hold. */
export type MethodFilter = {
  /** Only methods in the branch of this node (by ID, slug, slug path or names path). */
  branch?: NodeRef | null | undefined;
  /** Only methods first seen in a release after this release number (new since that release; see `firstSeen` and `releases`). */
  firstSeenAfter?: number | null | undefined;
  /** true: only methods some model treats; false: only methods none treats. */
  hasEvidence?: boolean | null | undefined;
  /** Only methods whose strongest treatment is at least this strong. */
  minStrength?: Strength | null | undefined;
  /** Only methods whose name contains this text (any case). */
  nameContains?: string | null | undefined;
  /**
   * Only methods in the branch of this node (a Node ID).
   * @deprecated Use `branch`, which takes the node's ID (`branch: {id: ...}`) or its slug, slug path or names path.
   */
  within?: string | number | null | undefined;
};

/** How to order methods. */
export type MethodOrder = {
  /** ASC or DESC; left out or null, the field's natural direction (its description says which: A to Z for names, tree order for nodes, the largest, strongest or newest first for the rest). */
  direction?: OrderDirection | null | undefined;
  /** What to order by. */
  field: MethodOrderField;
};

/** Fields that methods can be ordered by. */
export type MethodOrderField =
  /** By how many models treat the method. Natural direction DESC (the most first); ties by name case-insensitively, then slug, either way. */
  | 'MODEL_COUNT'
  /** By name case-insensitively, equal names by slug. Natural direction ASC (A to Z); DESC is Z to A, equal names still by slug A to Z. */
  | 'NAME'
  /** By the strongest treatment over all models. Natural direction DESC (CORE first); ASC is MENTIONED first. Either way methods that no model treats come last; ties by name case-insensitively, then slug. */
  | 'STRONGEST';

/** Narrows a list of models; every given condition must hold. */
export type ModelFilter = {
  /** Only models first seen in a release after this release number (new since that release; see `firstSeen` and `releases`). */
  firstSeenAfter?: number | null | undefined;
  /** Only models whose name contains this text (any case). */
  nameContains?: string | null | undefined;
  /** Only models of this organization (exact, any case). */
  organization?: string | null | undefined;
  /** Only models released on or after this date. */
  releasedAfter?: string | null | undefined;
  /** Only models released on or before this date. */
  releasedBefore?: string | null | undefined;
};

/** How to order models. */
export type ModelOrder = {
  /** ASC or DESC; left out or null, the field's natural direction (its description says which: A to Z for names, tree order for nodes, the largest, strongest or newest first for the rest). */
  direction?: OrderDirection | null | undefined;
  /** What to order by. */
  field: ModelOrderField;
};

/** Fields that models can be ordered by. */
export type ModelOrderField =
  /** By name case-insensitively, equal names by slug. Natural direction ASC (A to Z); DESC is Z to A, equal names still by slug A to Z. */
  | 'NAME'
  /** By release date. Natural direction DESC (the newest first); ASC is the oldest first. Either way models without a release date come after every dated one, and models released the same day or undated are ordered by name case-insensitively, then slug. */
  | 'RELEASE_DATE';

/** How to order the rows of a By-model table. */
export type ModelTreatmentOrder = {
  /** ASC or DESC; left out or null, the field's natural direction (its description says which: A to Z for names, tree order for nodes, the largest, strongest or newest first for the rest). */
  direction?: OrderDirection | null | undefined;
  /** What to order by. */
  field: ModelTreatmentOrderField;
};

/** Fields that By-model rows can be ordered by. */
export type ModelTreatmentOrderField =
  /** By how many of the branch's methods the model treats. Natural direction DESC (the most first); ties by model name case-insensitively, then slug, either way. */
  | 'METHOD_COUNT'
  /** By name case-insensitively, equal names by slug. Natural direction ASC (A to Z); DESC is Z to A, equal names still by slug A to Z. */
  | 'NAME'
  /** By the model's release date; the table's default order (the seed page's). Natural direction DESC (the newest first); ASC is the oldest first. Either way models without a release date come after every dated one, and models released the same day or undated are ordered by name case-insensitively, then slug. */
  | 'RELEASE_DATE'
  /** The same order as STRONGEST, under its old name. */
  | 'STRENGTH'
  /** By the model's strongest treatment in the branch. Natural direction DESC (CORE first); ASC is MENTIONED first; ties by model name case-insensitively, then slug, either way. */
  | 'STRONGEST';

/** A node, named by exactly one of its ID, slug, slug path or names path: what a page URL or a breadcrumb already has, with no lookup first. */
export type NodeRef =
  {   /** The node's ID. */
  id: string | number; path?: never; slug?: never; slugPath?: never; }
  |  { id?: never;   /** A names path as `Node.path` shows it (`optimization :: training parallelism`, any case; a root's is its name) or a slug path, as `node(path:)` takes it. */
  path: string; slug?: never; slugPath?: never; }
  |  { id?: never; path?: never;   /** The node's slug, e.g. `training-parallelism`. */
  slug: string; slugPath?: never; }
  |  { id?: never; path?: never; slug?: never;   /** The node's slug path, e.g. `optimization/training-parallelism`. */
  slugPath: string; };

/** The direction of an ordering. Left out (or null), each field takes its natural direction, which its description states: names A to Z, counts and strengths the largest first, dates the newest first. */
export type OrderDirection =
  /** Ascending: A first, the smallest, the weakest or the oldest first. */
  | 'ASC'
  /** Descending: Z first, the largest, the strongest or the newest first. */
  | 'DESC';

/** Narrows a list of releases; every given condition must hold. */
export type ReleaseFilter = {
  /** Only releases loaded on or after this day (UTC, as `loadedAt`). */
  loadedFrom?: string | null | undefined;
  /** Only releases loaded on or before this day (UTC, as `loadedAt`). */
  loadedTo?: string | null | undefined;
  /** Only releases whose note contains this text (any case). */
  noteContains?: string | null | undefined;
};

/** How to order releases. */
export type ReleaseOrder = {
  /** ASC or DESC; left out or null, the field's natural direction (its description says which: A to Z for names, tree order for nodes, the largest, strongest or newest first for the rest). */
  direction?: OrderDirection | null | undefined;
  /** What to order by. */
  field: ReleaseOrderField;
};

/** Fields that releases can be ordered by. */
export type ReleaseOrderField =
  /** By release number, which is the order the releases were loaded in. Natural direction DESC (the newest first); ASC is the oldest first. */
  | 'NUMBER';

/** The kinds of objects a search can find. */
export type SearchType =
  /** Methods. */
  | 'METHODS'
  /** Models. */
  | 'MODELS'
  /** Taxonomy nodes. */
  | 'NODES'
  /** Sources (found by their titles). */
  | 'SOURCES';

/** What kind of document a source is. */
export type SourceKind =
  /** A blog post. */
  | 'BLOG_POST'
  /** A model card. */
  | 'MODEL_CARD'
  /** Any other document. */
  | 'OTHER'
  /** A research paper. */
  | 'PAPER'
  /** A technical report. */
  | 'TECHNICAL_REPORT';

/** How strongly a model's own documents treat a method. */
export type Strength =
  /** One of the model's own central contributions. */
  | 'CORE'
  /** Named without saying that the model uses it. */
  | 'MENTIONED'
  /** The documents say the model uses it. */
  | 'USED';

/** How to order a method's treatments (the models that treat it). */
export type TreatmentsOfMethodOrder = {
  /** ASC or DESC; left out or null, the field's natural direction (its description says which: A to Z for names, tree order for nodes, the largest, strongest or newest first for the rest). */
  direction?: OrderDirection | null | undefined;
  /** What to order by. */
  field: TreatmentsOfMethodOrderField;
};

/** Fields that a method's treatments (its models) can be ordered by. */
export type TreatmentsOfMethodOrderField =
  /** By the model's name case-insensitively, equal names by slug. Natural direction ASC (A to Z); DESC is Z to A, equal names still by slug A to Z. */
  | 'NAME'
  /** By the model's release date. Natural direction DESC (the newest first); ASC is the oldest first. Either way models without a release date come after every dated one, and models released the same day or undated are ordered by name case-insensitively, then slug. */
  | 'RELEASE_DATE'
  /** By the treatment (its strength). Natural direction DESC (CORE first), the default order; ASC is MENTIONED first; ties by model name case-insensitively, then slug, A to Z either way. */
  | 'STRONGEST';

/** How to order a model's treatments (its methods). */
export type TreatmentsOfModelOrder = {
  /** ASC or DESC; left out or null, the field's natural direction (its description says which: A to Z for names, tree order for nodes, the largest, strongest or newest first for the rest). */
  direction?: OrderDirection | null | undefined;
  /** What to order by. */
  field: TreatmentsOfModelOrderField;
};

/** Fields that a model's treatments (its methods) can be ordered by. */
export type TreatmentsOfModelOrderField =
  /** By the method's name case-insensitively, equal names by slug. Natural direction ASC (A to Z, equal names by slug A to Z); DESC is Z to A, equal names by slug Z to A. The other direction is the exact reverse of the natural one, ties too. */
  | 'NAME'
  /** By the node the method is filed at, in tree order (pre-order: each node before its children, siblings by name), the methods filed at one node by name case-insensitively, then slug. Natural direction ASC (the tree's first node first, its methods A to Z); DESC is the tree's last node first, its methods Z to A. The other direction is the exact reverse of the natural one, ties too. */
  | 'NODE'
  /** By the treatment (its strength). Natural direction DESC (CORE first), the default order; ASC is MENTIONED first; ties by method name case-insensitively, then slug, A to Z when DESC, Z to A when ASC. The other direction is the exact reverse of the natural one, ties too. */
  | 'STRONGEST';

export type BrowserChangesQueryVariables = Exact<{
  since: number;
  until?: number | null | undefined;
  nodesFirst?: number | null | undefined;
  nodesAfter?: string | null | undefined;
  nodesLast?: number | null | undefined;
  nodesBefore?: string | null | undefined;
  methodsFirst?: number | null | undefined;
  methodsAfter?: string | null | undefined;
  methodsLast?: number | null | undefined;
  methodsBefore?: string | null | undefined;
  modelsFirst?: number | null | undefined;
  modelsAfter?: string | null | undefined;
  modelsLast?: number | null | undefined;
  modelsBefore?: string | null | undefined;
  treatmentsFirst?: number | null | undefined;
  treatmentsAfter?: string | null | undefined;
  treatmentsLast?: number | null | undefined;
  treatmentsBefore?: string | null | undefined;
  kinds?: Array<ChangeKind> | ChangeKind | null | undefined;
  knockOn?: number | null | undefined;
  withNodes?: boolean | null | undefined;
  withMethods?: boolean | null | undefined;
  withModels?: boolean | null | undefined;
  withTreatments?: boolean | null | undefined;
}>;


export type BrowserChangesQuery = { changes: { isEmpty: boolean, from: { id: string, number: number, loadedAt: string }, to: { id: string, number: number, loadedAt: string }, nodes?: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, nodes: Array<{ kind: ChangeKind, kinds: Array<ChangeKind>, slug: string, name: string, fromPath: string | null, toPath: string | null, fromName: string | null, toName: string | null, fieldChanges: Array<{ field: string, fromValue: string | null, toValue: string | null, fromItems: Array<string> | null, toItems: Array<string> | null }>, node: { id: string, slugPath: string } | null, knockOn: { nodes: { totalCount: number, nodes: Array<{ slug: string, name: string }> } | null, methods: { totalCount: number, nodes: Array<{ slug: string, name: string }> } | null } | null }> } | null, methods?: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, nodes: Array<{ kind: ChangeKind, kinds: Array<ChangeKind>, slug: string, name: string, fromPath: string | null, toPath: string | null, fromName: string | null, toName: string | null, fieldChanges: Array<{ field: string, fromValue: string | null, toValue: string | null, fromItems: Array<string> | null, toItems: Array<string> | null }>, method: { id: string, slug: string } | null, knockOn: { treatmentCount: number | null } | null }> } | null, models?: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, nodes: Array<{ kind: ChangeKind, kinds: Array<ChangeKind>, slug: string, name: string, fromName: string | null, toName: string | null, fieldChanges: Array<{ field: string, fromValue: string | null, toValue: string | null, fromItems: Array<string> | null, toItems: Array<string> | null }>, model: { id: string, slug: string } | null, knockOn: { treatmentCount: number | null } | null }> } | null, treatments?: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, nodes: Array<{ kind: ChangeKind, modelSlug: string, methodSlug: string, modelName: string, methodName: string, fromStrength: Strength | null, toStrength: Strength | null, fieldChanges: Array<{ field: string, fromValue: string | null, toValue: string | null, fromItems: Array<string> | null, toItems: Array<string> | null }>, model: { id: string, slug: string } | null, method: { id: string, slug: string } | null }> } | null } | null, latest: { nodes: Array<{ id: string, number: number, changes: { from: { id: string, number: number } } | null }> } | null };

export type BrowserChangesFieldChangeFragment = { field: string, fromValue: string | null, toValue: string | null, fromItems: Array<string> | null, toItems: Array<string> | null };

export type BrowserFormerQueryVariables = Exact<{
  path?: string | null | undefined;
  slug?: string | null | undefined;
  node?: boolean | null | undefined;
  method?: boolean | null | undefined;
  model?: boolean | null | undefined;
}>;


export type BrowserFormerQuery = { formerNode?: { name: string, path: string, kind: ChangeKind, changedIn: { id: string, number: number, loadedAt: string }, node: { id: string, slugPath: string } | null } | null, formerMethod?: { name: string, path: string | null, removedIn: { id: string, number: number, loadedAt: string } } | null, formerModel?: { name: string, removedIn: { id: string, number: number, loadedAt: string } } | null };

export type BrowserHomeQueryVariables = Exact<{ [key: string]: never; }>;


export type BrowserHomeQuery = { taxonomy: { nodeCount: number, methodCount: number, modelCount: number, sourceCount: number, evidenceCount: number, loadedAt: string | null }, releases: { nodes: Array<{ id: string, number: number, loadedAt: string, note: string | null, changes: { isEmpty: boolean, from: { id: string, number: number }, summary: { total: number, nodes: { added: number, removed: number, moved: number, renamed: number, changed: number, strengthened: number, weakened: number, total: number }, methods: { added: number, removed: number, moved: number, renamed: number, changed: number, strengthened: number, weakened: number, total: number }, models: { added: number, removed: number, moved: number, renamed: number, changed: number, strengthened: number, weakened: number, total: number }, treatments: { added: number, removed: number, moved: number, renamed: number, changed: number, strengthened: number, weakened: number, total: number } } } | null }> } | null, roots: Array<{ id: string, name: string, slugPath: string, description: string | null, counts: { methodsInBranch: number, modelsInBranch: number, childCount: number }, children: Array<{ id: string, name: string, slugPath: string, counts: { methodsInBranch: number } }> }> };

export type BrowserMethodQueryVariables = Exact<{
  slug: string;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  evidencePerRow?: number | null | undefined;
  minStrength?: Strength | null | undefined;
  orderBy?: TreatmentsOfMethodOrder | null | undefined;
}>;


export type BrowserMethodQuery = { method: { id: string, name: string, description: string | null, aliases: Array<string>, strongest: Strength | null, modelCount: number, undatedModels: number | null, adoption: Array<{ period: string, start: string, end: string, models: number, cumulativeModels: number }> | null, firstSeen: { id: string, number: number, loadedAt: string }, history: { totalCount: number, nodes: Array<{ kind: ChangeKind, kinds: Array<ChangeKind>, fromName: string | null, toName: string | null, fromPath: string | null, toPath: string | null, fieldChanges: Array<{ field: string, fromValue: string | null, toValue: string | null, fromItems: Array<string> | null, toItems: Array<string> | null }>, release: { id: string, number: number, loadedAt: string } | null }> } | null, node: { id: string, name: string, path: string, slugPath: string, ancestors: Array<{ id: string, name: string, slugPath: string }> }, treatmentsConnection: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, nodes: Array<{ id: string, strength: Strength, model: { id: string, slug: string, name: string, organization: string | null, releaseDate: string | null }, evidenceConnection: { totalCount: number, nodes: Array<{ id: string, strength: Strength, quote: string | null, locator: string | null, source: { id: string, name: string, url: string | null } | null }> } | null }> } | null } | null, latest: { nodes: Array<{ id: string, number: number, changes: { from: { id: string, number: number } } | null }> } | null };

export type BrowserMethodsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  filter?: MethodFilter | null | undefined;
  orderBy?: MethodOrder | null | undefined;
}>;


export type BrowserMethodsQuery = { methods: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, nodes: Array<{ id: string, slug: string, name: string, strongest: Strength | null, modelCount: number, node: { id: string, path: string, slugPath: string } }> } | null, roots: Array<{ id: string, name: string, slugPath: string, children: Array<{ id: string, name: string, slugPath: string }> }>, latest: { nodes: Array<{ id: string, number: number, changes: { from: { id: string, number: number } } | null }> } | null };

export type BrowserModelQueryVariables = Exact<{
  slug: string;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  evidencePerRow?: number | null | undefined;
  minStrength?: Strength | null | undefined;
  orderBy?: TreatmentsOfModelOrder | null | undefined;
}>;


export type BrowserModelQuery = { model: { id: string, name: string, organization: string | null, releaseDate: string | null, firstSeen: { id: string, number: number, loadedAt: string }, history: { totalCount: number, nodes: Array<{ kind: ChangeKind, kinds: Array<ChangeKind>, fromName: string | null, toName: string | null, fieldChanges: Array<{ field: string, fromValue: string | null, toValue: string | null, fromItems: Array<string> | null, toItems: Array<string> | null }>, release: { id: string, number: number, loadedAt: string } | null }> } | null, sourcesConnection: { totalCount: number, nodes: Array<{ id: string, name: string, kind: SourceKind, url: string | null, publishedOn: string | null }> } | null, branches: Array<{ id: string, strongest: Strength, methodCount: number, node: { id: string, name: string, slugPath: string } }> | null, treatments: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, nodes: Array<{ id: string, strength: Strength, method: { id: string, slug: string, name: string, node: { id: string, path: string, slugPath: string } }, evidenceConnection: { totalCount: number, nodes: Array<{ id: string, strength: Strength, quote: string | null, locator: string | null, source: { id: string, name: string } | null }> } | null }> } | null } | null, latest: { nodes: Array<{ id: string, number: number, changes: { from: { id: string, number: number } } | null }> } | null };

export type BrowserModelsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  filter?: ModelFilter | null | undefined;
  orderBy?: ModelOrder | null | undefined;
}>;


export type BrowserModelsQuery = { models: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, nodes: Array<{ id: string, slug: string, name: string, organization: string | null, releaseDate: string | null, branches: Array<{ id: string, methodCount: number }> | null }> } | null, organizations: Array<{ name: string, modelCount: number }> | null, latest: { nodes: Array<{ id: string, number: number, changes: { from: { id: string, number: number } } | null }> } | null };

export type BrowserNodeQueryVariables = Exact<{
  path: string;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  orderBy?: ModelTreatmentOrder | null | undefined;
  filter?: ModelFilter | null | undefined;
  methodsPerRow?: number | null | undefined;
  withOrganization?: boolean | null | undefined;
}>;


export type BrowserNodeQuery = { node: { id: string, name: string, description: string | null, level: number, path: string, slugPath: string, matchingAids: Array<string>, undatedModels: number | null, ancestors: Array<{ id: string, name: string, slugPath: string }>, counts: { methodsInBranch: number, methodsFiledHere: number, modelsInBranch: number, evidenceInBranch: number }, children: Array<{ id: string, name: string, slugPath: string, counts: { methodsInBranch: number, methodsFiledHere: number, modelsInBranch: number } }>, adoption: Array<{ period: string, start: string, end: string, models: number, cumulativeModels: number }> | null, firstSeen: { id: string, number: number, loadedAt: string }, history: { totalCount: number, nodes: Array<{ kind: ChangeKind, kinds: Array<ChangeKind>, fromName: string | null, toName: string | null, fromPath: string | null, toPath: string | null, fieldChanges: Array<{ field: string, fromValue: string | null, toValue: string | null, fromItems: Array<string> | null, toItems: Array<string> | null }>, release: { id: string, number: number, loadedAt: string } | null }> } | null, methods: { totalCount: number, nodes: Array<{ id: string, slug: string, name: string, strongest: Strength | null, modelCount: number }> } | null, byModel: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, nodes: Array<{ id: string, strongest: Strength, methodCount: number, model: { id: string, slug: string, name: string, releaseDate: string | null, organization?: string | null }, methodsConnection: { nodes: Array<{ id: string, strength: Strength, method: { id: string, slug: string, name: string } }> } | null }> } | null } | null, organizations: Array<{ name: string, modelCount: number }> | null, latest: { nodes: Array<{ id: string, number: number, changes: { from: { id: string, number: number } } | null }> } | null };

export type BrowserReleasesQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  filter?: ReleaseFilter | null | undefined;
  orderBy?: ReleaseOrder | null | undefined;
}>;


export type BrowserReleasesQuery = { releases: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, nodes: Array<{ id: string, number: number, loadedAt: string, note: string | null, changes: { isEmpty: boolean, from: { id: string, number: number }, summary: { total: number, nodes: { added: number, removed: number, moved: number, renamed: number, changed: number, strengthened: number, weakened: number, total: number }, methods: { added: number, removed: number, moved: number, renamed: number, changed: number, strengthened: number, weakened: number, total: number }, models: { added: number, removed: number, moved: number, renamed: number, changed: number, strengthened: number, weakened: number, total: number }, treatments: { added: number, removed: number, moved: number, renamed: number, changed: number, strengthened: number, weakened: number, total: number } } } | null }> } | null, latest: { nodes: Array<{ id: string, number: number, changes: { from: { id: string, number: number } } | null }> } | null };

export type BrowserSearchQueryVariables = Exact<{
  query: string;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  types?: Array<SearchType> | SearchType | null | undefined;
}>;


export type BrowserSearchQuery = { search: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, facets: Array<{ type: SearchType, count: number }>, edges: Array<{ snippet: { text: string, highlights: Array<{ start: number, end: number }> } }>, nodes: Array<
      | { __typename: 'Method', id: string, slug: string, name: string, node: { id: string, path: string } }
      | { __typename: 'Model', id: string, slug: string, name: string, organization: string | null }
      | { __typename: 'Node', id: string, name: string, path: string, slugPath: string }
      | { __typename: 'Source', id: string, name: string, model: { id: string, slug: string, name: string } }
    > } | null, latest: { nodes: Array<{ id: string, number: number, changes: { from: { id: string, number: number } } | null }> } | null };

export type MethodsPageQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  orderBy?: MethodOrder | null | undefined;
  filter?: MethodFilter | null | undefined;
}>;


export type MethodsPageQuery = { methods: { totalCount: number, nodes: Array<{ id: string, slug: string, name: string, strongest: Strength | null, modelCount: number, node: { id: string, path: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } | null };

export type ModelProfileQueryVariables = Exact<{
  slug: string;
  level?: number | null | undefined;
  minStrength?: Strength | null | undefined;
}>;


export type ModelProfileQuery = { model: { id: string, name: string, organization: string | null, releaseDate: string | null, branches: Array<{ id: string, strongest: Strength, methodCount: number, node: { id: string, path: string } }> | null, treatments: { totalCount: number, nodes: Array<{ id: string, strength: Strength, method: { id: string, name: string, node: { id: string, path: string } } }> } | null } | null };

export type NodePageQueryVariables = Exact<{
  path?: string | null | undefined;
  methodsPerRow?: number | null | undefined;
}>;


export type NodePageQuery = { node: { id: string, name: string, level: number, path: string, matchingAids: Array<string>, counts: { methodsInBranch: number, methodsFiledHere: number, modelsInBranch: number }, children: Array<{ id: string, name: string, counts: { methodsInBranch: number, methodsFiledHere: number } }>, byModel: { nodes: Array<{ id: string, strongest: Strength, methodCount: number, model: { id: string, name: string }, methodsConnection: { nodes: Array<{ id: string, strength: Strength, method: { id: string, name: string } }> } | null }> } | null } | null };

export type SearchQueryVariables = Exact<{
  query: string;
  first?: number | null | undefined;
}>;


export type SearchQuery = { search: { totalCount: number, nodes: Array<
      | { __typename: 'Method', id: string, slug: string, name: string }
      | { __typename: 'Model', id: string, slug: string, name: string }
      | { __typename: 'Node', id: string, slugPath: string, path: string }
      | { __typename: 'Source' }
    > } | null };

export type TreeQueryVariables = Exact<{ [key: string]: never; }>;


export type TreeQuery = { roots: Array<{ id: string, name: string, slugPath: string, counts: { methodsInBranch: number, modelsInBranch: number, childCount: number }, children: Array<{ id: string, name: string, slugPath: string, counts: { methodsInBranch: number, childCount: number }, children: Array<{ id: string, name: string, slugPath: string, counts: { methodsInBranch: number, childCount: number } }> }> }> };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const BrowserChangesFieldChangeFragmentDoc = new TypedDocumentString(`
    fragment BrowserChangesFieldChange on FieldChange {
  field
  fromValue
  toValue
  fromItems
  toItems
}
    `, {"fragmentName":"BrowserChangesFieldChange"}) as unknown as TypedDocumentString<BrowserChangesFieldChangeFragment, unknown>;
export const BrowserChangesDocument = new TypedDocumentString(`
    query BrowserChanges($since: Int!, $until: Int, $nodesFirst: Int, $nodesAfter: String, $nodesLast: Int, $nodesBefore: String, $methodsFirst: Int, $methodsAfter: String, $methodsLast: Int, $methodsBefore: String, $modelsFirst: Int, $modelsAfter: String, $modelsLast: Int, $modelsBefore: String, $treatmentsFirst: Int, $treatmentsAfter: String, $treatmentsLast: Int, $treatmentsBefore: String, $kinds: [ChangeKind!], $knockOn: Int = 3, $withNodes: Boolean = true, $withMethods: Boolean = true, $withModels: Boolean = true, $withTreatments: Boolean = true) {
  changes(since: $since, until: $until) {
    isEmpty
    from {
      id
      number
      loadedAt
    }
    to {
      id
      number
      loadedAt
    }
    nodes(
      first: $nodesFirst
      after: $nodesAfter
      last: $nodesLast
      before: $nodesBefore
      kinds: $kinds
      combined: true
      orderBy: KIND
    ) @include(if: $withNodes) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      nodes {
        kind
        kinds
        slug
        name
        fromPath
        toPath
        fromName
        toName
        fieldChanges {
          ...BrowserChangesFieldChange
        }
        node {
          id
          slugPath
        }
        knockOn {
          nodes(first: $knockOn) {
            totalCount
            nodes {
              slug
              name
            }
          }
          methods(first: $knockOn) {
            totalCount
            nodes {
              slug
              name
            }
          }
        }
      }
    }
    methods(
      first: $methodsFirst
      after: $methodsAfter
      last: $methodsLast
      before: $methodsBefore
      kinds: $kinds
      combined: true
      orderBy: KIND
    ) @include(if: $withMethods) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      nodes {
        kind
        kinds
        slug
        name
        fromPath
        toPath
        fromName
        toName
        fieldChanges {
          ...BrowserChangesFieldChange
        }
        method {
          id
          slug
        }
        knockOn {
          treatmentCount
        }
      }
    }
    models(
      first: $modelsFirst
      after: $modelsAfter
      last: $modelsLast
      before: $modelsBefore
      kinds: $kinds
      combined: true
      orderBy: KIND
    ) @include(if: $withModels) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      nodes {
        kind
        kinds
        slug
        name
        fromName
        toName
        fieldChanges {
          ...BrowserChangesFieldChange
        }
        model {
          id
          slug
        }
        knockOn {
          treatmentCount
        }
      }
    }
    treatments(
      first: $treatmentsFirst
      after: $treatmentsAfter
      last: $treatmentsLast
      before: $treatmentsBefore
      kinds: $kinds
      combined: true
      orderBy: KIND
    ) @include(if: $withTreatments) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      nodes {
        kind
        modelSlug
        methodSlug
        modelName
        methodName
        fromStrength
        toStrength
        fieldChanges {
          ...BrowserChangesFieldChange
        }
        model {
          id
          slug
        }
        method {
          id
          slug
        }
      }
    }
  }
  latest: releases(first: 1) {
    nodes {
      id
      number
      changes {
        from {
          id
          number
        }
      }
    }
  }
}
    fragment BrowserChangesFieldChange on FieldChange {
  field
  fromValue
  toValue
  fromItems
  toItems
}`) as unknown as TypedDocumentString<BrowserChangesQuery, BrowserChangesQueryVariables>;
export const BrowserFormerDocument = new TypedDocumentString(`
    query BrowserFormer($path: String = "", $slug: String = "", $node: Boolean = false, $method: Boolean = false, $model: Boolean = false) {
  formerNode(path: $path) @include(if: $node) {
    name
    path
    kind
    changedIn {
      id
      number
      loadedAt
    }
    node {
      id
      slugPath
    }
  }
  formerMethod(slug: $slug) @include(if: $method) {
    name
    path
    removedIn {
      id
      number
      loadedAt
    }
  }
  formerModel(slug: $slug) @include(if: $model) {
    name
    removedIn {
      id
      number
      loadedAt
    }
  }
}
    `) as unknown as TypedDocumentString<BrowserFormerQuery, BrowserFormerQueryVariables>;
export const BrowserHomeDocument = new TypedDocumentString(`
    query BrowserHome {
  taxonomy {
    nodeCount
    methodCount
    modelCount
    sourceCount
    evidenceCount
    loadedAt
  }
  releases(first: 1) {
    nodes {
      id
      number
      loadedAt
      note
      changes {
        isEmpty
        from {
          id
          number
        }
        summary {
          total
          nodes {
            added
            removed
            moved
            renamed
            changed
            strengthened
            weakened
            total
          }
          methods {
            added
            removed
            moved
            renamed
            changed
            strengthened
            weakened
            total
          }
          models {
            added
            removed
            moved
            renamed
            changed
            strengthened
            weakened
            total
          }
          treatments {
            added
            removed
            moved
            renamed
            changed
            strengthened
            weakened
            total
          }
        }
      }
    }
  }
  roots {
    id
    name
    slugPath
    description
    counts {
      methodsInBranch
      modelsInBranch
      childCount
    }
    children {
      id
      name
      slugPath
      counts {
        methodsInBranch
      }
    }
  }
}
    `) as unknown as TypedDocumentString<BrowserHomeQuery, BrowserHomeQueryVariables>;
export const BrowserMethodDocument = new TypedDocumentString(`
    query BrowserMethod($slug: String!, $first: Int = 25, $after: String, $last: Int, $before: String, $evidencePerRow: Int = 3, $minStrength: Strength, $orderBy: TreatmentsOfMethodOrder) {
  method(slug: $slug) {
    id
    name
    description
    aliases
    strongest
    modelCount
    adoption {
      period
      start
      end
      models
      cumulativeModels
    }
    undatedModels
    firstSeen {
      id
      number
      loadedAt
    }
    history(last: 10) {
      totalCount
      nodes {
        kind
        kinds
        fromName
        toName
        fromPath
        toPath
        fieldChanges {
          field
          fromValue
          toValue
          fromItems
          toItems
        }
        release {
          id
          number
          loadedAt
        }
      }
    }
    node {
      id
      name
      path
      slugPath
      ancestors {
        id
        name
        slugPath
      }
    }
    treatmentsConnection(
      first: $first
      after: $after
      last: $last
      before: $before
      minStrength: $minStrength
      orderBy: $orderBy
    ) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      nodes {
        id
        strength
        model {
          id
          slug
          name
          organization
          releaseDate
        }
        evidenceConnection(first: $evidencePerRow) {
          totalCount
          nodes {
            id
            strength
            quote
            locator
            source {
              id
              name
              url
            }
          }
        }
      }
    }
  }
  latest: releases(first: 1) {
    nodes {
      id
      number
      changes {
        from {
          id
          number
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<BrowserMethodQuery, BrowserMethodQueryVariables>;
export const BrowserMethodsDocument = new TypedDocumentString(`
    query BrowserMethods($first: Int = 25, $after: String, $last: Int, $before: String, $filter: MethodFilter, $orderBy: MethodOrder) {
  methods(
    first: $first
    after: $after
    last: $last
    before: $before
    filter: $filter
    orderBy: $orderBy
  ) {
    totalCount
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    nodes {
      id
      slug
      name
      strongest
      modelCount
      node {
        id
        path
        slugPath
      }
    }
  }
  roots {
    id
    name
    slugPath
    children {
      id
      name
      slugPath
    }
  }
  latest: releases(first: 1) {
    nodes {
      id
      number
      changes {
        from {
          id
          number
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<BrowserMethodsQuery, BrowserMethodsQueryVariables>;
export const BrowserModelDocument = new TypedDocumentString(`
    query BrowserModel($slug: String!, $first: Int = 25, $after: String, $last: Int, $before: String, $evidencePerRow: Int = 3, $minStrength: Strength, $orderBy: TreatmentsOfModelOrder) {
  model(slug: $slug) {
    id
    name
    organization
    releaseDate
    firstSeen {
      id
      number
      loadedAt
    }
    history(last: 10) {
      totalCount
      nodes {
        kind
        kinds
        fromName
        toName
        fieldChanges {
          field
          fromValue
          toValue
          fromItems
          toItems
        }
        release {
          id
          number
          loadedAt
        }
      }
    }
    sourcesConnection(first: 100) {
      totalCount
      nodes {
        id
        name
        kind
        url
        publishedOn
      }
    }
    branches(level: 1) {
      id
      node {
        id
        name
        slugPath
      }
      strongest
      methodCount
    }
    treatments(
      first: $first
      after: $after
      last: $last
      before: $before
      minStrength: $minStrength
      orderBy: $orderBy
    ) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      nodes {
        id
        strength
        method {
          id
          slug
          name
          node {
            id
            path
            slugPath
          }
        }
        evidenceConnection(first: $evidencePerRow) {
          totalCount
          nodes {
            id
            strength
            quote
            locator
            source {
              id
              name
            }
          }
        }
      }
    }
  }
  latest: releases(first: 1) {
    nodes {
      id
      number
      changes {
        from {
          id
          number
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<BrowserModelQuery, BrowserModelQueryVariables>;
export const BrowserModelsDocument = new TypedDocumentString(`
    query BrowserModels($first: Int = 25, $after: String, $last: Int, $before: String, $filter: ModelFilter, $orderBy: ModelOrder) {
  models(
    first: $first
    after: $after
    last: $last
    before: $before
    filter: $filter
    orderBy: $orderBy
  ) {
    totalCount
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    nodes {
      id
      slug
      name
      organization
      releaseDate
      branches(level: 1) {
        id
        methodCount
      }
    }
  }
  organizations {
    name
    modelCount
  }
  latest: releases(first: 1) {
    nodes {
      id
      number
      changes {
        from {
          id
          number
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<BrowserModelsQuery, BrowserModelsQueryVariables>;
export const BrowserNodeDocument = new TypedDocumentString(`
    query BrowserNode($path: String!, $first: Int = 25, $after: String, $last: Int, $before: String, $orderBy: ModelTreatmentOrder, $filter: ModelFilter, $methodsPerRow: Int = 12, $withOrganization: Boolean = false) {
  node(path: $path) {
    id
    name
    description
    level
    path
    slugPath
    matchingAids
    ancestors {
      id
      name
      slugPath
    }
    counts {
      methodsInBranch
      methodsFiledHere
      modelsInBranch
      evidenceInBranch
    }
    children {
      id
      name
      slugPath
      counts {
        methodsInBranch
        methodsFiledHere
        modelsInBranch
      }
    }
    adoption {
      period
      start
      end
      models
      cumulativeModels
    }
    undatedModels
    firstSeen {
      id
      number
      loadedAt
    }
    history(last: 10) {
      totalCount
      nodes {
        kind
        kinds
        fromName
        toName
        fromPath
        toPath
        fieldChanges {
          field
          fromValue
          toValue
          fromItems
          toItems
        }
        release {
          id
          number
          loadedAt
        }
      }
    }
    methods(scope: HERE, first: 25) {
      totalCount
      nodes {
        id
        slug
        name
        strongest
        modelCount
      }
    }
    byModel(
      first: $first
      after: $after
      last: $last
      before: $before
      orderBy: $orderBy
      filter: $filter
    ) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      nodes {
        id
        model {
          id
          slug
          name
          releaseDate
          organization @include(if: $withOrganization)
        }
        strongest
        methodCount
        methodsConnection(first: $methodsPerRow) {
          nodes {
            id
            method {
              id
              slug
              name
            }
            strength
          }
        }
      }
    }
  }
  organizations(branch: {path: $path}) {
    name
    modelCount
  }
  latest: releases(first: 1) {
    nodes {
      id
      number
      changes {
        from {
          id
          number
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<BrowserNodeQuery, BrowserNodeQueryVariables>;
export const BrowserReleasesDocument = new TypedDocumentString(`
    query BrowserReleases($first: Int = 25, $after: String, $last: Int, $before: String, $filter: ReleaseFilter, $orderBy: ReleaseOrder) {
  releases(
    first: $first
    after: $after
    last: $last
    before: $before
    filter: $filter
    orderBy: $orderBy
  ) {
    totalCount
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    nodes {
      id
      number
      loadedAt
      note
      changes {
        isEmpty
        from {
          id
          number
        }
        summary {
          total
          nodes {
            added
            removed
            moved
            renamed
            changed
            strengthened
            weakened
            total
          }
          methods {
            added
            removed
            moved
            renamed
            changed
            strengthened
            weakened
            total
          }
          models {
            added
            removed
            moved
            renamed
            changed
            strengthened
            weakened
            total
          }
          treatments {
            added
            removed
            moved
            renamed
            changed
            strengthened
            weakened
            total
          }
        }
      }
    }
  }
  latest: releases(first: 1) {
    nodes {
      id
      number
      changes {
        from {
          id
          number
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<BrowserReleasesQuery, BrowserReleasesQueryVariables>;
export const BrowserSearchDocument = new TypedDocumentString(`
    query BrowserSearch($query: String!, $first: Int = 20, $after: String, $last: Int, $before: String, $types: [SearchType!]) {
  search(
    query: $query
    first: $first
    after: $after
    last: $last
    before: $before
    types: $types
  ) {
    totalCount
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    facets {
      type
      count
    }
    edges {
      snippet {
        text
        highlights {
          start
          end
        }
      }
    }
    nodes {
      __typename
      ... on Node {
        id
        name
        path
        slugPath
      }
      ... on Method {
        id
        slug
        name
        node {
          id
          path
        }
      }
      ... on Model {
        id
        slug
        name
        organization
      }
      ... on Source {
        id
        name
        model {
          id
          slug
          name
        }
      }
    }
  }
  latest: releases(first: 1) {
    nodes {
      id
      number
      changes {
        from {
          id
          number
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<BrowserSearchQuery, BrowserSearchQueryVariables>;
export const MethodsPageDocument = new TypedDocumentString(`
    query MethodsPage($first: Int = 20, $after: String, $orderBy: MethodOrder = {field: MODEL_COUNT, direction: DESC}, $filter: MethodFilter) {
  methods(first: $first, after: $after, orderBy: $orderBy, filter: $filter) {
    totalCount
    nodes {
      id
      slug
      name
      strongest
      modelCount
      node {
        id
        path
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<MethodsPageQuery, MethodsPageQueryVariables>;
export const ModelProfileDocument = new TypedDocumentString(`
    query ModelProfile($slug: String!, $level: Int = 1, $minStrength: Strength = CORE) {
  model(slug: $slug) {
    id
    name
    organization
    releaseDate
    branches(level: $level) {
      id
      node {
        id
        path
      }
      strongest
      methodCount
    }
    treatments(minStrength: $minStrength, first: 100) {
      totalCount
      nodes {
        id
        method {
          id
          name
          node {
            id
            path
          }
        }
        strength
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ModelProfileQuery, ModelProfileQueryVariables>;
export const NodePageDocument = new TypedDocumentString(`
    query NodePage($path: String = "optimization/training-parallelism", $methodsPerRow: Int = 20) {
  node(path: $path) {
    id
    name
    level
    path
    matchingAids
    counts {
      methodsInBranch
      methodsFiledHere
      modelsInBranch
    }
    children {
      id
      name
      counts {
        methodsInBranch
        methodsFiledHere
      }
    }
    byModel(first: 100) {
      nodes {
        id
        model {
          id
          name
        }
        strongest
        methodCount
        methodsConnection(first: $methodsPerRow) {
          nodes {
            id
            method {
              id
              name
            }
            strength
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<NodePageQuery, NodePageQueryVariables>;
export const SearchDocument = new TypedDocumentString(`
    query Search($query: String!, $first: Int = 10) {
  search(query: $query, first: $first) {
    totalCount
    nodes {
      __typename
      ... on Node {
        id
        slugPath
        path
      }
      ... on Method {
        id
        slug
        name
      }
      ... on Model {
        id
        slug
        name
      }
    }
  }
}
    `) as unknown as TypedDocumentString<SearchQuery, SearchQueryVariables>;
export const TreeDocument = new TypedDocumentString(`
    query Tree {
  roots {
    id
    name
    slugPath
    counts {
      methodsInBranch
      modelsInBranch
      childCount
    }
    children {
      id
      name
      slugPath
      counts {
        methodsInBranch
        childCount
      }
      children {
        id
        name
        slugPath
        counts {
          methodsInBranch
          childCount
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<TreeQuery, TreeQueryVariables>;