"""Evidence changes: a treatment's evidence digest, and treatment change rows' fields

History did not see an edited quote or locator, or a piece of evidence added or removed
that left its pair's strongest strength as it was. treatment now keeps a digest of its
evidence (store.derive), which the next load compares with its own to find the pairs
whose evidence changed, and treatment_change keeps the pair's compared fields (its
`evidence` items, store.history.field_values) before and after, as JSON text, as the
other change tables do. Rows written before have none (null): unknown, never a change.

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


def upgrade() -> None:
    with op.batch_alter_table("treatment") as batch:
        batch.add_column(sa.Column("evidence_digest", sa.BigInteger(), nullable=True))
    with op.batch_alter_table("treatment_change") as batch:
        batch.add_column(sa.Column("before_fields", sa.String(), nullable=True))
        batch.add_column(sa.Column("after_fields", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("treatment_change") as batch:
        batch.drop_column("after_fields")
        batch.drop_column("before_fields")
    with op.batch_alter_table("treatment") as batch:
        batch.drop_column("evidence_digest")
