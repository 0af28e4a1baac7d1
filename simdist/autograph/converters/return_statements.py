"""``return`` before the end: ``do_return = True; retval_ = value`` instead, the rest under
``if not do_return:``, loops stopping on ``do_return``, one ``return ag__.retval(retval_)``
at the end (None when nothing was returned).

Mirrors tensorflow/python/autograph/converters/return_statements.py.
"""

from __future__ import annotations

import ast

from simdist.autograph.converters import base


def _rewrite_block(stmts):
    """TF's ConditionalReturnRewriter: after an ``if`` one branch of which always returns,
    the following statements move into its other branch (no path then falls through
    without a value). Returns (statements, whether the block always returns)."""
    out = []
    for i, node in enumerate(stmts):
        out.append(node)
        if isinstance(node, ast.Return):
            return out, True
        if isinstance(node, ast.If):
            node.body, body_returns = _rewrite_block(node.body)
            node.orelse, orelse_returns = _rewrite_block(node.orelse)
            if body_returns and orelse_returns:
                return out, True
            rest = stmts[i + 1:]
            if body_returns and rest:
                node.orelse, orelse_returns = _rewrite_block(node.orelse + rest)
                return out, orelse_returns
            if orelse_returns and rest:
                node.body, body_returns = _rewrite_block(node.body + rest)
                return out, body_returns
        elif isinstance(node, (ast.While, ast.For, ast.Try)):
            base.map_blocks(node, lambda block: _rewrite_block(block)[0])
        elif isinstance(node, ast.With):
            node.body, returns = _rewrite_block(node.body)
            if returns:
                return out, True
    return out, False


def _needs_lowering(fn) -> bool:
    body = fn.body
    last_is_return = bool(body) and isinstance(body[-1], ast.Return)
    return base.contains(body[:-1] if last_is_return else body, ast.Return, into_loops=True)


def transform(fn, namer):
    fn.body = _rewrite_block(fn.body)[0]
    if not _needs_lowering(fn):
        return
    do_return, retval = namer.new("do_return"), namer.new("retval_")

    def replace(stmt):
        value = stmt.value if stmt.value is not None else base.const(None)
        return [base.assign(do_return, base.const(True)), base.assign(retval, value)]

    guard = base.Guard(ast.Return, do_return, replace, into_loops=True,
                       on_loop=lambda loop: base.add_loop_test(loop, do_return))
    fn.body = ([base.assign(do_return, base.const(False)),
                base.assign(retval, base.ag_call("UndefinedReturnValue"))]
               + guard.block(fn.body)
               + [ast.Return(value=base.ag_call("retval", base.name(retval)))])
