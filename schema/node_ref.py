"""Naming a node the way a page URL or a breadcrumb does: by ID, slug, slug path or names
path. `NodeRef` is the input that `branch` arguments take (exactly one of its fields,
`@oneOf`), and `node(path:)` finds nodes the same way."""

import strawberry

from schema.base import optional_input
from schema.context import Info
from schema.errors import BadUserInputError, NotFoundError
from schema.lookup import row_for_id
from store.nodes import NodeWithStats, nodes_by_path_key
from store.tables import NodeRow

PATH_SEPARATOR = "::"


async def node_by_names_path(info: Info, path: str, argument: str) -> NodeWithStats | None:
    """The node whose names path is ``path`` (`optimization :: training parallelism`; a
    root's is its name), matched case-insensitively with any spacing around the
    separators; an exact match wins over one that differs in case only."""
    wanted = " :: ".join(part.strip() for part in path.split(PATH_SEPARATOR))
    found = await nodes_by_path_key(info.context.reader, path_key=wanted.casefold())
    exact = [row for row in found if row.node.path == wanted]
    candidates = exact or found
    if len(candidates) > 1:
        slug_paths = ", ".join(row.node.slug_path for row in candidates)
        raise BadUserInputError(
            f"`{argument}`: {path!r} names {len(candidates)} nodes ({slug_paths}); use a slug path"
        )
    return candidates[0] if candidates else None


async def node_by_path(
    info: Info, path: str, argument: str, *, with_ancestors: bool = False
) -> NodeWithStats | None:
    """The node of a slug path (`optimization/training-parallelism`) or a names path;
    ``with_ancestors``, a slug path's node comes with its ancestors (one statement).

    A path without ` :: ` may be either: a slug path, or a root's name (`Computer
    Vision`), or a name with a `/` in it; the slug path is tried first, as the one a
    page URL carries."""
    if PATH_SEPARATOR not in path:
        slug_path, loaders = path.strip().strip("/"), info.context.loaders
        found = await (
            loaders.node_by_slug_path_with_ancestors(slug_path)
            if with_ancestors
            else loaders.node_by_slug_path.load(slug_path)
        )
        if found is not None:
            return found
    return await node_by_names_path(info, path, argument)


@strawberry.input(
    name="NodeRef",
    one_of=True,
    description="A node, named by exactly one of its ID, slug, slug path or names path: "
    "what a page URL or a breadcrumb already has, with no lookup first.",
)
class NodeReference:
    id: strawberry.ID | None = strawberry.field(
        default=strawberry.UNSET, description="The node's ID."
    )
    slug: str | None = strawberry.field(
        default=strawberry.UNSET, description="The node's slug, e.g. `training-parallelism`."
    )
    slug_path: str | None = strawberry.field(
        default=strawberry.UNSET,
        description="The node's slug path, e.g. `optimization/training-parallelism`.",
    )
    path: str | None = strawberry.field(
        default=strawberry.UNSET,
        description="A names path as `Node.path` shows it (`optimization :: training "
        "parallelism`, any case; a root's is its name) or a slug path, as `node(path:)` "
        "takes it.",
    )


async def node_of_reference(info: Info, reference: NodeReference, argument: str) -> NodeRow:
    """The node ``reference`` names; an unknown one is an input error naming it."""
    given = {
        field: value
        for field, value in (
            ("id", reference.id),
            ("slug", reference.slug),
            ("slugPath", reference.slug_path),
            ("path", reference.path),
        )
        if value is not None and value is not strawberry.UNSET
    }
    if len(given) != 1:  # @oneOf lets exactly one through; a caller in code might not
        raise BadUserInputError(
            f"`{argument}`: give exactly one of `id`, `slug`, `slugPath`, `path`"
        )
    ((field, value),) = given.items()
    loaders = info.context.loaders
    if field == "id":
        row: NodeRow = await row_for_id(info, "Node", value, f"{argument}.id")
        return row
    if field == "slug":
        found = await loaders.node_by_slug.load(value)
    elif field == "slugPath":
        found = await loaders.node_by_slug_path.load(value.strip().strip("/"))
    else:
        found = await node_by_path(info, value, f"{argument}.path")
    if found is None:
        what = {"slug": "slug", "slugPath": "slug path", "path": "path"}[field]
        raise NotFoundError(
            f"`{argument}.{field}`: no node has the {what} {value!r}; "
            f"check it against the node's `{field}`"
        )
    return found.node


# `within: ID` came first; `branch: NodeRef` takes an ID too, and a URL's slug path.
WITHIN_DEPRECATED = (
    "Use `branch`, which takes the node's ID (`branch: {id: ...}`) or its slug, slug path "
    "or names path."
)


def within_field(what: str) -> strawberry.ID | None:
    """A filter's deprecated `within: ID` field: only ``what`` in the node's branch (typed,
    as Strawberry types its fields, as the value the field holds)."""
    return optional_input(
        strawberry.ID,
        f"Only {what} in the branch of this node (a Node ID).",
        deprecation_reason=WITHIN_DEPRECATED,
    )


def branch_field(what: str) -> NodeReference | None:
    """A filter's `branch: NodeRef` field: only ``what`` in the node's branch."""
    return optional_input(
        NodeReference,
        f"Only {what} in the branch of this node (by ID, slug, slug path or names path).",
    )


async def branch_of(
    info: Info,
    *,
    within: str | None,
    branch: NodeReference | None,
    prefix: str = "",
) -> NodeRow | None:
    """The node of a `branch: NodeRef` argument, or of the deprecated `within: ID` beside
    it (``prefix`` places them in the query, e.g. `filter.`); None when neither is given."""
    if within is not None and branch is not None:
        raise BadUserInputError(
            f"give `{prefix}branch` or `{prefix}within`, not both (`within` is deprecated)"
        )
    if branch is not None:
        return await node_of_reference(info, branch, f"{prefix}branch")
    if within is not None:
        row: NodeRow = await row_for_id(info, "Node", within, f"{prefix}within")
        return row
    return None
