/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** Narrows a list of methods; every given condition must hold. */
export type MethodFilter = {
  /** true: only methods some model treats; false: only methods none treats. */
  hasEvidence?: boolean | null | undefined;
  /** Only methods whose strongest treatment is at least this strong. */
  minStrength?: Strength | null | undefined;
  /** Only methods whose name contains this text (any case). */
  nameContains?: string | null | undefined;
  /** Only methods in the branch of this node (a Node ID). */
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


export type MethodsPageQuery = { methods: { totalCount: number, nodes: Array<{ slug: string, name: string, strongest: Strength | null, modelCount: number, node: { path: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ModelProfileQueryVariables = Exact<{
  slug: string;
  level?: number;
  minStrength?: Strength | null | undefined;
}>;


export type ModelProfileQuery = { model: { name: string, organization: string | null, releaseDate: string | null, branches: Array<{ strongest: Strength, methodCount: number, node: { path: string } }>, treatments: { totalCount: number, nodes: Array<{ strength: Strength, method: { name: string, node: { path: string } } }> } } | null };

export type NodePageQueryVariables = Exact<{
  path?: string | null | undefined;
}>;


export type NodePageQuery = { node: { name: string, level: number, path: string, matchingAids: Array<string>, counts: { methodsInBranch: number, methodsFiledHere: number, modelsInBranch: number }, children: Array<{ name: string, counts: { methodsInBranch: number, methodsFiledHere: number } }>, byModel: { nodes: Array<{ strongest: Strength, methodCount: number, model: { name: string }, methods: Array<{ strength: Strength, method: { name: string } }> }> } } | null };

export type SearchQueryVariables = Exact<{
  query: string;
  first?: number | null | undefined;
}>;


export type SearchQuery = { search: { totalCount: number, nodes: Array<
      | { __typename: 'Method', slug: string, name: string }
      | { __typename: 'Model', slug: string, name: string }
      | { __typename: 'Node', slugPath: string, path: string }
      | { __typename: 'Source' }
    > } };

export type TreeQueryVariables = Exact<{ [key: string]: never; }>;


export type TreeQuery = { roots: Array<{ name: string, slugPath: string, counts: { methodsInBranch: number, modelsInBranch: number, childCount: number }, children: Array<{ name: string, slugPath: string, counts: { methodsInBranch: number, childCount: number }, children: Array<{ name: string, slugPath: string, counts: { methodsInBranch: number, childCount: number } }> }> }> };

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
      slug
      name
      strongest
      modelCount
      node {
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
    query ModelProfile($slug: String!, $level: Int! = 1, $minStrength: Strength = CORE) {
  model(slug: $slug) {
    name
    organization
    releaseDate
    branches(level: $level) {
      node {
        path
      }
      strongest
      methodCount
    }
    treatments(minStrength: $minStrength, first: 100) {
      totalCount
      nodes {
        method {
          name
          node {
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
      name
      counts {
        methodsInBranch
        methodsFiledHere
      }
    }
    byModel(first: 100) {
      nodes {
        model {
          name
        }
        strongest
        methodCount
        methods {
          method {
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
        slugPath
        path
      }
      ... on Method {
        slug
        name
      }
      ... on Model {
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
    name
    slugPath
    counts {
      methodsInBranch
      modelsInBranch
      childCount
    }
    children {
      name
      slugPath
      counts {
        methodsInBranch
        childCount
      }
      children {
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