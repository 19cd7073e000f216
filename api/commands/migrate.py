"""Alembic, driven from code: the `taxonomy` command and the server migrate through here.

Alembic is imported only to migrate. A database already at HEAD_REVISION, as it is on
every start and load but the first after an upgrade, is told by one query
(store.revision): the server then starts, and `/readyz` answers, without importing
Alembic and reading every migration script (0.4 s of a start, and once per readiness
check)."""

from typing import TYPE_CHECKING

from api.settings import PROJECT_DIR
from store.engines import make_sync_engine
from store.revision import database_revision
from store.schema_at_head import create_if_empty

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

HEAD = "head"
# The newest migration's revision: the schema this code reads and writes. A new migration
# changes it; tests/test_migrations.py checks it against the migration scripts.
HEAD_REVISION = "0017"


class UnknownRevisionError(ValueError):
    pass


def alembic_config(database_url: str) -> "Config":
    from alembic.config import Config

    config = Config(str(PROJECT_DIR / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_DIR / "migrations"))
    config.attributes["database_url"] = database_url
    return config


def upgrade(database_url: str, revision: str = HEAD, *, every_step: bool = False) -> None:
    """Upgrade to ``revision``; UnknownRevisionError, before the database is touched, if
    there is no such revision. A database with no tables goes to HEAD in one step
    (store.schema_at_head), unless ``every_step``: then, as any other, through every
    migration."""
    if revision == HEAD:
        found = database_revision(database_url)
        if found == HEAD_REVISION:
            return  # nothing to do, known without Alembic
        if found is None and not every_step and _create_at_head(database_url):
            return
    if revision != HEAD and revision not in revisions():
        known = ", ".join(revisions())
        raise UnknownRevisionError(
            f"no migration has the revision {revision!r}; the revisions are {known} (the "
            f"last is the newest, also called {HEAD})"
        )
    from alembic import command

    command.upgrade(alembic_config(database_url), revision)


def _create_at_head(database_url: str) -> bool:
    """Give an empty database the newest schema and stamp it at HEAD, in one transaction;
    False (nothing done) if it has tables."""
    from alembic.migration import MigrationContext

    engine = make_sync_engine(database_url)
    try:
        with engine.begin() as connection:
            if not create_if_empty(connection):
                return False
            MigrationContext.configure(connection).stamp(_scripts(), HEAD)
            return True
    finally:
        engine.dispose()


def downgrade(database_url: str, revision: str) -> None:
    from alembic import command

    command.downgrade(alembic_config(database_url), revision)


def _scripts() -> "ScriptDirectory":
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config("sqlite://"))


def revisions() -> list[str]:
    """Every migration's revision, oldest first."""
    return [script.revision for script in reversed(list(_scripts().walk_revisions()))]
