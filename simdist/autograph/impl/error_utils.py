"""TF's "in user code:" message of an error raised while a converted function traces.

Glossary:
  frame         -- one entry of the message: ``File "<file>", line N, in <function>`` and
                   the source line under it; ``  *`` marks a frame of converted code, ``  **``
                   a function that ``converted_call`` ran unconverted (do_not_convert).
  level         -- the code one converted call runs: from a ``converted_call`` (or the
                   traced function itself) down to the next one. Each level shows its
                   innermost frame of converted code (for an ``if`` whose branch raised: the
                   line in the branch), outermost level first.
  innermost level -- also shows the frames below its converted frame down to the raise,
                   without simdist's own (TF leaves its own files out of tracebacks).
  cause message -- ``ErrorType: message`` of the original error, indented under the frames;
                   kept on the new error (``ag_error_metadata``) so that the trace of a
                   tf.function around a failing nested one writes the message again, with
                   its own frames first, as TF chains them.
  error type    -- the original's where its constructor takes a message (TF's list, and
                   simdist's OpErrors with their node_def and op); a KeyError's subclass
                   whose ``str`` is the text; otherwise TF's StagingError (an IndexError
                   raised in traced code is one).

Mirrors tensorflow/python/autograph/pyct/error_utils.py (ErrorMetadataBase, FrameInfo) and
autograph/impl/api.py (_attach_error_metadata, _ErrorMetadata.create_exception).
"""

from __future__ import annotations

import ast
import linecache
import os
import types

from simdist import errors

# simdist's own files (simdist/autograph/impl/ is two folders below the package's)
_SIMDIST = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) \
    + os.sep
_converted_codes: dict = {}   # code object of converted code -> the user function's name

KNOWN_STRING_CONSTRUCTOR_ERRORS = (
    AssertionError, AttributeError, NameError, NotImplementedError, RuntimeError,
    StopIteration, TypeError, UnboundLocalError, ValueError)


class StagingError(Exception):
    """An error raised while a converted function traced whose type cannot be made again
    with a new message (an IndexError, a user's own class taking other arguments): TF's
    autograph.impl.api.StagingError, with the "in user code:" text."""


class MultilineMessageKeyError(KeyError):
    """A KeyError with the "in user code:" text: ``str`` gives the text (a KeyError's own
    shows its key's repr), its key kept as the argument (TF's pyct.error_utils)."""

    def __init__(self, message, original_key):
        super().__init__(original_key)
        self.__message = message

    def __str__(self):
        return self.__message


MultilineMessageKeyError.__name__ = KeyError.__name__   # as TF names it


class ErrorMetadata:
    """What a user-code error keeps: its cause message (``ErrorType: message``)."""

    __slots__ = ("cause_message",)

    def __init__(self, cause_message: str):
        self.cause_message = cause_message


def register_converted(code: types.CodeType, name, user_names, lines=None,
                       starts=None) -> None:
    """Mark ``code`` (a converted function's) and the functions compiled inside it as
    converted code of the user function ``name``; an inner function the user wrote
    (``user_names``) shows its own name, one AutoGraph made (``if_body``) its enclosing one.
    A lambda's frames show the name None and, as source, the lambda's own text (``lines``:
    line number -> text), as TF's parser extracts it. ``starts``: line number -> the first
    line of the statement holding it (``statement_starts``)."""
    own = code.co_name[4:] if code.co_name.startswith("tf__") else code.co_name
    name = own if own in user_names else name
    _converted_codes[code] = (str(name), lines, starts)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            register_converted(const, name, user_names, lines, starts)


def statement_starts(node) -> dict:
    """{line number: the first line of the innermost statement on it} for the function
    ``node`` (its source's AST): a compound statement's header lines, a simple statement's
    every line. AutoGraph's generated code writes a statement on one line, which its
    source map ties to the statement's first line: a node made by a call spanning lines
    is "defined at" that first line (recorded from TF 2.21)."""
    starts: dict = {}
    for stmt in ast.walk(node):
        if not isinstance(stmt, ast.stmt) or getattr(stmt, "end_lineno", None) is None:
            continue
        body = getattr(stmt, "body", None)
        last = body[0].lineno - 1 if isinstance(body, list) and body and \
            isinstance(body[0], ast.stmt) else stmt.end_lineno
        for n in range(stmt.lineno, max(last, stmt.lineno) + 1):
            starts[n] = stmt.lineno
    return starts


def converted_line(code: types.CodeType, lineno: int) -> int:
    """The line a frame of converted ``code`` at ``lineno`` shows (``statement_starts``)."""
    entry = _converted_codes.get(code)
    if entry is None or entry[2] is None:
        return lineno
    return entry[2].get(lineno, lineno)


def converted_name(code: types.CodeType):
    """The user function's name ``code`` (converted code) shows in frames, or None for code
    that is not converted."""
    entry = _converted_codes.get(code)
    return None if entry is None else entry[0]


def lambda_lines(node, filename):
    """{line number: that line's part of the lambda ``node``} (positions in ``filename``),
    or None."""
    first, last = node.lineno, node.end_lineno
    out = {}
    for n in range(first, last + 1):
        text = linecache.getline(filename, n)
        start = node.col_offset if n == first else 0
        out[n] = text[start:node.end_col_offset] if n == last else text[start:]
    return out if out[first].startswith("lambda") else None   # else not the file's positions


def _is_boundary(code) -> bool:
    from simdist.autograph.impl import conversion

    return code is conversion.converted_call.__code__


def _frames(tb, unconverted=False):
    """The frames of the message (see the module docstring), outermost first: (filename,
    lineno, function name, marker, source line or None). ``unconverted``: a function TF
    traces with AutoGraph that calls the user's code unconverted (``tf.vectorized_map``'s
    ``pfor.<locals>.f``): the user's frames are shown without a converted one."""
    entries = []
    while tb is not None:
        entries.append((tb.tb_frame.f_code, tb.tb_lineno))
        tb = tb.tb_next
    shown: list = []
    innermost, boundary = True, False
    for code, lineno in reversed(entries):   # from the raise outwards, as TF walks it
        converted = code in _converted_codes
        if _is_boundary(code):
            if innermost and shown and shown[-1][3] == "":
                shown[-1] = shown[-1][:3] + ("  **", None)
            boundary = True
            continue
        if converted and (innermost or boundary):
            name, lines, _ = _converted_codes[code]
            text = lines.get(lineno) if lines else None
            shown.append((code.co_filename, lineno, name, "  *", text))
            innermost, boundary = False, False
        elif innermost and not converted and not code.co_filename.startswith(_SIMDIST):
            shown.append((code.co_filename, lineno, code.co_name, "", None))
    if unconverted or any(f[3] == "  *" for f in shown):
        return list(reversed(shown))
    return []


def message(frames, cause_message: str) -> str:
    """TF's text (ErrorMetadataBase.get_message)."""
    lines = ["in user code:", ""]
    for filename, lineno, name, marker, text in frames:
        lines.append(f'    File "{filename}", line {lineno}, in {name}{marker}')
        code = (linecache.getline(filename, lineno) if text is None else text).strip()
        lines.append(f"        {code or '<source unavailable>'}")
    lines.append("")
    lines.extend("    " + line for line in cause_message.split("\n"))
    lines.append("")
    return "\n".join(lines)


def in_user_code(error: BaseException, unconverted=False):
    """The error to raise for ``error``, raised while a converted function traced: the same
    type with TF's "in user code:" message (a KeyError's subclass, or a StagingError, where
    the type cannot take it), or None (no converted frame on its way and no metadata that
    says it passed through autograph; ``unconverted``: a type that cannot take the
    message)."""
    frames = _frames(error.__traceback__, unconverted)
    metadata = getattr(error, "ag_error_metadata", None)
    if not frames and not unconverted and metadata is None:
        return None
    if metadata is None:
        metadata = ErrorMetadata(f"{type(error).__name__}: {error}")
    text = message(frames, metadata.cause_message)
    kind = type(error)
    if issubclass(kind, errors.OpError):
        new = kind(error._node_def, error._op, text)
    elif kind.__init__ is Exception.__init__ or kind in KNOWN_STRING_CONSTRUCTOR_ERRORS or \
            kind in (errors.OperatorNotAllowedInGraphError, errors.InaccessibleTensorError,
                     StagingError):
        new = kind(text)
    elif unconverted:   # (vectorized_map's own trace: TF attaches no metadata there)
        return None
    elif kind is KeyError:
        new = MultilineMessageKeyError(text, error.args[0] if error.args else None)
    else:   # TF's _ErrorMetadata.create_exception: the type cannot take the text
        new = StagingError(text)
    new.ag_error_metadata = metadata
    return new.with_traceback(error.__traceback__)
