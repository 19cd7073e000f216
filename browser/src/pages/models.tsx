// `/models`: every model, a page at a time (the shared Pager), ordered by name or release date
// (?sort=name|release&dir=asc|desc) and filtered by name, organization and release dates
// (?q=, ?org=, ?released-from=, ?released-to=), all in the URL.
import { BrowserModelsDocument, type ModelOrderField } from "../../../clients/typescript/src/gql/graphql";
import { answered } from "../api";
import {
  type Column,
  day,
  Field,
  FilterForm,
  IndexList,
  IndexProblem,
  indexState,
  orderBy,
  SortHeader,
} from "../index-table";
import { answeredSoFar, useQuery } from "../query";
import { href, pageArguments, type Place } from "../router";
import { useLatestRelease } from "../site-nav";
import { Heading, Loading, ModelFactCells, thousands, useTitle } from "../ui";

const COLUMNS: readonly Column<ModelOrderField>[] = [
  { key: "name", label: "Model", field: "NAME", natural: "asc" },
  { key: "release", label: "Released", field: "RELEASE_DATE", natural: "desc" },
];
const FILTERS = ["q", "org", "released-from", "released-to"] as const;

export function ModelsPage({ place, query }: { place: Place; query: URLSearchParams }) {
  const state = indexState("/models", COLUMNS, FILTERS, query, place);
  const { q, org } = state.filters;
  const from = state.filters["released-from"];
  const to = state.filters["released-to"];
  const filter = {
    nameContains: q ?? null,
    organization: org ?? null,
    // A date that is no day is left out (the API would refuse it): the form shows what is applied.
    releasedAfter: day(from),
    releasedBefore: day(to),
  };
  const loaded = useQuery(BrowserModelsDocument, { ...pageArguments(place), filter, orderBy: orderBy(state) });
  useTitle("Models");
  useLatestRelease(answeredSoFar(loaded)?.latest);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") return <IndexProblem state={state} error={loaded} />;
  const models = answered(loaded.data.models, "models");
  const organizations = answered(loaded.data.organizations, "organizations");
  const choices = organizations.map((organization) => organization.name);
  if (org && !choices.some((name) => name.toLowerCase() === org.toLowerCase())) choices.unshift(org);
  return (
    <>
      <Heading>Models</Heading>
      <p class="lead">
        Every model whose documents the taxonomy reads, with its organization, its release date and how many of
        the taxonomy's methods its documents describe.
      </p>
      <FilterForm state={state} label="Filter the models">
        <Field label="Name contains">
          <input type="search" name="q" defaultValue={q ?? ""} />
        </Field>
        <Field label="Organization">
          <select name="org">
            <option value="">any</option>
            {choices.map((name) => (
              <option key={name} value={name} selected={name.toLowerCase() === org?.toLowerCase()}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Released on or after">
          <input type="date" name="released-from" defaultValue={filter.releasedAfter ?? ""} />
        </Field>
        <Field label="Released on or before">
          <input type="date" name="released-to" defaultValue={filter.releasedBefore ?? ""} />
        </Field>
      </FilterForm>
      <IndexList state={state} list={models} at={place} noun={["model", "models"]}>
        <table class="index">
          <thead>
            <tr>
              <SortHeader state={state} column={COLUMNS[0]} />
              <th scope="col">Organization</th>
              <SortHeader state={state} column={COLUMNS[1]} />
              <th scope="col" class="number">
                Methods
              </th>
            </tr>
          </thead>
          <tbody>
            {models.nodes.map((model) => (
              <tr key={model.id}>
                <th scope="row">
                  <a href={href.model(model.slug)}>{model.name}</a>
                </th>
                <ModelFactCells model={model} />
                <td class="number">
                  {thousands(
                    answered(model.branches, "model.branches").reduce((sum, branch) => sum + branch.methodCount, 0),
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </IndexList>
    </>
  );
}
