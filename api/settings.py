"""The one typed settings object. Nothing else in the project reads the environment."""

from pathlib import Path

from pydantic import AliasChoices, Field, ValidationError
from pydantic_core import ErrorDetails
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_DIR = Path(__file__).resolve().parent.parent
# The checkout's own folder for the default database, made when first needed (a folder
# named in --db or DATABASE_URL must exist: a mistyped path creates nothing).
DEFAULT_DATABASE_DIR = PROJECT_DIR / "var"
DEFAULT_DATABASE_URL = f"sqlite:///{DEFAULT_DATABASE_DIR / 'taxonomy.db'}"
DEFAULT_FIXTURES_DIR = PROJECT_DIR / "fixtures"


class Settings(BaseSettings):
    """Configuration, read from ``TAXONOMY_*`` environment variables (and ``DATABASE_URL``)."""

    model_config = SettingsConfigDict(env_prefix="TAXONOMY_", extra="ignore", validate_by_name=True)

    database_url: str = Field(
        default=DEFAULT_DATABASE_URL,
        # DATABASE_URL is the name every platform uses; TAXONOMY_DATABASE_URL works too.
        validation_alias=AliasChoices("DATABASE_URL", "TAXONOMY_DATABASE_URL"),
        description="sqlite:///path or postgresql://user@host:port/db",
    )
    # Who migrates and loads the fixtures at `taxonomy serve` start-up when the serving
    # role may not write (PostgreSQL, docs/operations.md "Least privilege"); DATABASE_URL otherwise.
    admin_database_url: str | None = None
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65_535)
    workers: int = Field(default=1, ge=1)
    fixtures_dir: Path = DEFAULT_FIXTURES_DIR
    graphiql: bool = True
    # Connections each server process keeps to PostgreSQL.
    pool_size: int = 5
    # PostgreSQL: prepare the statements requests run again and again, on each connection
    # (psycopg prepares one on its sixth run there), so that the database stops planning
    # them. Off behind a pooler that cannot keep prepared statements across transactions
    # (PgBouncer in transaction mode without max_prepared_statements).
    prepared_statements: bool = True
    # Answers kept per process, by query and data version (0 entries turns it off; ETags
    # and 304s work either way).
    response_cache: bool = True
    response_cache_entries: int = 2048
    response_cache_megabytes: int = 64
    # A directory where the worker processes of one server share their cached answers
    # (api.edge.shared_answers), at most this many megabytes; `taxonomy serve --workers N`
    # makes one of its own for N above 1. None: each process keeps only its own.
    response_cache_dir: Path | None = None
    response_cache_shared_megabytes: int = Field(default=256, ge=1)
    # How often each process reads the data version, i.e. how soon after a load every
    # server serves the new data.
    version_poll_seconds: float = 1.0
    # How long a client or proxy may keep a query's answer before revalidating it with its
    # ETag (api.edge.freshness); 0 revalidates every time, so no cache serves a load's old data.
    cache_max_age_seconds: int = Field(default=0, ge=0)
    # Add `x-sql-statements: N` to each GraphQL response (for benchmarks and debugging).
    statement_header: bool = False
    # A JSON line per request on the logger `taxonomy.requests` (api.edge.request_log).
    request_log: bool = True

    # Limits on what one request may ask (docs/api-guide.md: "Limits"). Each refusal is an error
    # with code QUERY_TOO_COMPLEX (or BAD_REQUEST, TIMEOUT) naming the limit and value.
    max_depth: int = 10
    max_aliases: int = 30
    max_tokens: int = 5_000
    max_cost: int = 50_000
    max_body_bytes: int = 1_000_000
    # The URL (path and query string): a GET's query goes in it. Under 64 KiB, the most
    # uvicorn's URL parser takes (api.edge.request_heads answers longer ones itself).
    max_url_bytes: int = Field(default=16_384, gt=0, lt=65_536)
    request_timeout_seconds: float = 10.0
    # A download (api.download): its whole stream; each of its chunks is a request's time.
    download_timeout_seconds: float = Field(default=600.0, gt=0)
    # Several operations in one request (a JSON array): off unless given a cap.
    batching_max_operations: int = 0
    introspection: bool = True
    # Automatic persisted queries (Apollo's protocol): documents kept per process, at most
    # this many and this many megabytes of their text.
    persisted_queries_entries: int = Field(default=1000, ge=0)
    persisted_queries_megabytes: int = Field(default=16, ge=0)
    # Parsed and validated documents kept per process (schema.DocumentCache), counted at
    # 64 bytes a character of their text (a parsed document takes 34-51 times its text's
    # size, measured on the example operations).
    document_cache_megabytes: int = Field(default=64, ge=0)
    # Allowlist mode: only the documents in this JSON file ({sha256: document} or a list of
    # documents) run, by hash or in full; nothing else.
    persisted_queries_allowlist: Path | None = None
    # Origins allowed to call the API from a browser; none unless listed (JSON list).
    cors_origins: list[str] = []

    # Connections (`taxonomy serve`): a request's line and headers must arrive within this
    # many seconds of its first byte (of the connection, for a client that sends nothing),
    # and an idle keep-alive connection is closed after keep_alive_seconds.
    header_timeout_seconds: float = 10.0
    keep_alive_seconds: int = 5

    @property
    def keeps_answers(self) -> bool:
        """Whether the response cache keeps answers (ETags and 304s work either way)."""
        return self.response_cache and self.response_cache_entries > 0


class SettingsError(ValueError):
    """An environment variable whose value cannot be used; the message names it."""


def read_settings() -> Settings:
    """The settings; SettingsError says which environment variables are wrong, and why."""
    try:
        return Settings()
    except ValidationError as exc:
        raise SettingsError("; ".join(map(_problem, exc.errors(include_url=False)))) from None


def _problem(error: ErrorDetails) -> str:
    name = str(error["loc"][0]) if error["loc"] else ""
    variable = "DATABASE_URL" if name == "database_url" else f"TAXONOMY_{name.upper()}"
    return f"{variable}={error['input']!r}: {error['msg']}"
