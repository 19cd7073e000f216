"""node_stats: each branch's methods counted by their strongest treatment

A browser's facet ("12 methods core somewhere, 30 used, 5 mentioned") is then a lookup,
like every other count of a node. A database migrated with data in it gets the counts
from its read model here (method_stats and node_closure), so it keeps serving without a
reload; the load derives them from then on (store.derive).

Revision ID: 0006
Revises: 0005
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The strengths' ranks as the database stores them, as of this revision.
_COLUMNS = {"core_methods": 1, "used_methods": 2, "mentioned_methods": 3}


def upgrade() -> None:
    with op.batch_alter_table("node_stats", schema=None) as batch_op:
        for column in _COLUMNS:
            batch_op.add_column(sa.Column(column, sa.Integer(), nullable=False, server_default="0"))
    for column, rank in _COLUMNS.items():
        op.execute(
            sa.text(
                f"UPDATE node_stats SET {column} = (SELECT COUNT(*) FROM node_closure c"
                " JOIN method m ON m.node_id = c.descendant_id"
                " JOIN method_stats ms ON ms.method_id = m.id"
                " WHERE c.ancestor_id = node_stats.node_id AND ms.strongest_rank = :rank)"
            ).bindparams(rank=rank)
        )
    with op.batch_alter_table("node_stats", schema=None) as batch_op:
        for column in _COLUMNS:
            batch_op.alter_column(column, existing_type=sa.Integer(), server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("node_stats", schema=None) as batch_op:
        for column in _COLUMNS:
            batch_op.drop_column(column)
