"""TensorFlow's exception types (``tf.errors``).

Glossary:
  OpError  -- base of every runtime error an op raises; ``message`` says what went wrong.
  The subclasses carry TF's names and codes, so ``except tf.errors.InvalidArgumentError``
  written for TensorFlow catches the same failures here.

Mirrors tensorflow/python/framework/errors_impl.py.
"""

from __future__ import annotations


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
