"""The downloadable tables: for each, its route (under /download, beside its page's URL), the
operation it runs a chunk at a time (the list aliased `rows`, under `subject` when the list
belongs to a node, method, model or comparison: null there is a 404), the variables its
URL's query gives (the same parameters as its page, refused with a reason when wrong) and
its columns, each read from a row of the answer.

The operations ask the same fields with the same arguments as the browser's own
(browser/operations/*.graphql), so a download has the page's rows in the page's order."""

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

from api.download.writers import Row
from schema.history.changes import ChangeKind
from schema.search import SearchType

# Rows per GraphQL execution: the API's largest page (schema.pagination.MAX_PAGE_SIZE).
CHUNK_ROWS = 100
# A row's methods in the By-model download: as many as one page of them may hold; so
# many rows' methods cost about 26,500 points (of `max_cost`'s 50,000) at 50 rows a chunk.
METHODS_PER_ROW = 100
BY_MODEL_ROWS_PER_CHUNK = 50
# Releases per execution: the cost limit allows 25 releases' change summaries (1,900 points
# each) in one request, as the releases page says.
RELEASES_PER_CHUNK = 25
LARGEST_INT = 2**31 - 1  # GraphQL's Int
T = TypeVar("T")


class BadParameterError(ValueError):
    """A URL parameter the table does not take as given: HTTP 400 with this message."""


class MissingError(LookupError):
    """A URL that names what cannot exist: HTTP 404 with this message."""


class Params:
    """A download URL's path parameters and query string, read with reasons for refusals."""

    def __init__(self, path: Mapping[str, str], query: Mapping[str, str]) -> None:
        self.path = path
        self.query = query

    def text(self, name: str) -> str | None:
        """A free-text parameter, trimmed; None when left out or blank (as the page reads it)."""
        value = self.query.get(name, "").strip()
        return value or None

    def choice(self, name: str, choices: Mapping[str, T], default: str | None) -> T | None:
        """One of ``choices`` by its name in the URL (``default`` when left out or blank)."""
        given = self.text(name)
        if given is None:
            return None if default is None else choices[default]
        if given not in choices:
            raise BadParameterError(f"`{name}` must be one of {', '.join(choices)}; got {given!r}")
        return choices[given]

    def words(self, name: str, choices: tuple[str, ...]) -> list[str]:
        """A comma-separated list of ``choices`` (none when left out or blank)."""
        given = self.text(name)
        words = [] if given is None else [word.strip() for word in given.split(",")]
        if any(word not in choices for word in words):
            raise BadParameterError(
                f"`{name}` must be one or more of {', '.join(choices)}, "
                f"separated by commas; got {given!r}"
            )
        return words

    def day(self, name: str) -> str | None:
        """A day as YYYY-MM-DD that exists, or None when left out."""
        given = self.text(name)
        if given is None:
            return None
        try:
            if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", given):
                raise ValueError(given)
            return date.fromisoformat(given).isoformat()
        except ValueError:
            raise BadParameterError(
                f"`{name}` must be a day written YYYY-MM-DD (2025-07-01); got {given!r}"
            ) from None

    def release(self, name: str, *, required: bool) -> int | None:
        """A release number (the API says which ones there are when it names none)."""
        given = self.text(name)
        if given is None:
            if required:
                raise BadParameterError(
                    f"`{name}` is required: the number of a release (see /releases)"
                )
            return None
        if not (given.isascii() and re.fullmatch(r"[+-]?[0-9]+", given)):
            raise BadParameterError(f"`{name}` must be a release number; got {given!r}")
        # Compared as text first: int() refuses strings of over 4,300 digits.
        digits = given.lstrip("+-").lstrip("0") or "0"
        if len(digits) > 10 or int(digits) > LARGEST_INT:
            raise MissingError(f"`{name}`: there is no release {given} (see /releases)")
        return -int(digits) if given.startswith("-") else int(digits)


def at(*keys: str) -> Callable[[Row], Any]:
    """A column's value: the field at ``keys`` in a row of the answer (null on the way: null)."""

    def value(row: Row) -> Any:
        found: Any = row
        for key in keys:
            if found is None:
                return None
            found = found[key]
        return found

    return value


Columns = tuple[tuple[str, Callable[[Row], Any]], ...]


def lowered(*keys: str) -> Callable[[Row], Any]:
    """An enum's value as the pages write it (CORE: core)."""
    value = at(*keys)
    return lambda row: None if value(row) is None else str(value(row)).lower()


@dataclass(frozen=True)
class Table:
    # The route under /download, without its extension; the page's URL alike.
    route: str
    document: str
    # Each column's name (CSV header, JSON key) and its value in a row of `rows.nodes`.
    columns: Columns
    # The operation's variables (but `first` and `after`) from the URL.
    variables: Callable[[Params], dict[str, object]]
    # The download's file name, without its extension.
    filename: Callable[[Params], str]
    # What `subject` is when the list belongs to one: a null one is a 404 saying so.
    subject: Callable[[Params], str] | None = None
    chunk: int = CHUNK_ROWS

    @property
    def operation(self) -> str:
        """The operation's name (`DownloadMethods`), as the request log names it."""
        return self.document.split("query ", 1)[1].split("(", 1)[0].strip()

    def row(self, node: Row) -> Row:
        return {name: value(node) for name, value in self.columns}


_PAGE_INFO = "pageInfo { hasNextPage endCursor }"


def _order(params: Params, fields: Mapping[str, tuple[str, str]]) -> dict[str, str]:
    """An index's order from ``?sort=`` (its first column by default) and ``?dir=`` (the
    column's natural direction by default), as browser/src/index-table.tsx reads them."""
    sort = params.choice("sort", {key: key for key in fields}, next(iter(fields)))
    assert sort is not None
    field, natural = fields[sort]
    direction = params.choice("dir", {"asc": "ASC", "desc": "DESC"}, natural)
    assert direction is not None
    return {"field": field, "direction": direction}


def _slug(name: str) -> str:
    """``name`` as part of a file name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")[:120] or "download"


# The node page's By-model table: `?sort=newest|name|strongest|methods`, `&dir=`, `?org=`
# and the columns it shows besides its two, `?columns=org,date` (browser/src/pages/
# node.tsx): read so that a wrong one is refused; the download has every column.
NODE_ORDERS = {
    "newest": ("RELEASE_DATE", "desc"),
    "name": ("NAME", "asc"),
    "strongest": ("STRONGEST", "desc"),
    "methods": ("METHOD_COUNT", "desc"),
}
NODE_COLUMNS = ("org", "date")


def _node_variables(params: Params) -> dict[str, object]:
    params.words("columns", NODE_COLUMNS)
    return {
        "path": params.path["path"],
        "orderBy": _order(params, NODE_ORDERS),
        "filter": {"organization": params.text("org")},
    }


NODE_BY_MODEL = Table(
    route="nodes/{path:path}",
    document=f"""
query DownloadNodeByModel(
  $path: String!, $first: Int!, $after: String, $orderBy: ModelTreatmentOrder,
  $filter: ModelFilter
) {{
  subject: node(path: $path) {{
    rows: byModel(first: $first, after: $after, orderBy: $orderBy, filter: $filter) {{
      {_PAGE_INFO}
      nodes {{
        model {{ slug name organization releaseDate }}
        strongest
        methodCount
        methodsConnection(first: {METHODS_PER_ROW}) {{ nodes {{ strength method {{ name }} }} }}
      }}
    }}
  }}
}}""",
    columns=(
        ("model", at("model", "name")),
        ("model_slug", at("model", "slug")),
        ("organization", at("model", "organization")),
        ("release_date", at("model", "releaseDate")),
        ("strongest", lowered("strongest")),
        ("method_count", at("methodCount")),
        (
            "methods",
            lambda row: [
                f"{each['method']['name']} ({each['strength'].lower()})"
                for each in row["methodsConnection"]["nodes"]
            ],
        ),
    ),
    variables=_node_variables,
    filename=lambda params: f"by-model-{_slug(params.path['path'].replace('/', '-'))}",
    subject=lambda params: f"node {params.path['path']!r}",
    chunk=BY_MODEL_ROWS_PER_CHUNK,
)


# `?strength=`: the weakest treatment a row may have (/methods, a method's models, a
# model's methods).
STRENGTHS = {"core": "CORE", "used": "USED", "mentioned": "MENTIONED"}


def _treatments(
    record: str,
    list_field: str,
    other: str,
    fields: str,
    columns: Columns,
    orders: Mapping[str, tuple[str, str]],
) -> Table:
    """A ``record``'s treatments (the method page's models, the model page's methods) in
    the page's order (``?sort=`` one of ``orders``' keys, `&dir=`; the first, strongest
    first, by default): the ``other`` record's ``fields`` (read by ``columns``), the
    strength and how many pieces of evidence back it; at least as strong as the page's
    filter box says (``?strength=``)."""
    return Table(
        route=f"{record}s/{{slug}}",
        document=f"""
query Download{record.title()}{other.title()}s(
  $slug: String!, $first: Int!, $after: String, $minStrength: Strength,
  $orderBy: TreatmentsOf{record.title()}Order
) {{
  subject: {record}(slug: $slug) {{
    rows: {list_field}(
      first: $first, after: $after, minStrength: $minStrength, orderBy: $orderBy
    ) {{
      {_PAGE_INFO}
      nodes {{
        strength
        {other} {{ {fields} }}
        evidenceConnection(first: 0) {{ totalCount }}
      }}
    }}
  }}
}}""",
        columns=(
            *columns,
            ("strength", lowered("strength")),
            ("evidence_count", at("evidenceConnection", "totalCount")),
        ),
        variables=lambda params: {
            "slug": params.path["slug"],
            "minStrength": params.choice("strength", STRENGTHS, None),
            "orderBy": _order(params, orders),
        },
        filename=lambda params: f"{record}-{_slug(params.path['slug'])}-{other}s",
        subject=lambda params: f"{record} {params.path['slug']!r}",
    )


# The method page's models: `?sort=strongest|name|release`, `&dir=`, `?strength=`
# (browser/src/pages/method.tsx).
METHOD_MODELS = _treatments(
    "method",
    "treatmentsConnection",
    "model",
    "name slug organization releaseDate",
    (
        ("model", at("model", "name")),
        ("model_slug", at("model", "slug")),
        ("organization", at("model", "organization")),
        ("release_date", at("model", "releaseDate")),
    ),
    {
        "strongest": ("STRONGEST", "desc"),
        "name": ("NAME", "asc"),
        "release": ("RELEASE_DATE", "desc"),
    },
)
# The model page's methods: `?sort=strongest|name|node`, `&dir=`, `?strength=`
# (browser/src/pages/model.tsx).
MODEL_METHODS = _treatments(
    "model",
    "treatments",
    "method",
    "name slug node { path slugPath }",
    (
        ("method", at("method", "name")),
        ("method_slug", at("method", "slug")),
        ("node_path", at("method", "node", "path")),
        ("node_slug_path", at("method", "node", "slugPath")),
    ),
    {"strongest": ("STRONGEST", "desc"), "name": ("NAME", "asc"), "node": ("NODE", "asc")},
)

# /models: `?sort=name|release`, `&dir=`, `?q=`, `?org=`, `?released-from=`, `?released-to=`
# (browser/src/pages/models.tsx).
MODELS = Table(
    route="models",
    document=f"""
query DownloadModels($first: Int!, $after: String, $filter: ModelFilter, $orderBy: ModelOrder) {{
  rows: models(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {{
    {_PAGE_INFO}
    nodes {{ slug name organization releaseDate branches(level: 1) {{ methodCount }} }}
  }}
}}""",
    columns=(
        ("model", at("name")),
        ("model_slug", at("slug")),
        ("organization", at("organization")),
        ("release_date", at("releaseDate")),
        # Each method is filed in exactly one root's branch: the level-1 counts add up.
        ("methods", lambda row: sum(branch["methodCount"] for branch in row["branches"])),
    ),
    variables=lambda params: {
        "filter": {
            "nameContains": params.text("q"),
            "organization": params.text("org"),
            "releasedAfter": params.day("released-from"),
            "releasedBefore": params.day("released-to"),
        },
        "orderBy": _order(params, {"name": ("NAME", "asc"), "release": ("RELEASE_DATE", "desc")}),
    },
    filename=lambda params: "models",
)

# /methods: `?sort=name|strongest|models`, `&dir=`, `?q=`, `?branch=`, `?strength=`
# (browser/src/pages/methods.tsx).
METHODS = Table(
    route="methods",
    document=f"""
query DownloadMethods(
  $first: Int!, $after: String, $filter: MethodFilter, $orderBy: MethodOrder
) {{
  rows: methods(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {{
    {_PAGE_INFO}
    nodes {{ slug name strongest modelCount node {{ path slugPath }} }}
  }}
}}""",
    columns=(
        ("method", at("name")),
        ("method_slug", at("slug")),
        ("node_path", at("node", "path")),
        ("node_slug_path", at("node", "slugPath")),
        ("strongest", lowered("strongest")),
        ("model_count", at("modelCount")),
    ),
    variables=lambda params: {
        "filter": {
            "nameContains": params.text("q"),
            "branch": None if params.text("branch") is None else {"path": params.text("branch")},
            "minStrength": params.choice("strength", STRENGTHS, None),
        },
        "orderBy": _order(
            params,
            {
                "name": ("NAME", "asc"),
                "strongest": ("STRONGEST", "desc"),
                "models": ("MODEL_COUNT", "desc"),
            },
        ),
    },
    filename=lambda params: "methods",
)

_KIND_TOTALS = "nodes { total } methods { total } models { total } treatments { total }"
# /releases: `?sort=release|loaded` (both by number: the order of loading), `&dir=`, `?q=`
# (the note), `?loaded-from=`, `?loaded-to=` (browser/src/pages/releases.tsx).
RELEASE_ORDERS = {"release": ("NUMBER", "desc"), "loaded": ("NUMBER", "desc")}


def release_filter(params: Params) -> dict[str, object]:
    """The releases filter of the page's URL; a range of days that ends before it starts
    is refused, as the API refuses it."""
    start, end = params.day("loaded-from"), params.day("loaded-to")
    if start is not None and end is not None and start > end:
        raise BadParameterError(
            f"`loaded-from` ({start}) is after `loaded-to` ({end}): no day is in that range"
        )
    return {"loadedFrom": start, "loadedTo": end, "noteContains": params.text("q")}


RELEASES = Table(
    route="releases",
    document=f"""
query DownloadReleases(
  $first: Int!, $after: String, $filter: ReleaseFilter, $orderBy: ReleaseOrder
) {{
  rows: releases(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {{
    {_PAGE_INFO}
    nodes {{
      number
      loadedAt
      note
      changes {{ from {{ number }} summary {{ total {_KIND_TOTALS} }} }}
    }}
  }}
}}""",
    columns=(
        ("release", at("number")),
        ("loaded_at", at("loadedAt")),
        ("note", at("note")),
        ("compared_with", at("changes", "from", "number")),
        ("changes", at("changes", "summary", "total")),
        *(
            (f"{kind}_changed", at("changes", "summary", kind, "total"))
            for kind in ("nodes", "methods", "models", "treatments")
        ),
    ),
    variables=lambda params: {
        "filter": release_filter(params),
        "orderBy": _order(params, RELEASE_ORDERS),
    },
    filename=lambda params: "releases",
    chunk=RELEASES_PER_CHUNK,
)

# The changes page's lists: `?since=` (required), `?until=`, `?kind=` (browser/src/router.ts):
# each kind of the API's, lowercase.
CHANGE_KINDS = {kind.name.lower(): kind.name for kind in ChangeKind}
_ENUMS = {"kind", "fromStrength", "toStrength"}


def _fields(*names: str) -> Columns:
    """Columns of fields of a row by their names (fromPath: the column from_path)."""
    return tuple(
        (re.sub("([A-Z])", r"_\1", name).lower(), lowered(name) if name in _ENUMS else at(name))
        for name in names
    )


_NAMED = ("kind", "slug", "name", "fromName", "toName")
_MOVED = ("fromPath", "toPath")
# Each list's own fields (browser/operations/BrowserChanges.graphql), by its name: the
# fields its columns read, then the fields of its records as they are now.
CHANGE_LISTS: dict[str, tuple[tuple[str, ...], str, Columns]] = {
    "nodes": (
        (*_NAMED, *_MOVED),
        "node { slugPath }",
        (("node_slug_path", at("node", "slugPath")),),
    ),
    "methods": ((*_NAMED, *_MOVED), "", ()),
    "models": (_NAMED, "", ()),
    "treatments": (
        ("kind", "modelSlug", "methodSlug", "fromStrength", "toStrength"),
        "model { name } method { name }",
        (("model", at("model", "name")), ("method", at("method", "name"))),
    ),
}


def changes_words(params: Params) -> str | None:
    """The changes page's `?kind=` (the API's name of it) and `?type=` (one of its lists),
    checked: what the page and its downloads take alike."""
    params.choice("type", {name: name for name in CHANGE_LISTS}, None)
    return params.choice("kind", CHANGE_KINDS, None)


def _changes_variables(params: Params) -> dict[str, object]:
    kind = changes_words(params)
    return {
        "since": params.release("since", required=True),
        "until": params.release("until", required=False),
        "kinds": None if kind is None else [kind],
    }


def _changes_filename(list_name: str, params: Params) -> str:
    since = params.text("since")
    until = params.text("until") or "latest"
    kind = params.text("kind")
    return _slug(f"changes-{since}-{until}-{list_name}" + (f"-{kind}" if kind else ""))


def _changes_subject(params: Params) -> str:
    return f"release {params.text('since')}" + (
        f" or {params.text('until')}" if params.text("until") else ""
    )


def _changes_table(list_name: str) -> Table:
    names, records, current = CHANGE_LISTS[list_name]
    return Table(
        route=f"changes/{list_name}",
        document=f"""
query DownloadChanges{list_name.title()}(
  $since: Int!, $until: Int, $kinds: [ChangeKind!], $first: Int!, $after: String
) {{
  subject: changes(since: $since, until: $until) {{
    rows: {list_name}(first: $first, after: $after, kinds: $kinds) {{
      {_PAGE_INFO}
      nodes {{ {" ".join(names)} {records} }}
    }}
  }}
}}""",
        columns=(*_fields(*names), *current),
        variables=_changes_variables,
        filename=lambda params: _changes_filename(list_name, params),
        subject=_changes_subject,
    )


# /search: `?q=` (required), `?type=` (browser/src/pages/search.tsx): each type of the API's.
SEARCH_TYPES = {kind.name.lower(): kind.name for kind in SearchType}


def search_words(params: Params) -> str | None:
    """The search page's `?type=` (the API's name of it), checked: the page (which may have
    no words yet) and its download take it alike."""
    return params.choice("type", SEARCH_TYPES, None)


def _search_variables(params: Params) -> dict[str, object]:
    query = params.text("q")
    if query is None:
        raise BadParameterError("`q` is required: the words to search for")
    kind = search_words(params)
    return {"query": query, "types": None if kind is None else [kind]}


def _search_hit(row: Row) -> Row:
    hit: Row = row["node"]
    return hit


SEARCH = Table(
    route="search",
    document=f"""
query DownloadSearch($query: String!, $types: [SearchType!], $first: Int!, $after: String) {{
  rows: search(query: $query, first: $first, after: $after, types: $types) {{
    {_PAGE_INFO}
    nodes: edges {{
      snippet {{ text }}
      node {{
        __typename
        ... on Node {{ name slug: slugPath path }}
        ... on Method {{ name slug node {{ path }} }}
        ... on Model {{ name slug organization }}
        ... on Source {{ name model {{ name slug }} }}
      }}
    }}
  }}
}}""",
    columns=(
        ("type", lambda row: _search_hit(row)["__typename"].lower()),
        ("name", at("node", "name")),
        ("slug", lambda row: _search_hit(row).get("slug")),
        (
            "path",
            lambda row: (
                _search_hit(row).get("path") or (_search_hit(row).get("node") or {}).get("path")
            ),
        ),
        ("organization", lambda row: _search_hit(row).get("organization")),
        ("model", lambda row: (_search_hit(row).get("model") or {}).get("name")),
        ("fragment", at("snippet", "text")),
    ),
    variables=_search_variables,
    filename=lambda params: _slug(f"search-{params.text('q') or ''}"),
)

TABLES = (
    NODE_BY_MODEL,
    METHOD_MODELS,
    MODEL_METHODS,
    MODELS,
    METHODS,
    RELEASES,
    *(_changes_table(name) for name in CHANGE_LISTS),
    SEARCH,
)
