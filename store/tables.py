"""Database tables: the loaded data and the read model derived from it at load time.

Table classes end in ``Row`` so they never read as the GraphQL types of the same name.
The first five tables hold the dataset as loaded; the rest are derived inside the load's
transaction (see ``store.derive``) so that no request walks the tree or scans evidence.
"""

import uuid
from datetime import date, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Column,
    Index,
    MetaData,
    SmallInteger,
    String,
    Table,
    inspect,
)
from sqlalchemy.types import TypeEngine
from sqlmodel import AutoString, Field, SQLModel

from store.strength import STRENGTHS

# Constraint names are fixed before any table exists so that migrations can refer to them
# by name on every database (SQLite needs names to alter constraints in batch mode).
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
SQLModel.metadata = MetaData(naming_convention=NAMING_CONVENTION)
metadata = SQLModel.metadata

SOURCE_KINDS = ("technical_report", "model_card", "blog_post", "paper", "other")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class NodeRow(SQLModel, table=True):
    __tablename__ = "node"

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True)
    name: str
    description: str | None = None
    parent_id: int | None = Field(default=None, foreign_key="node.id", index=True)
    matching_aids: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    level: int
    path: str
    slug_path: str = Field(unique=True)
    # casefolded path, so that `node(path:)` matches "Optimization :: Training Parallelism" too
    path_key: str = Field(index=True)
    # Pre-order position among all nodes (children by name) and the last position inside
    # this node's subtree: a branch is the interval [pre, last].
    pre: int = Field(unique=True)
    last: int
    # The number of the earliest retained release with a node of this slug (DESIGN §5),
    # worked out by each load (api.ingest.history) so that reading it is a lookup.
    first_seen: int


class ModelRow(SQLModel, table=True):
    __tablename__ = "model"

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True)
    name: str
    organization: str | None = None
    release_date: date | None = None
    # Positions in the stored orders, computed at load time with Python's casefold so that
    # both databases sort exactly alike (store.orders): by name A to Z and Z to A, newest
    # first (the seed's order) and oldest first; each breaks ties by name, then slug.
    name_rank: int = Field(unique=True)
    name_desc_rank: int = Field(unique=True)
    recency_rank: int = Field(unique=True)
    age_rank: int = Field(unique=True)
    first_seen: int = Field(index=True)  # as NodeRow.first_seen


class SourceRow(SQLModel, table=True):
    __tablename__ = "source"
    __table_args__ = (CheckConstraint(_in("kind", SOURCE_KINDS), name="kind"),)

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True)
    model_id: int = Field(foreign_key="model.id", index=True)
    title: str
    kind: str
    url: str | None = None
    published_on: date | None = None


class MethodRow(SQLModel, table=True):
    __tablename__ = "method"

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True)
    name: str
    description: str | None = None
    aliases: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    node_id: int = Field(foreign_key="node.id", index=True)
    # Positions by name A to Z and Z to A, equal names by slug A to Z (store.orders).
    name_rank: int = Field(unique=True)
    name_desc_rank: int = Field(unique=True)
    first_seen: int = Field(index=True)  # as NodeRow.first_seen


class EvidenceRow(SQLModel, table=True):
    __tablename__ = "evidence"
    __table_args__ = (
        CheckConstraint(_in("strength", STRENGTHS), name="strength"),
        Index("ix_evidence_method_id_model_id", "method_id", "model_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    # Stable identity derived from the row's content (see api.ingest.lines), so IDs
    # survive reloads; never a row number.
    key: str = Field(unique=True, index=True)
    model_id: int = Field(foreign_key="model.id", index=True)
    method_id: int = Field(foreign_key="method.id")
    source_id: int | None = Field(default=None, foreign_key="source.id", index=True)
    strength: str
    quote: str | None = None
    locator: str | None = None


# ---- derived read model -------------------------------------------------------------------


class NodeClosureRow(SQLModel, table=True):
    """Every (ancestor, descendant) pair, the node itself included at depth 0."""

    __tablename__ = "node_closure"

    ancestor_id: int = Field(foreign_key="node.id", primary_key=True)
    descendant_id: int = Field(foreign_key="node.id", primary_key=True, index=True)
    depth: int


class TreatmentRow(SQLModel, table=True):
    """A (model, method) pair's treatment: the strongest strength over its evidence."""

    __tablename__ = "treatment"
    __table_args__ = (
        # A model's treatments in a branch are an index range scan: model, then the
        # branch's interval of pre-order positions. Its cost is the rows it returns, not
        # the branch's methods (a root's By-model rows would otherwise probe every method
        # of the root once per model on the page).
        # The same index reads a model's treatments in tree order (by the method's node,
        # then its name): the model page's order by node.
        Index("ix_treatment_model_id_node_pre", "model_id", "node_pre", "method_name_rank"),
        # A page of a model's treatments, strongest first then by method name, is an index
        # range scan that stops after the page: at size L, sorting a model's 44,783
        # treatments joined to their methods took 0.16-0.3 s for every page.
        Index("ix_treatment_model_strength_name", "model_id", "strength_rank", "method_name_rank"),
        # And so are its other orders (`Model.treatments(orderBy:)`), each direction the
        # exact reverse of the other, read off an index forward or backward: weakest
        # first (the index above, backward), by method name (this one), by node (the
        # (model, node_pre, name rank) index).
        Index("ix_treatment_model_name", "model_id", "method_name_rank"),
    )

    method_id: int = Field(foreign_key="method.id", primary_key=True)
    model_id: int = Field(foreign_key="model.id", primary_key=True)
    # 1 = core, 2 = used, 3 = mentioned: the strongest is the minimum.
    strength_rank: int = Field(sa_type=SmallInteger)
    # The pre-order position (NodeRow.pre) of the node the method is filed at, copied here
    # so that "in the branch of N" is N.pre <= node_pre <= N.last, with no join.
    node_pre: int
    # The method's MethodRow.name_rank, copied here so that the order above, whose ties go
    # by method name, needs no join.
    method_name_rank: int
    # A digest of the pair's evidence (each piece's key and strength, in any order: see
    # store.derive), which a load compares with the release before's to find the pairs
    # whose evidence changed (store.history.treatment_changes); null in rows derived
    # before it was kept (unknown, never a change).
    evidence_digest: int | None = Field(default=None, sa_type=BigInteger)


class MethodStatsRow(SQLModel, table=True):
    __tablename__ = "method_stats"
    __table_args__ = (
        # A page of all methods by model count or strongest treatment, ties by name, is an
        # index range scan that stops after the page, as a page by name is: at size L,
        # sorting all 200k methods for each page took 0.5-2.2 s.
        Index("ix_method_stats_model_count", "model_count", "name_rank"),
        Index("ix_method_stats_most_models_order", "most_models_order", "name_rank"),
        Index("ix_method_stats_strongest_order", "strongest_order", "name_rank"),
        Index("ix_method_stats_weakest_order", "weakest_order", "name_rank"),
    )

    method_id: int = Field(foreign_key="method.id", primary_key=True)
    strongest_rank: int | None = Field(default=None, sa_type=SmallInteger)
    model_count: int
    # The method's MethodRow.name_rank, copied here so that the orders above, whose ties
    # go by name, need no join.
    name_rank: int
    # Its places in the orders that are not the plain columns': by model count, the most
    # first (minus the count), and by strongest treatment, strongest first (core 1 ...
    # mentioned 3) or weakest first (mentioned 1 ... core 3), a method no model treats
    # last (4) either way. Stored, not computed in the order, so that plain ascending
    # indexes serve them: SQLAlchemy reflects neither an index on an expression nor a
    # descending one from SQLite, and so migrations could not check them.
    most_models_order: int
    strongest_order: int = Field(sa_type=SmallInteger)
    weakest_order: int = Field(sa_type=SmallInteger)
    # The earliest-released model that treats the method (store.history.adoption); null when no
    # model that treats it has a release date.
    first_model_id: int | None = Field(default=None, foreign_key="model.id")


class BranchModelRow(SQLModel, table=True):
    """One By-model row: a model's strongest treatment in a node's branch."""

    __tablename__ = "branch_model"
    __table_args__ = (
        # A page of a By-model table in its default order, or by strength, is an index
        # range scan that stops after the page: its cost is the page's, not the branch's.
        Index("ix_branch_model_node_id_recency_rank", "node_id", "recency_rank"),
        Index(
            "ix_branch_model_node_id_strongest_rank", "node_id", "strongest_rank", "recency_rank"
        ),
    )

    node_id: int = Field(foreign_key="node.id", primary_key=True)
    model_id: int = Field(foreign_key="model.id", primary_key=True, index=True)
    strongest_rank: int = Field(sa_type=SmallInteger)
    method_count: int
    # The model's recency_rank, copied here so that the default order needs no join.
    recency_rank: int


class NodeStatsRow(SQLModel, table=True):
    __tablename__ = "node_stats"

    node_id: int = Field(foreign_key="node.id", primary_key=True)
    methods_in_branch: int
    methods_filed_here: int
    models_in_branch: int
    evidence_in_branch: int
    child_count: int
    descendant_count: int
    core_pairs: int
    used_pairs: int
    mentioned_pairs: int
    # The branch's methods by their strongest treatment over all models (untreated ones
    # in none of the three).
    core_methods: int
    used_methods: int
    mentioned_methods: int


class NodeAdoptionRow(SQLModel, table=True):
    """A branch's adoption in one month: the models released then whose strongest treatment
    in the branch is at a strength or stronger, and the branch's methods first treated
    (at that strength or stronger) by a model released then."""

    __tablename__ = "node_adoption"

    # No foreign key: the rows are derived from the nodes in the same transaction, and
    # checking one per row cost 1.6 s of an L load on PostgreSQL.
    node_id: int = Field(primary_key=True)
    # The weakest rank counted (1 = core only ... 3 = any): see store.history.adoption.
    max_rank: int = Field(sa_type=SmallInteger, primary_key=True)
    # year * 12 + month - 1 of the models' release date
    month: int = Field(primary_key=True)
    models: int
    new_methods: int


class DatasetRow(SQLModel, table=True):
    """The one row that says which data is loaded: bumped by every load."""

    __tablename__ = "dataset"

    id: int = Field(default=1, primary_key=True)
    version: int
    # 128 random bits, new with every load (the row is written anew by each): with the
    # version, an identity of the served data that no other load, in any database, has.
    identity: str = Field(max_length=32, sa_column_kwargs={"default": lambda: uuid.uuid4().hex})
    checksum: str
    loaded_at: datetime
    source_dir: str | None = None


class SearchCatalogueRow(SQLModel, table=True):
    """The search catalogue of the loaded data, in its stored form (one row per part,
    store.search_catalogue): written by each load in its transaction, read by every
    server process, so that none builds it."""

    __tablename__ = "search_catalogue"

    part: str = Field(primary_key=True)
    data: bytes


# ---- history: releases and what each changed (DESIGN §5) -----------------------------------


class ReleaseRow(SQLModel, table=True):
    """One successful load, kept across loads (the tables above are replaced by each)."""

    __tablename__ = "release"

    # DatasetRow.version of the load: counts the loads of this database.
    number: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    # DatasetRow.identity of the load: with the number, unique for all time.
    identity: str = Field(max_length=32)
    checksum: str
    loaded_at: datetime
    note: str | None = None
    nodes: int
    methods: int
    models: int
    sources: int
    evidence: int


# A change row says what one record (by slug) was in the release before and what it is in
# this one: a null name means it did not exist. Composing rows gives the net change
# between any two releases (store.history.net_changes); a record no load changed has no rows.
# Keyed by record, then release: a page of changes (store.history.change_lists) walks the rows
# of its records in key order from its cursor on, and stops when it is full. Their slugs
# are in byte order (COLLATE "C" on PostgreSQL, as SQLite's and Python's own), whatever
# the database's collation, so that both databases page them alike.
BYTE_ORDER_SLUG: TypeEngine[str] = AutoString().with_variant(String(collation="C"), "postgresql")


class ChangeKindRow(SQLModel, table=True):
    """The kinds of change (added, removed, moved, renamed, strengthened, weakened,
    changed) by their rank in that order (store.history.net_changes.KIND_ORDER): filled by
    migrations 0010 and 0012, never by a load. Joined to a record's net change, it gives
    a row per kind of change the record underwent (a node or a method both moved and
    renamed has two)."""

    __tablename__ = "change_kind"

    rank: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    name: str


class NodeChangeRow(SQLModel, table=True):
    __tablename__ = "node_change"

    slug: str = Field(primary_key=True, sa_type=BYTE_ORDER_SLUG)
    release: int = Field(foreign_key="release.number", primary_key=True)
    before_name: str | None = None
    after_name: str | None = None
    before_parent: str | None = None  # the parent's slug; null for a root
    after_parent: str | None = None
    # The record's compared fields before and after (store.history.field_values): JSON text,
    # null when it does not exist or the row predates them.
    before_fields: str | None = None
    after_fields: str | None = None


class MethodChangeRow(SQLModel, table=True):
    __tablename__ = "method_change"

    slug: str = Field(primary_key=True, sa_type=BYTE_ORDER_SLUG)
    release: int = Field(foreign_key="release.number", primary_key=True)
    before_name: str | None = None
    after_name: str | None = None
    before_node: str | None = None  # the slug of the node it was filed at
    after_node: str | None = None
    before_fields: str | None = None  # as NodeChangeRow's
    after_fields: str | None = None


class ModelChangeRow(SQLModel, table=True):
    __tablename__ = "model_change"

    slug: str = Field(primary_key=True, sa_type=BYTE_ORDER_SLUG)
    release: int = Field(foreign_key="release.number", primary_key=True)
    before_name: str | None = None
    after_name: str | None = None
    before_fields: str | None = None  # as NodeChangeRow's
    after_fields: str | None = None


class TreatmentChangeRow(SQLModel, table=True):
    __tablename__ = "treatment_change"

    model_slug: str = Field(primary_key=True, sa_type=BYTE_ORDER_SLUG)
    method_slug: str = Field(primary_key=True, sa_type=BYTE_ORDER_SLUG)
    release: int = Field(foreign_key="release.number", primary_key=True)
    # Strength ranks (1 = core ... 3 = mentioned); null: no treatment.
    before_rank: int | None = Field(default=None, sa_type=SmallInteger)
    after_rank: int | None = Field(default=None, sa_type=SmallInteger)
    # The pair's compared fields (its `evidence`) before and after, as NodeChangeRow's: null
    # when there is no treatment or the row predates them.
    before_fields: str | None = None
    after_fields: str | None = None
    # The pair's evidence digest (TreatmentRow.evidence_digest) before and after, kept for
    # every row: a pair removed then added back keeps no texts, and its net change over
    # both compares these. Null when there is no treatment or the row predates them.
    before_digest: int | None = Field(default=None, sa_type=BigInteger)
    after_digest: int | None = Field(default=None, sa_type=BigInteger)


CHANGE_TABLES: tuple[type[SQLModel], ...] = (
    NodeChangeRow,
    MethodChangeRow,
    ModelChangeRow,
    TreatmentChangeRow,
)


TABLES_IN_LOAD_ORDER: tuple[type[SQLModel], ...] = (
    NodeRow,
    ModelRow,
    SourceRow,
    MethodRow,
    EvidenceRow,
    NodeClosureRow,
    TreatmentRow,
    MethodStatsRow,
    BranchModelRow,
    NodeStatsRow,
    NodeAdoptionRow,
)


def table_of(row_class: type[SQLModel]) -> Table:
    """The table of a table class (``table=True``)."""
    table = inspect(row_class).local_table
    assert isinstance(table, Table), f"{row_class.__name__} is not a table class"
    return table
