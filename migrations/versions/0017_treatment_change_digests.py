"""Treatment change rows keep their pair's evidence digest before and after

A pair removed by one load and added back by a later one keeps no evidence in either
change row (a load that removes a thousand models removes some 150,000 pairs at size L:
their texts are not kept), so the net change over both loads compared its strengths
only, and evidence that differed came back unreported. Each row now keeps the pair's
evidence digest (store.derive) on both sides, 16 bytes: the net change compares the
digests where the texts are unknown. Rows written before have none (null): unknown,
never a change.

Revision ID: 0017
Revises: 0016
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("treatment_change") as batch:
        batch.add_column(sa.Column("before_digest", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("after_digest", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("treatment_change") as batch:
        batch.drop_column("after_digest")
        batch.drop_column("before_digest")
