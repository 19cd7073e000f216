"""A range of retained releases, as the fields that take one name it
(`changes(since:, until:)`, `adoption(sinceRelease:, untilRelease:)`): each number checked
against the retained releases, and the earlier before the later, by one function with one
wording of what is wrong."""

from schema.context import Info
from schema.errors import BadUserInputError, NotFoundError
from store.history.releases import retained_range

# (the argument's name as the client wrote it, the release number it gave, or None)
Bound = tuple[str, int | None]


async def release_range(info: Info, since: Bound, until: Bound) -> tuple[int | None, int]:
    """The numbers of ``since`` (None when not given) and ``until`` (the newest release
    when not given), each one of a retained release, ``since`` not after ``until``."""
    oldest, newest = await retained_range(info.context.reader, info.context.caches.releases)
    if oldest is None or newest is None:
        raise NotFoundError("no release yet: load data first (`taxonomy load DIRECTORY`)")
    (since_name, first), (until_name, last) = since, until
    last = newest if last is None else last
    retained = f"the retained releases are {oldest} to {newest} (see `releases`)"
    for argument, number in ((since_name, first), (until_name, last)):
        if number is None:
            continue
        if 1 <= number < oldest:  # release numbers start at 1: this one was there once
            raise NotFoundError(
                f"`{argument}`: release {number} was pruned (`taxonomy prune`); the oldest "
                f"retained release is {oldest} and the newest {newest}: ask for {oldest} or later"
            )
        if not oldest <= number <= newest:
            raise NotFoundError(f"`{argument}`: there is no release {number}; {retained}")
    if first is not None and first > last:
        raise BadUserInputError(
            f"`{since_name}` ({first}) is after `{until_name}` ({last}): a range of releases "
            "runs from an earlier release to a later one"
        )
    return first, last
