"""Global IDs: opaque to clients, stable across reloads (built from slugs and evidence
keys, never from row numbers), and unique across types because the type is inside."""

import base64
import binascii

KINDS = (
    "Node",
    "Method",
    "Model",
    "Source",
    "Evidence",
    "MethodTreatment",
    "ModelTreatment",
    "Release",
)

# The kinds whose key is a pair of slugs (see pair_key).
PAIR_KINDS = ("MethodTreatment", "ModelTreatment")
# A pair's key joins its two slugs with a character no slug has (api.ingest.lines.slug).
PAIR_SEPARATOR = "/"


class InvalidIdError(ValueError):
    pass


def encode_id(kind: str, key: str) -> str:
    return base64.urlsafe_b64encode(f"{kind}:{key}".encode()).decode().rstrip("=")


def decode_id(value: str) -> tuple[str, str]:
    """(type name, slug or key); InvalidIdError if ``value`` is not an ID this API made."""
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise InvalidIdError(f"{value!r} is not an ID of this API") from None
    kind, _, key = raw.partition(":")
    malformed = not key or "\x00" in key or (kind in PAIR_KINDS and split_pair(key) is None)
    if kind not in KINDS or malformed:
        raise InvalidIdError(f"{value!r} is not an ID of this API")
    return kind, key


def decode_id_of(value: str, expected: str) -> str:
    kind, key = decode_id(value)
    if kind != expected:
        raise InvalidIdError(f"{value!r} is the ID of a {kind}, not of a {expected}")
    return key


def pair_key(first: str, second: str) -> str:
    """The key of a pair of objects (a model and a method, a model and a node)."""
    return f"{first}{PAIR_SEPARATOR}{second}"


def split_pair(key: str) -> tuple[str, str] | None:
    """The two slugs of a pair's key; None when ``key`` is not one."""
    first, separator, second = key.partition(PAIR_SEPARATOR)
    if not separator or not first or not second or PAIR_SEPARATOR in second:
        return None
    return first, second
