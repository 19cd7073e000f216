"""The loaded rows' tables as a load writes them: emptied first when written in place,
then filled straight through the driver (store.load.bulk), each from tuples in the order
of its COLUMNS."""

from collections.abc import Iterable, Sequence
from typing import Literal

from sqlalchemy import Connection, delete

from store.load.bulk import write_rows
from store.tables import TABLES_IN_LOAD_ORDER, table_of

Loaded = Literal["node", "node_closure", "model", "source", "method", "evidence"]

# Each loaded table's columns, in the order of the tuples a load writes, and those of
# them that hold lists or dates (written as text).
_NAMES: dict[Loaded, str] = {
    "node": "id slug name description parent_id matching_aids level path slug_path"
    " path_key pre last first_seen",
    "node_closure": "ancestor_id descendant_id depth",
    "model": "id slug name organization release_date name_rank name_desc_rank"
    " recency_rank age_rank first_seen",
    "source": "id slug model_id title kind url published_on",
    "method": "id slug name description aliases node_id name_rank name_desc_rank first_seen",
    "evidence": "id key model_id method_id source_id strength quote locator",
}
COLUMNS = {table: tuple(names.split()) for table, names in _NAMES.items()}
_AS_TEXT: dict[Loaded, tuple[str, ...]] = {
    "node": ("matching_aids",),
    "model": ("release_date",),
    "source": ("published_on",),
    "method": ("aliases",),
}


def clear_served(connection: Connection) -> None:
    """Delete every loaded and derived row, children before their parents."""
    for row_class in reversed(TABLES_IN_LOAD_ORDER):
        connection.execute(delete(table_of(row_class)))


def write_loaded(connection: Connection, *, table: Loaded, rows: Iterable[Sequence[object]]) -> int:
    """Insert ``rows`` (tuples in the order of COLUMNS[table]); returns how many."""
    return write_rows(connection, table, COLUMNS[table], rows, as_text=_AS_TEXT.get(table, ()))
