"""The app's controllers: one plain class per area (search, files, play, preview, tree,
review, session), each with its own state and the narrow :class:`Host` of what it needs
from the app. No Textual widget here: the main screen binds the keys to them and
``render.py`` draws their state."""

from .files import FileControl
from .host import Host
from .play import PlayControl
from .preview import Preview, PreviewControl
from .review import ReviewControl
from .search import SearchControl
from .session import SessionControl
from .ticker import EngineTicker
from .tree import TreeControl

__all__ = ["EngineTicker", "FileControl", "Host", "PlayControl", "Preview",
           "PreviewControl", "ReviewControl", "SearchControl", "SessionControl",
           "TreeControl"]
