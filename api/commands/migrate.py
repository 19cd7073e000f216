"""Alembic, driven from code: the `taxonomy` command and the server migrate through here.

Alembic is imported only to migrate. A database already at HEAD_REVISION, as it is on
every start and load but the first after an upgrade, is told by one query
(store.revision): the server then starts, and `/readyz` answers, without importing
Alembic and reading every migration script (0.4 s of a start, and once per readiness
check)."""

from typing import TYPE_CHECKING

from api.settings import PROJECT_DIR
from store.revision import database_revision

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


def upgrade(database_url: str, revision: str = HEAD) -> None:
    """Upgrade to ``revision``; UnknownRevisionError, before the database is touched, if
    there is no such revision."""
    if revision == HEAD and database_revision(database_url) == HEAD_REVISION:
        return  # nothing to do, known without Alembic
    if revision != HEAD and revision not in revisions():
        known = ", ".join(revisions())
        raise UnknownRevisionError(
            f"no migration has the revision {revision!r}; the revisions are {known} (the "
            f"last is the newest, also called {HEAD})"
        )
    from alembic import command

    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str) -> None:
    from alembic import command

    command.downgrade(alembic_config(database_url), revision)


def _scripts() -> "ScriptDirectory":
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config("sqlite://"))


def revisions() -> list[str]:
    """Every migration's revision, oldest first."""
    return [script.revision for script in reversed(list(_scripts().walk_revisions()))]
