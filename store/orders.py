"""The stored orders of models and methods, each a rank (0, 1, ...) worked out at load time
with Python's casefold, so that both databases sort exactly alike.

An order and its reverse are stored apart wherever reversing one would also reverse how it
breaks ties or where it puts what is missing: names Z to A still break ties by slug A to Z,
and models without a release date come last whether the newest or the oldest come first.
"""

from collections.abc import Sequence
from datetime import date
from typing import Any


def _positions(order: Sequence[int]) -> list[int]:
    """For each item (by index), its position in ``order`` (item indices, sorted)."""
    ranks = [0] * len(order)
    for rank, index in enumerate(order):
        ranks[index] = rank
    return ranks


def ranks_by(keys: Sequence[tuple[Any, ...]]) -> list[int]:
    """For each item (by index), its position when items are sorted by their keys."""
    return _positions(sorted(range(len(keys)), key=keys.__getitem__))


def name_ranks(named: Sequence[tuple[str, str]], *, z_to_a: bool = False) -> list[int]:
    """For each (name, slug): its position by name case-insensitively, A to Z (or Z to A),
    equal names by slug A to Z either way."""
    by_slug = sorted(range(len(named)), key=lambda index: named[index][1])
    # A stable sort keeps the slug order among equal names, reversed or not.
    by_name = sorted(by_slug, key=lambda index: named[index][0].casefold(), reverse=z_to_a)
    return _positions(by_name)


def release_ranks(
    models: Sequence[tuple[date | None, str, str]], *, newest_first: bool
) -> list[int]:
    """For each (release date, name, slug): its position by release date, newest first
    (or oldest first), undated models after every dated one either way, equal dates and
    undated models by name case-insensitively, then by slug."""
    sign = -1 if newest_first else 1
    return ranks_by(
        [
            (
                released is None,
                sign * released.toordinal() if released else 0,
                name.casefold(),
                slug,
            )
            for released, name, slug in models
        ]
    )
