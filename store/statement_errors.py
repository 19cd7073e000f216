"""Which of an error's chain is a statement that failed, as SQLAlchemy reports it: what
api.edge.fault_log keeps of it (the statement, with its placeholders; the database's error)
and what it withholds (the values bound to it)."""

from collections.abc import Iterator
from dataclasses import dataclass

from sqlalchemy.exc import StatementError


@dataclass(frozen=True)
class FailedStatement:
    shown: str  # the error as printed: the statement, its bound values, the database's message
    statement: str | None  # the statement, with placeholders
    cause: BaseException  # the driver's error, or SQLAlchemy's own if there is none


def failed_statement(error: BaseException | None) -> FailedStatement | None:
    """The first statement that failed in ``error``'s chain, if any did."""
    failed = next((e for e in error_chain(error) if isinstance(e, StatementError)), None)
    if failed is None:
        return None
    return FailedStatement(str(failed), failed.statement, failed.orig or failed)


def error_chain(error: BaseException | None) -> Iterator[BaseException]:
    """``error``, then what caused it or was being handled when it was raised, and so on."""
    while error is not None:
        yield error
        error = error.__cause__ or error.__context__
