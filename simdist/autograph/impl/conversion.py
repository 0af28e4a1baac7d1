"""Converting one function: its source, parsed; TF's converters in TF's order; compiled back
into a function with the original globals, closure cells, defaults and name; cached per
function object, and its converted code per code object (TF's TransformedFnCache: a
lambda or nested function made again, the same code, is bound to its new closure without
being parsed and transformed again).

Glossary:
  convertible   -- a plain Python function or method (or lambda) with source, not marked
                   ``do_not_convert``, not a generator or coroutine, and not from simdist,
                   NumPy or the standard library (TF's allowlist of its own modules).
  converted     -- the same function with its control flow in functional form; it calls
                   the ``ag__`` operators (simdist.autograph.operators), which choose Python
                   or TF semantics at run time. Line numbers stay those of the source file.
  converted_call -- how converted code calls anything: user functions, methods and callable
                   objects are converted first (cached), the rest called as they are.
  fall back     -- a function that cannot be converted runs as it is, after TF's warning
                   "AutoGraph could not transform <f> and will run it as-is."

Mirrors tensorflow/python/autograph/impl/conversion.py and pyct/parser.py, transpiler.py.
"""

from __future__ import annotations

import ast
import copy
import functools
import inspect
import linecache
import textwrap
import types
import weakref

from simdist.autograph.converters import (
    base,
    break_statements,
    call_trees,
    continue_statements,
    control_flow,
    logical_expressions,
    return_statements,
)
from simdist.autograph.converters import functions as functions_converter
from simdist.autograph.impl import error_utils
from simdist.autograph.pyct import unsupported_features
from simdist.platform.tf_logging import get_logger

DO_NOT_CONVERT = "__ag_do_not_convert__"
_SKIPPED_MODULES = ("simdist", "numpy", "builtins", "functools", "collections", "abc",
                    "typing", "inspect", "threading", "contextlib")
_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_sources: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# code object -> (that very code, weakly; name; converted code; converted source) of its
# last conversion: all read from the code's file and lines (no globals kept: they may hold
# the code, never released). Code objects compare equal across files (co_filename is not
# compared), so a hit must be the very code object.
_converted_code: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class InaccessibleSourceCodeError(ValueError):
    """The function's source cannot be read (TF's pyct.errors name)."""


def is_convertible(fn) -> bool:
    if not isinstance(fn, types.FunctionType) or getattr(fn, DO_NOT_CONVERT, False) or \
            hasattr(fn, "autograph_info__"):   # converted already (autograph_artifact)
        return False
    if fn.__code__.co_filename == "<string>":  # exec'd code: TF runs it as it is, silently
        return False
    if inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn):
        return False
    module = (getattr(fn, "__module__", None) or "").split(".")[0]
    return module not in _SKIPPED_MODULES


def convert(fn):
    """The converted ``fn`` (a method: bound again), or ``fn`` itself when it is not
    convertible or conversion fails (after TF's warning)."""
    if isinstance(fn, types.MethodType):
        converted = convert(fn.__func__)
        return fn if converted is fn.__func__ else types.MethodType(converted, fn.__self__)
    if not is_convertible(fn):
        return fn
    try:
        return _cache[fn]
    except KeyError:
        pass
    try:
        converted, source = _convert_function(fn)
    except Exception as e:  # noqa: BLE001 - any failure: run unconverted, as TF does
        get_logger().warning("AutoGraph could not transform %s and will run it as-is.\nCause: %s\n"
                        "To silence this warning, decorate the function with "
                        "@tf.autograph.experimental.do_not_convert", fn, e)
        converted, source = fn, None
    _cache[fn] = converted
    if source is not None:
        _sources[converted] = source
    return converted


def converted_call(f, args, kwargs, caller_fn_scope=None):
    """Call ``f``, converted first when it is user code (TF's ``converted_call``): a
    function, a method, a ``functools.partial`` of one, or an object whose class defines
    ``__call__`` in user code. ``caller_fn_scope`` is the caller's FunctionScope (unused)."""
    del caller_fn_scope
    kwargs = kwargs or {}
    if isinstance(f, types.BuiltinFunctionType) or isinstance(f, type) and \
            f.__module__ == "builtins":
        from simdist.autograph.operators import py_builtins

        return py_builtins.overload_of(f)(*args, **kwargs)
    if isinstance(f, types.FunctionType):
        return convert(f)(*args, **kwargs)
    if isinstance(f, types.MethodType) and isinstance(f.__func__, types.FunctionType):
        return convert(f.__func__)(f.__self__, *args, **kwargs)
    if isinstance(f, functools.partial):
        return converted_call(f.func, f.args + tuple(args), {**f.keywords, **kwargs})
    call = inspect.getattr_static(type(f), "__call__", None)
    if isinstance(call, types.FunctionType) and is_convertible(call):
        return convert(call)(f, *args, **kwargs)
    return f(*args, **kwargs)


def converted_source(fn) -> str:
    """The readable source of ``fn`` converted (``tf.autograph.to_code``)."""
    converted = convert(fn.__func__ if isinstance(fn, types.MethodType) else fn)
    try:
        return _sources[converted]
    except (KeyError, TypeError):
        raise InaccessibleSourceCodeError(
            f"Unable to convert {fn}: it runs unconverted (see the warning above).") from None


def _parse(fn):
    try:
        source = inspect.getsource(fn)
        filename = inspect.getsourcefile(fn) or "<autograph>"
    except (OSError, TypeError) as e:
        raise InaccessibleSourceCodeError(
            f"Unable to locate the source code of {fn}. Note that functions defined in "
            "certain environments, like the interactive Python shell, do not expose their "
            "source code. If that is the case, you should define them in a .py source file. "
            "If you are certain the code is graph-compatible, wrap the call using "
            f"@tf.autograph.experimental.do_not_convert. Original error: {e}") from e
    if fn.__name__ == "<lambda>":
        if inspect.getmodule(fn) is None:
            # TF's lambda parser reads the lines through the lambda's module, which a
            # module file run without being listed in sys.modules does not have
            # (pyct/parser.py: ``mod.__dict__``): TF runs such a lambda unconverted
            raise AttributeError("'NoneType' object has no attribute '__dict__'")
        # the lambda's own lines may end before its body does (a lambda continued on the
        # next line inside brackets): find it in the whole file's tree, as TF's parser does
        whole = _file_tree(filename, fn)
        if whole is not None:   # a copy: the converters change the nodes they are given
            return copy.deepcopy(_lambda_node(fn, whole)), \
                filename
    tree = ast.parse(textwrap.dedent(source))
    ast.increment_lineno(tree, fn.__code__.co_firstlineno - 1)
    if fn.__name__ == "<lambda>":
        node = _lambda_node(fn, tree)
    else:
        node = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
                     and n.name == fn.__name__), None)
    if node is None:
        raise InaccessibleSourceCodeError(f"could not find the definition of {fn} in its source")
    return node, filename


_file_trees: dict = {}   # filename -> (its lines, their AST): parsed once per content


def _file_tree(filename, fn):
    """The AST of the whole file ``fn`` was defined in, or None (no file, or one that does
    not parse)."""
    lines = linecache.getlines(filename, fn.__globals__)
    if not lines:
        return None
    kept = _file_trees.get(filename)
    if kept is not None and kept[0] is lines:
        return kept[1]
    try:
        tree = ast.parse("".join(lines))
    except SyntaxError:
        return None
    _file_trees[filename] = (lines, tree)
    return tree


def _lambda_node(fn, tree):
    """The lambda of ``tree`` that is ``fn``, chosen as TF's parser chooses: among the
    lambdas of the statements starting by its first line, those whose lines span it; if
    several, those with its parameters.

    Raises:
      InaccessibleSourceCodeError: none, or more than one, match (TF's texts).
    """
    line = fn.__code__.co_firstlineno
    statements = []
    for node in tree.body:            # up to the last statement starting by the lambda's line
        if getattr(node, "lineno", line) > line:
            break
        statements.append(node)
    lambdas = [n for node in statements for n in ast.walk(node) if isinstance(n, ast.Lambda)]
    candidates = [n for n in lambdas if _span(n)[0] <= line <= _span(n)[1]]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        codes = "\n".join(ast.unparse(n) for n in lambdas)
        raise InaccessibleSourceCodeError(
            f"could not parse the source code of {fn}: no matching AST found among "
            f"candidates:\n{codes}")
    matches = [n for n in candidates if _matches_argspec(n, fn)]
    if len(matches) == 1:
        return matches[0]
    listed = "\n".join(f"Match {i}:\n{ast.unparse(n).strip()}\n" for i, n in enumerate(matches))
    raise InaccessibleSourceCodeError(
        f"could not parse the source code of {fn}: found multiple definitions with identical "
        "signatures at the location. This error may be avoided by defining each lambda on a "
        f"single line and with unique argument names. The matching definitions were:\n{listed}")


def _span(node) -> tuple[int, int]:
    """The first and last line of ``node``'s source."""
    first, last = float("inf"), 0
    for n in ast.walk(node):
        first = min(first, getattr(n, "lineno", first))
        last = max(last, getattr(n, "end_lineno", None) or getattr(n, "lineno", last))
    return first, last


def _matches_argspec(node, fn) -> bool:
    """Whether the lambda ``node`` has ``fn``'s parameters (TF's _node_matches_argspec)."""
    spec = inspect.getfullargspec(fn)
    args = node.args
    return ([a.arg for a in args.args] == spec.args
            and (args.vararg.arg if args.vararg else None) == spec.varargs
            and (args.kwarg.arg if args.kwarg else None) == spec.varkw
            and [a.arg for a in args.kwonlyargs] == spec.kwonlyargs)


def _transform(node):
    """TF's converters, in TF's order, on ``node`` and every function nested in it."""
    if isinstance(node, ast.Lambda):
        return _transform_lambda(node)
    node.decorator_list = []
    namer = base.Namer(node)
    logical_expressions.mark_original(node)
    functions_converter.mark_lambdas(node)
    functions_converter.erase_arg_defaults(node)
    call_trees.transform(node)
    functions = [n for n in ast.walk(node) if isinstance(n, ast.FunctionDef)]
    for fn in functions:   # outer functions first: fscope, fscope_1 ... as TF names them
        functions_converter.scope_name(fn, namer)
        functions_converter.take_docstring(fn)
        return_statements.names(fn, namer)
    for fn in reversed(functions):  # inner functions first
        break_statements.transform(fn, namer)
        continue_statements.transform(fn, namer)
        return_statements.transform(fn, namer, functions_converter.scope_name(fn, namer))
        control_flow.transform(fn, namer)
        functions_converter.transform(fn, namer, top=fn is node)
    logical_expressions.LogicalTransformer().visit(node)
    logical_expressions.VariableAccessTransformer().visit(node)
    return node


def _transform_lambda(lam):
    """A lambda converted: its calls, conditional and logical expressions (its names read
    as they are: TF's analysis annotates no definitions in a lambda), in TF's form
    (functions_converter.transform_lambda)."""
    namer = base.Namer(lam)
    functions_converter.mark_lambdas(lam)
    lam.body = call_trees.CallTreeTransformer().visit(lam.body)
    lam.body = logical_expressions.LogicalTransformer().visit(lam.body)
    return functions_converter.transform_lambda(lam, namer)


def _explicit_super(node):
    """``super()`` needs the class cell the compiler makes only inside a class body: the
    converted method says ``super(__class__, self)``, reading the original cell."""
    params = node.args.posonlyargs + node.args.args
    if not params:
        return
    for call in ast.walk(node):
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id == "super" and not call.args and not call.keywords):
            call.args = [base.name("__class__"), base.name(params[0].arg)]


def _convert_function(fn):
    """(``fn`` converted, its converted source): its code converted once per code object
    and name (``_converted_code``), bound to ``fn``'s globals, closure, defaults and names."""
    kept = _converted_code.get(fn.__code__)
    if kept is not None and kept[0]() is fn.__code__ and kept[1] == fn.__name__:
        inner, source = kept[2], kept[3]
    else:
        inner, source = _convert_code(fn)
        _converted_code[fn.__code__] = (weakref.ref(fn.__code__), fn.__name__, inner, source)
    from simdist.autograph import operators

    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    cells["ag__"] = types.CellType(operators)
    converted = types.FunctionType(inner, fn.__globals__, fn.__name__, fn.__defaults__,
                                   tuple(cells[v] for v in inner.co_freevars))
    converted.__kwdefaults__ = fn.__kwdefaults__
    for attr in ("__module__", "__qualname__", "__doc__", "__annotations__"):
        setattr(converted, attr, getattr(fn, attr, None))
    converted.__dict__.update(fn.__dict__)
    converted.__ag_converted__ = True
    return converted, source


def _convert_code(fn):
    """(the converted code of ``fn``, its converted source)."""
    node, filename = _parse(fn)
    unsupported_features.verify(node)
    user_names = {n.name for n in ast.walk(node) if isinstance(n, ast.FunctionDef)}
    lam = isinstance(node, ast.Lambda) and getattr(node, "end_lineno", None) is not None and \
        fn.__code__.co_firstlineno == node.lineno   # its positions are the file's
    frames = (None, error_utils.lambda_lines(node, filename)) if lam else (fn.__name__, None)
    starts = error_utils.statement_starts(node)
    if "__class__" in fn.__code__.co_freevars:
        _explicit_super(node)
    node = _transform(node)
    # a def: its name; a lambda: ``tf__lam = lambda ...``, its code object "<lambda>"
    name, code_name = ((node.targets[0].id, "<lambda>") if isinstance(node, ast.Assign)
                       else (node.name, node.name))
    freevars = list(fn.__code__.co_freevars)
    factory = base.function("ag__factory", [], [
        *(base.assign(v, base.const(None)) for v in ["ag__"] + freevars),
        node, ast.Return(base.name(name))])
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    code = compile(module, filename, "exec")
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType)
                 and c.co_name == code_name)
    error_utils.register_converted(inner, frames[0], user_names, frames[1], starts)
    return inner, ast.unparse(node)
