"""`schema.loaders.Loader`: a primed value is answered as DataLoader answers it (never
fetched again, a value already known kept), only without a future of its own."""

import asyncio
from typing import Any

from schema.loaders import Loader, now_or_later


class Fetches:
    """A batch function that writes down the keys of each batch."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []

    async def __call__(self, keys: list[int]) -> list[str]:
        self.batches.append(list(keys))
        return [f"fetched {key}" for key in keys]


def run(use: Any) -> Any:
    return asyncio.run(use())


def test_a_primed_value_is_answered_without_a_fetch() -> None:
    fetches = Fetches()

    async def use() -> tuple[Any, ...]:
        loader: Loader[int, str] = Loader(fetches)
        loader.prime(1, "primed 1")
        at_once = now_or_later(loader, 1, str.upper)
        loaded = await loader.load(1)
        both = await loader.load_many([1, 2])
        return at_once, loaded, both

    assert run(use) == ("PRIMED 1", "primed 1", ["primed 1", "fetched 2"])
    assert fetches.batches == [[2]]


def test_a_known_value_stays_unless_forced() -> None:
    fetches = Fetches()

    async def use() -> list[str]:
        loader: Loader[int, str] = Loader(fetches)
        first = await loader.load(1)
        loader.prime(1, "primed 1")  # loaded already: kept
        loader.prime(2, "primed 2")
        loader.prime(2, "primed again")  # primed already: kept
        loader.prime(3, "primed 3")
        loader.prime(3, "forced 3", force=True)
        return [first, *(await loader.load_many([1, 2, 3]))]

    assert run(use) == ["fetched 1", "fetched 1", "primed 2", "forced 3"]
    assert fetches.batches == [[1]]


def test_a_load_waiting_in_its_batch_is_settled_by_a_prime() -> None:
    fetches = Fetches()

    async def use() -> list[str]:
        loader: Loader[int, str] = Loader(fetches)
        waiting = loader.load_many([1, 2])
        loader.prime(1, "primed 1")  # before the batch is sent
        return list(await waiting)

    assert run(use) == ["primed 1", "fetched 2"]
    assert fetches.batches == [[2]]


def test_a_value_not_at_hand_comes_later() -> None:
    fetches = Fetches()

    async def use() -> str:
        loader: Loader[int, str] = Loader(fetches)
        later = now_or_later(loader, 5, str.upper)
        assert asyncio.iscoroutine(later)
        return await later  # type: ignore[no-any-return]

    assert run(use) == "FETCHED 5"
