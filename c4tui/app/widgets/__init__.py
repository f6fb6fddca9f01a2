"""The workstation's panels, one per file; each draws itself from reactive attributes."""

from .analysis_panel import AnalysisPanel
from .board import BoardView
from .eval_graph import EvalGraph
from .key_bar import KeyBar
from .move_list import MoveList
from .play_setup import PlaySetupScreen
from .prompt import PromptScreen
from .search_log import SearchLog
from .search_path import SearchPath
from .status_line import StatusLine
from .threat_panel import ThreatPanel

__all__ = ["AnalysisPanel", "BoardView", "EvalGraph", "KeyBar", "MoveList", "PlaySetupScreen",
           "PromptScreen", "SearchLog", "SearchPath", "StatusLine", "ThreatPanel"]
