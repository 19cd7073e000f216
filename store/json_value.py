"""JSON values as the wire brings them (request variables, parsed bodies, the answers a
report reads back): what a JSON parser can return, nothing wider."""

from typing import TypeAlias

JSONValue: TypeAlias = str | int | float | bool | list["JSONValue"] | dict[str, "JSONValue"] | None
JSONObject: TypeAlias = dict[str, JSONValue]
