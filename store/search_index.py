"""The full-text index behind `search`: FTS5 on SQLite, a weighted tsvector on PostgreSQL.

Both index the same three fields per entry (name; aliases, matching aids or organization;
description) with the same tokenisation (lower-cased words, prefix matching), so both
databases find the same hits; each ranks with its own scorer (bm25, ts_rank).
"""

import re
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Connection, text

SQLITE_TABLE = "search_fts"
POSTGRES_TABLE = "search_document"
# FTS5 keeps its data in shadow tables named after the virtual table.
_INDEX_TABLE_NAMES = {SQLITE_TABLE, POSTGRES_TABLE} | {
    f"{SQLITE_TABLE}_{suffix}" for suffix in ("data", "idx", "content", "docsize", "config")
}


def is_search_index_object(name: str | None, type_: str) -> bool:
    return (type_ == "table" and name in _INDEX_TABLE_NAMES) or (
        type_ == "index" and name is not None and name.startswith(f"ix_{POSTGRES_TABLE}")
    )


def create_ddl(dialect: str) -> list[str]:
    if dialect == "sqlite":
        return [
            f"CREATE VIRTUAL TABLE {SQLITE_TABLE} USING fts5("
            "kind UNINDEXED, ref_id UNINDEXED, name, aliases, description, "
            "tokenize = 'unicode61 remove_diacritics 2')"
        ]
    return [
        f"CREATE TABLE {POSTGRES_TABLE} (kind VARCHAR NOT NULL, ref_id INTEGER NOT NULL, "
        "document TSVECTOR NOT NULL, PRIMARY KEY (kind, ref_id))",
        f"CREATE INDEX ix_{POSTGRES_TABLE}_document ON {POSTGRES_TABLE} USING GIN (document)",
    ]


def drop_ddl(dialect: str) -> list[str]:
    return [f"DROP TABLE {SQLITE_TABLE if dialect == 'sqlite' else POSTGRES_TABLE}"]


# What each kind contributes: (name, aliases-like words, description), as SQL over its table.
def _sources(dialect: str) -> list[tuple[str, str, str, str, str]]:
    if dialect == "sqlite":
        words = "(SELECT group_concat(value, ' ') FROM json_each({column}))"
    else:
        words = "(SELECT string_agg(value, ' ') FROM json_array_elements_text({column}))"
    return [
        ("node", "node", "name", words.format(column="node.matching_aids"), "description"),
        ("method", "method", "name", words.format(column="method.aliases"), "description"),
        ("model", "model", "name", "organization", "NULL"),
    ]


def rebuild(connection: Connection) -> None:
    """Refill the index from the loaded tables, inside the load's transaction."""
    dialect = connection.dialect.name
    if dialect == "sqlite":
        connection.execute(text(f"DELETE FROM {SQLITE_TABLE}"))
        for kind, table, name, aliases, description in _sources(dialect):
            connection.execute(
                text(
                    f"INSERT INTO {SQLITE_TABLE} (kind, ref_id, name, aliases, description) "
                    f"SELECT '{kind}', id, {name}, {aliases}, {description} FROM {table}"
                )
            )
        return
    connection.execute(text(f"DELETE FROM {POSTGRES_TABLE}"))
    for kind, table, name, aliases, description in _sources(dialect):
        connection.execute(
            text(
                f"INSERT INTO {POSTGRES_TABLE} (kind, ref_id, document) "
                f"SELECT '{kind}', id, "
                f"setweight(to_tsvector('simple', coalesce({name}, '')), 'A') || "
                f"setweight(to_tsvector('simple', coalesce({aliases}, '')), 'B') || "
                f"setweight(to_tsvector('simple', coalesce({description}, '')), 'C') "
                f"FROM {table}"
            )
        )


class EmptySearchError(ValueError):
    pass


def words_of(query: str) -> list[str]:
    words = re.findall(r"\w+", query.casefold())
    if not words:
        raise EmptySearchError(
            f"search query {query!r} has no words to look for; give at least one word"
        )
    # Bounded so that a pasted essay cannot build an enormous full-text query.
    return words[:32]


class Reader(Protocol):
    """What searching needs of a request's database access (store.reader.Reader)."""

    @property
    def dialect(self) -> str: ...

    async def execute(self, statement: Any, params: dict[str, Any] | None = None) -> Any: ...


@dataclass(frozen=True)
class Hit:
    kind: str
    ref_id: int


def _match(dialect: str, words: list[str]) -> tuple[str, str, dict[str, Any]]:
    """(FROM and WHERE clause, ORDER BY clause, parameters) matching every word as a prefix."""
    if dialect == "sqlite":
        expression = " ".join(f'"{word}"*' for word in words)
        return (
            f"FROM {SQLITE_TABLE} WHERE {SQLITE_TABLE} MATCH :q",
            f"bm25({SQLITE_TABLE}, 0, 0, 10.0, 4.0, 1.0), kind, ref_id",
            {"q": expression},
        )
    expression = " & ".join(f"{word}:*" for word in words)
    return (
        f"FROM {POSTGRES_TABLE}, to_tsquery('simple', :q) AS q WHERE document @@ q",
        "ts_rank('{0.1, 0.25, 0.5, 1.0}', document, q) DESC, kind, ref_id",
        {"q": expression},
    )


async def search_page(reader: Reader, words: list[str], *, offset: int, limit: int) -> list[Hit]:
    where, order, params = _match(reader.dialect, words)
    result = await reader.execute(
        text(f"SELECT kind, ref_id {where} ORDER BY {order} LIMIT :limit OFFSET :offset"),
        {**params, "limit": limit, "offset": offset},
    )
    return [Hit(kind, int(ref_id)) for kind, ref_id in result.all()]


async def search_count(reader: Reader, words: list[str]) -> int:
    where, _, params = _match(reader.dialect, words)
    return int((await reader.execute(text(f"SELECT count(*) {where}"), params)).scalar_one())
