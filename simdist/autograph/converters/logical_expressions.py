"""``a and b`` / ``a or b`` / ``not a`` into ``ag__.and_(lambda: a, lambda: b)``,
``ag__.or_(...)``, ``ag__.not_(a)``; ``x if c else y`` into ``ag__.if_exp(c, lambda: x,
lambda: y, 'repr')``; loads of possibly undefined symbols into ``ag__.ld(x)``.

Mirrors tensorflow/python/autograph/converters/logical_expressions.py,
conditional_expressions.py and variables.py.
"""

from __future__ import annotations

import ast

from simdist.autograph.converters import base


def _thunk(expr):
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                         kw_defaults=[], kwarg=None, defaults=[]), body=expr)


class LogicalTransformer(ast.NodeTransformer):
    def visit_BoolOp(self, node):  # noqa: N802 - ast's name
        self.generic_visit(node)
        fn = "and_" if isinstance(node.op, ast.And) else "or_"
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = base.ag_call(fn, _thunk(value), _thunk(result))
        return ast.copy_location(result, node)

    def visit_UnaryOp(self, node):  # noqa: N802
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(base.ag_call("not_", node.operand), node)
        return node

    def visit_IfExp(self, node):  # noqa: N802
        text = ast.unparse(node)
        self.generic_visit(node)
        return ast.copy_location(base.ag_call("if_exp", node.test, _thunk(node.body),
                                              _thunk(node.orelse), base.const(text)), node)


class VariableAccessTransformer(ast.NodeTransformer):
    """``ag__.ld(x)`` for each load of a symbol that may hold ``Undefined``."""

    def __init__(self, symbols, getters):
        self.symbols, self.getters = symbols, getters

    def visit_FunctionDef(self, node):  # noqa: N802
        if node.name in self.getters:
            return node  # TF's state getters pass Undefined on
        self.generic_visit(node)
        return node

    def visit_Name(self, node):  # noqa: N802
        if isinstance(node.ctx, ast.Load) and node.id in self.symbols:
            return ast.copy_location(base.ag_call("ld", node), node)
        return node
