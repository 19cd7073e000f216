"""branch_model: the model's recency rank, and indexes for By-model pages

A page of a By-model table in its default order (or by strength) becomes an index range
scan that stops after the page. Existing rows get the rank from their model, so a
database migrated with data in it keeps serving without a reload.

Revision ID: 0003
Revises: 0002
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("branch_model", schema=None) as batch_op:
        batch_op.add_column(sa.Column("recency_rank", sa.Integer(), nullable=True))
    op.execute(
        "UPDATE branch_model SET recency_rank = "
        "(SELECT model.recency_rank FROM model WHERE model.id = branch_model.model_id)"
    )
    with op.batch_alter_table("branch_model", schema=None) as batch_op:
        batch_op.alter_column("recency_rank", existing_type=sa.Integer(), nullable=False)
        batch_op.create_index(
            "ix_branch_model_node_id_recency_rank", ["node_id", "recency_rank"], unique=False
        )
        batch_op.create_index(
            "ix_branch_model_node_id_strongest_rank",
            ["node_id", "strongest_rank", "recency_rank"],
            unique=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("branch_model", schema=None) as batch_op:
        batch_op.drop_index("ix_branch_model_node_id_strongest_rank")
        batch_op.drop_index("ix_branch_model_node_id_recency_rank")
        batch_op.drop_column("recency_rank")
