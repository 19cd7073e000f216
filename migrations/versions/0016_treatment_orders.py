"""treatment: a model's methods by name and by node, indexed

The model page's methods are sortable (`Model.treatments(orderBy:)`): by strength, by
method name, by node in tree order, each direction the exact reverse of the other (ties
reversed too), so that each is read off an index forward or backward: strength off the
(model, strength, name rank) index of 0014, name off a new (model, name rank) index, and
tree order off the (model, node_pre) index, which gains the method's name rank. No column
is added: a load writes no more per treatment than before, and builds one index more.

Revision ID: 0016
Revises: 0015
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# As store.tables.TreatmentRow declares them.
_NODE_INDEX = "ix_treatment_model_id_node_pre"
_NAME_INDEX = "ix_treatment_model_name"


def upgrade() -> None:
    op.drop_index(_NODE_INDEX, table_name="treatment")
    op.create_index(_NODE_INDEX, "treatment", ["model_id", "node_pre", "method_name_rank"])
    op.create_index(_NAME_INDEX, "treatment", ["model_id", "method_name_rank"])


def downgrade() -> None:
    op.drop_index(_NAME_INDEX, table_name="treatment")
    op.drop_index(_NODE_INDEX, table_name="treatment")
    op.create_index(_NODE_INDEX, "treatment", ["model_id", "node_pre"])
