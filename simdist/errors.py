"""TensorFlow's exception types (``tf.errors``).

Glossary:
  OpError  -- base of every runtime error an op raises; ``message`` says what went wrong.
  The subclasses carry TF's names and codes, so ``except tf.errors.InvalidArgumentError``
  written for TensorFlow catches the same failures here.
  from_os_error -- the class TF's file system gives an OSError's errno (ENOENT: NotFound,
  ENOTDIR: FailedPrecondition, EACCES: PermissionDenied ...).

Mirrors tensorflow/python/framework/errors_impl.py.
"""

from __future__ import annotations

import errno


class OpError(Exception):
    """A runtime error raised by an op; ``message`` says what went wrong and what to do."""

    code = 2

    def __init__(self, node_def, op, message, *args):
        super().__init__(message)
        self._node_def = node_def
        self._op = op
        self._message = message

    @property
    def message(self) -> str:
        return self._message

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def

    def __str__(self) -> str:
        return self._message


def _make(name: str, code: int) -> type[OpError]:
    def __init__(self, node_def=None, op=None, message="", *args):
        OpError.__init__(self, node_def, op, message, *args)

    return type(name, (OpError,), {"code": code, "__init__": __init__, "__doc__": f"TF's {name}."})


CancelledError = _make("CancelledError", 1)
UnknownError = _make("UnknownError", 2)
InvalidArgumentError = _make("InvalidArgumentError", 3)
DeadlineExceededError = _make("DeadlineExceededError", 4)
NotFoundError = _make("NotFoundError", 5)
AlreadyExistsError = _make("AlreadyExistsError", 6)
PermissionDeniedError = _make("PermissionDeniedError", 7)
ResourceExhaustedError = _make("ResourceExhaustedError", 8)
FailedPreconditionError = _make("FailedPreconditionError", 9)
AbortedError = _make("AbortedError", 10)
OutOfRangeError = _make("OutOfRangeError", 11)
UnimplementedError = _make("UnimplementedError", 12)
InternalError = _make("InternalError", 13)
UnavailableError = _make("UnavailableError", 14)
DataLossError = _make("DataLossError", 15)
UnauthenticatedError = _make("UnauthenticatedError", 16)

class OperatorNotAllowedInGraphError(TypeError):
    """TF's error for a Python operation on a symbolic tensor (``bool``, iteration) in a
    function being traced (errors_impl.OperatorNotAllowedInGraphError)."""


class InaccessibleTensorError(ValueError):
    """TF's error for a tensor of a cond branch or loop body used outside it (a Python list
    appended to in the body): errors_impl.InaccessibleTensorError."""


# How TF's file system reports an OSError's errno (tensorflow/core/platform/errors.cc's
# ErrnoToCode): the class a save or read raises instead of Python's OSError.
_ERRNO_CLASSES = {
    errno.ENOENT: NotFoundError, errno.ENOTDIR: FailedPreconditionError,
    errno.EISDIR: FailedPreconditionError, errno.EACCES: PermissionDeniedError,
    errno.EPERM: PermissionDeniedError, errno.EROFS: PermissionDeniedError,
    errno.EEXIST: AlreadyExistsError, errno.ENOSPC: ResourceExhaustedError,
    errno.EDQUOT: ResourceExhaustedError, errno.ENAMETOOLONG: InvalidArgumentError,
}


def from_os_error(error: OSError) -> OpError:
    """TF's error for a file-system ``OSError`` (UnknownError for an errno TF does not map)."""
    cls = _ERRNO_CLASSES.get(error.errno, UnknownError)
    return cls(None, None, f"{error.filename}; {error.strerror}")
