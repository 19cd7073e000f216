"""Change tables keyed by record, then release, slugs in byte order; change_kind

store.history.change_lists pages the net changes between two releases in their records' key
order (a slug, or a model's and a method's): keyed (slug, release), a page reads the
change rows of its own records from its cursor on and stops when it is full, where
keyed (release, slug) it read every row of the releases compared. The slug index of the
named tables is then the key's prefix, and goes. On PostgreSQL the slugs become COLLATE
"C" (byte order, as SQLite's and Python's), whatever the database's collation, so that
both databases give the same pages. change_kind names the kinds of change by rank, for
a net change to join (one row per kind it is).

Revision ID: 0010
Revises: 0009
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The kinds of change as this revision knew them, by rank (written here, not read from the
# live code: 0012 adds one).
KIND_ORDER = ("added", "removed", "moved", "renamed", "strengthened", "weakened")

# (table, its key columns, whether it had a slug index)
_TABLES = (
    ("node_change", ("slug",), True),
    ("method_change", ("slug",), True),
    ("model_change", ("slug",), True),
    ("treatment_change", ("model_slug", "method_slug"), False),
)


def _rekey(*, by_record: bool) -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    for table, keys, slug_index in _TABLES:
        with op.batch_alter_table(table, recreate="always" if not postgresql else "auto") as batch:
            if slug_index and by_record:
                batch.drop_index(batch.f(f"ix_{table}_slug"))
            batch.drop_constraint(f"pk_{table}", type_="primary")
            if postgresql:
                collated = sa.String(collation="C") if by_record else sa.String()
                for key in keys:
                    batch.alter_column(key, type_=collated, existing_nullable=False)
            columns = [*keys, "release"] if by_record else ["release", *keys]
            batch.create_primary_key(f"pk_{table}", columns)
            if slug_index and not by_record:
                batch.create_index(batch.f(f"ix_{table}_slug"), ["slug"], unique=False)


def upgrade() -> None:
    _rekey(by_record=True)
    kinds = op.create_table(
        "change_kind",
        sa.Column("rank", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("rank", name=op.f("pk_change_kind")),
    )
    op.bulk_insert(kinds, [{"rank": rank, "name": name} for rank, name in enumerate(KIND_ORDER)])


def downgrade() -> None:
    op.drop_table("change_kind")
    _rekey(by_record=False)
