"""create the taxonomy tables

Revision ID: 0001
Revises:
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from store import search_index

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dataset",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("checksum", sa.String(), nullable=False),
        sa.Column("loaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source_dir", sa.String(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dataset")),
    )
    op.create_table(
        "model",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("organization", sa.String(), nullable=True),
        sa.Column("release_date", sa.Date(), nullable=True),
        sa.Column("name_rank", sa.Integer(), nullable=False),
        sa.Column("recency_rank", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_model")),
        sa.UniqueConstraint("name_rank", name=op.f("uq_model_name_rank")),
        sa.UniqueConstraint("recency_rank", name=op.f("uq_model_recency_rank")),
        sa.UniqueConstraint("slug", name=op.f("uq_model_slug")),
    )
    op.create_table(
        "node",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("description", sa.String(), nullable=True),
        sa.Column("parent_id", sa.Integer(), nullable=True),
        sa.Column("matching_aids", sa.JSON(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("path", sa.String(), nullable=False),
        sa.Column("slug_path", sa.String(), nullable=False),
        sa.Column("path_key", sa.String(), nullable=False),
        sa.Column("pre", sa.Integer(), nullable=False),
        sa.Column("last", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["parent_id"], ["node.id"], name=op.f("fk_node_parent_id_node")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_node")),
        sa.UniqueConstraint("pre", name=op.f("uq_node_pre")),
        sa.UniqueConstraint("slug", name=op.f("uq_node_slug")),
        sa.UniqueConstraint("slug_path", name=op.f("uq_node_slug_path")),
    )
    with op.batch_alter_table("node", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_node_parent_id"), ["parent_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_node_path_key"), ["path_key"], unique=False)

    op.create_table(
        "branch_model",
        sa.Column("node_id", sa.Integer(), nullable=False),
        sa.Column("model_id", sa.Integer(), nullable=False),
        sa.Column("strongest_rank", sa.SmallInteger(), nullable=False),
        sa.Column("method_count", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["model_id"], ["model.id"], name=op.f("fk_branch_model_model_id_model")
        ),
        sa.ForeignKeyConstraint(
            ["node_id"], ["node.id"], name=op.f("fk_branch_model_node_id_node")
        ),
        sa.PrimaryKeyConstraint("node_id", "model_id", name=op.f("pk_branch_model")),
    )
    with op.batch_alter_table("branch_model", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_branch_model_model_id"), ["model_id"], unique=False)

    op.create_table(
        "method",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("description", sa.String(), nullable=True),
        sa.Column("aliases", sa.JSON(), nullable=False),
        sa.Column("node_id", sa.Integer(), nullable=False),
        sa.Column("name_rank", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["node_id"], ["node.id"], name=op.f("fk_method_node_id_node")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_method")),
        sa.UniqueConstraint("name_rank", name=op.f("uq_method_name_rank")),
        sa.UniqueConstraint("slug", name=op.f("uq_method_slug")),
    )
    with op.batch_alter_table("method", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_method_node_id"), ["node_id"], unique=False)

    op.create_table(
        "node_closure",
        sa.Column("ancestor_id", sa.Integer(), nullable=False),
        sa.Column("descendant_id", sa.Integer(), nullable=False),
        sa.Column("depth", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["ancestor_id"], ["node.id"], name=op.f("fk_node_closure_ancestor_id_node")
        ),
        sa.ForeignKeyConstraint(
            ["descendant_id"], ["node.id"], name=op.f("fk_node_closure_descendant_id_node")
        ),
        sa.PrimaryKeyConstraint("ancestor_id", "descendant_id", name=op.f("pk_node_closure")),
    )
    with op.batch_alter_table("node_closure", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_node_closure_descendant_id"), ["descendant_id"], unique=False
        )

    op.create_table(
        "node_stats",
        sa.Column("node_id", sa.Integer(), nullable=False),
        sa.Column("methods_in_branch", sa.Integer(), nullable=False),
        sa.Column("methods_filed_here", sa.Integer(), nullable=False),
        sa.Column("models_in_branch", sa.Integer(), nullable=False),
        sa.Column("evidence_in_branch", sa.Integer(), nullable=False),
        sa.Column("child_count", sa.Integer(), nullable=False),
        sa.Column("descendant_count", sa.Integer(), nullable=False),
        sa.Column("core_pairs", sa.Integer(), nullable=False),
        sa.Column("used_pairs", sa.Integer(), nullable=False),
        sa.Column("mentioned_pairs", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["node_id"], ["node.id"], name=op.f("fk_node_stats_node_id_node")),
        sa.PrimaryKeyConstraint("node_id", name=op.f("pk_node_stats")),
    )
    op.create_table(
        "source",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(), nullable=False),
        sa.Column("model_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("url", sa.String(), nullable=True),
        sa.Column("published_on", sa.Date(), nullable=True),
        sa.CheckConstraint(
            "kind IN ('technical_report', 'model_card', 'blog_post', 'paper', 'other')",
            name=op.f("ck_source_kind"),
        ),
        sa.ForeignKeyConstraint(["model_id"], ["model.id"], name=op.f("fk_source_model_id_model")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_source")),
        sa.UniqueConstraint("slug", name=op.f("uq_source_slug")),
    )
    with op.batch_alter_table("source", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_source_model_id"), ["model_id"], unique=False)

    op.create_table(
        "evidence",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("model_id", sa.Integer(), nullable=False),
        sa.Column("method_id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=True),
        sa.Column("strength", sa.String(), nullable=False),
        sa.Column("quote", sa.String(), nullable=True),
        sa.Column("locator", sa.String(), nullable=True),
        sa.CheckConstraint(
            "strength IN ('core', 'used', 'mentioned')", name=op.f("ck_evidence_strength")
        ),
        sa.ForeignKeyConstraint(
            ["method_id"], ["method.id"], name=op.f("fk_evidence_method_id_method")
        ),
        sa.ForeignKeyConstraint(
            ["model_id"], ["model.id"], name=op.f("fk_evidence_model_id_model")
        ),
        sa.ForeignKeyConstraint(
            ["source_id"], ["source.id"], name=op.f("fk_evidence_source_id_source")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evidence")),
        sa.UniqueConstraint("key", name=op.f("uq_evidence_key")),
    )
    with op.batch_alter_table("evidence", schema=None) as batch_op:
        batch_op.create_index(
            "ix_evidence_method_id_model_id", ["method_id", "model_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_evidence_model_id"), ["model_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_evidence_source_id"), ["source_id"], unique=False)

    op.create_table(
        "method_stats",
        sa.Column("method_id", sa.Integer(), nullable=False),
        sa.Column("strongest_rank", sa.SmallInteger(), nullable=True),
        sa.Column("model_count", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["method_id"], ["method.id"], name=op.f("fk_method_stats_method_id_method")
        ),
        sa.PrimaryKeyConstraint("method_id", name=op.f("pk_method_stats")),
    )
    op.create_table(
        "treatment",
        sa.Column("method_id", sa.Integer(), nullable=False),
        sa.Column("model_id", sa.Integer(), nullable=False),
        sa.Column("strength_rank", sa.SmallInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["method_id"], ["method.id"], name=op.f("fk_treatment_method_id_method")
        ),
        sa.ForeignKeyConstraint(
            ["model_id"], ["model.id"], name=op.f("fk_treatment_model_id_model")
        ),
        sa.PrimaryKeyConstraint("method_id", "model_id", name=op.f("pk_treatment")),
    )
    with op.batch_alter_table("treatment", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_treatment_model_id"), ["model_id"], unique=False)

    # The full-text index is per database (FTS5 or tsvector): see store/search_index.py.
    for statement in search_index.create_ddl(op.get_bind().dialect.name):
        op.execute(statement)


def downgrade() -> None:
    for statement in search_index.drop_ddl(op.get_bind().dialect.name):
        op.execute(statement)
    with op.batch_alter_table("treatment", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_treatment_model_id"))

    op.drop_table("treatment")
    op.drop_table("method_stats")
    with op.batch_alter_table("evidence", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_evidence_source_id"))
        batch_op.drop_index(batch_op.f("ix_evidence_model_id"))
        batch_op.drop_index("ix_evidence_method_id_model_id")

    op.drop_table("evidence")
    with op.batch_alter_table("source", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_source_model_id"))

    op.drop_table("source")
    op.drop_table("node_stats")
    with op.batch_alter_table("node_closure", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_node_closure_descendant_id"))

    op.drop_table("node_closure")
    with op.batch_alter_table("method", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_method_node_id"))

    op.drop_table("method")
    with op.batch_alter_table("branch_model", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_branch_model_model_id"))

    op.drop_table("branch_model")
    with op.batch_alter_table("node", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_node_path_key"))
        batch_op.drop_index(batch_op.f("ix_node_parent_id"))

    op.drop_table("node")
    op.drop_table("model")
    op.drop_table("dataset")
