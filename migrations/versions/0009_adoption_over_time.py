"""node_adoption, method_stats.first_model_id: adoption over time

A branch's models and new methods per release month (at each strength threshold) and
each method's earliest-released model, derived at load time (store.history.adoption,
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

from store.history.adoption import derive_adoption

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The load's statement as it was at this revision (store.derive.METHOD_STATS): a later
# revision's columns are not there yet.
_METHOD_STATS = """INSERT INTO method_stats (method_id, strongest_rank, model_count,
        first_model_id)
    SELECT s.method_id, s.strongest_rank, s.model_count, earliest.id
    FROM (SELECT m.id AS method_id, MIN(t.strength_rank) AS strongest_rank,
              COUNT(t.model_id) AS model_count,
              MIN(CASE WHEN mo.release_date IS NOT NULL THEN mo.age_rank END) AS first_age
          FROM method m LEFT JOIN treatment t ON t.method_id = m.id
          LEFT JOIN model mo ON mo.id = t.model_id
          GROUP BY m.id) s
    LEFT JOIN model earliest ON earliest.age_rank = s.first_age"""


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
    connection.execute(sa.text(_METHOD_STATS))
    derive_adoption(connection)


def downgrade() -> None:
    with op.batch_alter_table("method_stats", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_method_stats_first_model_id_model"), type_="foreignkey"
        )
        batch_op.drop_column("first_model_id")
    op.drop_table("node_adoption")
