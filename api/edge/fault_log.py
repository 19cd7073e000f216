"""Our faults' log entries without the client's values.

An INTERNAL error is logged whole, under its request id (schema.TaxonomySchema), so that it
can be found and fixed. When it came from a statement, its text holds what the statement
was given: SQLAlchemy prints the bound values (`[parameters: ...]`) and the database may
quote one back (`invalid input syntax for type integer: "..."`): values from the client's
variables and arguments, which are its own and stay out of the log. Such an entry keeps
the statement (with its placeholders), the exception's type and SQLSTATE and the
traceback's frames, and says what it withheld."""

import logging
import traceback

from store.statement_errors import error_chain, failed_statement

WITHHELD = "(message withheld: it may hold values bound to the statement)"


class WithoutBoundValues(logging.Filter):
    """For the logger of our faults: entries of failed statements lose their values."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        failed = failed_statement(error)
        if error is None or failed is None:
            return True
        shown = failed.shown  # what the entry says of it (a GraphQL error's message is this)
        summary = f"statement failed: {_kind(failed.cause)} {WITHHELD} [SQL: {failed.statement}]"
        args = record.args if isinstance(record.args, tuple) else ()
        if any(isinstance(arg, str) and shown in arg for arg in args):
            record.args = tuple(
                summary if isinstance(arg, str) and shown in arg else arg for arg in args
            )
        else:  # said some other way: the whole entry goes
            record.msg, record.args = "%s", (summary,)
        record.exc_info, record.exc_text = None, _traceback(error)
        return True


def guard(logger: logging.Logger) -> None:
    """Filters ``logger``'s entries (once, however many apps are made)."""
    if not any(isinstance(known, WithoutBoundValues) for known in logger.filters):
        logger.addFilter(WithoutBoundValues())


def _kind(error: BaseException) -> str:
    kind = type(error)
    sqlstate = getattr(error, "sqlstate", None)  # psycopg's; sqlite3 has none
    return f"{kind.__module__}.{kind.__qualname__}" + (
        f" (SQLSTATE {sqlstate})" if sqlstate else ""
    )


def _traceback(error: BaseException) -> str:
    """``error``'s traceback, each exception of its chain by its type alone."""
    parts = []
    for link in reversed(list(error_chain(error))):
        frames = "".join(traceback.format_tb(link.__traceback__))
        parts.append(f"Traceback (most recent call last):\n{frames}{_kind(link)} {WITHHELD}")
    return "\n\nThe above led to:\n\n".join(parts)
