"""Table Assistant: the application (session, storage, screens, command line)."""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("table-assistant")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0+unknown"
