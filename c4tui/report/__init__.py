"""What c4tui says about a position in words and table rows, for the app and the command
line alike: move names, principal variations, search windows, threats and verdicts
(``text``), and the search log's rows (``log_rows``, the app's log and ``analyze``)."""
