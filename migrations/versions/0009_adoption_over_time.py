"""node_adoption, method_stats.first_model_id: adoption over time

A branch's models and new methods per release month (at each strength threshold) and
each method's earliest-released model, derived at load time (store.adoption,
store.derive). A database migrated with data in it gets them here from its rows and read
model (model, treatment, branch_model, node_closure) by the load's own statements:
method_stats is derived again whole, which gives the same figures plus the first model.
So it keeps serving without a reload.

Revision ID: 0009
Revises: 0008
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from store.adoption import derive_adoption
from store.derive import METHOD_STATS

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "node_adoption",
        sa.Column("node_id", sa.Integer(), nullable=False),
        sa.Column("max_rank", sa.SmallInteger(), nullable=False),
        sa.Column("month", sa.Integer(), nullable=False),
        sa.Column("models", sa.Integer(), nullable=False),
        sa.Column("new_methods", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("node_id", "max_rank", "month", name=op.f("pk_node_adoption")),
    )
    with op.batch_alter_table("method_stats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("first_model_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_method_stats_first_model_id_model"), "model", ["first_model_id"], ["id"]
        )
    connection = op.get_bind()
    connection.execute(sa.text("DELETE FROM method_stats"))
    connection.execute(sa.text(METHOD_STATS))
    derive_adoption(connection)


def downgrade() -> None:
    with op.batch_alter_table("method_stats", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_method_stats_first_model_id_model"), type_="foreignkey"
        )
        batch_op.drop_column("first_model_id")
    op.drop_table("node_adoption")
