"""`taxonomy`: the whole dataset's totals and which load is being served."""

from datetime import datetime

import strawberry

from schema.context import Info
from store.data_version import data_version
from store.summary import summary


@strawberry.type(description="Totals of the whole taxonomy and the load that is being served.")
class TaxonomySummary:
    node_count: int = strawberry.field(description="All nodes.")
    root_count: int = strawberry.field(description="Nodes at level 1.")
    depth: int = strawberry.field(description="The deepest level of the tree (0 when empty).")
    method_count: int = strawberry.field(description="All methods.")
    model_count: int = strawberry.field(description="All models.")
    source_count: int = strawberry.field(description="All sources.")
    evidence_count: int = strawberry.field(description="All pieces of evidence.")
    data_version: str = strawberry.field(
        description="Which load is served: its number and a random identity, unique to that "
        "load in any database (`7-3f2a...`), new with every load (even of the same files); "
        "`0` before the first."
    )
    loaded_at: datetime | None = strawberry.field(
        description="When the served data was loaded (UTC); null before the first load."
    )
    checksum: str | None = strawberry.field(
        description="SHA-256 of the loaded records, to tell whether two loads had the same "
        "data: the same whatever the order of the lines and the spelling of their JSON (an "
        "export loaded again keeps it), different for any change of a record."
    )


async def taxonomy_summary(info: Info) -> TaxonomySummary:
    found = await summary(info.context.reader)
    return TaxonomySummary(
        node_count=found.node_count,
        root_count=found.root_count,
        depth=found.depth,
        method_count=found.method_count,
        model_count=found.model_count,
        source_count=found.source_count,
        evidence_count=found.evidence_count,
        data_version=data_version(found.version, found.identity) or "0",
        loaded_at=found.loaded_at,
        checksum=found.checksum,
    )
