"""`schema.dataloaders.Batched`: values at hand are answered at once, without a fetch;
the rest are fetched in one batch by Strawberry's DataLoader, and kept."""

import asyncio
from typing import Any

from schema.dataloaders import Batched


class Fetches:
    """A batch function that writes down the keys of each batch."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []

    async def __call__(self, keys: list[int]) -> list[str]:
        self.batches.append(list(keys))
        return [f"fetched {key}" for key in keys]


def run(use: Any) -> Any:
    return asyncio.run(use())


def test_a_value_at_hand_is_answered_without_a_fetch() -> None:
    fetches = Fetches()

    async def use() -> tuple[Any, ...]:
        loader: Batched[int, str] = Batched(fetches)
        loader.put(1, "at hand 1")
        at_once = loader.now_or_later(1, str.upper)
        loaded = await loader.load(1)
        await loader.fetch_ahead([1, 2, 2])
        return at_once, loaded, loader.now_or_later(2, str)

    assert run(use) == ("AT HAND 1", "at hand 1", "fetched 2")
    assert fetches.batches == [[2]]


def test_a_known_value_stays() -> None:
    fetches = Fetches()

    async def use() -> list[str]:
        loader: Batched[int, str] = Batched(fetches)
        first = await loader.load(1)
        loader.put(1, "put 1")  # loaded already: kept
        loader.put(2, "put 2")
        loader.put(2, "put again")  # at hand already: kept
        return [first, await loader.load(1), await loader.load(2)]

    assert run(use) == ["fetched 1", "fetched 1", "put 2"]
    assert fetches.batches == [[1]]


def test_loads_in_one_turn_are_one_batch_and_then_at_hand() -> None:
    fetches = Fetches()

    async def use() -> tuple[list[str], str]:
        loader: Batched[int, str] = Batched(fetches)
        both = await asyncio.gather(loader.load(3), loader.load(4))
        return list(both), loader.now_or_later(4, str.upper)  # type: ignore[return-value]

    assert run(use) == (["fetched 3", "fetched 4"], "FETCHED 4")
    assert fetches.batches == [[3, 4]]


def test_a_value_not_at_hand_comes_later() -> None:
    fetches = Fetches()

    async def use() -> str:
        loader: Batched[int, str] = Batched(fetches)
        later = loader.now_or_later(5, str.upper)
        assert asyncio.iscoroutine(later)
        return await later  # type: ignore[no-any-return]

    assert run(use) == "FETCHED 5"
