"""The session, without Textual: the game model (moves and variations, the viewed
position), the session file and its autosave, crash files, and the watch on the
terminal that ends the app when it is gone."""
