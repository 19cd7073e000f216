"""Field changes: change rows keep the compared fields; the kind "changed"

History reported a node, method or model only when it was added, removed, moved or
renamed: a changed description, matching aid, alias, organization or release date went
unseen. Each node, method and model change row now keeps the record's compared fields
(store.history.field_values) before its release and after, as JSON text, and change_kind gets
"changed" (rank 6: the ranks before it stay). Rows recorded before this revision have
no fields (null): the fields of those releases are unknown, never reported as changed.
The downgrade drops the columns and the kind; the rows a load wrote for a field change
alone then compare equal by name and place, and read as no change.

Revision ID: 0012
Revises: 0011
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TABLES = ("node_change", "method_change", "model_change")
_CHANGED = 6  # the rank of "changed" (store.history.net_changes.KIND_ORDER), written here


def upgrade() -> None:
    for table in _TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("before_fields", sa.String(), nullable=True))
            batch.add_column(sa.Column("after_fields", sa.String(), nullable=True))
    kinds = sa.table("change_kind", sa.column("rank", sa.Integer), sa.column("name", sa.String))
    op.bulk_insert(kinds, [{"rank": _CHANGED, "name": "changed"}])


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM change_kind WHERE rank = :rank").bindparams(rank=_CHANGED))
    for table in _TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("after_fields")
            batch.drop_column("before_fields")
