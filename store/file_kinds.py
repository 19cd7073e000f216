"""What is at a path where a file should be, as messages name it: a folder, a named pipe
or a dangling symbolic link is not "missing", and opening a pipe would wait for a writer
that never comes. Only the path's metadata is read (stat), never its contents."""

import errno
import os
import stat
from pathlib import Path

A_FILE = "a file"
A_FOLDER = "a folder"
NOTHING = "nothing"


def kind_of(path: Path) -> str:
    """A_FILE, NOTHING, or what else is at ``path`` ("a folder", "a named pipe", "a symbolic
    link that loops"...), following symbolic links."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if path.is_symlink():
            return f"a symbolic link to {os.readlink(path)}, which does not exist"
        return NOTHING
    except NotADirectoryError:
        return NOTHING  # a folder on the way is a file
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link that loops (it leads back to itself)"
        return f"unreadable ({exc.strerror})"
    if stat.S_ISREG(mode):
        return A_FILE
    if stat.S_ISDIR(mode):
        return A_FOLDER
    if stat.S_ISFIFO(mode):
        return "a named pipe (reading one waits for a writer)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def refusal_as_new_folder(path: Path) -> str | None:
    """Why ``path`` cannot be the new (or empty) folder a command writes into; None when
    it can. Said before any work, never found by the last rename."""
    kind = kind_of(path)
    if kind == NOTHING:
        return None
    if kind != A_FOLDER:
        return f"{path} is {kind}, not a folder; name a new one"
    if any(path.iterdir()):
        return f"{path} is not an empty folder; name a new one"
    return None
