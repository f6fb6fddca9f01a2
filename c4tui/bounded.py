"""Bounded input: the one way c4tui reads a file, a line or a number a user hands it.

Hostile or mistaken input (``/dev/zero``, a FIFO, one endless line, ``d`` followed by
5000 nines) must cost a one-line error, never a hang, a traceback or gigabytes of memory:

* :func:`read_file` opens without blocking (a FIFO with no writer must not freeze us),
  checks the *opened* file is a regular one (a device's ``st_size`` is 0, so a size check
  alone lets ``/dev/zero`` through) and reads at most its cap plus one byte;
* :func:`bounded_lines` reads lines of at most :data:`MAX_LINE_CHARS` characters;
* :func:`small_int` reads a number of at most :data:`MAX_DIGITS` digits, before ``int()``
  (which refuses more than 4300 digits with a ``ValueError`` of its own);
* :func:`clip` shortens bad input before an error message quotes it;
* :func:`shown` is the one rule for untrusted text (from a file, a file name, a database
  row or an engine) before any terminal or widget shows it: every character a terminal
  could act on escaped, and the result bounded in length.

Standard library only, so every layer (the game files, the books, the UGI engine) uses it.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from typing import IO, AnyStr

__all__ = ["MAX_DIGITS", "MAX_LINE_CHARS", "MAX_SKIP", "SHOWN_CHARS", "FileRefused", "LineTooLong",
           "bounded_lines", "clip", "read_file", "shown", "small_int"]

#: The most digits any number in any grammar may have: every legal value (a square's
#: row, a move number, a node count of at most 10^12, milliseconds) fits in 18 digits.
MAX_DIGITS = 18
#: The longest line read from stdin or the UGI: a 42-move line of squares is ~ 130
#: characters, a FEN ~ 60; a line longer than this is not a position or a command.
MAX_LINE_CHARS = 4096
#: How much of an over-long line is read (and dropped) looking for its end: beyond it
#: the input is not lines at all, and reading stops.
MAX_SKIP = 16 << 20
#: How much of a bad word an error message quotes.
SHOWN_CHARS = 40
_CHUNK = 1 << 20


class FileRefused(OSError):
    """A file that is not read: not a regular file, or larger than the reader's cap.

    ``str()`` is the reason alone (``not a regular file``); the caller adds the name.
    It is an :class:`OSError`, so a caller that already reports unreadable files reports
    this one too.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


class LineTooLong(ValueError):
    """A line longer than the limit; ``str()`` says which line and the limit.

    ``endless``: no line end came within the skip limit either, so reading stopped.
    """

    def __init__(self, number: int, limit: int, unit: str = "characters",
                 endless: bool = False) -> None:
        what = f"line {number}: longer than {limit} {unit}"
        if endless:
            what += f" (no line end within {_size_text(MAX_SKIP)}: the rest is not read)"
        super().__init__(what)
        self.number = number
        self.limit = limit
        self.endless = endless


def _size_text(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 and not n % (1 << 20) else f"{n:,} bytes"


def read_file(path: str | os.PathLike[str], cap: int, what: str = "file") -> bytes:
    """The content of the regular file ``path``, at most ``cap`` bytes.

    Never blocks (the file is opened with ``O_NONBLOCK``) and never reads more than
    ``cap + 1`` bytes. Raises :class:`IsADirectoryError` for a directory,
    :class:`FileRefused` for anything else that is not a regular file (a device, a FIFO,
    a socket; a symbolic link counts as its target) and for a file larger than ``cap``
    (``what`` names the kind in the message: ``too large for a game file (more than
    1 MiB)``); any other ``OSError`` as :func:`os.open` raises it.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket, a device without its driver
            raise FileRefused("not a regular file") from None
        raise
    try:
        st = os.fstat(fd)  # the file opened, not the name: it may have been swapped
        if stat.S_ISDIR(st.st_mode):  # what reading a directory raises anyway
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused("not a regular file")
        too_large = FileRefused(f"too large for a {what} (more than {_size_text(cap)})")
        if st.st_size > cap:
            raise too_large
        chunks: list[bytes] = []
        left = cap + 1  # one byte more than allowed tells a file that grew meanwhile
        while left > 0:
            chunk = os.read(fd, min(left, _CHUNK))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:
            raise too_large
        return b"".join(chunks)
    finally:
        os.close(fd)


def bounded_lines(stream: IO[AnyStr], limit: int = MAX_LINE_CHARS
                  ) -> Iterator[AnyStr | LineTooLong]:
    """The lines of ``stream`` (text or bytes, anything with ``readline(size)``), line
    ends kept, each of at most ``limit`` characters (bytes).

    A longer line comes as a :class:`LineTooLong` in its place, so line numbers stay
    right and the caller reports it and goes on; its rest is read in chunks and dropped.
    A rest that runs past :data:`MAX_SKIP` (``/dev/zero``, one endless line) ends the
    input there (``endless``). Memory never exceeds a few MiB, whatever the input.
    """
    number = 0
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        number += 1
        nl = "\n" if isinstance(line, str) else b"\n"
        if len(line) <= limit or (len(line) == limit + 1 and line.endswith(nl)):
            yield line
            continue
        skipped = 0
        while not line.endswith(nl) and skipped <= MAX_SKIP:
            line = stream.readline(_CHUNK)
            if not line:
                break
            skipped += len(line)
        endless = skipped > MAX_SKIP
        yield LineTooLong(number, limit, "characters" if nl == "\n" else "bytes", endless)
        if endless:
            return


def small_int(text: str, max_digits: int = MAX_DIGITS, *, signed: bool = False) -> int | None:
    """``text`` as an int if it is ASCII digits (after one ``+`` or ``-`` when
    ``signed``); ``None`` if it is not a number.

    A number of more than ``max_digits`` digits is never converted (``int`` would spend
    quadratic time on it, and refuses more than 4300 digits with a ``ValueError`` of its
    own): it comes back as ``±10**max_digits``, beyond every range a grammar allows, so
    the caller's range check refuses it; the message should then quote ``clip(text)``,
    not the number. ``str.isdigit`` alone is not enough: ``"²"`` is a digit to it.
    """
    sign, body = (text[0], text[1:]) if signed and text[:1] in ("+", "-") else ("", text)
    if not (body and body.isascii() and body.isdigit()):
        return None
    if len(body) > max_digits:
        return -10**max_digits if sign == "-" else 10**max_digits
    return int(text)


def clip(text: str, width: int = SHOWN_CHARS) -> str:
    """``text`` shortened to ``width`` characters (an ellipsis marks the cut)."""
    return text if len(text) <= width else text[: width - 1] + "…"


#: The most characters of one untrusted text :func:`shown` lets through by default.
SHOWN_MAX = 200


def shown(text: str, width: int | None = SHOWN_MAX) -> str:
    """Untrusted ``text`` as a terminal or a widget may show it.

    Every character that is not printable (C0 and C1 controls, ESC, DEL, bidi overrides
    and other format characters, line and paragraph separators) is written as Python's
    escape (``\\x1b``, ``\\u202e``), so no byte of the text can act on a terminal; a
    backslash is doubled only where the text holds such a character, so plain text stays
    as it is. The result is cut to ``width`` characters (None: not cut), an ellipsis
    marking the cut. Rich markup is not escaped here: a widget that parses markup also
    needs ``rich.markup.escape``.
    """
    if not text.isprintable():
        text = repr(text)[1:-1]
    return text if width is None or len(text) <= width else text[: width - 1] + "…"

