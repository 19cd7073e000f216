// What the indexes (/models, /methods, /releases) share: their state in the URL (filters,
// order, page: every index page is its URL alone), sortable column heads, the filter form
// over the table, the list under it (its heading, pages and downloads). The table's wrapper, which scrolls sideways on a narrow screen rather than
// the page, and paging are every table's (ui.tsx: TableScroll, Pager).
import type { ComponentChildren } from "preact";

import type { Strength } from "../../clients/typescript/src/gql/graphql";

import { cursorRefused } from "./api";
import { Downloads } from "./downloads";
import { navigate, type Place, placeQuery } from "./router";
import { ApiProblem, PageGone, type PagedList, Pager, Problem, TableScroll, thousands } from "./ui";

export type Direction = "asc" | "desc";

/** A strength filter's choices (``?strength=``): the weakest treatment a row may have (on
 * /methods, its strongest), strongest first. */
export const STRENGTHS: readonly { value: string; label: string; strength: Strength }[] = [
  { value: "core", label: "core", strength: "CORE" },
  { value: "used", label: "used or stronger", strength: "USED" },
  { value: "mentioned", label: "any (treated by a model)", strength: "MENTIONED" },
];

/** A treatment filter's choices (a method's models, a model's methods): core, used or
 * stronger (every treatment is at least mentioned: that is no filter). */
export const MIN_STRENGTHS = STRENGTHS.filter((choice) => choice.strength !== "MENTIONED");

/** A column the API can order by: its key in the URL (``?sort=``), its head, the API's
 * order field and that field's natural direction (A to Z; the largest, strongest or newest
 * first). */
export type Column<F extends string> = { key: string; label: string; field: F; natural: Direction };

/** An index as its URL says: the page's path, its filters (by their name in the URL), its
 * order (``?sort=``, ``?dir=``; the first column in its natural direction when not given)
 * and where its list is (``?after=``/``?before=``, ``&from=``, ``&size=``). */
export type IndexState<F extends string> = {
  path: string;
  columns: readonly Column<F>[];
  filters: Record<string, string>;
  /** Null for an index of one order, the API's (a method's models, a model's methods). */
  column: Column<F> | null;
  dir: Direction;
  place: Place;
  /** Where on its page the table is (a heading's id), for a table that is not the whole
   * page (a node's By-model table): another order or filter opens there. */
  anchor: string | null;
  /** How the table shows its rows (by their name in the URL: a node's By-model table's
   * ``?columns=``), no part of which rows: kept through every order, filter and page. */
  view: Record<string, string>;
};

export function indexState<F extends string>(
  path: string,
  columns: readonly Column<F>[],
  filterNames: readonly string[],
  query: URLSearchParams,
  place: Place,
  anchor: string | null = null,
  viewNames: readonly string[] = [],
): IndexState<F> {
  const column = columns.find((candidate) => candidate.key === query.get("sort")) ?? columns[0] ?? null;
  const given = query.get("dir");
  const dir = column && (given === "asc" || given === "desc") ? given : (column?.natural ?? "asc");
  const valuesOf = (names: readonly string[]) => {
    const values: Record<string, string> = {};
    for (const name of names) {
      const value = query.get(name)?.trim();
      if (value) values[name] = value;
    }
    return values;
  };
  return { path, columns, filters: valuesOf(filterNames), column, dir, place, anchor, view: valuesOf(viewNames) };
}

/** The API's `orderBy` for the index's order (null: the API's own). */
export function orderBy<F extends string>(state: IndexState<F>): { field: F; direction: "ASC" | "DESC" } | null {
  return state.column && { field: state.column.field, direction: state.dir === "asc" ? "ASC" : "DESC" };
}

export function filtered(state: IndexState<string>): boolean {
  return Object.keys(state.filters).length > 0;
}

/** A day as the API's Date takes it (2025-07-01), and one that exists; else null: a filter's
 * day that is no day is left out (the API would refuse it), so the form shows what is applied. */
export function day(value: string | undefined): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value) ? value : null;
}

/** The index's URL with ``change``: another order or other filters open the list's first
 * page at the same size; without them, ``place`` says which page (another ``view`` shows
 * the same rows). */
export function indexUrl<F extends string>(
  state: IndexState<F>,
  change: {
    column?: Column<F>;
    dir?: Direction;
    filters?: Record<string, string>;
    place?: Place;
    view?: Record<string, string>;
  } = {},
): string {
  const column = change.column ?? state.column;
  const dir = change.dir ?? state.dir;
  const filters = change.filters ?? state.filters;
  const reordered = change.column !== undefined || change.dir !== undefined || change.filters !== undefined;
  const firstPage: Place = { after: null, before: null, from: 1, size: state.place.size };
  const at = change.place ?? (reordered ? firstPage : state.place);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (column && (column !== state.columns[0] || dir !== column.natural)) {
    params.set("sort", column.key);
    params.set("dir", dir);
  }
  for (const [name, value] of Object.entries(change.view ?? state.view)) if (value) params.set(name, value);
  return `${state.path}${placeQuery(at, params)}`;
}

/** ``url`` at the table's place on its page (its anchor), if the table has one. */
export function atTable(state: IndexState<string>, url: string): string {
  return state.anchor ? `${url}#${state.anchor}` : url;
}

/** A sortable column's head: a link to the index ordered by it (from its natural direction;
 * the other way round when it is the order already). The current order's head says which
 * way it sorts (`aria-sort`), and shows it with an arrow. ``children``: the head's text when
 * it is not the column's label. */
export function SortHeader<F extends string>({
  state,
  column,
  numeric = false,
  children,
}: {
  state: IndexState<F>;
  column: Column<F>;
  numeric?: boolean;
  children?: ComponentChildren;
}) {
  const current = column === state.column;
  const next: Direction = current ? (state.dir === "asc" ? "desc" : "asc") : column.natural;
  return (
    <th scope="col" aria-sort={current ? (state.dir === "asc" ? "ascending" : "descending") : undefined} class={numeric ? "sortable number" : "sortable"}>
      <a href={atTable(state, indexUrl(state, { column, dir: next }))}>
        {children ?? column.label}
        {current ? (
          <span class="arrow" aria-hidden="true">
            {state.dir === "asc" ? " ▲" : " ▼"}
          </span>
        ) : null}
      </a>
    </th>
  );
}

/** The filter form over an index's table: its fields (``children``, each named as its
 * filter in the URL) go into the URL on submit, which opens the first page of the list so
 * narrowed, in the same order and at the same page size. ``aside``: what goes beside its
 * button, on the same line (a node's choice of columns: the page no taller for it). */
export function FilterForm<F extends string>({
  state,
  label,
  children,
  aside = null,
}: {
  state: IndexState<F>;
  label: string;
  children: ComponentChildren;
  aside?: ComponentChildren;
}) {
  const names = (form: HTMLFormElement) => [...new FormData(form).keys()];
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const filters: Record<string, string> = {};
    for (const name of names(form)) {
      const value = String(new FormData(form).get(name) ?? "").trim();
      if (value) filters[name] = value;
    }
    navigate(atTable(state, indexUrl(state, { filters })));
  };
  return (
    <form class="filters" aria-label={label} onSubmit={submit} action={state.path} method="get">
      <div class="fields">{children}</div>
      <p class="actions">
        <button type="submit">Filter</button>
        {filtered(state) ? <a href={atTable(state, indexUrl(state, { filters: {} }))}>Clear the filters</a> : null}
        {aside}
      </p>
    </form>
  );
}

/** An index's list under its filter form: its heading (how many, and whether filtered), its
 * table (``children``, in the wrapper that scrolls sideways), the Pager (``sizes``: the page
 * sizes offered) and the downloads in the page's order and filter; or, when nothing matches,
 * a way back to the whole list. ``noun``: an item, and many, as the page names them. */
export function IndexList<F extends string>({
  state,
  list,
  at,
  noun,
  sizes,
  children,
}: {
  state: IndexState<F>;
  list: PagedList;
  at: Place;
  noun: [one: string, many: string];
  sizes?: readonly number[];
  children: ComponentChildren;
}) {
  const id = `${noun[1]}-list`;
  const total = list.totalCount;
  const name = noun[1][0].toUpperCase() + noun[1].slice(1);
  const matching = total === 1 ? " matches the filters" : " match the filters";
  return (
    <>
      <h2 id={id}>
        {thousands(total)} {total === 1 ? noun[0] : noun[1]}
        {filtered(state) ? matching : ""}
      </h2>
      {total ? (
        <>
          <TableScroll labelledBy={id}>{children}</TableScroll>
          <Pager
            list={list}
            at={at}
            noun={noun}
            label={`${name}: pages`}
            anchor={id}
            url={(place) => indexUrl(state, { place })}
            sizes={sizes}
          />
          <Downloads page={indexUrl(state)} label={name} />
        </>
      ) : (
        <p>
          No {noun[0]} matches. <a href={indexUrl(state, { filters: {} })}>Show every {noun[0]}</a>.
        </p>
      )}
    </>
  );
}

/** A labelled field of the filter form. */
export function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <label class="field">
      <span>{label}</span>
      {children}
    </label>
  );
}

/** The filter form's strength field (``?strength=``): ``none`` names the choice of no
 * filter; ``choices``, the strengths offered (of STRENGTHS), ``chosen`` the applied one. */
export function StrengthField({
  label,
  none,
  choices = STRENGTHS,
  chosen,
}: {
  label: string;
  none: string;
  choices?: readonly (typeof STRENGTHS)[number][];
  chosen: (typeof STRENGTHS)[number] | null | undefined;
}) {
  return (
    <Field label={label}>
      <select name="strength">
        <option value="">{none}</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value} selected={choice === chosen}>
            {choice.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** An index the API would not answer: a page of it whose cursor is gone (a new load), a
 * filter it refuses (a branch that is not there, a date that is no date), or its failure. */
export function IndexProblem<F extends string>({
  state,
  error,
}: {
  state: IndexState<F>;
  error: { message: string; code: string | null };
}) {
  const { after, before } = state.place;
  if (cursorRefused(error.code) && (after || before)) {
    const firstPage: Place = { after: null, before: null, from: 1, size: state.place.size };
    return <PageGone message={error.message} firstPage={atTable(state, indexUrl(state, { place: firstPage }))} />;
  }
  if (filtered(state) && (error.code === "BAD_USER_INPUT" || error.code === "NOT_FOUND")) {
    return (
      <Problem title="Not a filter this list takes">
        <p>{error.message}</p>
        <p>
          <a href={atTable(state, indexUrl(state, { filters: {} }))}>Show the list without filters</a>.
        </p>
      </Problem>
    );
  }
  return <ApiProblem message={error.message} />;
}
