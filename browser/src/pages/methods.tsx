// `/methods`: every method, a page at a time (the shared Pager), ordered by name, strongest
// treatment or how many models treat it (?sort=name|strongest|models&dir=asc|desc) and
// filtered by name, branch and strength (?q=, ?branch=<slug path>, ?strength=), all in the URL.
import {
  BrowserMethodsDocument,
  type BrowserMethodsQuery,
  type MethodOrderField,
} from "../../../clients/typescript/src/gql/graphql";
import { answered } from "../api";
import {
  type Column,
  Field,
  FilterForm,
  IndexList,
  IndexProblem,
  indexState,
  orderBy,
  SortHeader,
  StrengthField,
  STRENGTHS,
} from "../index-table";
import { answeredSoFar, useQuery } from "../query";
import { href, pageArguments, type Place } from "../router";
import { useLatestRelease } from "../site-nav";
import { Badge, Heading, Loading, thousands, useTitle } from "../ui";

const COLUMNS: readonly Column<MethodOrderField>[] = [
  { key: "name", label: "Method", field: "NAME", natural: "asc" },
  { key: "strongest", label: "Strongest", field: "STRONGEST", natural: "desc" },
  { key: "models", label: "Model count", field: "MODEL_COUNT", natural: "desc" },
];
const FILTERS = ["q", "branch", "strength"] as const;

type Root = BrowserMethodsQuery["roots"][number];

/** The branch filter's choices: each root, then its children, as optgroups; a branch from
 * the URL that is deeper than those stays a choice too. */
function BranchChoices({ roots, chosen }: { roots: readonly Root[]; chosen: string | undefined }) {
  const known = roots.some((root) => root.slugPath === chosen || root.children.some((child) => child.slugPath === chosen));
  return (
    <select name="branch">
      <option value="">every branch</option>
      {chosen && !known ? (
        <option value={chosen} selected>
          {chosen}
        </option>
      ) : null}
      {roots.map((root) => (
        <optgroup key={root.id} label={root.name}>
          <option value={root.slugPath} selected={root.slugPath === chosen}>
            {root.name} (all)
          </option>
          {root.children.map((child) => (
            <option key={child.id} value={child.slugPath} selected={child.slugPath === chosen}>
              {child.name}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}

export function MethodsPage({ place, query }: { place: Place; query: URLSearchParams }) {
  const state = indexState("/methods", COLUMNS, FILTERS, query, place);
  const { q, branch, strength } = state.filters;
  const minimum = STRENGTHS.find((choice) => choice.value === strength);
  const filter = {
    nameContains: q ?? null,
    branch: branch ? { path: branch } : null,
    minStrength: minimum?.strength ?? null,
  };
  const loaded = useQuery(BrowserMethodsDocument, { ...pageArguments(place), filter, orderBy: orderBy(state) });
  useTitle("Methods");
  useLatestRelease(answeredSoFar(loaded)?.latest);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") return <IndexProblem state={state} error={loaded} />;
  const methods = answered(loaded.data.methods, "methods");
  return (
    <>
      <Heading>Methods</Heading>
      <p class="lead">
        Every method of the taxonomy, with where it is filed, the strongest treatment any model's documents give
        it and how many models treat it.
      </p>
      <FilterForm state={state} label="Filter the methods">
        <Field label="Name contains">
          <input type="search" name="q" defaultValue={q ?? ""} />
        </Field>
        <Field label="Branch">
          <BranchChoices roots={loaded.data.roots} chosen={branch} />
        </Field>
        <StrengthField label="Strongest treatment" none="any, or none" chosen={minimum} />
      </FilterForm>
      <IndexList state={state} list={methods} at={place} noun={["method", "methods"]}>
        <table class="index">
          <thead>
            <tr>
              <SortHeader state={state} column={COLUMNS[0]} />
              <th scope="col">Filed at</th>
              <SortHeader state={state} column={COLUMNS[1]} />
              <SortHeader state={state} column={COLUMNS[2]} numeric />
            </tr>
          </thead>
          <tbody>
            {methods.nodes.map((method) => (
              <tr key={method.id}>
                <th scope="row">
                  <a href={href.method(method.slug)}>{method.name}</a>
                </th>
                <td>
                  <div class="filed-at">
                    <a class="path" href={href.node(method.node.slugPath)} dir="ltr" title={method.node.path}>
                      {method.node.path}
                    </a>
                  </div>
                </td>
                <td>{method.strongest ? <Badge strength={method.strongest} /> : <span class="count">none</span>}</td>
                <td class="number">{thousands(method.modelCount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </IndexList>
    </>
  );
}
