"""release and change tables; first_seen on nodes, methods and models

Every load becomes a release that later loads keep, with what it changed against the
release before it (change rows per kind, by slug), and each record's first release. A
database migrated with data in it gets a release for the load it serves (its number,
identity, checksum and totals) and every record is first seen in it: there is no
earlier release to tell otherwise.

Revision ID: 0008
Revises: 0007
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_FIRST_SEEN_INDEXED = ("method", "model")


def _change_table(name: str, keys: list[str], *columns: sa.Column) -> None:  # type: ignore[type-arg]
    op.create_table(
        name,
        sa.Column("release", sa.Integer(), nullable=False),
        *columns,
        sa.ForeignKeyConstraint(
            ["release"], ["release.number"], name=op.f(f"fk_{name}_release_release")
        ),
        sa.PrimaryKeyConstraint("release", *keys, name=op.f(f"pk_{name}")),
    )


def _named(kind: str, container: str | None) -> list[sa.Column]:  # type: ignore[type-arg]
    columns = [
        sa.Column("slug", sa.String(), nullable=False),
        sa.Column("before_name", sa.String(), nullable=True),
        sa.Column("after_name", sa.String(), nullable=True),
    ]
    if container:
        columns += [
            sa.Column(f"before_{container}", sa.String(), nullable=True),
            sa.Column(f"after_{container}", sa.String(), nullable=True),
        ]
    return columns


def upgrade() -> None:
    op.create_table(
        "release",
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("identity", sa.String(length=32), nullable=False),
        sa.Column("checksum", sa.String(), nullable=False),
        sa.Column("loaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("note", sa.String(), nullable=True),
        *(
            sa.Column(name, sa.Integer(), nullable=False)
            for name in ("nodes", "methods", "models", "sources", "evidence")
        ),
        sa.PrimaryKeyConstraint("number", name=op.f("pk_release")),
    )
    for kind, container in (("node", "parent"), ("method", "node"), ("model", None)):
        _change_table(f"{kind}_change", ["slug"], *_named(kind, container))
        op.create_index(op.f(f"ix_{kind}_change_slug"), f"{kind}_change", ["slug"])
    _change_table(
        "treatment_change",
        ["model_slug", "method_slug"],
        sa.Column("model_slug", sa.String(), nullable=False),
        sa.Column("method_slug", sa.String(), nullable=False),
        sa.Column("before_rank", sa.SmallInteger(), nullable=True),
        sa.Column("after_rank", sa.SmallInteger(), nullable=True),
    )
    op.execute(
        "INSERT INTO release (number, identity, checksum, loaded_at, nodes, methods, models,"
        " sources, evidence) SELECT version, identity, checksum, loaded_at,"
        " (SELECT COUNT(*) FROM node), (SELECT COUNT(*) FROM method),"
        " (SELECT COUNT(*) FROM model), (SELECT COUNT(*) FROM source),"
        " (SELECT COUNT(*) FROM evidence) FROM dataset"
    )
    sqlite = op.get_bind().dialect.name == "sqlite"
    for table in ("node", "method", "model"):
        # Added in place, not by batch mode's copy of the table: SQLite cannot drop a table
        # that other tables' rows refer to. In place, it takes a NOT NULL column only with
        # a default, which stays there (dropping it would need that copy); every load
        # writes the column itself.
        op.add_column(
            table, sa.Column("first_seen", sa.Integer(), nullable=False, server_default="1")
        )
        # Rows with no dataset row are only ever a test's: loads write both or neither.
        op.execute(f"UPDATE {table} SET first_seen = COALESCE((SELECT version FROM dataset), 1)")
        if not sqlite:
            op.alter_column(table, "first_seen", existing_type=sa.Integer(), server_default=None)
        if table in _FIRST_SEEN_INDEXED:
            op.create_index(op.f(f"ix_{table}_first_seen"), table, ["first_seen"])


def downgrade() -> None:
    for table in ("node", "method", "model"):
        if table in _FIRST_SEEN_INDEXED:
            op.drop_index(op.f(f"ix_{table}_first_seen"), table_name=table)
        op.drop_column(table, "first_seen")  # in place, as it was added
    for kind in ("node", "method", "model", "treatment"):
        op.drop_table(f"{kind}_change")
    op.drop_table("release")
