"""`taxonomy releases` and `taxonomy changes`: the API's `releases` and `changes`, run
in this process through the GraphQL schema (so the CLI says exactly what the API says),
as text or JSON Lines."""

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, TypeVar

from schema import default_schema
from schema.context import Context
from store.engines import ServerEngine, make_async_engine, make_request_engine
from store.reader import Reader

_RELEASES = """query ($after: String) {
  releases(first: 100, after: $after) {
    nodes { number version loadedAt checksum note
            totals { nodes methods models sources evidence }
            changes { isEmpty summary { total } } }
    pageInfo { hasNextPage endCursor }
  }
}"""

_COUNTS = (
    "summary { total nodes { total } methods { total } models { total } treatments { total } }"
)
_FIELD_CHANGES = "fieldChanges { field fromValue toValue fromItems toItems }"
_NAMED = f"kind slug name fromPath toPath fromName toName {_FIELD_CHANGES}"
_CHANGES = {
    "nodes": _NAMED,
    "methods": _NAMED,
    "models": f"kind slug name fromName toName {_FIELD_CHANGES}",
    "treatments": f"kind modelSlug methodSlug fromStrength toStrength {_FIELD_CHANGES}",
}


# The summary, asked once: counting every kind of change at size L took 58 ms of each
# 66 ms page when every page asked for it again (158,843 changes: 127 s, now 16 s).
_SUMMARY = f"""query ($since: Int!, $until: Int) {{
  changes(since: $since, until: $until) {{ from {{ number }} to {{ number }} isEmpty {_COUNTS} }}
}}"""


def _changes_document(record: str) -> str:
    return f"""query ($since: Int!, $until: Int, $after: String) {{
  changes(since: $since, until: $until) {{
    {record}(first: 100, after: $after) {{
      nodes {{ {_CHANGES[record]} }} pageInfo {{ hasNextPage endCursor }}
    }}
  }}
}}"""


T = TypeVar("T")
# A report lists every release, or every change of a kind, a page of 100 at a time: the
# operator's own process, which holds up no other client, so no serving cost limit.
REPORT_COST_LIMIT = 2**62


class ReportError(Exception):
    """What the API answered with instead of data (a wrong release number...)."""


Fetch = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]


def _with_schema(database_url: str, work: Callable[[Fetch], Awaitable[T]]) -> T:
    """``work(fetch)``, where ``fetch(document, variables)`` runs a query through the
    schema on one engine (all the pages of a report share it); errors raise ReportError."""

    async def run() -> T:
        async_engine = make_async_engine(database_url, pool_size=1)
        engine = make_request_engine(database_url, async_engine, pool_size=1)

        async def fetch(document: str, variables: dict[str, Any]) -> dict[str, Any]:
            context = Context.for_request(engine)
            context.cost_limit = REPORT_COST_LIMIT
            result = await default_schema().execute(
                document, variable_values=variables, context_value=context
            )
            if result.errors:
                raise ReportError("; ".join(error.message for error in result.errors))
            assert result.data is not None
            return result.data

        try:
            # The database answers first, and lets this role read a snapshot: one it
            # cannot reach, or that refuses the role, is then said as every command says
            # it, with its URL and what to check (api.commands.cli), where through the
            # schema it would be a coded error without its cause.
            reader = Reader.of(engine)
            try:
                await reader.open_snapshot()
            finally:
                await reader.close()
            return await work(fetch)
        finally:
            if not isinstance(engine, ServerEngine):  # SQLite's own, beside the async one
                engine.dispose()
            await async_engine.dispose()

    return asyncio.run(run())


async def _pages(
    fetch: Fetch, document: str, variables: dict[str, Any], *path: str
) -> AsyncIterator[Any]:
    """Each answer of ``document``, page after page of the connection at ``path``."""
    after = None
    while True:
        data = await fetch(document, {**variables, "after": after})
        yield data
        connection = data
        for key in path:
            connection = connection[key]
        if not connection["pageInfo"]["hasNextPage"]:
            return
        after = connection["pageInfo"]["endCursor"]


def releases(database_url: str) -> list[dict[str, Any]]:
    """Every release, newest first."""

    async def work(fetch: Fetch) -> list[dict[str, Any]]:
        return [
            release
            async for data in _pages(fetch, _RELEASES, {}, "releases")
            for release in data["releases"]["nodes"]
        ]

    return _with_schema(database_url, work)


Rows = list[dict[str, Any]]


def changes(
    database_url: str,
    since: int,
    until: int | None,
    show_head: Callable[[dict[str, Any]], None],
    show_rows: Callable[[Rows], None],
) -> None:
    """The summary of the changes from release ``since`` to ``until`` (from, to, isEmpty,
    summary) to ``show_head``, then every change, each with its `record` (node, method,
    model, treatment), to ``show_rows`` a page at a time, as they are read."""

    async def work(fetch: Fetch) -> None:
        variables = {"since": since, "until": until}
        head = (await fetch(_SUMMARY, variables))["changes"]
        show_head(head)
        if head["isEmpty"]:
            return
        for record in _CHANGES:
            document = _changes_document(record)
            async for data in _pages(fetch, document, variables, "changes", record):
                page = data["changes"][record]["nodes"]
                show_rows([{"record": record[:-1], **change} for change in page])

    _with_schema(database_url, work)


def release_lines(found: list[dict[str, Any]]) -> Iterator[str]:
    for release in found:
        totals = release["totals"]
        changed = release["changes"]
        what = (
            "first release"
            if changed is None
            else "nothing changed"
            if changed["isEmpty"]
            else f"{changed['summary']['total']:,} changes"
        )
        note = f"  {release['note']}" if release["note"] else ""
        yield (
            f"{release['number']:>4}  {release['version']}  {release['loadedAt']}  "
            f"{totals['nodes']:,} nodes, {totals['methods']:,} methods, "
            f"{totals['models']:,} models, {totals['evidence']:,} evidence; {what}{note}"
        )


def change_head_lines(head: dict[str, Any]) -> Iterator[str]:
    span = f"from release {head['from']['number']} to release {head['to']['number']}"
    if head["isEmpty"]:
        yield f"nothing changed {span}"
        return
    summary = head["summary"]
    parts = ", ".join(f"{summary[k]['total']:,} {k}" for k in _CHANGES)
    yield f"{summary['total']:,} changes {span}: {parts}"


def change_row_lines(rows: Rows) -> Iterator[str]:
    for row in rows:
        yield "  " + _change_text(row)


def _change_text(row: dict[str, Any]) -> str:
    record, kind = row["record"], row["kind"]
    if record == "treatment":
        before, after = row["fromStrength"] or "-", row["toStrength"] or "-"
        pair = f"treatment {kind:<12} {row['modelSlug']} / {row['methodSlug']}"
        fields = "".join(f"; {_field_text(change)}" for change in row["fieldChanges"])
        if kind == "CHANGED":  # its evidence alone
            return f"{pair}: {fields.removeprefix('; ')}"
        return f"{pair}: {before} -> {after}{fields}"
    text = f"{record:<9} {kind:<12} {row['slug']} ({row['name']})"
    fields = "".join(f"; {_field_text(change)}" for change in row["fieldChanges"])
    if kind == "RENAMED":
        return f"{text}: {row['fromName']!r} -> {row['toName']!r}{fields}"
    if kind == "MOVED":
        return f"{text}: {row['fromPath']} -> {row['toPath']}{fields}"
    if kind == "CHANGED":
        return f"{text}: {fields.removeprefix('; ')}"
    where = row.get("toPath") or row.get("fromPath")
    return f"{text}{f' at {where}' if where else ''}"


def _field_text(change: dict[str, Any]) -> str:
    """`field: before -> after`: a value quoted (`-` for none), a list's items in []."""

    def shown(value: str | None, items: list[str] | None) -> str:
        if items is not None:
            return json.dumps(items, ensure_ascii=False)
        return "-" if value is None else repr(value)

    before = shown(change["fromValue"], change["fromItems"])
    after = shown(change["toValue"], change["toItems"])
    return f"{change['field']}: {before} -> {after}"


def json_head_lines(head: dict[str, Any]) -> Iterator[str]:
    """JSON Lines' first: the summary (`record`: `summary`)."""
    yield json.dumps(
        {
            "record": "summary",
            "from": head["from"]["number"],
            "to": head["to"]["number"],
            "isEmpty": head["isEmpty"],
            "total": head["summary"]["total"],
        }
    )


def json_lines(rows: Rows) -> Iterator[str]:
    """JSON Lines: a line each."""
    for row in rows:
        yield json.dumps(row, ensure_ascii=False)
