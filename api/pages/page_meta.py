"""The title and description each page of the taxonomy browser carries in its HTML, set by
the server (issue 27 item 6): a link shared in chat or mail is previewed from the HTML alone,
before any script runs. The words are the page's own (its script sets the same title).

A page with a subject (a node, model or method) is described from what the server asked of
the API to know the subject exists (api/pages/browser.py's SUBJECTS)."""

from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

SITE = "Taxonomy browser"


@dataclass(frozen=True)
class PageMeta:
    """A page's title (before " · Taxonomy browser") and its one-sentence description."""

    subject: str | None
    description: str

    @property
    def title(self) -> str:
        return f"{self.subject} · {SITE}" if self.subject else SITE


HOME = PageMeta(
    "Machine-learning techniques by model",
    "Machine-learning techniques filed in a taxonomy, with the models whose own documents "
    "describe each, how strongly, and what each release changed.",
)
NO_PAGE = PageMeta(
    "There is no page here",
    "This link of the taxonomy browser leads nowhere: start from its home page or search.",
)
_FIXED = {
    "/": HOME,
    "/about": PageMeta(
        "How to read these pages",
        "What core, used and mentioned mean, and what each count of the taxonomy browser counts.",
    ),
    "/models": PageMeta(
        "Models",
        "Every model of the taxonomy, with its organization, release date and the techniques "
        "its documents describe: sortable, filterable and downloadable.",
    ),
    "/methods": PageMeta(
        "Methods",
        "Every method of the taxonomy, where it is filed and how many models treat it: "
        "sortable, filterable and downloadable.",
    ),
    "/releases": PageMeta(
        "Releases", "Every release of the taxonomy, when it was loaded and what it changed."
    ),
}


def _models(count: int) -> str:
    return f"{count:,} model" if count == 1 else f"{count:,} models"


def _subject_meta(kind: str, subject: dict[str, Any]) -> PageMeta:
    """A node's, model's or method's page, from the API's answer about it."""
    if kind == "nodes":
        counts = subject["counts"]
        methods = counts["methodsInBranch"]
        return PageMeta(
            subject["path"],
            f"{methods:,} method{'' if methods == 1 else 's'} filed at this node or below it, "
            f"from the sources of {_models(counts['modelsInBranch'])}: which techniques each "
            "model's documents describe, and how strongly.",
        )
    if kind == "models":
        by = f" ({subject['organization']})" if subject.get("organization") else ""
        return PageMeta(
            subject["name"],
            f"The machine-learning techniques the documents of {subject['name']}{by} "
            "describe, and how strongly.",
        )
    return PageMeta(
        subject["name"],
        f"{subject['name']}, filed at {subject['node']['path']}: treated by "
        f"{_models(subject['modelCount'])}, with the evidence from their documents.",
    )


def page_meta(request: Request, subject: dict[str, Any] | None) -> PageMeta:
    """The title and description of the page ``request`` asks for (that exists), with its
    ``subject`` as the API described it (a node, model or method page's)."""
    path = request.url.path
    kind = path.split("/")[1]
    if subject is not None and kind in ("nodes", "models", "methods"):
        return _subject_meta(kind, subject)
    if path == "/search":
        words = request.query_params.get("q", "").strip()
        if words:
            return PageMeta(
                f"Search: {words}", f"Nodes, methods, models and sources that match “{words}”."
            )
        return PageMeta("Search", "Search the taxonomy's nodes, methods, models and sources.")
    if path == "/changes":
        since, until = request.query_params.get("since"), request.query_params.get("until")
        if since is None:
            return PageMeta("Changes", "What changed in the taxonomy between two releases.")
        subject_words = (
            f"Changes from release {int(since)} to {int(until)}"
            if until is not None
            else f"Changes since release {int(since)}"
        )
        return PageMeta(
            subject_words,
            f"{subject_words}: the nodes, methods, models and treatments added, removed, "
            "moved, renamed or changed.",
        )
    return _FIXED.get(path, HOME)
