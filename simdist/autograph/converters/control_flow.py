"""``if`` / ``while`` / ``for`` into calls of ``ag__.if_stmt`` / ``while_stmt`` / ``for_stmt``
over nested functions that change the statement's state through ``nonlocal``.

Glossary:
  modified     -- the names a statement's blocks bind (a for loop's target included).
  state        -- modified names that are live into or out of the statement (or declared
                  nonlocal): ``get_state`` / ``set_state`` pass them; for ``if``, those live
                  after it come first and are its outputs (``nouts``).
  composite    -- a modified ``a.b`` / ``d['k']`` whose support names are live into the
                  statement: always state and an output (``self.x`` set in both branches of
                  a tensor ``if`` is the cond's output); read with ``ag__.ldu`` (Undefined
                  when unset), assigned by the setter, never declared nonlocal.
  undefined    -- modified names with no definition before the statement: set to
                  ``ag__.Undefined('name')`` first, so that TF's checks can name them.
  loop options -- ``tf.autograph.experimental.set_loop_options(...)`` in a loop body: its
                  keywords become the loop's ``opts`` (TF's directives converter).

Mirrors tensorflow/python/autograph/converters/control_flow.py.
"""

from __future__ import annotations

import ast
import copy

from simdist.autograph.converters import base
from simdist.autograph.pyct import analysis


class ControlFlowTransformer:
    """Converts the control flow of one function (its nested functions are done apart)."""

    def __init__(self, fn, namer):
        self.namer = namer
        self.composites = {}   # QN text -> a target node of it (any: all read the same)
        self.globals, self.nonlocals = analysis.declarations(fn)
        self._annotate(fn.body)
        analysis.live_in(fn.body, set())
        analysis.annotate_defined(fn.body, analysis.parameters(fn) | self.globals
                                  | self.nonlocals)

    def _annotate(self, stmts):
        for stmt in stmts:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            blocks = _modifying_blocks(stmt)
            if blocks is not None:
                stmt.ag_modified = analysis.bound(blocks)
                stmt.ag_composites = analysis.bound_composites(blocks)
                self.composites.update({s: t for s, (t, _) in stmt.ag_composites.items()})
            for owner, field in base.sub_blocks(stmt):
                self._annotate(getattr(owner, field))

    # --- blocks ----------------------------------------------------------------------
    def block(self, stmts):
        out = []
        for stmt in stmts:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.append(stmt)
                continue
            base.map_blocks(stmt, self.block)
            convert = {ast.If: self._if, ast.While: self._while, ast.For: self._for}.get(
                type(stmt))
            out.extend(convert(stmt) if convert else [stmt])
        return out

    # --- state -----------------------------------------------------------------------
    def _block_vars(self, node):
        modified = node.ag_modified
        live_in, live_out = node.ag_live_in, node.ag_live_out
        basic = {s for s in modified if s in live_in or s in live_out or s in self.nonlocals}
        # a composite of an object made inside the block (its parent not live in) is local
        composite = {s for s, (_, support) in node.ag_composites.items() if support <= live_in}
        undefined = sorted(modified - node.ag_defined_in - self.globals - self.nonlocals)
        input_only = {s for s in basic if s in live_in and s not in live_out}
        ordered = sorted(basic | composite, key=lambda v: (v in input_only, v))
        return ordered, undefined, len(ordered) - len(input_only)

    def _symbol(self, name, store=False):
        """The expression of a state symbol: a Name, or a copy of a composite's target."""
        if name not in self.composites:
            return base.name(name, store)
        node = copy.deepcopy(self.composites[name])
        node.ctx = ast.Store() if store else ast.Load()
        for sub in ast.walk(node):   # read as generated code, not through ag__.ld (TF's)
            sub.ag_original = False
        return node

    def _load(self, name):
        if name not in self.composites:
            return base.name(name)
        return base.ag_call("ldu", base.thunk(self._symbol(name)), base.const(name))

    def _declarations(self, names):
        names = [n for n in names if n not in self.composites]
        out = []
        globals_ = [n for n in names if n in self.globals]
        others = [n for n in names if n not in self.globals]
        if globals_:
            out.append(ast.Global(names=globals_))
        if others:
            out.append(ast.Nonlocal(names=others))
        return out

    def _state_functions(self, names):
        getter, setter = self.namer.new("get_state"), self.namer.new("set_state")
        if not names:
            empty = ast.Tuple([], ast.Load())
            return getter, setter, [base.function(getter, [], [ast.Return(empty)]),
                                    base.function(setter, ["block_vars"], [ast.Pass()])]
        state = ast.Tuple([self._load(n) for n in names], ast.Load())
        store = ast.Tuple([self._symbol(n, store=True) for n in names], ast.Store())
        return getter, setter, [
            base.function(getter, [], [ast.Return(state)]),
            base.function(setter, ["vars_"], self._declarations(names)
                          + [ast.Assign(targets=[store], value=base.name("vars_"))]),
        ]

    def _undefined_assigns(self, undefined):
        return [base.assign(s, base.ag_call("Undefined", base.const(s))) for s in undefined]

    @staticmethod
    def _names(names):
        return ast.Tuple([base.const(n) for n in names], ast.Load())

    # --- loop options (TF's directives converter) --------------------------------------
    @staticmethod
    def _loop_options(node):
        """``tf.autograph.experimental.set_loop_options(...)`` calls at the top level of the
        loop body become the loop's options (evaluated before the loop) and are removed."""
        keys, values, body = [], [], []
        for stmt in node.body:
            options = _set_loop_options_keywords(stmt)
            if options is None:
                body.append(stmt)
                continue
            for key, value in options:
                keys.append(base.const(key))
                values.append(value)
        node.body = body or [ast.Pass()]
        return keys, values

    # --- statements ------------------------------------------------------------------
    def _if(self, node):
        names, undefined, nouts = self._block_vars(node)
        getter, setter, state = self._state_functions(names)
        decl = self._declarations(names)
        body_name, else_name = self.namer.new("if_body"), self.namer.new("else_body")
        call = base.ag_call("if_stmt", node.test, base.name(body_name), base.name(else_name),
                            base.name(getter), base.name(setter), self._names(names),
                            base.const(nouts))
        return _located(node, state + [
            base.function(body_name, [], decl + node.body),
            base.function(else_name, [], decl + (node.orelse or [ast.Pass()])),
        ] + self._undefined_assigns(undefined) + [ast.Expr(call)])

    def _while(self, node):
        keys, values = self._loop_options(node)
        names, undefined, _ = self._block_vars(node)
        getter, setter, state = self._state_functions(names)
        body_name, test_name = self.namer.new("loop_body"), self.namer.new("loop_test")
        call = base.ag_call("while_stmt", base.name(test_name), base.name(body_name),
                            base.name(getter), base.name(setter), self._names(names),
                            ast.Dict(keys, values))
        return _located(node, state + [
            base.function(body_name, [], self._declarations(names) + node.body),
            base.function(test_name, [], [ast.Return(node.test)]),
        ] + self._undefined_assigns(undefined) + [ast.Expr(call)])

    def _for(self, node):
        keys, values = self._loop_options(node)
        names, undefined, _ = self._block_vars(node)
        getter, setter, state = self._state_functions(names)
        decl = self._declarations(names)
        body_name, itr = self.namer.new("loop_body"), self.namer.new("itr")
        extra = []
        extra_test = base.const(None)
        tests = getattr(node, "ag_extra_test", [])
        if tests:
            test_name = self.namer.new("extra_test")
            expr = tests[0] if len(tests) == 1 else ast.BoolOp(op=ast.And(), values=tests)
            extra = [base.function(test_name, [], decl + [ast.Return(expr)])]
            extra_test = base.name(test_name)
        target = ast.Assign(targets=[node.target], value=base.name(itr))
        opts = ast.Dict([base.const("iterate_names")] + keys,
                        [base.const(ast.unparse(node.target))] + values)
        call = base.ag_call("for_stmt", node.iter, extra_test, base.name(body_name),
                            base.name(getter), base.name(setter), self._names(names), opts)
        return _located(node, state + [
            base.function(body_name, [itr], decl + [target] + node.body),
        ] + extra + self._undefined_assigns(undefined) + [ast.Expr(call)])


def _modifying_blocks(stmt):
    """What a control-flow statement's state can be changed by (a for loop's target too)."""
    if isinstance(stmt, ast.If):
        return stmt.body + stmt.orelse
    if isinstance(stmt, ast.While):
        return stmt.body
    if isinstance(stmt, ast.For):
        return stmt.body + [stmt.target]
    return None


def _set_loop_options_keywords(stmt):
    """[(name, value expression)] of a ``set_loop_options(...)`` statement (also as
    call_trees wrapped it), else None."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    call = stmt.value
    func, keywords = call.func, [(k.arg, k.value) for k in call.keywords]
    if (isinstance(func, ast.Attribute) and func.attr == "converted_call"
            and isinstance(func.value, ast.Name) and func.value.id == "ag__"):
        func = call.args[0]
        kwargs = call.args[2]   # dict(name=value, ...) or None
        keywords = ([(k.arg, k.value) for k in kwargs.keywords]
                    if isinstance(kwargs, ast.Call) else [])
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return keywords if name == "set_loop_options" else None


def _located(node, stmts):
    """The statements made for ``node`` sit on its first line (not spanning its block): a
    traceback through ``ag__.if_stmt(...)`` then names the ``if`` line, as TF's does."""
    for stmt in stmts:
        ast.copy_location(stmt, node)
        if hasattr(node, "lineno"):   # not a statement a converter made (a break's if)
            stmt.end_lineno, stmt.end_col_offset = node.lineno, node.col_offset
    return stmts


def transform(fn, namer):
    """Convert ``fn``'s control flow in place."""
    fn.body = ControlFlowTransformer(fn, namer).block(fn.body)
