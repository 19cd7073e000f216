"""The organizations that made models, each with how many (a browser's facet), over all
models or over those with evidence in a branch."""

from collections import Counter
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlmodel import col

from store.reader import Reader
from store.tables import BranchModelRow, ModelRow


@dataclass(frozen=True)
class OrganizationCount:
    name: str
    model_count: int


async def organizations(reader: Reader, node_id: int | None = None) -> list[OrganizationCount]:
    """Most models first, then by name case-insensitively. One organization however its
    name is cased (as the `organization` filter matches it), shown as most of its models
    write it. Models of no known organization are not counted."""
    statement = (
        select(col(ModelRow.organization), func.count())
        .where(col(ModelRow.organization).is_not(None))
        .group_by(col(ModelRow.organization))
    )
    if node_id is not None:  # the models with a By-model row in the branch
        statement = statement.join(
            BranchModelRow, col(BranchModelRow.model_id) == col(ModelRow.id)
        ).where(col(BranchModelRow.node_id) == node_id)
    spellings: dict[str, Counter[str]] = {}
    for name, count in (await reader.execute(statement)).all():
        spellings.setdefault(name.lower(), Counter())[name] += count
    # Grouped and ordered here, not in SQL: the databases' collations order text apart.
    counted = [
        OrganizationCount(min(written, key=lambda name: (-written[name], name)), written.total())
        for written in spellings.values()
    ]
    return sorted(counted, key=lambda org: (-org.model_count, org.name.lower(), org.name))
