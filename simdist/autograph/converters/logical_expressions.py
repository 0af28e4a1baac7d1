"""``a and b`` / ``a or b`` / ``not a`` into ``ag__.and_(lambda: a, lambda: b)``,
``ag__.or_(...)``, ``ag__.not_(a)``; ``x if c else y`` into ``ag__.if_exp(c, lambda: x,
lambda: y, 'c')``; loads the source made into ``ag__.ld(x)``.

Mirrors tensorflow/python/autograph/converters/logical_expressions.py,
conditional_expressions.py and variables.py.
"""

from __future__ import annotations

import ast

from simdist.autograph.converters import base


class LogicalTransformer(ast.NodeTransformer):
    def visit_BoolOp(self, node):  # noqa: N802 - ast's name
        self.generic_visit(node)
        fn = "and_" if isinstance(node.op, ast.And) else "or_"
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = base.ag_call(fn, base.thunk(value), base.thunk(result))
        return ast.copy_location(result, node)

    def visit_UnaryOp(self, node):  # noqa: N802
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(base.ag_call("not_", node.operand), node)
        return node

    def visit_IfExp(self, node):  # noqa: N802
        text = ast.unparse(node.test)   # TF's expr_repr: the condition's text
        self.generic_visit(node)
        return ast.copy_location(base.ag_call("if_exp", node.test, base.thunk(node.body),
                                              base.thunk(node.orelse), base.const(text)), node)


class VariableAccessTransformer(ast.NodeTransformer):
    """``ag__.ld(x)`` for each load the original code made (``mark_original`` marked them;
    what the converters generated is read as it is), and ``x = ag__.ld(x)`` before
    ``x += ...`` (whose value is left as it is), as TF's variables converter."""

    def visit_FunctionDef(self, node):  # noqa: N802
        decorators, node.decorator_list = node.decorator_list, []
        self.generic_visit(node)   # TF reads decorators as they are
        node.decorator_list = decorators
        return node

    def visit_Name(self, node):  # noqa: N802
        if isinstance(node.ctx, ast.Load) and getattr(node, "ag_original", False):
            return ast.copy_location(base.ag_call("ld", node), node)
        return node

    def visit_AugAssign(self, node):  # noqa: N802
        if not isinstance(node.target, ast.Name):
            return self.generic_visit(node)
        read = base.assign(node.target.id, base.ag_call("ld", base.name(node.target.id)))
        return [ast.copy_location(read, node), node]


def mark_original(tree) -> None:
    """Mark the names of the source before any converter runs."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            node.ag_original = True
