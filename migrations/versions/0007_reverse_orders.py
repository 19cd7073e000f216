"""model and method: the reverse orders, by name Z to A and by release oldest first

Reversing a stored order would also reverse how it breaks ties (names Z to A would put
equal names by slug Z to A) and where it puts models without a release date (first, when
the oldest come first). Each reverse order is stored as a rank of its own, worked out in
Python like the others (store.orders); existing rows get theirs here, so a database
migrated with data in it keeps serving without a reload.

Revision ID: 0007
Revises: 0006
"""

from collections.abc import Sequence
from datetime import date

import sqlalchemy as sa
from alembic import op

from store.orders import name_ranks, release_ranks

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_NEW = {"model": ("name_desc_rank", "age_rank"), "method": ("name_desc_rank",)}


def _day(value: object) -> date | None:
    # SQLite hands a date column back as its ISO text here; PostgreSQL as a date.
    return None if value is None else date.fromisoformat(str(value))


def _fill(connection: sa.Connection) -> None:
    models = connection.execute(sa.text("SELECT id, name, slug, release_date FROM model")).all()
    names = [(name, slug) for _, name, slug, _ in models]
    releases = [(_day(released), name, slug) for _, name, slug, released in models]
    updates = [
        {"id": row[0], "name_desc_rank": z_to_a, "age_rank": age}
        for row, z_to_a, age in zip(
            models,
            name_ranks(names, z_to_a=True),
            release_ranks(releases, newest_first=False),
            strict=True,
        )
    ]
    if updates:
        connection.execute(
            sa.text(
                "UPDATE model SET name_desc_rank = :name_desc_rank, age_rank = :age_rank "
                "WHERE id = :id"
            ),
            updates,
        )
    methods = connection.execute(sa.text("SELECT id, name, slug FROM method")).all()
    method_ranks = name_ranks([(name, slug) for _, name, slug in methods], z_to_a=True)
    if methods:
        connection.execute(
            sa.text("UPDATE method SET name_desc_rank = :rank WHERE id = :id"),
            [{"id": row[0], "rank": rank} for row, rank in zip(methods, method_ranks, strict=True)],
        )


def upgrade() -> None:
    for table, columns in _NEW.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column in columns:
                batch_op.add_column(sa.Column(column, sa.Integer(), nullable=True))
    _fill(op.get_bind())
    for table, columns in _NEW.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column in columns:
                batch_op.alter_column(column, existing_type=sa.Integer(), nullable=False)
                batch_op.create_unique_constraint(op.f(f"uq_{table}_{column}"), [column])


def downgrade() -> None:
    for table, columns in _NEW.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column in columns:
                batch_op.drop_constraint(op.f(f"uq_{table}_{column}"), type_="unique")
                batch_op.drop_column(column)
