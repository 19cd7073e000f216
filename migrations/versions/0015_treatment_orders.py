"""treatment: the places of a model's methods in their other orders, indexed

The model page's methods are sortable (`Model.treatments(orderBy:)`): weakest first, by
method name A to Z or Z to A, by node in tree order or its reverse, ties by method name.
Sorting a model's 44,800 treatments for every page would cost what the by-strength order
cost before 0014 (0.3-0.5 s a page at size L), so treatment keeps each order's place
beside the pair (weakest first; the method's Z-to-A name rank; minus the node's pre-order
position), with an index per order, and the (model, node_pre) index gains the method's
name rank, so that tree order is read off it too. Existing rows get their values from
their method and node, so a database migrated with data in it keeps serving without a
reload.

Revision ID: 0015
Revises: 0014
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# As store.tables.TreatmentRow declares them.
_NODE_INDEX = "ix_treatment_model_id_node_pre"
_INDEXES = {
    "ix_treatment_model_weakest_name": ("model_id", "weakest_order", "method_name_rank"),
    "ix_treatment_model_name": ("model_id", "method_name_rank"),
    "ix_treatment_model_name_desc": ("model_id", "method_name_desc_rank"),
    "ix_treatment_model_node_desc": ("model_id", "node_desc_order", "method_name_rank"),
}
_COLUMNS = {
    "weakest_order": sa.SmallInteger(),
    "method_name_desc_rank": sa.Integer(),
    "node_desc_order": sa.Integer(),
}
# As store.derive writes them (store.strength.weakest_order_sql: mentioned 1 ... core 3).
_FILL = """UPDATE treatment SET
    weakest_order = 4 - strength_rank,
    method_name_desc_rank =
        (SELECT method.name_desc_rank FROM method WHERE method.id = treatment.method_id),
    node_desc_order = -node_pre"""


def upgrade() -> None:
    with op.batch_alter_table("treatment") as batch:
        for name, kind in _COLUMNS.items():
            batch.add_column(sa.Column(name, kind, nullable=True))
    op.execute(_FILL)
    with op.batch_alter_table("treatment") as batch:
        for name, kind in _COLUMNS.items():
            batch.alter_column(name, existing_type=kind, nullable=False)
    op.drop_index(_NODE_INDEX, table_name="treatment")
    op.create_index(_NODE_INDEX, "treatment", ["model_id", "node_pre", "method_name_rank"])
    for name, columns in _INDEXES.items():
        op.create_index(name, "treatment", list(columns))


def downgrade() -> None:
    for name in _INDEXES:
        op.drop_index(name, table_name="treatment")
    op.drop_index(_NODE_INDEX, table_name="treatment")
    op.create_index(_NODE_INDEX, "treatment", ["model_id", "node_pre"])
    with op.batch_alter_table("treatment") as batch:
        for name in _COLUMNS:
            batch.drop_column(name)
