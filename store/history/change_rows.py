"""Reading the node change rows and the nodes served now, from which store.history.net_changes
undoes the tree of nodes as it was in a release."""

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
    .order_by(_RELEASE)
)


async def node_rows(reader: Reader, after: int, until: int) -> list[StateRow]:
    """The node change rows of the releases after ``after`` up to ``until``, in release
    order."""
    rows = await reader.rows(_NODES, {"after": after, "until": until})
    return [
        StateRow(
            int(release),
            (str(slug),),
            None if before_name is None else (before_name, before_parent),
            None if after_name is None else (after_name, after_parent),
        )
        for release, slug, before_name, before_parent, after_name, after_parent in rows
    ]


_PARENT = aliased(NodeRow)
_NODES_NOW = Prepared.of(
    select(col(NodeRow.slug), col(NodeRow.name), col(_PARENT.slug)).outerjoin(
        _PARENT, col(_PARENT.id) == col(NodeRow.parent_id)
    )
)


async def nodes_now(reader: Reader) -> dict[str, tuple[str, str | None]]:
    """Every node served now: slug -> (name, parent slug)."""
    return {slug: (name, parent) for slug, name, parent in await reader.rows(_NODES_NOW)}
