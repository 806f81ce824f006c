"""The installed foldgraph version, as `foldgraph.version.__version__`."""

from importlib import metadata

__all__ = ("__version__",)

try:
    __version__ = metadata.version("foldgraph")
except metadata.PackageNotFoundError:  # running from a source tree without metadata
    __version__ = ""
del metadata
