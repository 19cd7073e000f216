"""evidence key: a unique index, so loads can defer it

A unique constraint cannot be dropped on SQLite; a unique index can, and a load drops
the evidence indexes before its bulk insert and builds them after (api/ingest/write.py).

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("evidence", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_evidence_key"), type_="unique")
        batch_op.create_index(batch_op.f("ix_evidence_key"), ["key"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("evidence", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_evidence_key"))
        batch_op.create_unique_constraint(batch_op.f("uq_evidence_key"), ["key"])
