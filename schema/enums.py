"""Enums of the schema, with the ranks the database stores."""

from enum import Enum

import strawberry

from store import strength


@strawberry.enum(description="How strongly a model's own documents treat a method.")
class Strength(Enum):
    CORE = strawberry.enum_value(
        "core", description="One of the model's own central contributions."
    )
    USED = strawberry.enum_value("used", description="The documents say the model uses it.")
    MENTIONED = strawberry.enum_value(
        "mentioned", description="Named without saying that the model uses it."
    )

    @property
    def rank(self) -> int:
        """1 for the strongest; the database stores treatments by this rank."""
        return strength.rank_of(str(self.value))

    @classmethod
    def from_rank(cls, rank: int) -> "Strength":
        return cls(strength.name_of(rank))


def max_rank(min_strength: Strength | None) -> int:
    """The weakest rank a `minStrength` argument lets through."""
    return strength.max_rank(None if min_strength is None else str(min_strength.value))


@strawberry.enum(description="The length of each period of an adoption series.")
class Interval(Enum):
    MONTH = strawberry.enum_value("month", description="Calendar months: `2025-07`.")
    QUARTER = strawberry.enum_value(
        "quarter", description="Calendar quarters: `2025-Q3` (July to September)."
    )
    YEAR = strawberry.enum_value("year", description="Calendar years: `2025`.")


@strawberry.enum(description="Which methods of a node to list.")
class Scope(Enum):
    HERE = strawberry.enum_value("here", description="Only the methods filed at the node itself.")
    BRANCH = strawberry.enum_value(
        "branch", description="The methods filed at the node or at any node below it."
    )


@strawberry.enum(description="What kind of document a source is.")
class SourceKind(Enum):
    TECHNICAL_REPORT = strawberry.enum_value("technical_report", description="A technical report.")
    MODEL_CARD = strawberry.enum_value("model_card", description="A model card.")
    BLOG_POST = strawberry.enum_value("blog_post", description="A blog post.")
    PAPER = strawberry.enum_value("paper", description="A research paper.")
    OTHER = strawberry.enum_value("other", description="Any other document.")


@strawberry.enum(
    description="The direction of an ordering. Left out (or null), each field takes its "
    "natural direction, which its description states: names A to Z, counts and strengths "
    "the largest first, dates the newest first."
)
class OrderDirection(Enum):
    ASC = strawberry.enum_value(
        "asc", description="Ascending: A first, the smallest, the weakest or the oldest first."
    )
    DESC = strawberry.enum_value(
        "desc", description="Descending: Z first, the largest, the strongest or the newest first."
    )


_NAME = (
    "By name case-insensitively, equal names by slug. Natural direction ASC (A to Z); DESC "
    "is Z to A, equal names still by slug A to Z."
)
_RELEASE_DATE = (
    "By release date. Natural direction DESC (the newest first); ASC is the oldest first. "
    "Either way models without a release date come after every dated one, and models "
    "released the same day or undated are ordered by name case-insensitively, then slug."
)


@strawberry.enum(description="Fields that methods can be ordered by.")
class MethodOrderField(Enum):
    NAME = strawberry.enum_value("name", description=_NAME)
    STRONGEST = strawberry.enum_value(
        "strongest",
        description="By the strongest treatment over all models. Natural direction DESC (CORE "
        "first); ASC is MENTIONED first. Either way methods that no model treats come last; "
        "ties by name case-insensitively, then slug.",
    )
    MODEL_COUNT = strawberry.enum_value(
        "model_count",
        description="By how many models treat the method. Natural direction DESC (the most "
        "first); ties by name case-insensitively, then slug, either way.",
    )


@strawberry.enum(description="Fields that models can be ordered by.")
class ModelOrderField(Enum):
    NAME = strawberry.enum_value("name", description=_NAME)
    RELEASE_DATE = strawberry.enum_value("release_date", description=_RELEASE_DATE)


@strawberry.enum(description="Fields that releases can be ordered by.")
class ReleaseOrderField(Enum):
    NUMBER = strawberry.enum_value(
        "number",
        description="By release number, which is the order the releases were loaded in. "
        "Natural direction DESC (the newest first); ASC is the oldest first.",
    )


@strawberry.enum(description="Fields that By-model rows can be ordered by.")
class ModelTreatmentOrderField(Enum):
    RELEASE_DATE = strawberry.enum_value(
        "release_date",
        description=f"By the model's release date; the table's default order (the seed "
        f"page's). {_RELEASE_DATE.removeprefix('By release date. ')}",
    )
    NAME = strawberry.enum_value("name", description=_NAME)
    STRONGEST = strawberry.enum_value(
        "strongest",
        description="By the model's strongest treatment in the branch. Natural direction DESC "
        "(CORE first); ASC is MENTIONED first; ties by model name case-insensitively, then "
        "slug, either way.",
    )
    STRENGTH = strawberry.enum_value(
        "strength",
        description="The same order as STRONGEST, under its old name.",
        deprecation_reason="Use STRONGEST: one name for the strongest treatment in every order.",
    )
    METHOD_COUNT = strawberry.enum_value(
        "method_count",
        description="By how many of the branch's methods the model treats. Natural direction "
        "DESC (the most first); ties by model name case-insensitively, then slug, either way.",
    )


_STRONGEST_TREATMENT = (
    "By the treatment (its strength). Natural direction DESC (CORE first), the default "
    "order; ASC is MENTIONED first; {ties}"
)
# A model's treatments are read off an index forward or backward: each order's other
# direction is the exact reverse of its natural one, ties reversed too.
_EXACT_REVERSE = "The other direction is the exact reverse of the natural one, ties too."


@strawberry.enum(description="Fields that a model's treatments (its methods) can be ordered by.")
class TreatmentsOfModelOrderField(Enum):
    STRONGEST = strawberry.enum_value(
        "strongest",
        description=_STRONGEST_TREATMENT.format(
            ties="ties by method name case-insensitively, then slug, A to Z when DESC, "
            f"Z to A when ASC. {_EXACT_REVERSE}"
        ),
    )
    NAME = strawberry.enum_value(
        "name",
        description="By the method's name case-insensitively, equal names by slug. Natural "
        "direction ASC (A to Z, equal names by slug A to Z); DESC is Z to A, equal names by "
        f"slug Z to A. {_EXACT_REVERSE}",
    )
    NODE = strawberry.enum_value(
        "node",
        description="By the node the method is filed at, in tree order (pre-order: each node "
        "before its children, siblings by name), the methods filed at one node by name "
        "case-insensitively, then slug. Natural direction ASC (the tree's first node first, "
        "its methods A to Z); DESC is the tree's last node first, its methods Z to A. "
        f"{_EXACT_REVERSE}",
    )


@strawberry.enum(description="Fields that a method's treatments (its models) can be ordered by.")
class TreatmentsOfMethodOrderField(Enum):
    STRONGEST = strawberry.enum_value(
        "strongest",
        description=_STRONGEST_TREATMENT.format(
            ties="ties by model name case-insensitively, then slug, A to Z either way."
        ),
    )
    NAME = strawberry.enum_value(
        "name", description=f"By the model's name {_NAME.removeprefix('By name ')}"
    )
    RELEASE_DATE = strawberry.enum_value(
        "release_date",
        description=f"By the model's release date. "
        f"{_RELEASE_DATE.removeprefix('By release date. ')}",
    )


# The direction each field takes when an order leaves `direction` out: descending (the
# largest, strongest or newest first) for all but names and tree order.
ASCENDING_BY_NATURE = frozenset({"name", "node"})
# Old names of an order, kept (deprecated) for the clients that use them.
SAME_ORDER_AS = {"strength": "strongest"}
