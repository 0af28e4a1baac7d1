"""Every converted function's body runs in ``with ag__.FunctionScope(name, scope, options)
as scope:``; the function converted is named ``tf__<name>`` (its nested functions keep
their names and are marked ``@ag__.autograph_artifact``, its lambdas wrapped in
``ag__.autograph_artifact(...)``), and the calls it makes pass its scope to
``converted_call``, as TF's converted code does. A lambda converted itself is
``tf__lam = lambda args: ag__.with_function_scope(lambda lscope: body, 'lscope', options)``.
The converted function's own argument defaults read ``None`` in its text (TF's
``_erase_arg_defaults``; it keeps the original's values).

Mirrors tensorflow/python/autograph/converters/functions.py.
"""

from __future__ import annotations

import ast

from simdist.autograph.converters import base

# TF's options of the function to_graph / tf.function converts (ConversionOptions' repr)
_TOP_OPTIONS = ast.Call(
    func=ast.Attribute(value=base.name("ag__"), attr="ConversionOptions", ctx=ast.Load()),
    args=[], keywords=[ast.keyword(arg=k, value=base.const(v)) for k, v in (
        ("recursive", True), ("user_requested", True), ("optional_features", ()),
        ("internal_convert_user_code", True))])


def scope_name(fn, namer) -> str:
    """The name of ``fn``'s FunctionScope variable (``fscope``, ``fscope_1`` ...), made once."""
    if not hasattr(fn, "ag_scope"):
        fn.ag_scope = namer.new("fscope")
    return fn.ag_scope


def transform(fn, namer, top: bool) -> None:
    """Wrap ``fn``'s body (already lowered) in its FunctionScope; pass the scope to its
    calls."""
    scope = scope_name(fn, namer)
    _pass_scope(fn.body, scope)
    options = _TOP_OPTIONS if top else ast.Attribute(value=base.name("ag__"), attr="STD",
                                                    ctx=ast.Load())
    call = base.ag_call("FunctionScope", base.const(fn.name), base.const(scope), options)
    fn.body = [ast.With(items=[ast.withitem(context_expr=call,
                                            optional_vars=base.name(scope, store=True))],
                        body=fn.body, lineno=0)]
    fn.body = getattr(fn, "ag_docstring", []) + fn.body   # the docstring stays first
    if top:
        fn.name = f"tf__{fn.name}"
    else:   # applied first, under the function's own decorators
        fn.decorator_list.append(ast.Attribute(value=base.name("ag__"),
                                               attr="autograph_artifact", ctx=ast.Load()))


def take_docstring(fn) -> None:
    """Keep ``fn``'s docstring out of the conversion (``transform`` puts it back first)."""
    first = fn.body[0] if fn.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and \
            isinstance(first.value.value, str):
        fn.ag_docstring = [fn.body.pop(0)]


def _pass_scope(stmts, scope) -> None:
    """Append ``scope`` to the ``ag__.converted_call`` calls of ``stmts``, also inside the
    functions the converters made (a loop's body and test), but not in the user's nested
    functions' bodies, which pass their own (their decorators are this scope's)."""
    stack = list(stmts)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.ClassDef) or (
                isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and hasattr(node, "ag_scope")):
            stack.extend(node.decorator_list)   # evaluated in this scope
            continue
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "converted_call" and len(node.args) == 3
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "ag__"):
            node.args.append(base.name(scope))
        stack.extend(ast.iter_child_nodes(node))


def mark_lambdas(node) -> None:
    """Wrap the source's lambdas nested in ``node`` in ``ag__.autograph_artifact(...)``
    (before any converter adds lambdas of its own)."""
    class Marker(ast.NodeTransformer):
        def visit_Lambda(self, lam):  # noqa: N802 - ast's name
            self.generic_visit(lam)
            return ast.copy_location(base.ag_call("autograph_artifact", lam), lam)

    for child in list(ast.iter_child_nodes(node)):
        Marker().visit(child)


def erase_arg_defaults(node) -> None:
    """The converted function's defaults read ``None`` (TF's text)."""
    args = node.args
    args.defaults = [base.const(None) for _ in args.defaults]
    args.kw_defaults = [None if d is None else base.const(None) for d in args.kw_defaults]


def transform_lambda(lam, namer) -> ast.Assign:
    """``lam`` (converted already) as TF's ``tf__lam = lambda ...: ag__.with_function_scope(
    lambda lscope: body, 'lscope', options)``."""
    scope = namer.new("lscope")
    _pass_scope([lam.body], scope)
    inner = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=scope)],
                                          vararg=None, kwonlyargs=[], kw_defaults=[],
                                          kwarg=None, defaults=[]), body=lam.body)
    lam.body = base.ag_call("with_function_scope", inner, base.const(scope), _TOP_OPTIONS)
    erase_arg_defaults(lam)
    return ast.copy_location(ast.Assign(targets=[base.name("tf__lam", store=True)], value=lam,
                                        lineno=lam.lineno), lam)
