"""The board: the size's geometry, the bitboard words (128-bit on boards above 64 bits),
the :class:`~c4tui.engine.board.position.Position` and its pictures. Imports no other room."""
