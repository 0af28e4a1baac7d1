"""Every call ``f(a, *b, k=v, **w)`` into ``ag__.converted_call(f, (a, *b), {'k': v, **w})``,
so that the functions a converted function calls are converted too (when they are user
code) -- except the builtins that read their caller's frame (``locals``, ``globals``,
``vars``, ``eval``, ``exec``, ``super``) and AutoGraph's own ``ag__`` calls.

Mirrors tensorflow/python/autograph/converters/call_trees.py.
"""

from __future__ import annotations

import ast

from simdist.autograph.converters import base

_FRAME_BUILTINS = {"locals", "globals", "vars", "eval", "exec", "super", "dir"}


class CallTreeTransformer(ast.NodeTransformer):
    def visit_Call(self, node):  # noqa: N802 - ast's name
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id in _FRAME_BUILTINS:
            return node
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id == "ag__"):
            return node
        args = ast.Tuple(elts=list(node.args), ctx=ast.Load())
        keys = [None if k.arg is None else base.const(k.arg) for k in node.keywords]
        kwargs = (ast.Dict(keys=keys, values=[k.value for k in node.keywords])
                  if node.keywords else base.const(None))
        return ast.copy_location(base.ag_call("converted_call", func, args, kwargs), node)


def transform(node):
    """Wrap the calls of ``node`` (a function and all it contains) in place."""
    node.body = [CallTreeTransformer().visit(stmt) for stmt in node.body]
