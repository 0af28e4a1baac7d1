"""What the converters share: fresh names, small AST builders, and the guard that lowers
``break`` / ``continue`` / ``return`` into a flag and ``if not flag:`` around the rest.

Mirrors tensorflow/python/autograph/core/converter.py and pyct/naming.py, templates.py.
"""

from __future__ import annotations

import ast


class Namer:
    """Fresh symbols that no name of the function uses (``if_body``, ``if_body_1`` ...)."""

    def __init__(self, tree):
        self._used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        self._used |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
        self._used |= {n.name for n in ast.walk(tree)
                       if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}

    def new(self, base: str) -> str:
        name, i = base, 0
        while name in self._used:
            i += 1
            name = f"{base}_{i}"
        self._used.add(name)
        return name


def name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def assign(id_: str, value) -> ast.Assign:
    return ast.Assign(targets=[name(id_, store=True)], value=value, lineno=0)


def const(value) -> ast.Constant:
    return ast.Constant(value=value)


def ag_call(fn: str, *args) -> ast.Call:
    return ast.Call(func=ast.Attribute(value=name("ag__"), attr=fn, ctx=ast.Load()),
                    args=list(args), keywords=[])


def not_(id_: str) -> ast.UnaryOp:
    return ast.UnaryOp(op=ast.Not(), operand=name(id_))


def thunk(expr) -> ast.Lambda:
    """``lambda: expr``."""
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                         kw_defaults=[], kwarg=None, defaults=[]), body=expr)


def function(fn_name: str, params, body) -> ast.FunctionDef:
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None,
                         kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return ast.FunctionDef(name=fn_name, args=args, body=body or [ast.Pass()],
                           decorator_list=[], returns=None, type_params=[])


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_LOOPS = (ast.For, ast.While, ast.AsyncFor)


def sub_blocks(stmt):
    """The statement lists of ``stmt`` as (owner, field) pairs: body, orelse, finalbody and
    each except handler's body."""
    pairs = [(stmt, f) for f in ("body", "orelse", "finalbody") if getattr(stmt, f, None)]
    return pairs + [(h, "body") for h in getattr(stmt, "handlers", [])]


def map_blocks(stmt, fn) -> None:
    """Replace each statement list of ``stmt`` by ``fn(list)``."""
    for owner, field in sub_blocks(stmt):
        setattr(owner, field, fn(getattr(owner, field)))


def contains(node, kinds, into_loops: bool) -> bool:
    """Whether ``node`` (a statement or a list of them) holds a statement of ``kinds`` at
    its own level: not in nested functions, in nested loops only if ``into_loops``."""
    stack = list(node) if isinstance(node, list) else [node]
    while stack:
        n = stack.pop()
        if isinstance(n, kinds):
            return True
        if isinstance(n, _SCOPES) or (isinstance(n, _LOOPS) and not into_loops):
            continue
        stack.extend(c for c in ast.iter_child_nodes(n)
                     if isinstance(c, (ast.stmt, ast.excepthandler)))
    return False


class Guard:
    """Lower the jumps of ``kinds`` in a block: ``replace(stmt)`` gives what stands for
    one, and every statement after one that may jump runs under ``if not flag:``."""

    def __init__(self, kinds, flag, replace, into_loops=False, on_loop=None):
        self.kinds, self.flag, self.replace = kinds, flag, replace
        self.into_loops, self.on_loop = into_loops, on_loop

    def block(self, stmts):
        out = []
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, self.kinds):
                out.extend(self.replace(stmt))
                return out  # what follows an unconditional jump never runs
            may_jump = contains(stmt, self.kinds, self.into_loops)
            if may_jump:
                self._inside(stmt)
            out.append(stmt)
            if may_jump and i + 1 < len(stmts):
                rest = self.block(stmts[i + 1:])
                out.append(ast.If(test=not_(self.flag), body=rest, orelse=[]))
                return out
        return out

    def _inside(self, stmt):
        if isinstance(stmt, _LOOPS):
            stmt.body = self.block(stmt.body)
            if self.on_loop is not None:
                self.on_loop(stmt)
            return
        map_blocks(stmt, self.block)


def add_loop_test(loop, test_name: str) -> None:
    """Make ``loop`` also stop when ``test_name`` is set: ``while not flag and test`` or,
    for a ``for`` loop, an extra test AutoGraph's for_stmt checks."""
    if isinstance(loop, ast.While):
        loop.test = ast.BoolOp(op=ast.And(), values=[not_(test_name), loop.test])
    else:
        loop.ag_extra_test = getattr(loop, "ag_extra_test", []) + [not_(test_name)]
