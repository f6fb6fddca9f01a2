"""Atomic file writes: the one implementation for every file c4tui saves.

It needs nothing but the standard library, so any layer can use it: the game files of
the app and the CLI, and the book's files (books, checkpoints, the converted database).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

__all__ = ["atomic_write"]

#: How much of the target's name (in bytes) its temporary file's name repeats: the
#: 14 bytes around it then fit the 255 bytes file systems allow a name.
_TEMP_STEM_BYTES = 200


def atomic_write(path: Path, data: bytes, *, overwrite: bool) -> None:
    """Write ``data`` to ``path`` so that a crash never leaves half a file.

    The data goes to a temporary file in the same directory, is synced, and is renamed
    over ``path`` (``overwrite``) or linked to it (not ``overwrite``: an existing file
    raises ``FileExistsError``, even one created meanwhile). The file keeps the mode of the
    file it replaces; a new one gets 0666 minus the umask, like any file the user creates.
    Overwriting through a symbolic link replaces the file it points to and keeps the link
    (renaming over the link itself would cut it off and leave the old data in its
    target). A path that is not a regular file (a device, a FIFO, a folder) is refused
    (``OSError`` EINVAL: as root, a rename would replace ``/dev/null`` itself). Raises
    ``OSError``; the temporary file never stays behind.
    """
    if overwrite and path.is_symlink():
        path = Path(os.path.realpath(path))
    mode = None
    if path.exists():
        if not overwrite:
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path))
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):  # a device, a FIFO, a folder: never renamed over
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        mode = stat.S_IMODE(st.st_mode)
    tmp, fd = _create_temp(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            if mode is not None:
                os.fchmod(fh.fileno(), mode)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if overwrite:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    _sync_dir(path.parent)


def _create_temp(path: Path) -> tuple[Path, int]:
    """A new hidden file beside ``path``, opened for writing, mode 0666 minus the umask.

    Its name is ``.<name>.<8 hex>.tmp`` with ``<name>`` cut to :data:`_TEMP_STEM_BYTES`,
    so that a target of 242-255 bytes (the longest a name may be) still gets one.
    """
    stem = os.fsencode(path.name)[:_TEMP_STEM_BYTES]
    for _ in range(100):
        tmp = path.with_name(os.fsdecode(b"." + stem + b"." + secrets.token_hex(4).encode()
                                         + b".tmp"))
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(path))


def _link_new(tmp: Path, path: Path) -> None:
    """Give ``tmp``'s data the name ``path`` only if no file has it (``FileExistsError``)."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:  # no hard links on this file system: check, then rename
        if path.exists():
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
        os.replace(tmp, path)


def _sync_dir(directory: Path) -> None:
    """Make the rename durable (best effort: not every file system syncs directories)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
