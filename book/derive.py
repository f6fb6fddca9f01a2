"""Exact scores of earlier positions, derived from a finished book by negamax.

A book of every position with n discs determines every position with fewer discs: the score
of a position is the best over its moves of minus the score of the child, and every child is
either in the book, or a position whose side to move can win at once (score
``win_score(ply)``, ``(43 - ply) // 2`` on 7x6, known without search), or, one ply further
up, a derived position.
So ``derive(book9, down_to=0)`` adds the 113,934 positions with 0-8 discs in seconds,
and any position with up to 9 discs is then answered by a single probe.
"""

from __future__ import annotations

import numpy as np
from c4tui.engine.books.negamax import book_negamax

from .enumeration import enumerate_positions
from .format import Book, BookError, make_book, plies_mask
from .keys import canonical_key


def derive(book: Book, down_to: int, root: str = "") -> Book:
    """A book with every disc count from ``down_to`` to ``book.max_ply``.

    ``book`` must hold every position of its largest disc count (below ``root`` if given).
    Raises :class:`BookError` if a needed position is missing (an unfinished book).
    """
    top = book.max_ply
    if top < 0 or not 0 <= down_to <= top:
        raise BookError(f"cannot derive plies {down_to}..{top} from plies {book.ply_list}")
    known = dict(
        zip(book.keys.tolist(), book.scores.tolist(), strict=True)
    )  # canonical key -> score, grows ply by ply
    all_keys = [book.keys]
    all_scores = [book.scores]
    for ply in range(top - 1, down_to - 1, -1):
        enum = enumerate_positions(ply, root)
        scores = np.empty(len(enum), dtype=np.int8)
        for i, key in enumerate(enum.keys.tolist()):
            scores[i] = _negamax_step(key, ply, known)
        known.update(zip(enum.keys.tolist(), scores.tolist(), strict=True))
        all_keys.append(enum.keys)
        all_scores.append(scores)
    plies = book.plies | plies_mask(range(down_to, top))
    return make_book(np.concatenate(all_keys), np.concatenate(all_scores), plies)


def _negamax_step(key: int, ply: int, known: dict[int, int]) -> int:
    """The score of the position with key ``key`` (``ply`` discs) from its children's."""
    from .keys import key_to_words

    current, mask = key_to_words(key)

    def lookup(cur: int, m: int) -> int | None:  # the children (the position is not known)
        return known.get(canonical_key(cur + m)) if m != mask else None

    value = book_negamax(current, mask, lookup, depth=1)
    if value is None:
        raise BookError(f"cannot derive ply {ply}: a position with {ply + 1} discs is "
                        "missing (unfinished book?)")
    return value[0]
