"""Adoption over time (`Node.adoption`, `Method.adoption`): one point per period, built
from the months the load derived (store.history.adoption)."""

import inspect
from collections.abc import Awaitable, Callable
from datetime import date
from typing import Annotated

import strawberry
from strawberry.types.field import StrawberryField

from schema.base import RowBacked, declared
from schema.context import Info
from schema.cost_meter import MeteredList
from schema.dataloaders import Batched, Loaders
from schema.enums import Interval, Strength, max_rank
from schema.errors import BadUserInputError
from schema.history.release_range import release_range
from schema.readable import RefuseUnreadable
from store.history import adoption

MonthsLoader = Batched[adoption.Key, list[adoption.MonthFigures]]


@strawberry.type(
    description="One period of an adoption series. Only models with a release date count: "
    "`undatedModels` beside the series counts the others."
)
class AdoptionPoint:
    period: str = strawberry.field(
        description="The period's name: `2025-07` (MONTH), `2025-Q3` (QUARTER), `2025` (YEAR)."
    )
    start: date = strawberry.field(description="The period's first day.")
    end: date = strawberry.field(description="The period's last day.")
    models: int = strawberry.field(
        description="Models released in the period that treat the method (for a node: a "
        "method of its branch) at `minStrength` or stronger. The models themselves, for a "
        "node: `byModel(minStrength:, filter: {releasedAfter:, releasedBefore:})` with the "
        "period's first and last day."
    )
    cumulative_models: int = strawberry.field(
        description="The running total of `models`, from the first period to this one."
    )
    new_methods: int = strawberry.field(
        description="Methods (of the branch, for a node; the method itself, for a method) "
        "whose earliest model treating them at `minStrength` or stronger was released in "
        "the period."
    )


IntervalArgument = Annotated[
    Interval | None,
    strawberry.argument(description="The length of each period (null: QUARTER)."),
]
MinStrengthArgument = Annotated[
    Strength | None,
    strawberry.argument(
        description="Count only treatments at least this strong (null: MENTIONED, all)."
    ),
]

_INTERVALS = {
    Interval.MONTH: adoption.Interval.MONTH,
    Interval.QUARTER: adoption.Interval.QUARTER,
    Interval.YEAR: adoption.Interval.YEAR,
}

_SERIES_DESCRIPTION = (
    "Adoption over time: per period, the models released then that treat {what} at "
    "`minStrength` or stronger, "
    "their running total, and the methods first treated (at that strength) then. Periods "
    "run without gaps (an empty period is zeros) from the first with such a model to the "
    "last; empty when there is none. `from` and `to` (or `sinceRelease` and `untilRelease`: "
    "the days those releases were loaded) keep the periods that overlap them "
    "(`cumulativeModels` still counts from the first period). Models without a release "
    "date are in no period: `undatedModels` counts them."
)

FromArgument = Annotated[
    date | None,
    strawberry.argument(
        name="from", description="Only the periods that end on or after this day (null: all)."
    ),
]
ToArgument = Annotated[
    date | None,
    strawberry.argument(
        name="to", description="Only the periods that start on or before this day (null: all)."
    ),
]
SinceReleaseArgument = Annotated[
    int | None,
    strawberry.argument(
        description="Only the periods that end on or after the day this release (its number) "
        "was loaded: `from` named by a release (give one of them, or neither)."
    ),
]
UntilReleaseArgument = Annotated[
    int | None,
    strawberry.argument(
        description="Only the periods that start on or before the day this release was "
        "loaded: `to` named by a release (give one of them, or neither)."
    ),
]


def adoption_field(
    what: str, loader_of: Callable[[Loaders], MonthsLoader], note: str = ""
) -> StrawberryField:
    """Declare ``adoption: list[AdoptionPoint] = adoption_field(...)`` on a row-backed type
    (a node or a method), whose series ``loader_of(loaders)`` reads by the row's id."""

    def resolve(
        root: RowBacked,
        info: Info,
        interval: IntervalArgument = Interval.QUARTER,
        min_strength: MinStrengthArgument = Strength.MENTIONED,
        from_: FromArgument = None,
        to: ToArgument = None,
        since_release: SinceReleaseArgument = None,
        until_release: UntilReleaseArgument = None,
    ) -> list[AdoptionPoint] | Awaitable[list[AdoptionPoint]]:
        loader = loader_of(info.context.loaders)

        def series(
            span: tuple[date | None, date | None],
        ) -> list[AdoptionPoint] | Awaitable[list[AdoptionPoint]]:
            earliest, latest = span
            if earliest is not None and latest is not None and latest < earliest:
                raise BadUserInputError(
                    f"`to` ({latest.isoformat()}) is before `from` ({earliest.isoformat()}); "
                    "give the earlier day as `from`"
                )
            return _series(loader, root.row_id(), interval, min_strength, span)

        if since_release is None and until_release is None:
            return series((from_, to))  # no statement of its own: batched with the others

        async def by_releases() -> list[AdoptionPoint]:
            span = await _release_days(info, (from_, to), (since_release, until_release))
            found = series(span)
            return await found if inspect.isawaitable(found) else found

        return by_releases()

    return declared(
        strawberry.field(
            resolver=resolve,
            extensions=[RefuseUnreadable(), MeteredList()],
            description=_SERIES_DESCRIPTION.format(what=what) + note,
            graphql_type=list[AdoptionPoint] | None,
        )
    )


def _series(
    loader: MonthsLoader,
    subject_id: int,
    interval: Interval | None,
    min_strength: Strength | None,
    span: tuple[date | None, date | None] = (None, None),
) -> list[AdoptionPoint] | Awaitable[list[AdoptionPoint]]:
    """The series of a node or method from ``loader`` (one statement for every series of
    the request at the same threshold, whatever the data's size)."""
    length = _INTERVALS[interval or Interval.QUARTER]

    earliest, latest = span

    def build(months: list[adoption.MonthFigures]) -> list[AdoptionPoint]:
        return [
            AdoptionPoint(
                period=period,
                start=start,
                end=end,
                models=models,
                cumulative_models=cumulative,
                new_methods=new,
            )
            for period, start, end, models, cumulative, new in adoption.series(months, length)
            if (earliest is None or end >= earliest) and (latest is None or start <= latest)
        ]

    return loader.now_or_later((subject_id, max_rank(min_strength)), build)


async def _release_days(
    info: Info, days: tuple[date | None, date | None], releases: tuple[int | None, int | None]
) -> tuple[date | None, date | None]:
    """The span of days ``days`` (`from`, `to`) with `sinceRelease` and `untilRelease`
    (``releases``) as the days those releases were loaded; the releases checked as
    `changes` checks its own (schema.history.release_range)."""
    (from_, to), (since, until) = days, releases
    for day, number, names in (
        (from_, since, "`from` or `sinceRelease`"),
        (to, until, "`to` or `untilRelease`"),
    ):
        if day is not None and number is not None:
            raise BadUserInputError(f"give at most one of {names}: they name the same bound")
    first, last = await release_range(info, ("sinceRelease", since), ("untilRelease", until))
    loaders = info.context.loaders

    async def loaded_on(number: int | None) -> date | None:
        if number is None:
            return None
        row = await loaders.release_by_number.load(number)
        assert row is not None  # release_range checked it is retained
        return row.loaded_at.date()

    earliest = from_ if since is None else await loaded_on(first)
    latest = to if until is None else await loaded_on(last)
    return earliest, latest


UndatedLoader = Batched[adoption.Key, adoption.UndatedOf | None]


def undated_field(what: str, loader_of: Callable[[Loaders], UndatedLoader]) -> StrawberryField:
    """Declare ``undated_models: int | None = undated_field(...)`` beside `adoption_field`:
    the models that treat ``what`` at the threshold but have no release date."""

    def resolve(
        root: RowBacked, info: Info, min_strength: MinStrengthArgument = Strength.MENTIONED
    ) -> int | Awaitable[int]:
        loader = loader_of(info.context.loaders)
        return loader.now_or_later(
            (root.row_id(), max_rank(min_strength)), lambda found: found.models if found else 0
        )

    return declared(
        strawberry.field(
            resolver=resolve,
            description=f"Models without a release date that treat {what} at `minStrength` "
            "or stronger: `adoption` has no period for them, so they are counted here.",
            graphql_type=int | None,
        )
    )
