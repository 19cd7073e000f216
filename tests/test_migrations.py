"""Migrations: up to head, down to nothing, up again, on each backend; and the tables of
the code match what the migrations build (`alembic check`)."""

import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import IntegrityError

from api.commands import migrate
from api.ingest.load import load_directory
from store.engines import make_sync_engine
from store.history.field_values import field_changes
from store.load.bulk import BrokenKeysError, check_sqlite_keys
from store.revision import database_revision
from store.schema_at_head import create_if_empty
from store.search_index import POSTGRES_TABLE, SQLITE_TABLE
from store.tables import EvidenceRow, metadata, table_of

TABLES = set(metadata.tables)


def _tables(url: str) -> set[str]:
    engine = make_sync_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_downgrade_upgrade(backend: str, new_database: Callable[[str, str], str]) -> None:
    url = new_database(backend, "migrations")
    search_table = SQLITE_TABLE if backend == "sqlite" else POSTGRES_TABLE

    migrate.upgrade(url, every_step=True)
    assert TABLES | {search_table, "alembic_version"} <= _tables(url)

    migrate.downgrade(url, "base")
    assert _tables(url) == {"alembic_version"}

    migrate.upgrade(url, every_step=True)
    assert TABLES | {search_table} <= _tables(url)


def test_models_match_migrations(backend: str, new_database: Callable[[str, str], str]) -> None:
    url = new_database(backend, "check")
    migrate.upgrade(url, every_step=True)
    # Raises if the tables in store/tables.py differ from what the migrations built.
    command.check(migrate.alembic_config(url))


# What walking every migration leaves that the tables' declarations do not say, and so a
# database built in one step (store.schema_at_head) does not have: migration 0008's
# default of `first_seen` on SQLite, which SQLite cannot drop without copying tables that
# others refer to (every load writes the column); and on PostgreSQL migration 0001's
# sequence of dataset.id, whose one row every load writes with id 1 (a load beside the
# served tables builds them from the declarations, without it, too).
LEFT_BY_THE_MIGRATIONS = {
    "sqlite": {("node", "first_seen"), ("method", "first_seen"), ("model", "first_seen")},
    "postgresql": {("dataset", "id")},
}
POSTGRES_OBJECTS = {
    "relations": "SELECT c.relkind, c.relname FROM pg_class c "
    "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'",
    "indexes": "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'",
    "constraints": "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
    "FROM pg_constraint WHERE connamespace = 'public'::regnamespace",
    "triggers": "SELECT tgrelid::regclass::text, tgname FROM pg_trigger WHERE NOT tgisinternal",
    "functions": "SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace",
}


def _schema_and_rows(url: str) -> dict[str, Any]:
    """Every table's columns (by name: their order is not part of the schema, as every
    statement names its columns), keys, indexes, constraints and rows, and every other
    object of the database, as comparable values."""
    engine = make_sync_engine(url)
    dialect = engine.dialect.name
    found: dict[str, Any] = {}
    try:
        with engine.connect() as connection:
            inspector = inspect(connection)
            for table in inspector.get_table_names():
                columns = {}
                for column in inspector.get_columns(table):
                    default = column.get("default")
                    if (table, column["name"]) in LEFT_BY_THE_MIGRATIONS[dialect]:
                        default = None
                    columns[column["name"]] = (str(column["type"]), column["nullable"], default)
                found[table] = {
                    "columns": columns,
                    "primary key": inspector.get_pk_constraint(table),
                    "foreign keys": sorted(map(repr, inspector.get_foreign_keys(table))),
                    "indexes": sorted(map(repr, inspector.get_indexes(table))),
                    "unique": sorted(map(repr, inspector.get_unique_constraints(table))),
                    "checks": sorted(map(repr, inspector.get_check_constraints(table))),
                    "rows": sorted(
                        map(repr, connection.exec_driver_sql(f'SELECT * FROM "{table}"'))
                    ),
                }
            if dialect == "sqlite":
                listed = "SELECT type, name, tbl_name FROM sqlite_master"
                found["objects"] = sorted(map(tuple, connection.exec_driver_sql(listed)))
            else:
                for kind, listed in POSTGRES_OBJECTS.items():
                    rows = {tuple(row) for row in connection.exec_driver_sql(listed)}
                    found[kind] = sorted(rows - {("S", "dataset_id_seq")})
    finally:
        engine.dispose()
    return found


def test_an_empty_database_built_in_one_step_is_the_one_every_migration_builds(
    backend: str, new_database: Callable[[str, str], str]
) -> None:
    """A first load or migration builds the newest schema at once (store.schema_at_head)
    instead of walking every migration: the same tables, keys, indexes, full-text index
    and rows, at the same revision; also over what a downgrade to the start leaves."""
    walked = new_database(backend, "walked")
    migrate.upgrade(walked, every_step=True)
    at_once = new_database(backend, "at_once")
    migrate.upgrade(at_once)
    back_to_start = new_database(backend, "back_to_start")
    migrate.upgrade(back_to_start, every_step=True)
    migrate.downgrade(back_to_start, "base")
    migrate.upgrade(back_to_start)

    expected = _schema_and_rows(walked)
    assert expected["change_kind"]["rows"]  # the rows migrations write are compared too
    for url in (at_once, back_to_start):
        assert database_revision(url) == migrate.HEAD_REVISION
        assert _schema_and_rows(url) == expected


def test_a_database_with_tables_is_never_built_in_one_step(
    backend: str, new_database: Callable[[str, str], str]
) -> None:
    """Tables not made by a migration are left to Alembic's walk, which builds around
    them; the one-step build neither adds to nor replaces them."""
    url = new_database(backend, "not_empty")
    engine = make_sync_engine(url)
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql("CREATE TABLE someone_elses (id INTEGER PRIMARY KEY)")
            assert not create_if_empty(connection)
        assert _tables(url) == {"someone_elses"}
    finally:
        engine.dispose()
    migrate.upgrade(url)  # every migration, from the first
    assert TABLES | {"someone_elses"} <= _tables(url)
    assert database_revision(url) == migrate.HEAD_REVISION


def test_one_linear_history() -> None:
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory.from_config(migrate.alembic_config("sqlite://"))
    assert len(scripts.get_heads()) == 1
    # Written in the code, so that a current database is told without Alembic.
    assert scripts.get_current_head() == migrate.HEAD_REVISION, (
        "update api.commands.migrate.HEAD_REVISION"
    )


def _imports_alembic(code: str) -> bool:
    """Whether running ``code`` in a fresh interpreter imports Alembic."""
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint('alembic' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1] == "True"


def test_alembic_is_imported_only_to_migrate(
    backend: str, new_database: Callable[[str, str], str]
) -> None:
    """The server's app and an upgrade of a database already at head do without it (0.4 s
    of every start and load); a database behind is migrated through it."""
    url = new_database(backend, "lazy_alembic")
    upgrade = f"from api.commands import migrate\nmigrate.upgrade({url!r})"
    assert not _imports_alembic("import api.app")
    assert _imports_alembic(upgrade)  # a new database: migrated
    assert database_revision(url) == migrate.HEAD_REVISION
    assert not _imports_alembic(upgrade)  # already at head


# The rows every test starts from, as the tables were before 0007 (the older revisions'
# tests insert them there) and as they are at head.
SETUP_BEFORE_0007 = [
    "INSERT INTO node (id, slug, name, matching_aids, level, path, slug_path, path_key, pre, "
    "last) VALUES (1, 'n', 'N', '[]', 1, 'N', 'n', 'n', 0, 0)",
    "INSERT INTO model (id, slug, name, name_rank, recency_rank) VALUES (1, 'x', 'X', 0, 0)",
    "INSERT INTO method (id, slug, name, aliases, node_id, name_rank) "
    "VALUES (1, 'm', 'M', '[]', 1, 0)",
]
# The same rows as the head revision takes them: models and methods with their reversed
# orders' ranks (0007), and nodes, models and methods saying since which release they
# exist (0008).
SETUP_AT_HEAD = [
    "INSERT INTO node (id, slug, name, matching_aids, level, path, slug_path, path_key, pre, "
    "last, first_seen) VALUES (1, 'n', 'N', '[]', 1, 'N', 'n', 'n', 0, 0, 1)",
    "INSERT INTO model (id, slug, name, name_rank, name_desc_rank, recency_rank, age_rank, "
    "first_seen) VALUES (1, 'x', 'X', 0, 0, 0, 0, 1)",
    "INSERT INTO method (id, slug, name, aliases, node_id, name_rank, name_desc_rank, "
    "first_seen) VALUES (1, 'm', 'M', '[]', 1, 0, 0, 1)",
]


@pytest.mark.parametrize(
    "violation",
    [
        "INSERT INTO method (id, slug, name, aliases, node_id, name_rank, name_desc_rank, "
        "first_seen) "
        "VALUES (2, 'm2', 'M2', '[]', 999, 1, 1, 1)",
        "INSERT INTO evidence (id, key, model_id, method_id, strength) "
        "VALUES (1, 'k', 1, 1, 'strong')",
        "INSERT INTO source (id, slug, model_id, title, kind) VALUES (1, 's', 1, 'S', 'video')",
        "INSERT INTO method (id, slug, name, aliases, node_id, name_rank, name_desc_rank, "
        "first_seen) "
        "VALUES (2, 'm', 'M2', '[]', 1, 1, 1, 1)",
    ],
    ids=["foreign-key", "strength-enum", "source-kind-enum", "unique-slug"],
)
def test_constraints_are_enforced(
    backend: str, new_database: Callable[[str, str], str], violation: str
) -> None:
    url = new_database(backend, "constraints")
    migrate.upgrade(url)
    engine = make_sync_engine(url)
    try:
        with engine.begin() as connection:
            for statement in SETUP_AT_HEAD:
                connection.execute(text(statement))
        with pytest.raises(IntegrityError), engine.begin() as connection:
            connection.execute(text(violation))
    finally:
        engine.dispose()


@contextmanager
def _rows_then_upgrade(url: str, revision: str, statements: list[str]) -> Iterator[Engine]:
    """The database at ``revision`` with SETUP's rows and ``statements``', then migrated to
    head: what a database holding data goes through."""
    migrate.upgrade(url, revision)
    engine = make_sync_engine(url)
    try:
        with engine.begin() as connection:
            for statement in [*SETUP_BEFORE_0007, *statements]:
                connection.execute(text(statement))
        migrate.upgrade(url)
        yield engine
    finally:
        engine.dispose()


def _scalar(engine: Engine, sql: str) -> Any:
    with engine.connect() as connection:
        return connection.execute(text(sql)).scalar()


def test_0003_fills_recency_rank_of_existing_rows(
    backend: str, new_database: Callable[[str, str], str]
) -> None:
    rows = [
        "UPDATE model SET recency_rank = 7 WHERE id = 1",
        "INSERT INTO branch_model (node_id, model_id, strongest_rank, method_count) "
        "VALUES (1, 1, 2, 1)",
    ]
    with _rows_then_upgrade(new_database(backend, "backfill"), "0002", rows) as engine:
        assert _scalar(engine, "SELECT recency_rank FROM branch_model") == 7


def test_0004_fills_node_pre_of_existing_rows_and_goes_back(
    backend: str, new_database: Callable[[str, str], str]
) -> None:
    url = new_database(backend, "node_pre")
    rows = [
        "UPDATE node SET pre = 5, last = 5 WHERE id = 1",
        "INSERT INTO treatment (method_id, model_id, strength_rank) VALUES (1, 1, 2)",
    ]
    with _rows_then_upgrade(url, "0003", rows) as engine:
        assert _scalar(engine, "SELECT node_pre FROM treatment") == 5
        indexes = {index["name"] for index in inspect(engine).get_indexes("treatment")}
        assert "ix_treatment_model_id_node_pre" in indexes
        assert "ix_treatment_model_id" not in indexes

        migrate.downgrade(url, "0003")
        inspector = inspect(engine)
        assert "node_pre" not in {column["name"] for column in inspector.get_columns("treatment")}
        assert "ix_treatment_model_id" in {i["name"] for i in inspector.get_indexes("treatment")}
        assert _scalar(engine, "SELECT strength_rank FROM treatment") == 2  # the pair is kept


def test_0007_ranks_existing_rows_both_ways_and_goes_back(
    backend: str, new_database: Callable[[str, str], str]
) -> None:
    url = new_database(backend, "reverse_orders")
    rows = [
        "UPDATE model SET release_date = '2024-05-01' WHERE id = 1",
        "INSERT INTO model (id, slug, name, name_rank, recency_rank) VALUES (2, 'b', 'x', 1, 2)",
        "INSERT INTO model (id, slug, name, release_date, name_rank, recency_rank) "
        "VALUES (3, 'a', 'Y', '2020-01-01', 2, 1)",
        "INSERT INTO method (id, slug, name, aliases, node_id, name_rank) "
        "VALUES (2, 'a', 'm', '[]', 1, 1)",
    ]
    with _rows_then_upgrade(url, "0006", rows) as engine:
        with engine.connect() as connection:
            models = connection.execute(
                text("SELECT slug, name_desc_rank, age_rank FROM model ORDER BY id")
            ).all()
            methods = connection.execute(
                text("SELECT slug, name_desc_rank FROM method ORDER BY id")
            ).all()
        # Z to A: Y, then the two named X by slug A to Z (b before x); oldest first, undated last.
        assert [tuple(row) for row in models] == [("x", 2, 1), ("b", 1, 2), ("a", 0, 0)]
        assert [tuple(row) for row in methods] == [("m", 1), ("a", 0)]

        migrate.downgrade(url, "0006")
        columns = {column["name"] for column in inspect(engine).get_columns("model")}
        assert not {"name_desc_rank", "age_rank"} & columns


def test_a_load_leaves_every_index_and_key_in_place(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """Loads drop indexes and keys around their bulk inserts; all must be back."""
    url = new_database(backend, "after_load")
    load_directory(tiny_folder, url)
    load_directory(tiny_folder, url)
    command.check(migrate.alembic_config(url))
    engine = make_sync_engine(url)
    try:
        inspector = inspect(engine)
        for table in metadata.tables.values():
            indexes = {index["name"] for index in inspector.get_indexes(table.name)}
            assert {index.name for index in table.indexes} <= indexes, table.name
            keys = {key["name"] for key in inspector.get_foreign_keys(table.name)}
            if backend == "postgresql":  # SQLite reports foreign keys without their names
                assert {key.name for key in table.foreign_key_constraints} == keys, table.name
            assert inspector.get_pk_constraint(table.name)["constrained_columns"]
    finally:
        engine.dispose()


def test_0006_fills_methods_by_strongest_as_a_load_does_and_goes_back(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """Downgraded to 0005 and upgraded again, a loaded database gets the same counts the
    load derived (store.derive), so it keeps serving without a reload."""
    url = new_database(backend, "methods_by_strongest")
    load_directory(tiny_folder, url)
    counts = (
        "SELECT node.slug, core_methods, used_methods, mentioned_methods FROM node_stats "
        "JOIN node ON node.id = node_stats.node_id ORDER BY node.slug"
    )
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            derived = [tuple(row) for row in connection.execute(text(counts))]
        assert ("alpha", 2, 3, 0) in derived  # tests/test_semantics.py works it out
        migrate.downgrade(url, "0005")
        columns = {column["name"] for column in inspect(engine).get_columns("node_stats")}
        assert not columns & {"core_methods", "used_methods", "mentioned_methods"}
        migrate.upgrade(url)
        with engine.connect() as connection:
            assert [tuple(row) for row in connection.execute(text(counts))] == derived
    finally:
        engine.dispose()


def test_0008_makes_a_release_of_the_served_load_and_goes_back(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """Downgraded to 0007 (the history gone) and upgraded again, a loaded database has one
    release, of the load it serves, in which every record is first seen; a load after
    that records its changes against it."""
    url = new_database(backend, "releases")
    load_directory(tiny_folder, url)
    load_directory(tiny_folder, url)
    served = "SELECT version, identity, checksum FROM dataset"
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            version, identity, checksum = connection.execute(text(served)).one()
        assert version == 2
        migrate.downgrade(url, "0007")
        assert not {"release", "node_change", "treatment_change"} & _tables(url)
        for table in ("node", "method", "model"):
            columns = {column["name"] for column in inspect(engine).get_columns(table)}
            assert "first_seen" not in columns
        migrate.upgrade(url)
        with engine.connect() as connection:
            releases = connection.execute(text("SELECT number, identity, checksum FROM release"))
            assert [tuple(row) for row in releases] == [(2, identity, checksum)]
            for table in ("node", "method", "model"):
                seen = connection.execute(text(f"SELECT DISTINCT first_seen FROM {table}"))
                assert [row[0] for row in seen] == [2]
        load_directory(tiny_folder, url)
        with engine.connect() as connection:
            numbers = connection.execute(text("SELECT number FROM release ORDER BY number"))
            assert [row[0] for row in numbers] == [2, 3]
            assert connection.execute(text("SELECT MIN(first_seen) FROM method")).scalar() == 2
    finally:
        engine.dispose()


def test_0009_derives_adoption_as_a_load_does_and_goes_back(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """Downgraded to 0008 and upgraded again, a loaded database gets the adoption rows and
    first models the load derived (store.history.adoption), so it keeps serving without a reload."""
    url = new_database(backend, "adoption")
    load_directory(tiny_folder, url)
    derived = {
        "node_adoption": "SELECT node_id, max_rank, month, models, new_methods FROM node_adoption"
        " ORDER BY node_id, max_rank, month",
        "first": "SELECT method_id, first_model_id FROM method_stats ORDER BY method_id",
    }
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            loaded = {
                name: [tuple(row) for row in connection.execute(text(sql))]
                for name, sql in derived.items()
            }
        assert loaded["node_adoption"]
        assert any(first is not None for _, first in loaded["first"])
        migrate.downgrade(url, "0008")
        inspector = inspect(engine)
        assert "node_adoption" not in inspector.get_table_names()
        assert "first_model_id" not in {c["name"] for c in inspector.get_columns("method_stats")}
        migrate.upgrade(url)
        with engine.connect() as connection:
            for name, sql in derived.items():
                assert [tuple(row) for row in connection.execute(text(sql))] == loaded[name], name
    finally:
        engine.dispose()


def test_0011_stores_the_search_catalogue_as_a_load_does_and_goes_back(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """Downgraded to 0010 and upgraded again, a loaded database gets the search catalogue
    its load stored (store.search_saved), part for part, so it keeps searching without a
    reload."""
    url = new_database(backend, "search_catalogue")
    load_directory(tiny_folder, url)
    parts = "SELECT part, data FROM search_catalogue ORDER BY part"
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            loaded = [(part, bytes(data)) for part, data in connection.execute(text(parts))]
        assert len(loaded) > 30
        assert any(len(data) > 100 for _, data in loaded)
        migrate.downgrade(url, "0010")
        assert "search_catalogue" not in inspect(engine).get_table_names()
        migrate.upgrade(url)
        with engine.connect() as connection:
            again = [(part, bytes(data)) for part, data in connection.execute(text(parts))]
        assert again == loaded
    finally:
        engine.dispose()


def test_a_sqlite_load_checks_every_key_before_it_commits(
    new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """SQLite loads write with foreign keys off (store.engines) and check them all at
    once at the end: a row that refers to nothing stops the load, saying so."""
    url = new_database("sqlite", "keys")
    load_directory(tiny_folder, url)
    engine = make_sync_engine(url, foreign_keys=False)
    evidence = table_of(EvidenceRow)
    try:
        with engine.begin() as connection:
            check_sqlite_keys(connection, [evidence])  # the loaded rows: every key holds
            connection.execute(
                text(
                    "INSERT INTO evidence (id, key, model_id, method_id, strength) "
                    "VALUES (999, 'orphan', 12345, 1, 'core')"
                )
            )
            with pytest.raises(BrokenKeysError, match=r"^1 rows refer to rows that do not exist"):
                check_sqlite_keys(connection, [evidence])
            connection.rollback()
    finally:
        engine.dispose()


def test_0012_keeps_field_changes_and_goes_back(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path, tmp_path: Path
) -> None:
    """A load after 0012 keeps a node's fields in its change row and reports a change of
    its matching aids alone as "changed"; downgraded to 0011 the columns and the kind are
    gone (the row reads as no change), and upgraded again the old row has no fields: its
    release's fields are unknown, never reported as changed."""
    url = new_database(backend, "field_changes")
    edited = shutil.copytree(tiny_folder, tmp_path / "edited")
    lines = (edited / "nodes.jsonl").read_text(encoding="utf-8").replace("gamma rays", "x rays")
    (edited / "nodes.jsonl").write_text(lines, encoding="utf-8")
    load_directory(tiny_folder, url)
    load_directory(edited, url)
    rows = "SELECT slug, before_name, after_name, before_fields, after_fields FROM node_change"
    kinds = "SELECT rank, name FROM change_kind ORDER BY rank"
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            ((slug, before, after, fields_before, fields_after),) = connection.execute(text(rows))
            assert (slug, before, after) == ("gamma", "Gamma", "Gamma")
            (change,) = field_changes("node", fields_before, fields_after)
            assert (change.field, change.before, change.after) == (
                "matchingAids",
                ["gamma rays"],
                ["x rays"],
            )
            assert connection.execute(text(kinds)).all()[-1] == (6, "changed")
        migrate.downgrade(url, "0011")
        columns = {c["name"] for c in inspect(engine).get_columns("node_change")}
        assert {"before_fields", "after_fields"}.isdisjoint(columns)
        with engine.connect() as connection:
            assert [name for _, name in connection.execute(text(kinds))][-1] == "weakened"
        migrate.upgrade(url)
        with engine.connect() as connection:
            assert connection.execute(text(rows)).all() == [("gamma", "Gamma", "Gamma", None, None)]
            assert connection.execute(text(kinds)).all()[-1] == (6, "changed")
        load_directory(tiny_folder, url)  # the aids back: a field change again
        with engine.connect() as connection:
            newest = connection.execute(text(f"{rows} WHERE release = 3")).one()
            assert [c.field for c in field_changes("node", newest[3], newest[4])] == [
                "matchingAids"
            ]
    finally:
        engine.dispose()


def test_0013_fills_the_methods_orders_as_a_load_does_and_goes_back(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """Downgraded to 0012 and upgraded again, a loaded database gets each method's name
    rank and places by strength beside its figures, as the load derived them
    (store.derive), with the indexes of the methods' orders by count and strength."""
    url = new_database(backend, "method_orders")
    load_directory(tiny_folder, url)
    ranks = (
        "SELECT method.slug, method_stats.name_rank, method.name_rank, strongest_rank, "
        "strongest_order, weakest_order, model_count, most_models_order FROM method_stats "
        "JOIN method ON method.id = method_stats.method_id ORDER BY method.slug"
    )
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            derived = [tuple(row) for row in connection.execute(text(ranks))]
        assert len(derived) > 3
        assert all(row[1] == row[2] for row in derived)  # the method's own name rank
        assert all(row[7] == -row[6] for row in derived)
        places = {(row[3], row[4], row[5]) for row in derived}
        # tests/tiny_dataset.py has core and used methods and one that nobody treats.
        assert {(1, 1, 3), (2, 2, 2), (None, 4, 4)} <= places
        assert places <= {(1, 1, 3), (2, 2, 2), (3, 3, 1), (None, 4, 4)}
        migrate.downgrade(url, "0012")
        columns = {column["name"] for column in inspect(engine).get_columns("method_stats")}
        assert not columns & {"name_rank", "most_models_order", "strongest_order"}
        assert not inspect(engine).get_indexes("method_stats")
        migrate.upgrade(url)
        with engine.connect() as connection:
            assert [tuple(row) for row in connection.execute(text(ranks))] == derived
        indexes = {index["name"] for index in inspect(engine).get_indexes("method_stats")}
        assert indexes == {
            "ix_method_stats_model_count",
            "ix_method_stats_most_models_order",
            "ix_method_stats_strongest_order",
            "ix_method_stats_weakest_order",
        }
    finally:
        engine.dispose()


def test_0014_copies_the_methods_name_ranks_as_a_load_does_and_goes_back(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """Downgraded to 0013 and upgraded again, a loaded database gets each treatment's
    method name rank as the load derived it (store.derive), with the index of a model's
    treatments by strength and name."""
    url = new_database(backend, "treatment_order")
    load_directory(tiny_folder, url)
    ranks = (
        "SELECT treatment.model_id, treatment.method_id, treatment.method_name_rank, "
        "method.name_rank FROM treatment JOIN method ON method.id = treatment.method_id "
        "ORDER BY treatment.model_id, treatment.method_id"
    )
    index = "ix_treatment_model_strength_name"
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            derived = [tuple(row) for row in connection.execute(text(ranks))]
        assert len(derived) > 3
        assert all(row[2] == row[3] for row in derived)
        assert len({row[2] for row in derived}) > 1
        migrate.downgrade(url, "0013")
        columns = {column["name"] for column in inspect(engine).get_columns("treatment")}
        assert "method_name_rank" not in columns
        assert index not in {i["name"] for i in inspect(engine).get_indexes("treatment")}
        migrate.upgrade(url)
        with engine.connect() as connection:
            assert [tuple(row) for row in connection.execute(text(ranks))] == derived
        indexes = {i["name"]: i["column_names"] for i in inspect(engine).get_indexes("treatment")}
        assert indexes[index] == ["model_id", "strength_rank", "method_name_rank"]
        nullable = {c["name"]: c["nullable"] for c in inspect(engine).get_columns("treatment")}
        assert nullable["method_name_rank"] is False
    finally:
        engine.dispose()


def test_0016_indexes_the_treatments_orders_as_a_load_does_and_goes_back(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """Downgraded to 0015 and upgraded again, a loaded database gets the indexes that a
    load builds for the orders of a model's methods (the (model, name rank) index, and the
    (model, node_pre) index with the name rank), and no column: its rows are unchanged."""
    url = new_database(backend, "treatment_orders")
    load_directory(tiny_folder, url)
    rows = "SELECT * FROM treatment ORDER BY model_id, method_id"
    name_index = {"ix_treatment_model_name": ["model_id", "method_name_rank"]}
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            loaded = [tuple(row) for row in connection.execute(text(rows))]
        columns = [column["name"] for column in inspect(engine).get_columns("treatment")]
        assert len(loaded) > 3
        found = {i["name"]: i["column_names"] for i in inspect(engine).get_indexes("treatment")}
        node_index = ["model_id", "node_pre", "method_name_rank"]
        assert found["ix_treatment_model_id_node_pre"] == node_index
        assert {name: found[name] for name in name_index} == name_index
        built = found
        migrate.downgrade(url, "0015")
        found = {i["name"]: i["column_names"] for i in inspect(engine).get_indexes("treatment")}
        assert not found.keys() & name_index.keys()
        assert found["ix_treatment_model_id_node_pre"] == ["model_id", "node_pre"]
        migrate.upgrade(url)
        with engine.connect() as connection:
            assert [tuple(row) for row in connection.execute(text(rows))] == loaded
        assert [c["name"] for c in inspect(engine).get_columns("treatment")] == columns
        found = {i["name"]: i["column_names"] for i in inspect(engine).get_indexes("treatment")}
        assert found == built
    finally:
        engine.dispose()


def test_0017_keeps_treatment_change_digests_and_goes_back(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path, tmp_path: Path
) -> None:
    """A load writes each treatment change row's evidence digests, before and after (a pair
    removed keeps its digest before, one added its digest after); downgraded to 0016 the
    columns go, the rows stay; upgraded again they come back empty (null: unknown, never a
    change), and the next load writes them again."""
    url = new_database(backend, "change_digests")
    pieces = [
        json.loads(line) for line in (tiny_folder / "evidence.jsonl").read_text().splitlines()
    ]
    second = shutil.copytree(tiny_folder, tmp_path / "second")
    kept = [p for p in pieces if (p["model"], p["method"]) != ("tie-b", "m-charlie")]
    (second / "evidence.jsonl").write_text("".join(json.dumps(p) + "\n" for p in kept))
    load_directory(tiny_folder, url)
    load_directory(second, url)
    rows = (
        "SELECT model_slug, method_slug, before_rank, after_rank FROM treatment_change "
        "ORDER BY release, model_slug, method_slug"
    )
    digests = "SELECT before_digest, after_digest FROM treatment_change"
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            written = [tuple(row) for row in connection.execute(text(rows))]
            (removed,) = connection.execute(text(digests)).all()
        assert written == [("tie-b", "m-charlie", 2, None)]
        assert removed[0] is not None
        assert removed[1] is None
        migrate.downgrade(url, "0016")
        columns = {c["name"] for c in inspect(engine).get_columns("treatment_change")}
        assert not {"before_digest", "after_digest"} & columns
        with engine.connect() as connection:
            assert [tuple(row) for row in connection.execute(text(rows))] == written
        migrate.upgrade(url)
        with engine.connect() as connection:
            assert [tuple(row) for row in connection.execute(text(rows))] == written
            assert [tuple(row) for row in connection.execute(text(digests))] == [(None, None)]
        load_directory(tiny_folder, url)  # the pair added back: its digest after
        with engine.connect() as connection:
            found = connection.execute(text(digests + " ORDER BY release")).all()
        assert [(before, after is not None) for before, after in found] == [
            (None, False),
            (None, True),
        ]
    finally:
        engine.dispose()
