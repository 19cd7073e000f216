"""The `taxonomy` command: load, migrate, serve, export, generate, print the schema,
list releases and changes, prune old releases.

Only click is imported up front. Each command imports what it uses when it runs:
SQLAlchemy, Alembic, Strawberry and uvicorn take seconds to import, and `taxonomy
--help`, every command's --help and a mistyped option answer at once without them
(tests/test_cli.py holds that)."""

import atexit
import gc
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from api.commands.generate import SCALES

if TYPE_CHECKING:
    from api.ingest.dataset import DatasetError
    from api.settings import Settings
    from store.database_errors import DatabaseFailure

T = TypeVar("T")

DB_OPTION = click.option(
    "--db",
    "database_url",
    default=None,
    help="Database URL (sqlite:///file.db or postgresql://user@host/db); "
    "default: DATABASE_URL, else var/taxonomy.db.",
)


def _settings(database_url: str | None, *, reading: bool = False) -> "Settings":
    """The settings with --db applied, its URL checked: on SQLite, the folder must exist,
    and the file too when the command only ``reading`` it; a wrong path creates nothing."""
    from store.engines import DatabaseUrlError, parse_url

    settings = _environment()
    if database_url:
        settings = settings.model_copy(update={"database_url": database_url})
    try:
        parse_url(settings.database_url)
    except DatabaseUrlError as exc:
        raise click.UsageError(str(exc)) from None
    _check_database_file(settings.database_url, reading=reading)
    return settings


def _environment() -> "Settings":
    from api.settings import SettingsError, read_settings

    try:
        return read_settings()
    except SettingsError as exc:
        raise click.UsageError(str(exc)) from None


def _check_database_file(url: str, *, reading: bool) -> None:
    from api.settings import DEFAULT_DATABASE_DIR, DEFAULT_DATABASE_URL
    from store.engines import DatabaseFileError, check_sqlite_file

    if url == DEFAULT_DATABASE_URL and not reading:
        DEFAULT_DATABASE_DIR.mkdir(exist_ok=True)
    try:
        check_sqlite_file(url, existing=reading)
    except DatabaseFileError as exc:
        raise click.ClickException(str(exc)) from None


# What the databases say when the disk, not the URL, is the trouble (SQLite's messages;
# PostgreSQL's SQLSTATE 53100, disk_full, and its "No space left on device"), and what to
# do then. Every command that writes does so in one transaction: nothing is half-written.
_DISK_TROUBLE = (
    (("database or disk is full", "no space left on device", "could not extend file"),
     "no space left on the disk that holds it: free some space and run again"),
    (("readonly database", "read-only file system", "read-only transaction"),
     "it is read-only (the file, its folder or the disk): make it writable, or name "
     "another database"),
    (("disk i/o error",),
     "the disk failed to read or write (disk I/O error): check the disk and run again"),
)  # fmt: skip


def _with_problems(exc: "DatasetError", what: str, advice: str) -> click.ClickException:
    """A dataset's problems, one per line (file:line), then what was done about them."""
    for problem in exc.problems:
        click.echo(problem, err=True)
    return click.ClickException(f"{what} has problems (listed above); {advice}")


def _shown_url(url: str) -> str:
    """A database URL as messages show it: without its password."""
    from store.engines import parse_url

    return parse_url(url).render_as_string(hide_password=True)


def _sqlite_file(url: str) -> "Path | None":
    """The file of a SQLite database URL; None for another database."""
    from store.engines import is_sqlite, sqlite_path

    return sqlite_path(url) if is_sqlite(url) else None


def _read_only_sqlite(url: str) -> bool:
    """Whether a SQLite database file, or the folder it is in, cannot be written (a
    read-only disk, or permissions)."""
    path = _sqlite_file(url)
    if path is None:
        return False
    return not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK))


def _full_sqlite_disk(url: str) -> bool:
    """Whether the disk that holds a SQLite database file has no room left (under 64 KiB
    free for unprivileged writers)."""
    path = _sqlite_file(url)
    if path is None:
        return False
    disk = os.statvfs(path.parent)
    return disk.f_bavail * disk.f_frsize < 65_536


def _unreachable(url: str, exc: "DatabaseFailure", *, writes: bool) -> click.ClickException:
    """The refusal for a database that cannot be reached, written or read (a damaged
    file, or a role without the rights the command needs: it ``writes`` or only reads);
    any other error of the database (a fault of ours) is raised as it is."""
    from store.database_errors import (
        damaged_database,
        database_said,
        is_operational,
        refused_to_the_role,
    )

    shown = _shown_url(url)
    damaged = damaged_database(exc, shown=shown)
    if damaged is not None:
        return click.ClickException(damaged)
    if refused_to_the_role(exc):
        needed, done = (
            ("owns the taxonomy's tables and may create a schema", "; nothing was changed")
            if writes
            else ("may read the taxonomy's tables", "")
        )
        return click.ClickException(
            f"the database at {shown} refused the role this command connects as "
            f"({database_said(exc)}){done}: connect as a role that {needed} (docs/"
            'operations.md, "Least privilege")'
        )
    if not is_operational(exc):
        raise exc
    reason = database_said(exc)
    said = reason.lower()
    if "unable to open database file" in said and _read_only_sqlite(url):
        said = "readonly database"  # SQLite cannot make its journal beside the file
    if "disk i/o error" in said and _full_sqlite_disk(url):
        said = "no space left on device"  # SQLite cannot make its journal on a full disk
    return _disk_trouble(shown, said, reason) or click.ClickException(
        f"cannot use the database at {shown}: {reason}\n"
        "Check that it is running and that the URL (--db or DATABASE_URL) is right."
    )


def _disk_trouble(shown: str, said: str, reason: str) -> click.ClickException | None:
    """The refusal for the database at ``shown`` (its URL, no password) whose disk is the
    trouble (what ``said``, lower case, says; see _DISK_TROUBLE); None when it is not."""
    for phrases, advice in _DISK_TROUBLE:
        if any(phrase in said for phrase in phrases):
            return click.ClickException(
                f"cannot write the database at {shown}: {advice}; what the command had "
                f"written was rolled back ({reason})"
            )
    return None


@click.group()
def main() -> None:
    """Serve and load the ML-techniques taxonomy."""


# The cyclic collector's thresholds as CPython sets them, which the server's own policy
# starts from (api.app, api.edge.idle_collection), and the youngest generation's size
# for a command instead (CPython's is 700).
CPYTHON_THRESHOLDS = gc.get_threshold()
COMMAND_YOUNG_GENERATION = 50_000


def run() -> None:
    """The `taxonomy` program: `main` in a process collected as a command is.

    A command imports over 100,000 objects that live as long as it does (Strawberry's
    schema, SQLAlchemy's tables and mappers), and the cyclic collector walked them again
    and again: its youngest generation every 700 allocations, all of them in each full
    collection, and once more at exit, before Python tears the modules down. That was
    0.25-0.45 s of each command (`python -m bench.start_times`: `taxonomy schema` 0.94 s
    before, 0.69 s after). The youngest generation now fills at 50,000, which keeps young
    garbage to a few MB in a long load, and at exit what is left is frozen: the process
    is ending, so none of it needs finding. (Tests call `main`, in a process of their
    own kind.)"""
    gc.set_threshold(COMMAND_YOUNG_GENERATION, *CPYTHON_THRESHOLDS[1:])
    atexit.register(gc.freeze)
    main()


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
@click.option(
    "--note",
    default=None,
    help='A note kept with the release this load makes (`taxonomy releases`), e.g. "May reports".',
)
@click.option(
    "--unknown-release-date",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="A release date that stands for 'unknown' in this dataset (a placeholder such as "
    "2000-01-01): models dated so are loaded undated.",
)
def load(
    directory: Path,
    database_url: str | None,
    allow_shrink: bool,
    no_wait: bool,
    note: str | None,
    unknown_release_date: datetime | None,
) -> None:
    """Load the dataset in DIRECTORY, replacing the data, all or nothing."""
    from api.ingest.dataset import DatasetError
    from api.ingest.load import load_directory
    from api.ingest.progress import Bars, meter_for
    from api.ingest.shrink import ShrinkError
    from api.ingest.turns import LoadBusyError
    from store.database_errors import DatabaseFailure

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
            note=note,
            unknown_release_date=unknown_release_date and unknown_release_date.date(),
        )
    except DatasetError as exc:
        raise _with_problems(
            exc, f"nothing was loaded: {directory}", "the database is unchanged"
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
    except DatabaseFailure as exc:
        raise _unreachable(settings.database_url, exc, writes=True) from None
    except OSError as exc:
        # The load's lock file beside a SQLite database (api.ingest.lock_file), written
        # before anything else: a full or read-only disk shows there first.
        refusal = _disk_trouble(_shown_url(settings.database_url), str(exc).lower(), str(exc))
        if refusal is None:
            raise
        raise refusal from None
    finally:
        if isinstance(meter, Bars):
            meter.close()
    counts = ", ".join(f"{count:,} {name}" for name, count in summary.counts.items())
    click.echo(
        f"loaded {directory} in {summary.seconds:.1f} s: {counts}; data version {summary.version}"
    )
    if summary.changes is None:
        click.echo(f"release {summary.version}: the first, with no release before to compare")
    elif summary.changes == 0:
        click.echo(
            f"release {summary.version}: nothing changed since release {summary.version - 1}"
        )
    else:
        click.echo(
            f"release {summary.version}: {summary.changes:,} change rows since release "
            f"{summary.version - 1}; see `taxonomy changes --since {summary.version - 1}`"
        )


@main.command("migrate")
@DB_OPTION
@click.option(
    "--revision",
    default="head",
    show_default=True,
    help="Target revision: one of the migrations' ids (0001, 0002, ...) or head, the newest.",
)
def migrate_command(database_url: str | None, revision: str) -> None:
    """Bring the database's tables up to REVISION (the newest by default)."""
    from api.commands import migrate
    from store.database_errors import DatabaseFailure
    from store.revision import database_revision

    settings = _settings(database_url)
    try:
        migrate.upgrade(settings.database_url, revision)
        reached = database_revision(settings.database_url)
    except migrate.UnknownRevisionError as exc:
        raise click.ClickException(str(exc)) from None
    except DatabaseFailure as exc:
        raise _unreachable(settings.database_url, exc, writes=True) from None
    past = revision not in (migrate.HEAD, reached)
    click.echo(
        f"database at migration {reached}"
        + (f", already past {revision} (migrate only upgrades)" if past else "")
    )


@main.command("export")
@click.argument("directory", type=click.Path(path_type=Path))
@DB_OPTION
def export_command(directory: Path, database_url: str | None) -> None:
    """Write the served data into DIRECTORY (new or empty) in the interchange format."""
    from api.commands.export import ExportError, export_directory
    from store.database_errors import DatabaseFailure

    settings = _settings(database_url, reading=True)
    try:
        counts = export_directory(settings.database_url, directory)
    except ExportError as exc:
        raise click.ClickException(str(exc)) from None
    except DatabaseFailure as exc:
        raise _unreachable(settings.database_url, exc, writes=False) from None
    written = ", ".join(f"{count:,} {name}" for name, count in counts.items())
    click.echo(f"exported to {directory}: {written}")


@main.command("releases")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one release per line.")
def releases_command(database_url: str | None, as_json: bool) -> None:
    """List the releases (every load), newest first, with what each changed."""
    from api.commands import history_report

    settings = _settings(database_url, reading=True)
    found = _report(settings.database_url, history_report.releases)
    lines = history_report.json_lines(found) if as_json else history_report.release_lines(found)
    for line in lines:
        click.echo(line)


@main.command("changes")
@DB_OPTION
@click.option("--since", type=int, required=True, help="The earlier release's number.")
@click.option("--until", type=int, default=None, help="The later release's number [newest].")
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: a summary, then a change each.")
def changes_command(database_url: str | None, since: int, until: int | None, as_json: bool) -> None:
    """What changed from release SINCE to UNTIL, net (as the API's `changes`)."""
    from api.commands import history_report

    for name, number in (("since", since), ("until", until)):
        if number is not None and not -(2**31) <= number < 2**31:
            # Past GraphQL's Int: the API would refuse the variable in its own terms.
            raise click.ClickException(
                f"`{name}`: there is no release {number}; see `taxonomy releases` for the "
                "releases there are"
            )
    settings = _settings(database_url, reading=True)
    head_lines, row_lines = (
        (history_report.json_head_lines, history_report.json_lines)
        if as_json
        else (history_report.change_head_lines, history_report.change_row_lines)
    )
    # Printed as they are read: at size L a load's changes are over 150,000 lines.
    _report(
        settings.database_url,
        lambda url: history_report.changes(
            url,
            since,
            until,
            lambda head: _echo(head_lines(head)),
            lambda rows: _echo(row_lines(rows)),
        ),
    )


def _echo(lines: Iterable[str]) -> None:
    for line in lines:
        click.echo(line)


@main.command("prune")
@DB_OPTION
@click.option("--keep", type=int, required=True, help="How many of the newest releases to keep.")
def prune_command(database_url: str | None, keep: int) -> None:
    """Forget all but the newest KEEP releases and what they changed; `firstSeen` of a
    record first seen in a forgotten release becomes the earliest release kept that has it."""
    from api.ingest.prune import PruneError, prune_releases
    from api.ingest.turns import LoadBusyError
    from store.database_errors import DatabaseFailure

    settings = _settings(database_url, reading=True)
    try:
        pruned = prune_releases(
            settings.database_url, keep, say=lambda line: click.echo(line, err=True)
        )
    except (PruneError, LoadBusyError) as exc:
        raise click.ClickException(str(exc)) from None
    except DatabaseFailure as exc:
        raise _unreachable(settings.database_url, exc, writes=True) from None
    click.echo(str(pruned))


def _report(database_url: str, fetch: "Callable[[str], T]") -> "T":
    """``fetch(database_url)``, its failures said as the CLI says them."""
    from api.commands.history_report import ReportError
    from store.database_errors import DatabaseFailure

    try:
        return fetch(database_url)
    except ReportError as exc:
        raise click.ClickException(str(exc)) from None
    except DatabaseFailure as exc:
        raise _unreachable(database_url, exc, writes=False) from None


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
@click.option(
    "--next-of",
    "previous",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Instead: write the next version of this dataset folder, with a seeded mix of "
    "every change history records (added, removed, moved, renamed, changed fields, strengths).",
)
@click.option(
    "--each",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="With --next-of: changes of each kind.",
)
def generate_command(
    directory: Path, scale: str, seed: int, previous: Path | None, each: int
) -> None:
    """Write a synthetic dataset around the default fixtures into DIRECTORY (or, with
    --next-of, the next version of a dataset)."""
    from store.file_kinds import refusal_as_new_folder

    refusal = refusal_as_new_folder(directory)
    if refusal is not None:
        raise click.ClickException(refusal)
    if previous is not None:
        from api.commands.generate_next import next_version
        from api.ingest.dataset import DatasetError, read_dataset

        try:
            read_dataset(previous)  # as a load checks it: file:line for each problem
        except DatasetError as exc:
            raise _with_problems(
                exc, f"nothing was written: {previous}", "fix them, or name a dataset that loads"
            ) from None
        done = next_version(previous, directory, seed=seed, each=each)
        summary = ", ".join(f"{count} {kind}" for kind, count in sorted(done.items()))
        click.echo(f"wrote the next version of {previous} (seed {seed}) to {directory}: {summary}")
        return
    from api.commands.generate import generate_scale

    generate_scale(directory, scale, fixtures=_environment().fixtures_dir, seed=seed)
    click.echo(f"wrote scale {scale} (seed {seed}) to {directory}")


@main.command("schema")
def print_schema() -> None:
    """Print the GraphQL schema (SDL); `schema.graphql` is this output."""
    from schema import default_schema

    click.echo(default_schema().as_str())


def prepare_database(settings: "Settings") -> None:
    """Migrate; load the default fixtures when the database holds no data yet. A hot
    standby (a read-only replica) is left as it is: it can only follow its primary, where
    migrations and loads are run (docs/scale-out.md)."""
    from api.commands import migrate
    from store.data_version import holds_data
    from store.engines import is_hot_standby, make_sync_engine

    engine = make_sync_engine(settings.database_url)
    try:
        with engine.connect() as connection:
            standby = is_hot_standby(connection)
    finally:
        engine.dispose()
    if standby:
        click.echo(
            "the database is a read-only hot standby: serving it as it is, neither migrated "
            "nor loaded here (migrate and load its primary, or name the primary with "
            "--admin-db); /readyz says when the standby has both",
            err=True,
        )
        return
    migrate.upgrade(settings.database_url)
    if not holds_data(settings.database_url):
        # Imported only here: a server over loaded data starts without the load's modules.
        from api.ingest.load import load_directory

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
@click.option(
    "--port", type=click.IntRange(1, 65_535), default=None, help="Port (1-65535) [default: 8000]."
)
@click.option(
    "--workers", type=click.IntRange(min=1), default=None, help="Worker processes [default: 1]."
)
def serve(
    database_url: str | None,
    admin_database_url: str | None,
    host: str | None,
    port: int | None,
    workers: int | None,
) -> None:
    """Serve the taxonomy browser at / and GraphQL at /graphql (GraphiQL in a browser), with
    /healthz and /readyz."""
    import uvicorn

    from api.edge.request_log import log_config
    from api.ingest.dataset import DatasetError
    from store.database_errors import DatabaseFailure

    settings = _settings(database_url)
    admin_url = admin_database_url or settings.admin_database_url or settings.database_url
    _check_database_file(admin_url, reading=False)
    _check_shared_answers(settings)
    try:
        prepare_database(settings.model_copy(update={"database_url": admin_url}))
    except DatabaseFailure as exc:
        raise _unreachable(admin_url, exc, writes=True) from None
    except DatasetError as exc:
        raise click.ClickException("the default fixtures do not load:\n" + str(exc)) from None
    # Worker processes build their own settings from the environment.
    os.environ["DATABASE_URL"] = settings.database_url
    host = host or settings.host
    port = port or settings.port
    click.echo(f"GraphiQL: http://{host}:{port}/graphql", err=True)
    gc.set_threshold(*CPYTHON_THRESHOLDS)  # a server's collection is the app's (above)
    workers = workers or settings.workers
    with _shared_answers(settings, workers):
        uvicorn.run(
            "api.app:create_app",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level="info",
            # The app logs a line per request itself (api.edge.request_log), with what
            # uvicorn's access log cannot know: the request id, the operation, the cache,
            # the SQL.
            access_log=False,
            log_config=log_config(),
            # httptools parses; an event loop of ours bounds how a request's head arrives
            # (api.edge.request_heads), and an idle keep-alive connection is closed after
            # keep_alive_seconds. All three are uvicorn's public settings.
            http="httptools",
            loop="api.edge.request_heads:new_event_loop",
            timeout_keep_alive=settings.keep_alive_seconds,
            # Nothing says which server this is (api.edge.security_headers adds what
            # browsers need).
            server_header=False,
        )


def _check_shared_answers(settings: "Settings") -> None:
    """A TAXONOMY_RESPONSE_CACHE_DIR that cannot hold answers stops the server before it
    starts (a worker would go on without it, each with its own answers)."""
    from api.edge.shared_answers import SharedAnswersError, open_shared_answers

    if settings.response_cache_dir is None or not settings.keeps_answers:
        return
    megabytes = settings.response_cache_shared_megabytes
    try:
        open_shared_answers(settings.response_cache_dir, megabytes, "").close()
    except SharedAnswersError as exc:
        raise click.UsageError(str(exc)) from None


@contextmanager
def _shared_answers(settings: "Settings", workers: int) -> Iterator[None]:
    """Several workers share their cached answers through a directory
    (api.edge.shared_answers): the one TAXONOMY_RESPONSE_CACHE_DIR names, or for more than
    one worker one of this server's own, removed when it stops."""
    if settings.response_cache_dir is None and settings.keeps_answers and workers > 1:
        with tempfile.TemporaryDirectory(prefix="taxonomy-answers-") as made:
            os.environ["TAXONOMY_RESPONSE_CACHE_DIR"] = made  # the workers' settings read it
            yield
    else:
        yield


if __name__ == "__main__":
    run()
