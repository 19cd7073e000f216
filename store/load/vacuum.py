"""PostgreSQL, once a load has committed: VACUUM (ANALYZE) the tables it rewrote.

A load in place replaces every row, so half of each table is dead rows until vacuumed,
and autovacuum gets there at its own unhurried pace: meanwhile readers' index scans step
over them, and the next load in place deletes and checks through them too (an L reload
took 124 s after two loads, 85 s after a vacuum). Tables built beside the served ones
(store.load.beside) have no dead rows, but are new to autovacuum: the vacuum marks their
pages all-visible (index-only scans) and gives `dataset` and the change tables fresh
statistics (0.7 s at L)."""

from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError

from store import search_index
from store.tables import TABLES_IN_LOAD_ORDER, DatasetRow, table_of


class VacuumError(Exception):
    """The vacuum failed; the load it follows is committed and served all the same."""


def reclaim_replaced_rows(engine: Engine) -> bool:
    """Vacuum the loaded tables; False on SQLite, which reuses the freed pages itself."""
    if engine.dialect.name != "postgresql":
        return False
    names = [table_of(row_class).name for row_class in TABLES_IN_LOAD_ORDER]
    tables = ", ".join([*names, search_index.POSTGRES_TABLE, table_of(DatasetRow).name])
    try:
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text(f"VACUUM (ANALYZE) {tables}"))
    except SQLAlchemyError as exc:
        raise VacuumError(str(exc)) from exc
    return True
