"""The review room: a whole game judged move by move with exact values.

* :mod:`c4tui.review.game`: the review itself (:class:`~c4tui.review.game.Reviewer`,
  :class:`~c4tui.review.game.GameReview`), the marks ``??`` ``?`` ``?!`` ``!`` and the
  better moves; ``c4tui review`` and the app's key ``R`` run it.
* :mod:`c4tui.review.accuracy`: lichess's accuracy formulas fed with the solver's exact
  scores (win percentage, a move's accuracy, a side's game accuracy).
* :mod:`c4tui.review.graph`: the evaluation graph as a picture (``--svg``, ``--png``).

Nothing here knows Textual or numba: the CLI and the app both import it, never the reverse.
"""
