"""``continue``: a flag reset at the top of each iteration, set instead of jumping, and the
rest of the body under ``if not continue_:``.

Mirrors tensorflow/python/autograph/converters/continue_statements.py.
"""

from __future__ import annotations

import ast

from simdist.autograph.converters import base


def _lower(loop, namer):
    if not base.contains(loop.body, ast.Continue, into_loops=False):
        return
    flag = namer.new("continue_")
    loop.body = [base.assign(flag, base.const(False))] + base.Guard(
        ast.Continue, flag, lambda _: [base.assign(flag, base.const(True))]).block(loop.body)


def transform(fn, namer):
    """Lower every loop of ``fn`` (not of its nested functions), inner loops first."""
    loops = []

    def collect(stmts):
        for stmt in stmts:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            for owner, field in base.sub_blocks(stmt):
                collect(getattr(owner, field))
            if isinstance(stmt, (ast.While, ast.For)):
                loops.append(stmt)

    collect(fn.body)
    for loop in loops:  # post-order: inner loops first
        _lower(loop, namer)
