"""Reading change rows (what each release changed) and the records' states now, for
store.net_changes to compose into the net change between two releases."""

from collections.abc import Sequence

from sqlalchemy import BindParameter, Integer, bindparam, select
from sqlalchemy.orm import aliased
from sqlmodel import col

from store.net_changes import StateRow
from store.reader import Reader
from store.rows import Prepared
from store.tables import (
    MethodChangeRow,
    ModelChangeRow,
    NodeChangeRow,
    NodeRow,
    TreatmentChangeRow,
)

_AFTER: BindParameter[int] = bindparam("after", type_=Integer)
_UNTIL: BindParameter[int] = bindparam("until", type_=Integer)


def _between(row_class: type, *columns: object) -> Prepared:
    release = col(row_class.release)  # type: ignore[attr-defined]
    return Prepared.of(
        select(release, *columns).where(release > _AFTER, release <= _UNTIL).order_by(release)
    )


_NODES = _between(
    NodeChangeRow,
    col(NodeChangeRow.slug),
    col(NodeChangeRow.before_name),
    col(NodeChangeRow.before_parent),
    col(NodeChangeRow.after_name),
    col(NodeChangeRow.after_parent),
)
_METHODS = _between(
    MethodChangeRow,
    col(MethodChangeRow.slug),
    col(MethodChangeRow.before_name),
    col(MethodChangeRow.before_node),
    col(MethodChangeRow.after_name),
    col(MethodChangeRow.after_node),
)
_MODELS = _between(
    ModelChangeRow,
    col(ModelChangeRow.slug),
    col(ModelChangeRow.before_name),
    col(ModelChangeRow.before_name),
    col(ModelChangeRow.after_name),
    col(ModelChangeRow.after_name),
)
_TREATMENTS = _between(
    TreatmentChangeRow,
    col(TreatmentChangeRow.model_slug),
    col(TreatmentChangeRow.method_slug),
    col(TreatmentChangeRow.before_rank),
    col(TreatmentChangeRow.after_rank),
)


def _named(row: Sequence[object], *, places: bool) -> StateRow:
    release, slug, before_name, before_place, after_name, after_place = row
    before = None if before_name is None else (before_name, before_place if places else None)
    after = None if after_name is None else (after_name, after_place if places else None)
    return StateRow(int(release), (str(slug),), before, after)  # type: ignore[arg-type, call-overload]


async def named_rows(reader: Reader, kind: str, after: int, until: int) -> list[StateRow]:
    """The change rows of ``kind`` (node, method, model) of the releases after ``after``
    up to ``until``, in release order."""
    statement = {"node": _NODES, "method": _METHODS, "model": _MODELS}[kind]
    rows = await reader.rows(statement, {"after": after, "until": until})
    return [_named(row, places=kind != "model") for row in rows]


async def treatment_rows(reader: Reader, after: int, until: int) -> list[StateRow]:
    rows = await reader.rows(_TREATMENTS, {"after": after, "until": until})
    return [
        StateRow(release, (model, method), before, after_rank)
        for release, model, method, before, after_rank in rows
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
