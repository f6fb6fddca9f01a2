"""The analysis search: MILTON's evaluation and kernel, its table and buffers, the iterative
deepening loop and the :class:`~c4tui.engine.analysis.controller.SearchController` that runs
it on a worker thread, and the threat verdict."""
