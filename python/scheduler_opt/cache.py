"""The compile cache: a graph compiled once is not compiled again.

An entry is a directory named by the key, the SHA-256 of everything the
pipeline's result depends on: the dump and its sidecars (the graph), the
target and options, and the identity of the tools (path, size and
modification time of scheduler-translate and scheduler-opt). An entry
appears whole or not at all: it is built in a temporary directory next to
its place and renamed into place (atomic on one file system), so a failed
or interrupted compile leaves nothing behind that a later lookup would
take for a result.

Pure Python.
"""
import hashlib
import json
import os
import shutil
import tempfile
from typing import Callable, Dict, Iterable, Optional


def default_directory() -> str:
    root = os.environ.get("SCHEDULER_OPT_CACHE_DIR")
    if root:
        return root
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "scheduler_opt")


def tool_identity(paths: Iterable[str]) -> Dict[str, list]:
    """What changes when a tool is rebuilt or replaced."""
    result = {}
    for path in paths:
        st = os.stat(path)
        result[os.path.basename(path)] = [os.path.realpath(path), st.st_size,
                                          st.st_mtime_ns]
    return result


def key(files: Dict[str, str], options: dict, tools: dict) -> str:
    """The key of a compile: `files` maps file names to their contents."""
    h = hashlib.sha256()
    for name in sorted(files):
        data = files[name].encode()
        h.update(b"%d:%s\0%d\0" % (len(name), name.encode(), len(data)))
        h.update(data)
    h.update(json.dumps({"options": options, "tools": tools},
                        sort_keys=True).encode())
    return h.hexdigest()


class Cache:
    def __init__(self, directory: Optional[str] = None):
        self.directory = directory or default_directory()

    def path(self, key: str) -> str:
        return os.path.join(self.directory, key[:2], key)

    def lookup(self, key: str) -> Optional[str]:
        path = self.path(key)
        return path if os.path.isdir(path) else None

    def insert(self, key: str, build: Callable[[str], None]) -> str:
        """Runs `build(tmpdir)` and moves its result into place; on any
        exception nothing is left in the cache and the exception propagates.
        Returns the entry's directory."""
        final = self.path(key)
        parent = os.path.dirname(final)
        os.makedirs(parent, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=".tmp-" + key[:8] + "-", dir=parent)
        try:
            build(tmp)
            try:
                os.rename(tmp, final)
            except OSError:
                # Another process put the same entry in place first.
                if not os.path.isdir(final):
                    raise
                shutil.rmtree(tmp, ignore_errors=True)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return final
