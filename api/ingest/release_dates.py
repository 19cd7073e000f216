"""Release dates that stand for "unknown": some pipelines write a placeholder (the Papers
with Code copy in the shared test data dates all 1,365 of its models 2000-01-01), which
would put every model in one period of every adoption series.

A load can name the placeholder (`taxonomy load --unknown-release-date 2000-01-01`): the
models dated so are loaded undated, and adoption counts them as such (`undatedModels`).
Without it, a load whose models mostly share one date says so, and how to name it."""

from collections import Counter
from dataclasses import replace
from datetime import date

from api.ingest.dataset import Catalog

# One date on this share of at least this many dated models looks like a placeholder.
SUSPECT_SHARE = 0.9
SUSPECT_MIN_MODELS = 100


def undate(catalog: Catalog, unknown: date) -> int:
    """Load the models dated ``unknown`` undated; how many there were."""
    count = sum(model.release_date == unknown for model in catalog.models)
    catalog.models = [
        replace(model, release_date=None) if model.release_date == unknown else model
        for model in catalog.models
    ]
    return count


def suspect_placeholder(catalog: Catalog) -> str | None:
    """A warning when most dated models share one release date, else None."""
    dates = Counter(m.release_date for m in catalog.models if m.release_date is not None)
    if not dates:
        return None
    (common, count), dated = dates.most_common(1)[0], sum(dates.values())
    if dated < SUSPECT_MIN_MODELS or count < SUSPECT_SHARE * dated:
        return None
    return (
        f"{count:,} of {dated:,} dated models have release_date {common.isoformat()}: if it "
        f"stands for an unknown date, load with --unknown-release-date {common.isoformat()} "
        "so that adoption counts them as undated"
    )
