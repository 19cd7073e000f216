/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query MethodsPage($first: Int = 20, $after: String, $orderBy: MethodOrder = {field: MODEL_COUNT, direction: DESC}, $filter: MethodFilter) {\n  methods(first: $first, after: $after, orderBy: $orderBy, filter: $filter) {\n    totalCount\n    nodes {\n      id\n      slug\n      name\n      strongest\n      modelCount\n      node {\n        id\n        path\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": typeof types.MethodsPageDocument,
    "query ModelProfile($slug: String!, $level: Int = 1, $minStrength: Strength = CORE) {\n  model(slug: $slug) {\n    id\n    name\n    organization\n    releaseDate\n    branches(level: $level) {\n      id\n      node {\n        id\n        path\n      }\n      strongest\n      methodCount\n    }\n    treatments(minStrength: $minStrength, first: 100) {\n      totalCount\n      nodes {\n        id\n        method {\n          id\n          name\n          node {\n            id\n            path\n          }\n        }\n        strength\n      }\n    }\n  }\n}": typeof types.ModelProfileDocument,
    "query NodePage($path: String = \"optimization/training-parallelism\") {\n  node(path: $path) {\n    id\n    name\n    level\n    path\n    matchingAids\n    counts {\n      methodsInBranch\n      methodsFiledHere\n      modelsInBranch\n    }\n    children {\n      id\n      name\n      counts {\n        methodsInBranch\n        methodsFiledHere\n      }\n    }\n    byModel(first: 100) {\n      nodes {\n        id\n        model {\n          id\n          name\n        }\n        strongest\n        methodCount\n        methods {\n          id\n          method {\n            id\n            name\n          }\n          strength\n        }\n      }\n    }\n  }\n}": typeof types.NodePageDocument,
    "query Search($query: String!, $first: Int = 10) {\n  search(query: $query, first: $first) {\n    totalCount\n    nodes {\n      __typename\n      ... on Node {\n        id\n        slugPath\n        path\n      }\n      ... on Method {\n        id\n        slug\n        name\n      }\n      ... on Model {\n        id\n        slug\n        name\n      }\n    }\n  }\n}": typeof types.SearchDocument,
    "query Tree {\n  roots {\n    id\n    name\n    slugPath\n    counts {\n      methodsInBranch\n      modelsInBranch\n      childCount\n    }\n    children {\n      id\n      name\n      slugPath\n      counts {\n        methodsInBranch\n        childCount\n      }\n      children {\n        id\n        name\n        slugPath\n        counts {\n          methodsInBranch\n          childCount\n        }\n      }\n    }\n  }\n}": typeof types.TreeDocument,
};
const documents: Documents = {
    "query MethodsPage($first: Int = 20, $after: String, $orderBy: MethodOrder = {field: MODEL_COUNT, direction: DESC}, $filter: MethodFilter) {\n  methods(first: $first, after: $after, orderBy: $orderBy, filter: $filter) {\n    totalCount\n    nodes {\n      id\n      slug\n      name\n      strongest\n      modelCount\n      node {\n        id\n        path\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": types.MethodsPageDocument,
    "query ModelProfile($slug: String!, $level: Int = 1, $minStrength: Strength = CORE) {\n  model(slug: $slug) {\n    id\n    name\n    organization\n    releaseDate\n    branches(level: $level) {\n      id\n      node {\n        id\n        path\n      }\n      strongest\n      methodCount\n    }\n    treatments(minStrength: $minStrength, first: 100) {\n      totalCount\n      nodes {\n        id\n        method {\n          id\n          name\n          node {\n            id\n            path\n          }\n        }\n        strength\n      }\n    }\n  }\n}": types.ModelProfileDocument,
    "query NodePage($path: String = \"optimization/training-parallelism\") {\n  node(path: $path) {\n    id\n    name\n    level\n    path\n    matchingAids\n    counts {\n      methodsInBranch\n      methodsFiledHere\n      modelsInBranch\n    }\n    children {\n      id\n      name\n      counts {\n        methodsInBranch\n        methodsFiledHere\n      }\n    }\n    byModel(first: 100) {\n      nodes {\n        id\n        model {\n          id\n          name\n        }\n        strongest\n        methodCount\n        methods {\n          id\n          method {\n            id\n            name\n          }\n          strength\n        }\n      }\n    }\n  }\n}": types.NodePageDocument,
    "query Search($query: String!, $first: Int = 10) {\n  search(query: $query, first: $first) {\n    totalCount\n    nodes {\n      __typename\n      ... on Node {\n        id\n        slugPath\n        path\n      }\n      ... on Method {\n        id\n        slug\n        name\n      }\n      ... on Model {\n        id\n        slug\n        name\n      }\n    }\n  }\n}": types.SearchDocument,
    "query Tree {\n  roots {\n    id\n    name\n    slugPath\n    counts {\n      methodsInBranch\n      modelsInBranch\n      childCount\n    }\n    children {\n      id\n      name\n      slugPath\n      counts {\n        methodsInBranch\n        childCount\n      }\n      children {\n        id\n        name\n        slugPath\n        counts {\n          methodsInBranch\n          childCount\n        }\n      }\n    }\n  }\n}": types.TreeDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MethodsPage($first: Int = 20, $after: String, $orderBy: MethodOrder = {field: MODEL_COUNT, direction: DESC}, $filter: MethodFilter) {\n  methods(first: $first, after: $after, orderBy: $orderBy, filter: $filter) {\n    totalCount\n    nodes {\n      id\n      slug\n      name\n      strongest\n      modelCount\n      node {\n        id\n        path\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}"): typeof import('./graphql').MethodsPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ModelProfile($slug: String!, $level: Int = 1, $minStrength: Strength = CORE) {\n  model(slug: $slug) {\n    id\n    name\n    organization\n    releaseDate\n    branches(level: $level) {\n      id\n      node {\n        id\n        path\n      }\n      strongest\n      methodCount\n    }\n    treatments(minStrength: $minStrength, first: 100) {\n      totalCount\n      nodes {\n        id\n        method {\n          id\n          name\n          node {\n            id\n            path\n          }\n        }\n        strength\n      }\n    }\n  }\n}"): typeof import('./graphql').ModelProfileDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query NodePage($path: String = \"optimization/training-parallelism\") {\n  node(path: $path) {\n    id\n    name\n    level\n    path\n    matchingAids\n    counts {\n      methodsInBranch\n      methodsFiledHere\n      modelsInBranch\n    }\n    children {\n      id\n      name\n      counts {\n        methodsInBranch\n        methodsFiledHere\n      }\n    }\n    byModel(first: 100) {\n      nodes {\n        id\n        model {\n          id\n          name\n        }\n        strongest\n        methodCount\n        methods {\n          id\n          method {\n            id\n            name\n          }\n          strength\n        }\n      }\n    }\n  }\n}"): typeof import('./graphql').NodePageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Search($query: String!, $first: Int = 10) {\n  search(query: $query, first: $first) {\n    totalCount\n    nodes {\n      __typename\n      ... on Node {\n        id\n        slugPath\n        path\n      }\n      ... on Method {\n        id\n        slug\n        name\n      }\n      ... on Model {\n        id\n        slug\n        name\n      }\n    }\n  }\n}"): typeof import('./graphql').SearchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Tree {\n  roots {\n    id\n    name\n    slugPath\n    counts {\n      methodsInBranch\n      modelsInBranch\n      childCount\n    }\n    children {\n      id\n      name\n      slugPath\n      counts {\n        methodsInBranch\n        childCount\n      }\n      children {\n        id\n        name\n        slugPath\n        counts {\n          methodsInBranch\n          childCount\n        }\n      }\n    }\n  }\n}"): typeof import('./graphql').TreeDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
