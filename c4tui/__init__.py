"""c4tui: a Connect Four analysis workstation for the terminal."""

__version__ = "0.1.0"
