"""Global IDs: opaque to clients, stable across reloads (built from slugs and evidence
keys, never from row numbers), and unique across types because the type is inside."""

import base64
import binascii

KINDS = ("Node", "Method", "Model", "Source", "Evidence")


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
    if kind not in KINDS or not key or "\x00" in key:
        raise InvalidIdError(f"{value!r} is not an ID of this API")
    return kind, key


def decode_id_of(value: str, expected: str) -> str:
    kind, key = decode_id(value)
    if kind != expected:
        raise InvalidIdError(f"{value!r} is the ID of a {kind}, not of a {expected}")
    return key
