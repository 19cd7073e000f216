"""The `taxonomy` command as users meet it: help and argument errors at once, without the
heavy libraries; wrong values refused with a line that says what to give instead; wrong
paths refused before anything is made on disk."""

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from api.commands import migrate
from api.commands.cli import COMMAND_YOUNG_GENERATION, main
from api.settings import DEFAULT_FIXTURES_DIR, PROJECT_DIR
from store.revision import database_revision

from conftest import DATASETS

# Each takes from a tenth of a second to seconds to import; none is needed to print help
# or to refuse an option's value.
HEAVY = ("sqlalchemy", "alembic", "strawberry", "graphql", "uvicorn", "starlette", "pydantic")
COMMANDS = ("load", "migrate", "export", "generate", "schema", "serve")
PROBE = """
import sys
from api.commands.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("imported:", *sorted(name for name in {heavy!r} if name in sys.modules))
"""


def _probe(program: str, *arguments: str) -> "subprocess.CompletedProcess[str]":
    """A fresh Python process that runs ``program`` with ``arguments``, and succeeds."""
    return subprocess.run(
        [sys.executable, "-c", program, *arguments],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )


def _imported(*arguments: str) -> list[str]:
    """The heavy libraries a fresh `taxonomy ARGUMENTS` process imported."""
    done = _probe(PROBE.format(heavy=HEAVY), *arguments)
    last = done.stdout.splitlines()[-1]
    assert last.startswith("imported:"), done.stdout + done.stderr
    return last.split()[1:]


@pytest.mark.parametrize(
    "arguments",
    [
        ["--help"],
        *[[command, "--help"] for command in COMMANDS],
        ["serve", "--port", "70000"],
        ["generate", "out", "--scale", "XL"],
        ["no-such-command"],
    ],
    ids=" ".join,
)
def test_help_and_argument_errors_import_no_heavy_library(arguments: list[str]) -> None:
    assert _imported(*arguments) == []


def test_a_command_that_runs_still_imports_what_it_needs() -> None:
    """The probe sees imports: `schema` needs Strawberry, and the probe reports it."""
    assert "strawberry" in _imported("schema")


# The `taxonomy` program's collector: the thresholds it starts with, those a command runs
# with, whether it froze what was left at exit, and those the server is handed.
COLLECTION_PROBE = """
import atexit, gc
import uvicorn
print("at start:", *gc.get_threshold())
uvicorn.run = lambda *arguments, **options: print("server:", *gc.get_threshold())
atexit.register(lambda: print("frozen at exit:", gc.get_freeze_count() > 0))
from api.commands.cli import run
try:
    run()
except SystemExit:
    pass
print("command:", *gc.get_threshold())
"""


def _collection(*arguments: str) -> dict[str, str]:
    done = _probe(COLLECTION_PROBE, *arguments)
    said = dict(line.split(": ", 1) for line in done.stdout.splitlines() if ": " in line)
    assert {"at start", "command", "frozen at exit"} <= said.keys(), done.stdout + done.stderr
    return said


def test_a_command_collects_rarely_and_freezes_at_exit() -> None:
    said = _collection("schema")
    assert said["command"] == " ".join(map(str, [COMMAND_YOUNG_GENERATION, 10, 10]))
    assert said["at start"] == "700 10 10"  # CPython's own, which the command changes
    assert said["frozen at exit"] == "True"
    assert "server" not in said


def test_the_server_is_handed_cpythons_thresholds(tmp_path: Path) -> None:
    """The server's collection is the app's own (api.app, api.edge.idle_collection),
    measured from CPython's thresholds: `serve` puts them back before uvicorn runs."""
    said = _collection("serve", "--db", f"sqlite:///{tmp_path / 'served.db'}")
    assert said["server"] == said["at start"] == "700 10 10"


# What a server process imports (api.app), packages and project alike.
SERVED_MODULES = ("sqlalchemy", "strawberry", "graphql", "starlette", "uvicorn", "pydantic")
PROBE_BYTECODE = """
import importlib.util, os, sys
import api.app
for name in sys.argv[1:]:
    source = sys.modules[name].__file__
    print(name, os.path.exists(importlib.util.cache_from_source(source)))
"""


def test_the_install_compiles_what_a_server_imports() -> None:
    """`make install` compiles bytecode (uv's `--compile-bytecode`, compileall for the
    project): where Python may not write it (PYTHONDONTWRITEBYTECODE, a read-only install),
    each process would compile its imports from source again, doubling the CPU a server, a
    worker or a command spends starting (docs/operations.md: Start-up time)."""
    modules = [*SERVED_MODULES, "api.app", "schema.query", "store.tables"]
    done = _probe(PROBE_BYTECODE, *modules)
    compiled = dict(line.split() for line in done.stdout.splitlines())
    assert compiled == {name: "True" for name in modules}, done.stdout


def taxonomy(*arguments: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(arguments), env=env)


def _error_line(result: Result) -> str:
    """The one line a refusal prints (exit 1, click's `Error: ...`, no traceback)."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), f"crashed: {result.exception!r}"
    lines = result.output.splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


# ---- values ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--port", "70000"], "Invalid value for '--port': 70000 is not in the range 1<=x<=65535"),
        (["--port", "0"], "Invalid value for '--port': 0 is not in the range 1<=x<=65535"),
        (["--workers", "0"], "Invalid value for '--workers': 0 is not in the range x>=1"),
    ],
)
def test_serve_refuses_ports_and_worker_counts_out_of_range(
    arguments: list[str], said: str, tmp_path: Path
) -> None:
    database = tmp_path / "taxonomy.db"
    result = taxonomy("serve", "--db", f"sqlite:///{database}", *arguments)
    assert result.exit_code == 2, result.output
    assert said in result.output
    assert not database.exists()


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("TAXONOMY_PORT", "70000", "TAXONOMY_PORT='70000': Input should be less than or equal"),
        ("TAXONOMY_WORKERS", "0", "TAXONOMY_WORKERS='0': Input should be greater than or equal"),
    ],
)
def test_serve_refuses_ports_and_worker_counts_out_of_range_from_the_environment(
    variable: str, value: str, said: str, tmp_path: Path
) -> None:
    database = tmp_path / "taxonomy.db"
    result = taxonomy("serve", "--db", f"sqlite:///{database}", env={variable: value})
    assert result.exit_code == 2, result.output
    assert said in result.output
    assert not database.exists()


def test_migrate_names_the_known_revisions_for_an_unknown_one(
    backend: str, new_database: Callable[[str, str], str]
) -> None:
    url = new_database(backend, "unknown_revision")
    line = _error_line(taxonomy("migrate", "--db", url, "--revision", "9999"))
    known = ", ".join(migrate.revisions())
    assert line == (
        f"Error: no migration has the revision '9999'; the revisions are {known} (the last "
        "is the newest, also called head)"
    )
    if backend == "sqlite":
        assert not Path(url.removeprefix("sqlite:///")).exists()
    assert database_revision(url) is None  # not even the version table was made


def test_migrate_says_where_the_database_is(
    backend: str, new_database: Callable[[str, str], str]
) -> None:
    url = new_database(backend, "migrate_to")
    first, second, *_, head = migrate.revisions()
    result = taxonomy("migrate", "--db", url, "--revision", second)
    assert result.exit_code == 0, result.output
    assert result.output == f"database at migration {second}\n"
    result = taxonomy("migrate", "--db", url, "--revision", first)
    assert result.output == (
        f"database at migration {second}, already past {first} (migrate only upgrades)\n"
    )
    result = taxonomy("migrate", "--db", url)
    assert result.output == f"database at migration {head}\n"
    assert database_revision(url) == head


# ---- paths -------------------------------------------------------------------------------


def test_load_into_a_missing_folder_creates_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "no" / "such"
    line = _error_line(
        taxonomy("load", str(DEFAULT_FIXTURES_DIR), "--db", f"sqlite:///{folder}/x.db")
    )
    assert line == (
        f"Error: the folder {folder} does not exist, so the database file x.db cannot be "
        "made there: create the folder first, or fix the database URL"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["serve", "migrate"])
def test_commands_that_write_refuse_a_missing_folder(command: str, tmp_path: Path) -> None:
    line = _error_line(taxonomy(command, "--db", f"sqlite:///{tmp_path}/no/x.db"))
    assert f"the folder {tmp_path / 'no'} does not exist" in line
    assert list(tmp_path.iterdir()) == []


def test_serve_refuses_a_missing_folder_for_its_admin_database(tmp_path: Path) -> None:
    database = tmp_path / "taxonomy.db"
    result = taxonomy(
        "serve", "--db", f"sqlite:///{database}", "--admin-db", f"sqlite:///{tmp_path}/no/x.db"
    )
    assert f"the folder {tmp_path / 'no'} does not exist" in _error_line(result)
    assert list(tmp_path.iterdir()) == []


def test_export_from_a_missing_database_file_creates_nothing(tmp_path: Path) -> None:
    database = tmp_path / "missing.db"
    line = _error_line(taxonomy("export", str(tmp_path / "out"), "--db", f"sqlite:///{database}"))
    assert line == (
        f"Error: the database file {database} does not exist: fix the database URL, or load "
        "data into it first"
    )
    assert list(tmp_path.iterdir()) == []


def test_export_from_a_folder_named_as_the_database_creates_nothing(tmp_path: Path) -> None:
    line = _error_line(taxonomy("export", str(tmp_path / "out"), "--db", f"sqlite:///{tmp_path}"))
    assert line == f"Error: {tmp_path} is a folder, not a database file: fix the database URL"
    assert list(tmp_path.iterdir()) == []


def test_export_from_a_database_without_the_tables_creates_nothing(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    url = new_database(backend, "no_tables")
    if backend == "sqlite":  # an empty file: what SQLite leaves when it opens a typo
        Path(url.removeprefix("sqlite:///")).touch()
    target = tmp_path / "new" / "out"
    line = _error_line(taxonomy("export", str(target), "--db", url))
    assert line.startswith("Error: the database at ")
    assert line.endswith(
        " holds no taxonomy tables; fix the URL, or load data into it first "
        "(taxonomy load DIR --db URL)"
    )
    assert list(tmp_path.iterdir()) == []
    assert database_revision(url) is None


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB file system of its own (tmpfs), unmounted afterwards; needs root, as CI and
    this machine run the suite (skipped where mounting is not allowed). Room for the
    migrated tables (about 0.3 MB, with a journal as large while migrating: 1 MB was full
    before the load began once the tables grew), not for the dataset loaded onto it."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount_point)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {mounted.stderr.decode().strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", str(mount_point)], check=True)


def _refusal(result: Result) -> str:
    """The `Error: ...` line of a refusal that printed progress before it."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), f"crashed: {result.exception!r}"
    assert "Traceback" not in result.output
    (line,) = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    return line


def test_a_load_onto_a_full_disk_says_so_and_leaves_no_journal(small_disk: Path) -> None:
    """Issue 25 item 7: it said "check that it is running and that the URL is right"."""
    database = small_disk / "taxonomy.db"
    line = _refusal(taxonomy("load", str(DATASETS["pwc"]), "--db", f"sqlite:///{database}"))
    assert "no space left on the disk" in line, line
    assert "URL" not in line
    assert not list(small_disk.glob("*-wal")), list(small_disk.iterdir())


def test_a_load_onto_a_disk_already_full_says_so_before_it_starts(small_disk: Path) -> None:
    """The first thing a SQLite load writes is its lock file (api.ingest.lock_file): on a
    disk with no room even for that, the refusal says so, not a traceback."""
    database = small_disk / "taxonomy.db"
    assert taxonomy("migrate", "--db", f"sqlite:///{database}").exit_code == 0
    filled = subprocess.run(
        ["dd", "if=/dev/zero", f"of={small_disk / 'filler'}", "bs=64k"],
        capture_output=True,
        check=False,
    )
    assert b"No space left on device" in filled.stderr, filled.stderr  # the disk is full
    line = _refusal(taxonomy("load", str(DEFAULT_FIXTURES_DIR), "--db", f"sqlite:///{database}"))
    assert "no space left on the disk" in line, line
    assert "URL" not in line


def test_a_load_onto_a_read_only_disk_says_so(small_disk: Path) -> None:
    database = small_disk / "taxonomy.db"
    assert taxonomy("migrate", "--db", f"sqlite:///{database}").exit_code == 0
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    for target in (database, small_disk / "new.db"):
        line = _refusal(taxonomy("load", str(DEFAULT_FIXTURES_DIR), "--db", f"sqlite:///{target}"))
        assert "it is read-only" in line, line
        assert "URL" not in line


# ---- what stands where a file should be --------------------------------------------------

# Every command that opens the database named by --db, with what else it needs.
DATABASE_COMMANDS = {
    "load": ["load", str(DEFAULT_FIXTURES_DIR)],
    "serve": ["serve"],
    "releases": ["releases"],
    "changes": ["changes", "--since", "1"],
    "export": ["export", "OUT"],
    "migrate": ["migrate"],
    "prune": ["prune", "--keep", "1"],
}
NOT_SQLITE = {
    "random bytes": bytes(range(256)) * 20,
    "text": b"name,slug\nAdam,adam\n",
    "a SQLite header cut short": b"SQLite form",
}


def _run(command: str, database: Path, tmp_path: Path) -> Result:
    arguments = [str(tmp_path / "out") if a == "OUT" else a for a in DATABASE_COMMANDS[command]]
    return taxonomy(*arguments, "--db", f"sqlite:///{database}")


@pytest.mark.parametrize("content", list(NOT_SQLITE))
@pytest.mark.parametrize("command", list(DATABASE_COMMANDS))
def test_a_file_that_is_no_sqlite_database_is_refused_by_name_and_left_alone(
    command: str, content: str, tmp_path: Path
) -> None:
    """It was a traceback from SQLite's `file is not a database` (load, serve, releases...)."""
    database = tmp_path / "taxonomy.db"
    database.write_bytes(NOT_SQLITE[content])
    line = _error_line(_run(command, database, tmp_path))
    assert line.startswith(f"Error: {database} is not a SQLite database"), line
    assert "name a SQLite database file" in line
    assert database.read_bytes() == NOT_SQLITE[content]
    assert list(tmp_path.iterdir()) == [database]  # no journal, no lock file, no export


def _folder(path: Path) -> str:
    path.mkdir()
    return "a folder"


def _pipe(path: Path) -> str:
    os.mkfifo(path)
    return "a named pipe"


def _dangling(path: Path) -> str:
    path.symlink_to(path.parent / "gone")
    return f"a symbolic link to {path.parent / 'gone'}, which does not exist"


def _looping(path: Path) -> str:
    path.symlink_to(path.name)
    return "a symbolic link that loops"


STANDINS: dict[str, Callable[[Path], str]] = {
    "a folder": _folder,
    "a named pipe": _pipe,
    "a dangling link": _dangling,
    "a looping link": _looping,
}


@pytest.mark.parametrize("standin", list(STANDINS))
@pytest.mark.parametrize("command", ["load", "serve", "releases", "export"])
def test_what_stands_where_the_database_file_should_be_is_named(
    command: str, standin: str, tmp_path: Path
) -> None:
    database = tmp_path / "taxonomy.db"
    said = STANDINS[standin](database)
    line = _error_line(_run(command, database, tmp_path))
    assert line.startswith(f"Error: {database} is {said}"), line
    assert "fix the database URL" in line
    assert sorted(tmp_path.iterdir()) == [database]


@pytest.mark.parametrize("standin", list(STANDINS))
@pytest.mark.parametrize("command", ["load", "generate"])
def test_what_stands_where_a_dataset_file_should_be_is_named(
    command: str, standin: str, tmp_path: Path
) -> None:
    """Each was reported as "missing"; a named pipe is refused before a read could wait
    for a writer that never comes (the command is run in a process of its own, with a
    time limit, so that a hang fails the test)."""
    dataset = tmp_path / "dataset"
    shutil.copytree(DEFAULT_FIXTURES_DIR, dataset)
    (dataset / "models.jsonl").unlink()
    said = STANDINS[standin](dataset / "models.jsonl")
    arguments = (
        ["load", str(dataset), "--db", f"sqlite:///{tmp_path / 'taxonomy.db'}"]
        if command == "load"
        else ["generate", str(tmp_path / "next"), "--next-of", str(dataset)]
    )
    done = subprocess.run(
        [sys.executable, "-m", "api.commands.cli", *arguments],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert f"{dataset / 'models.jsonl'}: {said}" in done.stderr, done.stderr
    assert "missing" not in done.stderr
    assert not (tmp_path / "taxonomy.db").exists()
    assert not (tmp_path / "next").exists()


@pytest.mark.parametrize("command", ["releases", "changes"])
def test_a_report_from_a_postgresql_where_nothing_listens_names_the_url(command: str) -> None:
    """It said "the database is unavailable right now; try again in a few seconds": no
    URL, nothing to check."""
    url = "postgresql://reader:s3cret@127.0.0.1:1/taxonomy"
    result = taxonomy(*DATABASE_COMMANDS[command], "--db", url)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), f"crashed: {result.exception!r}"
    assert result.output.startswith(
        "Error: cannot use the database at postgresql://reader:***@127.0.0.1:1/taxonomy: "
    ), result.output
    assert "Check that it is running and that the URL (--db or DATABASE_URL) is right." in (
        result.output
    )
    assert "s3cret" not in result.output


@pytest.mark.parametrize("command", ["load", "export"])
def test_a_damaged_database_file_is_said_to_be_damaged(command: str, tmp_path: Path) -> None:
    """SQLite's header intact, its pages not: `database disk image is malformed` was a
    traceback."""
    database = tmp_path / "taxonomy.db"
    assert (
        taxonomy("load", str(DEFAULT_FIXTURES_DIR), "--db", f"sqlite:///{database}").exit_code == 0
    )
    # Where the pages of the nodes' table begin, which both commands read (the layout
    # of the file is SQLite's: a fixed offset may fall on a page neither reads).
    with closing(sqlite3.connect(database)) as connection:
        (page_size,) = connection.execute("PRAGMA page_size").fetchone()
        (root,) = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'node'"
        ).fetchone()
    for beside in tmp_path.glob("taxonomy.db?*"):  # its WAL and lock file: the file alone
        beside.unlink()
    with database.open("r+b") as file:
        file.seek((root - 1) * page_size)
        file.write(b"\xff" * page_size)
    damaged = database.read_bytes()
    line = _refusal(_run(command, database, tmp_path))
    assert line.startswith(f"Error: the database at sqlite:///{database} is damaged ("), line
    assert "restore it from a backup" in line
    assert database.read_bytes() == damaged


def _file(path: Path) -> str:
    path.write_text("mine\n", encoding="utf-8")
    return "a file"


@pytest.mark.parametrize("standin", ["a file", *[s for s in STANDINS if s != "a folder"]])
@pytest.mark.parametrize("command", ["export", "generate"])
def test_what_stands_where_a_new_folder_should_be_is_named(
    command: str, standin: str, tmp_path: Path
) -> None:
    """A file or a pipe was a traceback from `generate` (listing it as a folder), and a
    dangling link one from `export`, after all its work, at its last rename."""
    target = tmp_path / "out"
    said = (_file if standin == "a file" else STANDINS[standin])(target)
    database = tmp_path / "taxonomy.db"
    if command == "export":
        assert (
            taxonomy("load", str(DEFAULT_FIXTURES_DIR), "--db", f"sqlite:///{database}").exit_code
            == 0
        )
        result = taxonomy("export", str(target), "--db", f"sqlite:///{database}")
    else:
        result = taxonomy("generate", str(target))
    line = _error_line(result)
    assert line.startswith(f"Error: {target} is {said}"), line
    assert line.endswith("not a folder; name a new one")
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("taxonomy.db")) == [
        "out"
    ]


@pytest.mark.parametrize("option", ["--since", "--until"])
def test_changes_with_a_release_number_past_graphqls_int_names_no_variable(
    option: str, tmp_path: Path
) -> None:
    """It said "Variable '$since' has invalid value: Int cannot represent non 32-bit
    signed integer value", where -5 says "there is no release -5"."""
    database = tmp_path / "taxonomy.db"
    assert (
        taxonomy("load", str(DEFAULT_FIXTURES_DIR), "--db", f"sqlite:///{database}").exit_code == 0
    )
    number = "99999999999999999999"
    arguments = ["--since", number] if option == "--since" else ["--since", "1", "--until", number]
    line = _error_line(taxonomy("changes", *arguments, "--db", f"sqlite:///{database}"))
    assert line.startswith(f"Error: `{option[2:]}`: there is no release {number}; "), line
    assert "Variable" not in line
