"""Rows come back as the shape their statement names (store.rows): a named tuple read by
field name, or a table's record itself, never a bare tuple read by position."""

import asyncio
from collections.abc import Awaitable, Callable
from typing import NamedTuple, TypeVar

import pytest
from sqlmodel import col, select

from store import models, nodes, treatments
from store.engines import ServerEngine, make_async_engine, make_request_engine
from store.models import ModelSelection
from store.nodes import NodeWithStats
from store.paging import Sort, Window
from store.reader import Reader
from store.rows import Prepared
from store.tables import ModelRow, NodeRow, NodeStatsRow
from store.treatments import BranchTreatment

from conftest import Api

T = TypeVar("T")
SEED_SLUG = "training-parallelism"


def _read(api: Api, read: Callable[[Reader], Awaitable[T]]) -> T:
    """``read(reader)`` on the database ``api`` serves, through an engine of its own."""

    async def run() -> T:
        async_engine = make_async_engine(api.database_url, pool_size=1)
        engine = make_request_engine(api.database_url, async_engine, pool_size=1)
        reader = Reader.of(engine)
        try:
            return await read(reader)
        finally:
            await reader.close()
            if not isinstance(engine, ServerEngine):
                engine.dispose()
            await async_engine.dispose()

    return asyncio.run(run())


def test_a_node_comes_with_its_counts_by_field_name(api: Api) -> None:
    (found,) = _read(
        api, lambda reader: nodes.nodes_where(reader, column="slug", values=[SEED_SLUG])
    )
    assert isinstance(found, NodeWithStats)
    assert found.node.slug == SEED_SLUG
    assert found.stats.node_id == found.node.id
    assert found.stats.methods_in_branch == 29  # the seed page's


def test_a_select_of_one_table_gives_its_records_themselves(api: Api) -> None:
    found = _read(api, lambda reader: models.models_where(reader, column="id", values=[1]))
    assert [model.id for model in found] == [1]
    assert not isinstance(found[0], ModelRow)  # a light record, not an ORM instance
    assert isinstance(found[0].slug, str)


def test_the_methods_of_a_by_model_row_name_their_branch(api: Api) -> None:
    async def read(reader: Reader) -> list[BranchTreatment]:
        (seed,) = await nodes.nodes_where(reader, column="slug", values=[SEED_SLUG])
        page = await treatments.by_model_page(
            reader,
            node_id=seed.node.id or 0,
            max_rank=3,
            models=ModelSelection(),
            sort=Sort("release_date", descending=True),
            window=Window(1),
        )
        (first,) = page.rows
        return await treatments.branch_treatments(
            reader, node_models=[(first.row.node_id, first.model.id or 0)]
        )

    rows = _read(api, read)
    assert rows
    assert all(isinstance(row, BranchTreatment) for row in rows)
    assert {row.treatment.model_id for row in rows} == {rows[0].treatment.model_id}
    assert all(row.treatment.method_id == row.method.id == row.stats.method_id for row in rows)


class _ThreeParts(NamedTuple):
    node: NodeRow
    stats: NodeStatsRow
    extra: int


def test_a_shape_with_another_number_of_parts_is_refused_when_prepared() -> None:
    statement = select(NodeRow, NodeStatsRow).join(
        NodeStatsRow, col(NodeStatsRow.node_id) == col(NodeRow.id)
    )
    with pytest.raises(AssertionError, match="2 parts"):
        Prepared.of(statement, _ThreeParts)
