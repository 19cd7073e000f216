"""What a query has cost so far, kept up as it runs: lists without `first` are charged for
what they return.

The cost rule (schema.limits) works a query's cost out before it runs, from the page
sizes it asks for; a list without `first` (a node's children, a By-model row's methods,
a method's treatments...) can only be estimated there (LIST_ESTIMATE items), and at size
L such a list holds up to tens of thousands (a root's By-model row lists every method the
model treats in the branch: 18,611 at most). So each such list is charged again when it
has been read, before its items are resolved: every item beyond the estimate costs what
one item was worked out to cost. A query whose charges pass the limit stops there, with
QUERY_TOO_COMPLEX on that field, before the work its items would have cost.
"""

from collections.abc import Awaitable, Callable, Iterable, Sized
from dataclasses import dataclass, field
from inspect import isawaitable
from typing import TYPE_CHECKING, Any, TypeVar

from strawberry.extensions import FieldExtension

from schema.errors import LimitError

if TYPE_CHECKING:
    from schema.context import Info

T = TypeVar("T")

# What the cost rule counts for a list without `first` before it runs.
LIST_ESTIMATE = 10


@dataclass
class CostMeter:
    """One execution's cost: what the rule worked out (``requested``), plus the charges of
    lists that returned more than LIST_ESTIMATE items."""

    limit: int
    requested: int
    # One item's cost, by (parent type, response key) of each list without `first` in the
    # query (the larger, where the same key selects differently in two places).
    item_costs: dict[tuple[str, str], int] = field(default_factory=dict)
    spent: int = 0

    def __post_init__(self) -> None:
        self.spent = self.requested

    def nothing_ran(self) -> None:
        """The operation was refused before any field ran: it spent nothing."""
        self.spent = 0

    def charge(self, parent_type: str, key: str, items: int) -> None:
        beyond = items - LIST_ESTIMATE
        if beyond <= 0:
            return
        self.spent += beyond * self.item_costs.get((parent_type, key), 1)
        if self.spent > self.limit:
            raise LimitError(
                f"query cost {self.spent:,} exceeds the limit `max_cost` of {self.limit:,}: "
                f"`{key}` returned {items:,} items where {LIST_ESTIMATE} were counted before "
                "the query ran; ask for its paged form (`...Connection(first:)`) or for "
                "fewer fields below it",
                limit="max_cost",
                value=self.limit,
                extra={"cost": self.spent},
            )


async def take_turn(info: "Info") -> None:
    """A list field's check of the request's share of the event loop (store.turns), before
    it is read and again before its items are completed: each list gives the loop to the
    other requests if this one has held it for a slice. Many lists of a level wait for
    one statement (a DataLoader's batch, a page's sub-lists read ahead) and wake in one
    pass of the loop: without the second check, all their items would be completed in
    that one stretch."""
    reader = getattr(info.context, "reader", None)
    if reader is not None:
        await reader.take_turn()


def _meter(info: "Info") -> "CostMeter | None":
    return getattr(info.context, "cost", None)


def _charge(info: "Info", items: int) -> None:
    meter = _meter(info)
    if meter is not None:
        path = info.path
        meter.charge(path.typename or "", str(path.key), items)


def _charged(info: "Info", result: T) -> T:
    if isinstance(result, Sized):
        _charge(info, len(result))
    return result


class MeteredList(FieldExtension):
    """Charges a list field's items to the execution's CostMeter: before it is read when
    ``length_of`` tells its length from the object it is asked of (a By-model row knows
    its method count), else once it is read."""

    def __init__(self, length_of: Callable[[Any], int] | None = None) -> None:
        super().__init__()
        self._length_of = length_of

    def resolve(
        self, next_: Callable[..., object], source: object, info: "Info", **kwargs: object
    ) -> object:
        # A list whose value is at hand is answered at once (no coroutine, no turn of the
        # loop): a tree's levels are the items of one stretch, bounded by their charges.
        if self._length_of is not None:
            _charge(info, self._length_of(source))
            return next_(source, info, **kwargs)
        result = next_(source, info, **kwargs)
        if isawaitable(result):
            return self._charged_later(result, info)
        return _charged(info, result)

    async def resolve_async(
        self,
        next_: Callable[..., Awaitable[object]],
        source: object,
        info: "Info",
        **kwargs: object,
    ) -> object:
        await take_turn(info)
        if self._length_of is not None:
            _charge(info, self._length_of(source))
            result = await next_(source, info, **kwargs)
        else:
            result = _charged(info, await next_(source, info, **kwargs))
        await take_turn(info)
        return result

    @staticmethod
    async def _charged_later(result: Awaitable[T], info: "Info") -> T:
        return _charged(info, await result)


def affords(info: "Info", parent_type: str, keys: Iterable[str], lengths: Iterable[int]) -> bool:
    """Whether the execution can pay for the lists of ``parent_type`` at response ``keys``
    (schema.lookahead.selected_at), ``lengths`` items each: a list resolver that reads its
    items' sub-lists ahead (in one statement for the whole page) reads them only if their
    charges will not stop the query."""
    meter = _meter(info)
    if meter is None:
        return True
    beyond = sum(max(0, n - LIST_ESTIMATE) for n in lengths)
    cost = sum(beyond * meter.item_costs.get((parent_type, key), 1) for key in set(keys))
    return meter.spent + cost <= meter.limit
