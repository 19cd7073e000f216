"""dataset: an identity for each load, random, so that no two loads ever share one

The version counter starts at 1 again in a rebuilt database: a client's ETag or cursor
from another database with other data could be taken as current. Every load now also
gets 128 random bits (written by the row's default), and the data version that clients
see is the two together. A database migrated with data in it gets an identity for that
data here.

Revision ID: 0005
Revises: 0004
"""

import uuid
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("dataset", schema=None) as batch_op:
        batch_op.add_column(sa.Column("identity", sa.String(length=32), nullable=True))
    op.execute(
        sa.text("UPDATE dataset SET identity = :identity").bindparams(identity=uuid.uuid4().hex)
    )
    with op.batch_alter_table("dataset", schema=None) as batch_op:
        batch_op.alter_column("identity", existing_type=sa.String(length=32), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("dataset", schema=None) as batch_op:
        batch_op.drop_column("identity")
