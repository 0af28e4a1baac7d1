"""``tf.io.gfile``: TF's file API over the local file system.

Glossary:
  GFile          -- a file object (``read``, ``readline``, ``readlines``, ``write``, ``seek``,
                    ``tell``, ``size``, iteration, ``with``); opened lazily, as TF's is, so a
                    missing file fails on the first read with NotFoundError.
  missing paths  -- ``remove``, ``rmtree``, ``listdir``, ``stat`` and reads raise
                    ``tf.errors.NotFoundError`` (TF's messages), not OSError.
  makedirs       -- creates parents; an existing directory is fine (so is ``mkdir``'s).
  copy / rename  -- refuse an existing destination unless ``overwrite=True``
                    (AlreadyExistsError).

Only local paths are simulated (no ``gs://``). Mirrors tensorflow/python/lib/io/file_io.py.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from simdist.framework import errors


def _not_found(path, what="; No such file or directory"):
    return errors.NotFoundError(None, None, f"{path}{what}")


class GFile:
    """A file of the local file system with TF's API (``tf.io.gfile.GFile``)."""

    def __init__(self, name, mode="r"):
        if mode not in ("r", "rb", "w", "wb", "a", "ab", "r+", "rb+", "w+", "wb+", "a+", "ab+"):
            raise errors.InvalidArgumentError(None, None, f"mode is not 'r' or 'w' or 'a' "
                                                          f"(with an optional 'b'): {mode!r}")
        self.__name = os.fspath(name)
        self.__mode = mode
        self._file = None

    name = property(lambda self: self.__name)
    mode = property(lambda self: self.__mode)

    def _opened(self):
        if self._file is None:
            if "r" in self.__mode and not os.path.exists(self.__name):
                raise _not_found(self.__name)
            self._file = open(self.__name, self.__mode)  # noqa: SIM115 - closed by close()
        return self._file

    def size(self) -> int:
        return stat(self.__name).length

    def read(self, n=-1):
        return self._opened().read(n)

    def readline(self):
        return self._opened().readline()

    def readlines(self):
        return self._opened().readlines()

    def write(self, file_content):
        self._opened().write(file_content)

    def seek(self, offset=None, whence=0, position=None):
        self._opened().seek(position if offset is None else offset, whence)

    def tell(self) -> int:
        return self._opened().tell()

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def __iter__(self):
        return iter(self._opened())

    def __next__(self):
        return next(self._opened())

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def exists(path) -> bool:
    """Whether ``path`` exists."""
    return os.path.exists(path)


def isdir(path) -> bool:
    """Whether ``path`` is a directory."""
    return os.path.isdir(path)


def makedirs(path) -> None:
    """Create ``path`` and its missing parents (an existing directory is fine)."""
    os.makedirs(path, exist_ok=True)


def mkdir(path) -> None:
    """Create the directory ``path`` (its parent must exist; an existing one is fine).

    Raises:
      NotFoundError: the parent directory does not exist.
    """
    if os.path.isdir(path):
        return
    try:
        os.mkdir(path)
    except FileNotFoundError:
        raise _not_found(path) from None


def listdir(path) -> list:
    """The names of the entries of the directory ``path``.

    Raises:
      NotFoundError: ``path`` is not a directory.
    """
    if not os.path.isdir(path):
        raise errors.NotFoundError(None, None, f"Could not find directory {path}")
    return os.listdir(path)


def glob(pattern) -> list:
    """The paths matching ``pattern`` (``*``, ``?``, ``[...]``)."""
    import glob as _glob  # glob and shutil load on first use, not with import simdist

    return _glob.glob(os.fspath(pattern))


def remove(path) -> None:
    """Delete the file ``path``.

    Raises:
      NotFoundError: there is no such file.
    """
    try:
        os.remove(path)
    except FileNotFoundError:
        raise _not_found(path) from None


def rmtree(path) -> None:
    """Delete the directory ``path`` and everything under it.

    Raises:
      NotFoundError: there is no such directory.
    """
    if not os.path.exists(path):
        raise _not_found(path, " not found")
    import shutil

    shutil.rmtree(path)


def _check_destination(dst, overwrite):
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(None, None, f"file already exists: {dst}")


def copy(src, dst, overwrite=False) -> None:
    """Copy the file ``src`` to ``dst``.

    Raises:
      NotFoundError: ``src`` does not exist. AlreadyExistsError: ``dst`` does, without
      ``overwrite``.
    """
    if not os.path.exists(src):
        raise _not_found(src)
    _check_destination(dst, overwrite)
    import shutil

    shutil.copyfile(src, dst)


def rename(src, dst, overwrite=False) -> None:
    """Move ``src`` to ``dst`` (same errors as :func:`copy`)."""
    if not os.path.exists(src):
        raise _not_found(src)
    _check_destination(dst, overwrite)
    os.replace(src, dst)


@dataclass
class FileStatistics:
    """What ``stat`` returns: ``length`` in bytes, ``mtime_nsec``, ``is_directory``."""

    length: int
    mtime_nsec: int
    is_directory: bool


def stat(path) -> FileStatistics:
    """Size, modification time and kind of ``path``.

    Raises:
      NotFoundError: there is no such file.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise _not_found(path) from None
    return FileStatistics(st.st_size, st.st_mtime_ns, os.path.isdir(path))


def walk(top, topdown=True, onerror=None):
    """``(dirname, subdirs, files)`` for every directory under ``top``."""
    yield from os.walk(top, topdown=topdown, onerror=onerror)


gfile_open = GFile
