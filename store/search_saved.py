"""The search catalogue's stored form in the database (the table search_catalogue):
built and written by the load, in its transaction, and read by each server process.

Written in place on both databases, even where a PostgreSQL load builds the served
tables beside them (store.load.beside): readers see the old rows until the load commits,
as they do for the release tables, and each reader reads the parts in its own snapshot,
with the data version (store.search_cache), so a catalogue always matches its data.
"""

from sqlalchemy import Connection, delete, insert, select

from store.reader import Reader
from store.search_catalogue import Parts, build, read_entries
from store.tables import SearchCatalogueRow, table_of

_TABLE = table_of(SearchCatalogueRow)


def write(connection: Connection, parts: Parts | None = None) -> None:
    """Store the catalogue ``parts`` (replacing the stored one); by default, build the
    catalogue of the data ``connection`` sees. A load builds its parts beforehand, from
    read_entries, in a child process (api.ingest.child), while it writes the evidence."""
    if parts is None:
        parts = build(read_entries(connection))
    connection.execute(delete(_TABLE))
    connection.execute(
        insert(_TABLE), [{"part": name, "data": data} for name, data in parts.items()]
    )


async def read(reader: Reader) -> tuple[str | None, Parts]:
    """The data version of ``reader``'s snapshot and the catalogue stored with it (of
    no entries when nothing is loaded)."""
    version = await reader.open_snapshot()  # read with the snapshot's first statement
    result = await reader.execute(select(_TABLE.c.part, _TABLE.c.data))
    parts = {name: bytes(data) for name, data in result.all()}
    return version, parts or build([])
