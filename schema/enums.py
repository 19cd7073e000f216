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


@strawberry.enum(description="The direction of an ordering.")
class OrderDirection(Enum):
    ASC = strawberry.enum_value("asc", description="Ascending: smallest, oldest or A first.")
    DESC = strawberry.enum_value("desc", description="Descending: largest, newest or Z first.")


@strawberry.enum(description="Fields that methods can be ordered by.")
class MethodOrderField(Enum):
    NAME = strawberry.enum_value("name", description="By name, case-insensitively.")
    STRONGEST = strawberry.enum_value(
        "strongest",
        description="By strongest treatment over all models (DESC: CORE first, untreated last).",
    )
    MODEL_COUNT = strawberry.enum_value(
        "model_count", description="By the number of models that treat the method."
    )


@strawberry.enum(description="Fields that models can be ordered by.")
class ModelOrderField(Enum):
    NAME = strawberry.enum_value("name", description="By name, case-insensitively.")
    RELEASE_DATE = strawberry.enum_value(
        "release_date",
        description="By release date (DESC: newest first, undated after, ties by name).",
    )


@strawberry.enum(description="Fields that By-model rows can be ordered by.")
class ModelTreatmentOrderField(Enum):
    RELEASE_DATE = strawberry.enum_value(
        "release_date",
        description="By the model's release date (DESC, the default: newest first, undated "
        "models after them, ties by name case-insensitively: the seed page's order).",
    )
    NAME = strawberry.enum_value("name", description="By model name, case-insensitively.")
    STRENGTH = strawberry.enum_value(
        "strength",
        description="By the model's strongest treatment in the branch, ties by release date.",
    )
    METHOD_COUNT = strawberry.enum_value(
        "method_count",
        description="By how many of the branch's methods the model treats, ties by release date.",
    )
