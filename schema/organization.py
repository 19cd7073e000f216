"""`Organization`: who made the models, with how many: a facet for the `organization`
filters of `models` and `byModel`."""

from typing import Annotated

import strawberry

from schema.context import Info
from schema.node_ref import NodeReference, node_of_reference
from store.organizations import organizations as organizations_of


@strawberry.type(description="An organization that made models, and how many of them.")
class Organization:
    name: str = strawberry.field(
        description="As most of its models write it; pass it to an `organization` filter."
    )
    model_count: int = strawberry.field(
        description="Its models: all, or those with evidence in the branch asked about."
    )


BranchArgument = Annotated[
    NodeReference | None,
    strawberry.argument(
        description="Count only the models with evidence in this node's branch (the rows of "
        "its `byModel`), by ID, slug, slug path or names path."
    ),
]


async def organizations(info: Info, branch: NodeReference | None) -> list[Organization]:
    node = None if branch is None else await node_of_reference(info, branch, "branch")
    found = await organizations_of(info.context.reader, None if node is None else node.id)
    return [Organization(name=org.name, model_count=org.model_count) for org in found]
