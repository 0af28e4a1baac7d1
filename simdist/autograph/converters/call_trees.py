"""Every call ``f(a, *b, k=v, **w)`` into ``ag__.converted_call(f, (a,) + tuple(b),
dict(k=v, **w))``,
so that the functions a converted function calls are converted too (when they are user
code) -- except the builtins that read their caller's frame (``locals``, ``globals``,
``vars``, ``eval``, ``exec``, ``super``), ``print`` and the debuggers' ``set_trace`` /
``breakpoint`` (as TF), and AutoGraph's own ``ag__`` calls.

Mirrors tensorflow/python/autograph/converters/call_trees.py.
"""

from __future__ import annotations

import ast

from simdist.autograph.converters import base

_FRAME_BUILTINS = {"locals", "globals", "vars", "eval", "exec", "super", "dir"}
# TF calls these as they are: Python's print (AutoGraph's builtin-functions feature is off)
# and the debuggers' entry points, which read their caller's frame
_AS_THEY_ARE = {"print", "pdb.set_trace", "ipdb.set_trace", "breakpoint"}


class CallTreeTransformer(ast.NodeTransformer):
    def visit_Call(self, node):  # noqa: N802 - ast's name
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id in _FRAME_BUILTINS:
            return node
        if ast.unparse(func) in _AS_THEY_ARE:
            return node
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id == "ag__"):
            return node
        kwargs = (ast.Call(func=base.name("dict"), args=[], keywords=node.keywords)
                  if node.keywords else base.const(None))
        return ast.copy_location(
            base.ag_call("converted_call", func, _args_tuple(node.args), kwargs), node)


def _args_tuple(args):
    """The positional arguments as one tuple expression, as TF writes them:
    ``f(*a, b, *c, d)`` -> ``tuple(a) + (b,) + tuple(c) + (d,)``, ``f()`` -> ``()``."""
    parts, plain = [], []
    for a in args:
        if isinstance(a, ast.Starred):
            if plain:
                parts.append(ast.Tuple(elts=plain, ctx=ast.Load()))
                plain = []
            parts.append(ast.Call(func=base.name("tuple"), args=[a.value], keywords=[]))
        else:
            plain.append(a)
    if plain or not parts:
        parts.append(ast.Tuple(elts=plain, ctx=ast.Load()))
    result = parts[0]
    for part in parts[1:]:
        result = ast.BinOp(left=result, op=ast.Add(), right=part)
    return result


def transform(node):
    """Wrap the calls of ``node`` (a function and all it contains) in place."""
    node.body = [CallTreeTransformer().visit(stmt) for stmt in node.body]
