"""method_stats: the name rank and strength orders, indexed for the methods' orders

A page of all methods by model count or by strongest treatment (ties by name) sorted all
the methods for each page: 0.5-2.2 s a page at size L, and a download of the whole list
in such an order did not finish. method_stats now keeps each method's name rank and its
places by model count (the most first) and by strongest treatment (strongest first,
weakest first) beside its figures, with
an index for each order, so that such a page is an index range scan, as a page by name
is. The values are filled here from the rows, so a database keeps serving without a
reload.

Revision ID: 0013
Revises: 0012
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COLUMNS = ("name_rank", "most_models_order", "strongest_order", "weakest_order")
# As store.tables.MethodStatsRow declares them.
_INDEXES = {
    "ix_method_stats_model_count": ("model_count", "name_rank"),
    "ix_method_stats_most_models_order": ("most_models_order", "name_rank"),
    "ix_method_stats_strongest_order": ("strongest_order", "name_rank"),
    "ix_method_stats_weakest_order": ("weakest_order", "name_rank"),
}
# As store.strength writes them at this revision (4: a method that no model treats).
_FILL = """UPDATE method_stats SET
    name_rank = (SELECT method.name_rank FROM method WHERE method.id = method_stats.method_id),
    most_models_order = -model_count,
    strongest_order = COALESCE(strongest_rank, 4),
    weakest_order = 4 - COALESCE(strongest_rank, 0)"""


def upgrade() -> None:
    with op.batch_alter_table("method_stats") as batch:
        batch.add_column(sa.Column("name_rank", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("most_models_order", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("strongest_order", sa.SmallInteger(), nullable=True))
        batch.add_column(sa.Column("weakest_order", sa.SmallInteger(), nullable=True))
    op.execute(_FILL)
    with op.batch_alter_table("method_stats") as batch:
        for column in _COLUMNS[:2]:
            batch.alter_column(column, existing_type=sa.Integer(), nullable=False)
        for column in _COLUMNS[2:]:
            batch.alter_column(column, existing_type=sa.SmallInteger(), nullable=False)
    for name, columns in _INDEXES.items():
        op.create_index(name, "method_stats", list(columns))


def downgrade() -> None:
    for name in _INDEXES:
        op.drop_index(name, table_name="method_stats")
    with op.batch_alter_table("method_stats") as batch:
        for column in _COLUMNS:
            batch.drop_column(column)
