"""The benchmark of a request's overhead (`bench/request_overhead.py`) answers each of its
documents without an error before it times it, and times each of them; on PostgreSQL it
times one statement three ways too."""

from bench.request_overhead import DOCUMENTS, measure

from conftest import Api


def test_each_document_and_statement_is_timed(api: Api) -> None:
    figures = measure(api.database_url, count=3)
    assert set(figures["per request (ms)"]) == set(DOCUMENTS)
    assert all(ms > 0 for ms in figures["per request (ms)"].values())
    if api.database_url.startswith("postgresql"):
        assert set(figures["per statement (ms)"]) == {
            "SQLAlchemy asyncio (as requests run it)",
            "psycopg asyncio alone",
            "psycopg blocking",
        }
        assert all(ms > 0 for ms in figures["per statement (ms)"].values())
    else:
        assert "per statement (ms)" not in figures
