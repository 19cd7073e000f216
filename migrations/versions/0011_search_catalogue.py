"""search_catalogue: the search catalogue built by the load, not by each server

The catalogue (store.search_catalogue) was built by every server process on its first
search of a data version: seconds of work at size L, per process. The load now builds it
once and stores it here (store.search_saved); a database migrated with data in it gets
it here, by the load's own code, so it keeps serving without a reload.

Revision ID: 0011
Revises: 0010
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from store import search_saved

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "search_catalogue",
        sa.Column("part", sa.String(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("part", name=op.f("pk_search_catalogue")),
    )
    search_saved.write(op.get_bind())


def downgrade() -> None:
    op.drop_table("search_catalogue")
