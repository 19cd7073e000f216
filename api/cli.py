"""The `taxonomy` command: load, migrate, serve, and print the schema."""

import os
import sys
from pathlib import Path

import click
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from api import migrate
from api.export import ExportError, export_directory
from api.generate import SCALES, generate_scale
from api.ingest.dataset import DatasetError
from api.ingest.load import load_directory
from api.ingest.progress import Bars, meter_for
from api.ingest.shrink import ShrinkError
from api.ingest.turns import LoadBusyError
from api.request_log import log_config
from api.settings import Settings
from store.engines import DatabaseUrlError, make_sync_engine, parse_url
from store.tables import DatasetRow, table_of

DB_OPTION = click.option(
    "--db",
    "database_url",
    default=None,
    help="Database URL (sqlite:///file.db or postgresql://user@host/db); "
    "default: DATABASE_URL, else var/taxonomy.db.",
)


def _settings(database_url: str | None) -> Settings:
    settings = Settings()
    if database_url:
        settings = settings.model_copy(update={"database_url": database_url})
    try:
        parse_url(settings.database_url)
    except DatabaseUrlError as exc:
        raise click.UsageError(str(exc)) from None
    return settings


def _unreachable(url: str, exc: OperationalError) -> click.ClickException:
    shown = parse_url(url).render_as_string(hide_password=True)
    reason = str(exc.orig).strip().splitlines()[0] if exc.orig else type(exc).__name__
    return click.ClickException(
        f"cannot use the database at {shown}: {reason}\n"
        "Check that it is running and that the URL (--db or DATABASE_URL) is right."
    )


@click.group()
def main() -> None:
    """Serve and load the ML-techniques taxonomy."""


@main.command()
@click.argument("directory", type=click.Path(path_type=Path))
@DB_OPTION
@click.option(
    "--allow-shrink",
    is_flag=True,
    help="Load even if that empties a table that has rows, or removes over half of the "
    "served methods, models or evidence (refused otherwise).",
)
@click.option(
    "--no-wait",
    is_flag=True,
    help="Fail at once if another load is running (by default, wait for it to finish).",
)
def load(directory: Path, database_url: str | None, allow_shrink: bool, no_wait: bool) -> None:
    """Load the dataset in DIRECTORY, replacing the data, all or nothing."""
    settings = _settings(database_url)
    meter = meter_for(sys.stderr)
    try:
        summary = load_directory(
            directory,
            settings.database_url,
            meter=meter,
            allow_shrink=allow_shrink,
            wait=not no_wait,
            say=meter.note,
        )
    except DatasetError as exc:
        for problem in exc.problems:
            click.echo(problem, err=True)
        raise click.ClickException(
            f"nothing was loaded: {directory} has problems (listed above); the database is "
            "unchanged"
        ) from None
    except ShrinkError as exc:
        raise click.ClickException(
            f"nothing was loaded: {exc}; pass --allow-shrink to load it anyway; the database "
            "is unchanged"
        ) from None
    except LoadBusyError as exc:
        raise click.ClickException(
            f"nothing was loaded: {exc}; run it again once that load is done, or without "
            "--no-wait to wait for it"
        ) from None
    except OperationalError as exc:
        raise _unreachable(settings.database_url, exc) from None
    finally:
        if isinstance(meter, Bars):
            meter.close()
    counts = ", ".join(f"{count:,} {name}" for name, count in summary.counts.items())
    click.echo(
        f"loaded {directory} in {summary.seconds:.1f} s: {counts}; data version {summary.version}"
    )


@main.command("migrate")
@DB_OPTION
@click.option("--revision", default="head", show_default=True, help="Target revision.")
def migrate_command(database_url: str | None, revision: str) -> None:
    """Bring the database's tables to REVISION (the newest by default)."""
    settings = _settings(database_url)
    try:
        migrate.upgrade(settings.database_url, revision)
    except OperationalError as exc:
        raise _unreachable(settings.database_url, exc) from None
    click.echo(
        f"database at migration {migrate.head_revision() if revision == 'head' else revision}"
    )


@main.command("export")
@click.argument("directory", type=click.Path(path_type=Path))
@DB_OPTION
def export_command(directory: Path, database_url: str | None) -> None:
    """Write the served data into DIRECTORY (new or empty) in the interchange format."""
    settings = _settings(database_url)
    try:
        counts = export_directory(settings.database_url, directory)
    except ExportError as exc:
        raise click.ClickException(str(exc)) from None
    except OperationalError as exc:
        raise _unreachable(settings.database_url, exc) from None
    written = ", ".join(f"{count:,} {name}" for name, count in counts.items())
    click.echo(f"exported to {directory}: {written}")


@main.command("generate")
@click.argument("directory", type=click.Path(path_type=Path))
@click.option(
    "--scale",
    type=click.Choice(sorted(SCALES)),
    default="S",
    show_default=True,
    help="S: the default fixtures; M: about 20k methods, 100k evidence; "
    "L: about 200k methods, 1M evidence.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
def generate_command(directory: Path, scale: str, seed: int) -> None:
    """Write a synthetic dataset around the default fixtures into DIRECTORY."""
    if directory.exists() and any(directory.iterdir()):
        raise click.ClickException(f"{directory} is not empty; name a new folder")
    generate_scale(directory, scale, fixtures=Settings().fixtures_dir, seed=seed)
    click.echo(f"wrote scale {scale} (seed {seed}) to {directory}")


@main.command("schema")
def print_schema() -> None:
    """Print the GraphQL schema (SDL); `schema.graphql` is this output."""
    from schema import schema

    click.echo(schema.as_str())


def prepare_database(settings: Settings) -> None:
    """Migrate; load the default fixtures when the database holds no data yet."""
    migrate.upgrade(settings.database_url)
    engine = make_sync_engine(settings.database_url)
    try:
        with engine.connect() as connection:
            loaded = connection.execute(select(table_of(DatasetRow).c.version)).scalar()
    finally:
        engine.dispose()
    if loaded is None:
        summary = load_directory(settings.fixtures_dir, settings.database_url)
        click.echo(f"loaded the default fixtures ({summary.counts['methods']} methods)")


@main.command()
@DB_OPTION
@click.option(
    "--admin-db",
    "admin_database_url",
    default=None,
    help="URL with the rights to migrate and load (default: --db); the server itself only reads.",
)
@click.option("--host", default=None, help="Interface to listen on [default: 127.0.0.1].")
@click.option("--port", type=int, default=None, help="Port to listen on [default: 8000].")
@click.option("--workers", type=int, default=None, help="Worker processes [default: 1].")
def serve(
    database_url: str | None,
    admin_database_url: str | None,
    host: str | None,
    port: int | None,
    workers: int | None,
) -> None:
    """Serve GraphQL at /graphql (GraphiQL in a browser), /healthz and /readyz."""
    import uvicorn

    settings = _settings(database_url)
    admin_url = admin_database_url or settings.admin_database_url or settings.database_url
    try:
        prepare_database(settings.model_copy(update={"database_url": admin_url}))
    except OperationalError as exc:
        raise _unreachable(admin_url, exc) from None
    except DatasetError as exc:
        raise click.ClickException("the default fixtures do not load:\n" + str(exc)) from None
    # Worker processes build their own settings from the environment.
    os.environ["DATABASE_URL"] = settings.database_url
    host = host or settings.host
    port = port or settings.port
    click.echo(f"GraphiQL: http://{host}:{port}/graphql", err=True)
    uvicorn.run(
        "api.app:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers or settings.workers,
        log_level="info",
        # The app logs a line per request itself (api.request_log), with what uvicorn's
        # access log cannot know: the request id, the operation, the cache, the SQL.
        access_log=False,
        log_config=log_config(),
        # Bounds on how a request's head arrives (api.http_protocol), and an idle
        # keep-alive connection closed after keep_alive_seconds.
        http="api.http_protocol:BoundedHttpProtocol",
        timeout_keep_alive=settings.keep_alive_seconds,
        # Nothing says which server this is (api.security_headers adds what browsers need).
        server_header=False,
    )


if __name__ == "__main__":
    sys.exit(main())
