"""`PersistentDict`: a dict kept in a file, for an `InMemorySaver` that outlives its process."""

from __future__ import annotations

import os
import pickle
import shutil
from collections import defaultdict
from typing import Any


class PersistentDict(defaultdict):
    """A `defaultdict` saved to `filename` (pickle) on `sync()` or `close()`.

    Reads and writes run at dict speed; the file is replaced atomically (written
    to `filename + ".tmp"`, then moved). Call `load()` to read an existing file.
    As `InMemorySaver(factory=partial(PersistentDict, filename=...))` it keeps a
    saver's threads across processes.
    """

    def __init__(self, *args: Any, filename: str, **kwds: Any) -> None:
        self.flag = "c"  # "r": read-only, "c": create, "n": always start empty
        self.mode: int | None = None  # file permissions to set after writing, e.g. 0o644
        self.format = "pickle"
        self.filename = filename
        super().__init__(*args, **kwds)

    def sync(self) -> None:
        """Write the dict to its file."""
        if self.flag == "r":
            return
        temp = self.filename + ".tmp"
        try:
            with open(temp, "wb") as fileobj:
                self.dump(fileobj)
        except Exception:
            os.remove(temp)
            raise
        shutil.move(temp, self.filename)
        if self.mode is not None:
            os.chmod(self.filename, self.mode)

    def close(self) -> None:
        self.sync()
        self.clear()

    def __enter__(self) -> PersistentDict:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def dump(self, fileobj: Any) -> None:
        if self.format != "pickle":
            raise NotImplementedError("Unknown format: " + repr(self.format))
        pickle.dump(dict(self), fileobj, 2)

    def load(self) -> None:
        """Merge the file's content into the dict (nothing when the flag is "n")."""
        if self.flag == "n":
            return
        with open(self.filename, "rb") as fileobj:
            try:
                self.update(pickle.load(fileobj))
            except EOFError:
                return
