"""``return``: ``try: do_return = True; retval_ = value`` (``except: do_return = False;
raise``) instead, the rest under ``if not do_return:``, loops stopping on ``do_return``, one
``return fscope.ret(retval_, do_return)`` at the end (None when nothing was returned).

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


def names(fn, namer):
    """``fn``'s (do_return, retval_) names, made once (``do_return_1`` ... in a nested one)."""
    if not hasattr(fn, "ag_return_names"):
        fn.ag_return_names = namer.new("do_return"), namer.new("retval_")
    return fn.ag_return_names


def transform(fn, namer, scope):
    """Lower every return of ``fn`` as TF does: ``do_return`` / ``retval_`` set in a
    ``try`` (reset if the value raised), the rest guarded, one ``return scope.ret(retval_,
    do_return)`` at the end (``scope`` is the function's FunctionScope variable)."""
    fn.body = _rewrite_block(fn.body)[0]
    do_return, retval = names(fn, namer)

    def replace(stmt):
        value = stmt.value if stmt.value is not None else base.const(None)
        return [ast.Try(body=[base.assign(do_return, base.const(True)),
                              base.assign(retval, value)],
                        handlers=[ast.ExceptHandler(type=None, name=None, body=[
                            base.assign(do_return, base.const(False)), ast.Raise()])],
                        orelse=[], finalbody=[])]

    guard = base.Guard(ast.Return, do_return, replace, into_loops=True,
                       on_loop=lambda loop: base.add_loop_test(loop, do_return))
    ret = ast.Call(func=ast.Attribute(value=base.name(scope), attr="ret", ctx=ast.Load()),
                   args=[base.name(retval), base.name(do_return)], keywords=[])
    fn.body = ([base.assign(do_return, base.const(False)),
                base.assign(retval, base.ag_call("UndefinedReturnValue"))]
               + guard.block(fn.body) + [ast.Return(value=ret)])
