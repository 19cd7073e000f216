"""Alembic, driven from code: the `taxonomy` command and the server migrate through here."""

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

from api.settings import PROJECT_DIR
from store.engines import make_sync_engine

HEAD = "head"


class UnknownRevisionError(ValueError):
    pass


def alembic_config(database_url: str) -> Config:
    config = Config(str(PROJECT_DIR / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_DIR / "migrations"))
    config.attributes["database_url"] = database_url
    return config


def upgrade(database_url: str, revision: str = HEAD) -> None:
    """Upgrade to ``revision``; UnknownRevisionError, before the database is touched, if
    there is no such revision."""
    if revision != HEAD and revision not in revisions():
        known = ", ".join(revisions())
        raise UnknownRevisionError(
            f"no migration has the revision {revision!r}; the revisions are {known} (the "
            f"last is the newest, also called {HEAD})"
        )
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str) -> None:
    command.downgrade(alembic_config(database_url), revision)


def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config("sqlite://"))


def revisions() -> list[str]:
    """Every migration's revision, oldest first."""
    return [script.revision for script in reversed(list(_scripts().walk_revisions()))]


def head_revision() -> str | None:
    return _scripts().get_current_head()


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def database_revision(database_url: str) -> str | None:
    """The revision the database is at (None: not migrated at all)."""
    engine = make_sync_engine(database_url)
    try:
        with engine.connect() as connection:
            return current_revision(connection)
    finally:
        engine.dispose()
