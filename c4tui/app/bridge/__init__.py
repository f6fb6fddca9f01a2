"""The app's side of the engine seam, without Textual: the :class:`EngineBridge` and the
workers behind it (loading, the exact solver's values, the live search, the column
searches, the engine's moves in play mode, the review's analysis, an external engine),
the records the UI reads (:class:`EngineView`) and the search settings. The widgets and
controllers of ``c4tui.app`` use it; it imports nothing of theirs."""
