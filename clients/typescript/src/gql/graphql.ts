/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
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
  /** Ascending or descending. */
  direction?: OrderDirection;
  /** What to order by. */
  field: MethodOrderField;
};

/** Fields that methods can be ordered by. */
export type MethodOrderField =
  /** By the number of models that treat the method. */
  | 'MODEL_COUNT'
  /** By name, case-insensitively. */
  | 'NAME'
  /** By strongest treatment over all models (DESC: CORE first, untreated last). */
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

/** The direction of an ordering. */
export type OrderDirection =
  /** Ascending: smallest, oldest or A first. */
  | 'ASC'
  /** Descending: largest, newest or Z first. */
  | 'DESC';

/** How strongly a model's own documents treat a method. */
export type Strength =
  /** One of the model's own central contributions. */
  | 'CORE'
  /** Named without saying that the model uses it. */
  | 'MENTIONED'
  /** The documents say the model uses it. */
  | 'USED';

export type MethodsPageQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  orderBy?: MethodOrder | null | undefined;
  filter?: MethodFilter | null | undefined;
}>;


export type MethodsPageQuery = { methods: { totalCount: number, nodes: Array<{ id: string, slug: string, name: string, strongest: Strength | null, modelCount: number, node: { id: string, path: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ModelProfileQueryVariables = Exact<{
  slug: string;
  level?: number | null | undefined;
  minStrength?: Strength | null | undefined;
}>;


export type ModelProfileQuery = { model: { id: string, name: string, organization: string | null, releaseDate: string | null, branches: Array<{ id: string, strongest: Strength, methodCount: number, node: { id: string, path: string } }> | null, treatments: { totalCount: number, nodes: Array<{ id: string, strength: Strength, method: { id: string, name: string, node: { id: string, path: string } } }> } } | null };

export type NodePageQueryVariables = Exact<{
  path?: string | null | undefined;
}>;


export type NodePageQuery = { node: { id: string, name: string, level: number, path: string, matchingAids: Array<string>, counts: { methodsInBranch: number, methodsFiledHere: number, modelsInBranch: number }, children: Array<{ id: string, name: string, counts: { methodsInBranch: number, methodsFiledHere: number } }>, byModel: { nodes: Array<{ id: string, strongest: Strength, methodCount: number, model: { id: string, name: string }, methods: Array<{ id: string, strength: Strength, method: { id: string, name: string } }> }> } } | null };

export type SearchQueryVariables = Exact<{
  query: string;
  first?: number | null | undefined;
}>;


export type SearchQuery = { search: { totalCount: number, nodes: Array<
      | { __typename: 'Method', id: string, slug: string, name: string }
      | { __typename: 'Model', id: string, slug: string, name: string }
      | { __typename: 'Node', id: string, slugPath: string, path: string }
    > } };

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
    query NodePage($path: String = "optimization/training-parallelism") {
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
        methods {
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