"""Static analysis of a function's AST for AutoGraph: which symbols a block binds, which it
reads, which are live, which may be defined.

Glossary:
  bound      -- names a block assigns (targets, augmented assignments, for targets, ``with
                ... as``, imports, nested ``def`` / ``class`` names); nested scopes'
                own names excluded.
  QN         -- a qualified name: ``a``, or a composite symbol ``a.b``, ``d['k']``, ``x[0]``,
                ``x[i]`` (TF's text); ``f().b`` and ``x[i + 1]`` have none.
  support    -- the simple names a composite symbol needs (``x[i]``: x and i).
  reads      -- names an expression or statement loads, with the free names of nested
                functions, lambdas and comprehensions (not their parameters or targets).
  live       -- a name whose current value may be read later (backward, over structured
                code: break / continue / return are already lowered to flags).
  defined    -- a name with a definition that may reach this point (forward).
Annotates every If / While / For with ``ag_live_in``, ``ag_live_out`` and ``ag_defined_in``.

Mirrors tensorflow/python/autograph/pyct/static_analysis (activity, liveness,
reaching_definitions), on structured code only.
"""

from __future__ import annotations

import ast

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
           ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _target_names(target) -> set:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store)}


def bound(nodes) -> set:
    """Names bound by these statements (not inside nested scopes)."""
    out = set()
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
            stack.extend(node.decorator_list)
            continue
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                             ast.GeneratorExp)):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
        stack.extend(ast.iter_child_nodes(node))
    return out


def qualified_name(node):
    """(QN text, support names) of ``node``, or None where TF's qual_names gives no QN."""
    if isinstance(node, ast.Name):
        return node.id, {node.id}
    if isinstance(node, ast.Attribute):
        base = qualified_name(node.value)
        return None if base is None else (f"{base[0]}.{node.attr}", base[1])
    if not isinstance(node, ast.Subscript) or isinstance(node.slice, (ast.Tuple, ast.Slice)):
        return None
    base, key = qualified_name(node.value), node.slice
    if isinstance(key, ast.Constant) and key.value is not Ellipsis:
        # TF's Literal: a string in single quotes whatever the source wrote
        sub = (f"'{key.value}'" if isinstance(key.value, str) else str(key.value), set())
    else:
        sub = qualified_name(key)
    if base is None or sub is None:
        return None
    return f"{base[0]}[{sub[0]}]", base[1] | sub[1]


def bound_composites(nodes) -> dict:
    """Composite symbols these statements assign: QN text -> (a target node, its support
    names); nested scopes excluded, as for ``bound``."""
    out = {}
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES):
            continue
        if (isinstance(node, (ast.Attribute, ast.Subscript))
                and isinstance(node.ctx, ast.Store)):
            qn = qualified_name(node)
            if qn is not None:
                out[qn[0]] = (node, qn[1])
        stack.extend(ast.iter_child_nodes(node))
    return out


def reads(node) -> set:
    """Names loaded anywhere in ``node``; a nested function, lambda or comprehension counts
    with its free names only (not its own parameters or targets: ``lambda x: x`` reads
    nothing of the enclosing scope)."""
    if node is None:
        return set()
    out = set()
    for n in node if isinstance(node, list) else [node]:
        _reads_into(n, out)
    return out


def _reads_into(node, out: set) -> None:
    if isinstance(node, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
        args = node.args
        for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
            _reads_into(default, out)
        for deco in getattr(node, "decorator_list", ()):
            _reads_into(deco, out)
        params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        params |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        body = node.body if isinstance(node.body, list) else [node.body]
        inner = reads(body) - params - bound(body if isinstance(node.body, list) else [])
        out |= inner
        return
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        targets = set()
        inner = set()
        for i, gen in enumerate(node.generators):
            # the first iterable is read in the enclosing scope; the rest see the targets
            (out if i == 0 else inner).update(reads(gen.iter))
            targets |= _target_names(gen.target)
            for cond in gen.ifs:
                inner |= reads(cond)
        parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for part in parts:
            inner |= reads(part)
        out |= inner - targets
        return
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        out.add(node.id)
    elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        out.add(node.target.id)
    for child in ast.iter_child_nodes(node):
        _reads_into(child, out)


def _simple_reads(stmt) -> set:
    """What a statement reads before its own writes take effect."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return reads(stmt)  # free names of the nested function, its decorators, defaults
    return reads(stmt)


def live_in(stmts, out: set) -> set:
    """Names live before ``stmts`` given ``out`` live after; annotates control flow."""
    live = set(out)
    for stmt in reversed(stmts):
        live = _live_stmt(stmt, live)
    return live


def _live_stmt(stmt, out: set) -> set:
    if isinstance(stmt, ast.If):
        result = reads(stmt.test) | live_in(stmt.body, out) | live_in(stmt.orelse, out)
    elif isinstance(stmt, ast.While):
        loop = set(out)
        while True:
            new = out | reads(stmt.test) | live_in(stmt.body, loop)
            if new <= loop:
                break
            loop |= new
        result = loop | live_in(stmt.orelse, out)
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        target = _target_names(stmt.target)
        extra = reads(getattr(stmt, "ag_extra_test", []))  # break / return flags
        loop = set(out) | extra
        while True:
            new = out | extra | (live_in(stmt.body, loop) - target)
            if new <= loop:
                break
            loop |= new
        result = reads(stmt.iter) | loop | live_in(stmt.orelse, out)
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        items = set()
        for item in stmt.items:
            items |= reads(item.context_expr)
        inner = live_in(stmt.body, out)
        for item in stmt.items:
            if item.optional_vars is not None:
                inner -= _target_names(item.optional_vars)
        result = items | inner
    elif isinstance(stmt, ast.Try):
        result = (live_in(stmt.body, out | live_in(stmt.orelse, out))
                  | live_in(stmt.finalbody, out))
        for handler in stmt.handlers:
            result |= live_in(handler.body, out) | reads(handler.type)
        result |= out  # an exception may skip any of it
    elif isinstance(stmt, (ast.Return, ast.Raise)):
        result = reads(stmt)
    else:
        result = (out - bound([stmt])) | _simple_reads(stmt)
    if isinstance(stmt, (ast.If, ast.While, ast.For)):
        stmt.ag_live_out = set(out)
        stmt.ag_live_in = set(result)
    return result


def annotate_defined(stmts, defined: set) -> set:
    """May-defined names after ``stmts``; annotates control flow with ``ag_defined_in``."""
    for stmt in stmts:
        if isinstance(stmt, ast.If):
            stmt.ag_defined_in = set(defined)
            defined = (annotate_defined(stmt.body, defined)
                       | annotate_defined(stmt.orelse, defined))
        elif isinstance(stmt, (ast.While, ast.For)):
            stmt.ag_defined_in = set(defined)
            target = _target_names(stmt.target) if isinstance(stmt, ast.For) else set()
            inside = defined | bound(stmt.body) | target
            annotate_defined(stmt.body, inside)
            defined = annotate_defined(stmt.orelse, inside)
        elif isinstance(stmt, (ast.With, ast.AsyncWith, ast.Try)):
            for block in ("body", "orelse", "finalbody"):
                defined = annotate_defined(getattr(stmt, block, []), defined)
            for handler in getattr(stmt, "handlers", []):
                defined = annotate_defined(handler.body, defined | bound([handler]))
        else:
            defined = defined | bound([stmt])
    return defined


def parameters(fn) -> set:
    args = fn.args
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return set(names)


def declarations(fn):
    """(globals, nonlocals) declared directly in the function (not in nested ones)."""
    globals_, nonlocals = set(), set()
    stack = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES):
            continue
        if isinstance(node, ast.Global):
            globals_.update(node.names)
        elif isinstance(node, ast.Nonlocal):
            nonlocals.update(node.names)
        stack.extend(ast.iter_child_nodes(node))
    return globals_, nonlocals
