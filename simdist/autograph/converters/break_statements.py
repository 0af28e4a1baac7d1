"""``break``: a flag set, then ``continue`` (the continue converter puts the rest of the body
under ``if not continue_:``), the loop stopping on the flag (``while not break_ and test`` /
an extra test of a for loop), and the loop's ``else`` run after it when the flag is unset.

Mirrors tensorflow/python/autograph/converters/break_statements.py.
"""

from __future__ import annotations

import ast

from simdist.autograph.converters import base


class BreakTransformer(ast.NodeTransformer):
    def __init__(self, namer):
        self.namer = namer

    def visit_FunctionDef(self, node):  # noqa: N802 - ast's name
        return node  # nested functions are converted on their own

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef  # noqa: N815

    def _loop(self, node):
        node.body = [self.visit(s) for s in node.body]
        node.body = [s for x in node.body for s in (x if isinstance(x, list) else [x])]
        orelse, node.orelse = node.orelse, []
        if not base.contains(node.body, ast.Break, into_loops=False):
            return [node] + orelse
        flag = self.namer.new("break_")
        # As TF: ``break`` sets the flag and continues (the continue converter guards the
        # rest); a no-op read of the flag heads the body, so it is a loop variable.
        node.body = [ast.Expr(ast.Tuple([base.name(flag)], ast.Load()))] + _replaced(
            node.body, flag)
        base.add_loop_test(node, flag)
        out = [base.assign(flag, base.const(False)), node]
        if orelse:
            out.append(ast.If(test=base.not_(flag), body=orelse, orelse=[]))
        return out

    visit_While = visit_For = _loop  # noqa: N815


def _replaced(stmts, flag):
    """``stmts`` with each ``break`` of this loop (not of nested loops or functions) as
    ``flag = True; continue``."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, ast.Break):
            out += [base.assign(flag, base.const(True)), ast.Continue()]
            continue
        if not isinstance(stmt, (ast.For, ast.While, ast.AsyncFor, ast.FunctionDef,
                                 ast.AsyncFunctionDef, ast.ClassDef)):
            base.map_blocks(stmt, lambda block: _replaced(block, flag))
        out.append(stmt)
    return out


def transform(fn, namer):
    fn.body = [s for stmt in fn.body for s in _as_list(BreakTransformer(namer).visit(stmt))]


def _as_list(x):
    return x if isinstance(x, list) else [x]
