"""treatment: the pre-order position of the method's node, and an index by model and it

A model's treatments in a branch (a By-model row's methods, `Model.treatments(within:)`)
become an index range scan whose cost is the rows returned; before, a root's By-model
page probed every method of the root once per model on the page. Existing rows get the
position from their method's node, so a database migrated with data in it keeps serving
without a reload.

Revision ID: 0004
Revises: 0003
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("treatment", schema=None) as batch_op:
        batch_op.add_column(sa.Column("node_pre", sa.Integer(), nullable=True))
    op.execute(
        "UPDATE treatment SET node_pre = (SELECT node.pre FROM method"
        " JOIN node ON node.id = method.node_id WHERE method.id = treatment.method_id)"
    )
    with op.batch_alter_table("treatment", schema=None) as batch_op:
        batch_op.alter_column("node_pre", existing_type=sa.Integer(), nullable=False)
        batch_op.drop_index("ix_treatment_model_id")
        batch_op.create_index(
            "ix_treatment_model_id_node_pre", ["model_id", "node_pre"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("treatment", schema=None) as batch_op:
        batch_op.drop_index("ix_treatment_model_id_node_pre")
        batch_op.create_index("ix_treatment_model_id", ["model_id"], unique=False)
        batch_op.drop_column("node_pre")
