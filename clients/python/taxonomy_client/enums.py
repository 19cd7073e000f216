from enum import Enum


class ChangeKind(str, Enum):
    ADDED = "ADDED"
    REMOVED = "REMOVED"
    MOVED = "MOVED"
    RENAMED = "RENAMED"
    STRENGTHENED = "STRENGTHENED"
    WEAKENED = "WEAKENED"
    CHANGED = "CHANGED"


class ChangeOrder(str, Enum):
    KEY = "KEY"
    KIND = "KIND"


class Interval(str, Enum):
    MONTH = "MONTH"
    QUARTER = "QUARTER"
    YEAR = "YEAR"


class MethodOrderField(str, Enum):
    NAME = "NAME"
    STRONGEST = "STRONGEST"
    MODEL_COUNT = "MODEL_COUNT"


class ModelOrderField(str, Enum):
    NAME = "NAME"
    RELEASE_DATE = "RELEASE_DATE"


class ModelTreatmentOrderField(str, Enum):
    RELEASE_DATE = "RELEASE_DATE"
    NAME = "NAME"
    STRONGEST = "STRONGEST"
    STRENGTH = "STRENGTH"
    METHOD_COUNT = "METHOD_COUNT"


class OrderDirection(str, Enum):
    ASC = "ASC"
    DESC = "DESC"


class ReleaseOrderField(str, Enum):
    NUMBER = "NUMBER"


class Scope(str, Enum):
    HERE = "HERE"
    BRANCH = "BRANCH"


class SearchField(str, Enum):
    NAME = "NAME"
    ALIAS = "ALIAS"
    MATCHING_AID = "MATCHING_AID"
    ORGANIZATION = "ORGANIZATION"
    DESCRIPTION = "DESCRIPTION"


class SearchType(str, Enum):
    NODES = "NODES"
    METHODS = "METHODS"
    MODELS = "MODELS"
    SOURCES = "SOURCES"


class SourceKind(str, Enum):
    TECHNICAL_REPORT = "TECHNICAL_REPORT"
    MODEL_CARD = "MODEL_CARD"
    BLOG_POST = "BLOG_POST"
    PAPER = "PAPER"
    OTHER = "OTHER"


class Strength(str, Enum):
    CORE = "CORE"
    USED = "USED"
    MENTIONED = "MENTIONED"


class TreatmentsOfMethodOrderField(str, Enum):
    STRONGEST = "STRONGEST"
    NAME = "NAME"
    RELEASE_DATE = "RELEASE_DATE"


class TreatmentsOfModelOrderField(str, Enum):
    STRONGEST = "STRONGEST"
    NAME = "NAME"
    NODE = "NODE"
