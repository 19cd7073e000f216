"""Reading the node change rows and the nodes served now, from which store.history.net_changes
undoes the tree of nodes as it was in a release."""

from typing import NamedTuple

from sqlalchemy import BindParameter, Integer, bindparam, select
from sqlalchemy.orm import aliased
from sqlmodel import col

from store.history.net_changes import StateRow
from store.reader import Reader
from store.rows import Prepared
from store.tables import NodeChangeRow, NodeRow

_AFTER: BindParameter[int] = bindparam("after", type_=Integer)
_UNTIL: BindParameter[int] = bindparam("until", type_=Integer)
_RELEASE = col(NodeChangeRow.release)


class _NodeChange(NamedTuple):
    release: int
    slug: str
    before_name: str | None
    before_parent: str | None
    after_name: str | None
    after_parent: str | None


_NODES = Prepared.of(
    select(
        _RELEASE,
        col(NodeChangeRow.slug),
        col(NodeChangeRow.before_name),
        col(NodeChangeRow.before_parent),
        col(NodeChangeRow.after_name),
        col(NodeChangeRow.after_parent),
    )
    .where(_RELEASE > _AFTER, _RELEASE <= _UNTIL)
    .order_by(_RELEASE),
    _NodeChange,
)


async def node_rows(reader: Reader, after: int, until: int) -> list[StateRow]:
    """The node change rows of the releases after ``after`` up to ``until``, in release
    order."""
    rows = await reader.rows(_NODES, {"after": after, "until": until})
    return [
        StateRow(
            int(row.release),
            (str(row.slug),),
            None if row.before_name is None else (row.before_name, row.before_parent),
            None if row.after_name is None else (row.after_name, row.after_parent),
        )
        for row in rows
    ]


_PARENT = aliased(NodeRow)


class _NodeNow(NamedTuple):
    slug: str
    name: str
    parent_slug: str | None


_NODES_NOW = Prepared.of(
    select(col(NodeRow.slug), col(NodeRow.name), col(_PARENT.slug)).outerjoin(
        _PARENT, col(_PARENT.id) == col(NodeRow.parent_id)
    ),
    _NodeNow,
)


async def nodes_now(reader: Reader) -> dict[str, tuple[str, str | None]]:
    """Every node served now: slug -> (name, parent slug)."""
    return {row.slug: (row.name, row.parent_slug) for row in await reader.rows(_NODES_NOW)}
