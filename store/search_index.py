"""Each database's own full-text index of the loaded data: FTS5 on SQLite, a weighted
tsvector on PostgreSQL, refilled by every load.

The API's `search` no longer reads it: it ranks with the project's own rule, the same on
both databases (store.search_rank over store.search_catalogue), where these two tokenise
and rank differently. The tables stay for SQL users and the benchmark's peer
(bench/postgraphile/functions.sql); dropping them is a migration of its own.
"""

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


_POSTGRES_INDEX = f"ix_{POSTGRES_TABLE}_document"
_CREATE_POSTGRES_INDEX = f"CREATE INDEX {_POSTGRES_INDEX} ON {POSTGRES_TABLE} USING GIN (document)"


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
        _CREATE_POSTGRES_INDEX,
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


def rebuild(connection: Connection, *, served: bool) -> None:
    """Refill the index from the loaded tables, inside the load's transaction. On
    PostgreSQL, unless readers read the table meanwhile (``served``), its GIN index is
    built once after the rows are in (1 s of an L load, not 2)."""
    dialect = connection.dialect.name
    if dialect == "sqlite":
        # Made anew: FTS5 deletes its rows one at a time (0.8 s of a reload at L, where
        # dropping the table takes milliseconds); readers keep their snapshot either way.
        for statement in (*drop_ddl(dialect), *create_ddl(dialect)):
            connection.execute(text(statement))
        for kind, table, name, aliases, description in _sources(dialect):
            connection.execute(
                text(
                    f"INSERT INTO {SQLITE_TABLE} (kind, ref_id, name, aliases, description) "
                    f"SELECT '{kind}', id, {name}, {aliases}, {description} FROM {table}"
                )
            )
        return
    connection.execute(text(f"DELETE FROM {POSTGRES_TABLE}"))
    if not served:
        connection.execute(text(f"DROP INDEX {_POSTGRES_INDEX}"))
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
    if not served:
        connection.execute(text(_CREATE_POSTGRES_INDEX))
