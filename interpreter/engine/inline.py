"""A play's compiled `legal` and `target` written into the enumerator the engine generates (legal.py),
instead of called with a bindings dict for each card.

The engine's source names a placeholder (`X3`) where an expression goes:

    if X3:                 # a `legal`: the expression's statements, then `if <its value>:`
    l3 = X3                # a `legal` or `target` worked out once per call: statements, then the value
    for t in X3:           # a `target`: its cards, in place (a `where` runs as the loop itself)
    X3                     # statements (a direct play's effect, engine/direct.py: `Compiler.statements`)

`generated.define` checks the engine's source first (placeholders included); then each placeholder is
replaced by what the compiler made of the expression (`Compiler.fragment`: `ast` nodes built by the
compiler, never text), itself checked against the compiler's allow-list (`check_tree`) before it is
put in, its bindings read from the enumerator's locals (or another generated function's: `bindings`).
An expression that cannot be written in place (it calls a definition's own function, or reads a binding
the function does not have) stays a call.
"""

from __future__ import annotations

import ast
from collections import Counter
from typing import Any

from interpreter.core.errors import RulesetError
from interpreter.core.origins import Origin, origin
from interpreter.language.compiler import Compiler, NotInline, check_tree

from .generated import copied

# the line numbers given to the rules written in place (placeholder X3: LINE_BASE + 3), beyond any
# engine source, so a traceback's line inside an engine function says which rule it was in
LINE_BASE = 100_000

# the bindings the enumerator has, and its local for each
ENUMERATOR = {"me": "me", "opponent": "opp", "card": "c", "cards": "cs"}


class Inliner:
    """Placeholders of one ruleset's enumerator and the compiled expressions they stand for."""

    def __init__(self, rules: Any, bindings: dict[str, str] | None = None) -> None:
        """`bindings`: the bindings the generated function has, each with its local (the enumerator's by
        default); the expressions are checked with them as parameters `p0`, `p1`... then renamed."""
        self.rules = rules
        self.ctx = rules.ctx
        local = ENUMERATOR if bindings is None else bindings
        self.given = {b: f"p{i}" for i, b in enumerate(local)}  # binding -> checked parameter
        self.locals = {f"p{i}": v for i, v in enumerate(local.values())}  # parameter -> the function's local
        self.comp = Compiler(rules.ctx, None) if rules.ctx.namespace is not None else None
        # placeholder -> statements, value, code
        self.parts: dict[str, tuple[list[ast.stmt], ast.expr | None, Any]] = {}
        self.rule_of: dict[str, Origin] = {}  # placeholder -> the rule it writes in place
        self.line_origins: dict[int, Origin] = {}  # a stamped line of the spliced function -> its rule
        self._spliced: Counter[str] = Counter()  # the placeholders replaced by the splice under way

    def place(self, fn: Any, loop: bool = False, swapped: bool = False) -> str | None:
        """A placeholder for compiled expression `fn`, or None when it must stay a call; `loop`: it is
        a target written as `for t in X:` (its cards listed in place); `swapped`: `me` and `opponent`
        stand for each other's locals (an expression about one player worked out for the other)."""
        comp = self.comp
        found = self.ctx.trees.get(fn) if (fn is not None and comp is not None) else None
        if found is None or comp is None:
            return None
        node, bound = found
        try:
            given = self.given
            if swapped:
                given = {**given, "me": given["opponent"], "opponent": given["me"]}
            pre, code = comp.fragment(node, bound, given, loop)
        except (NotInline, RulesetError):
            return None
        name = f"X{len(self.parts)}"
        self.parts[name] = (pre, code.node, code)
        self._note_rule(name, fn)
        return name

    def place_statements(self, fn: Any) -> str | None:
        """A placeholder for a compiled function of plain statements (`ctx.programs`: a direct play's
        effect), written as the statement `X`; None when it must stay a call."""
        comp = self.comp
        found = self.ctx.programs.get(fn) if (fn is not None and comp is not None) else None
        if found is None or comp is None:
            return None
        body, bound = found
        made = origin(fn.__code__) if hasattr(fn, "__code__") else None
        comp.label = made[0] if made is not None else None  # a `win` or `show` written in place names its rule
        try:
            lines = comp.statements(body, bound, self.given)
        except (NotInline, RulesetError):
            return None
        finally:
            comp.label = None
        name = f"X{len(self.parts)}"
        self.parts[name] = (lines, None, None)
        self._note_rule(name, fn)
        return name

    def _note_rule(self, name: str, fn: Any) -> None:
        found = origin(fn.__code__) if hasattr(fn, "__code__") else None
        if found is not None:
            self.rule_of[name] = found

    def _stamped(self, name: str, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """The statements written in place for placeholder `name`, each node given that placeholder's
        own line number (beyond the engine's source), so that a failure in them names their rule."""
        self._spliced[name] += 1
        found = self.rule_of.get(name)
        if found is not None:
            line = LINE_BASE + int(name[1:])
            self.line_origins[line] = found
            for stmt in stmts:
                for node in ast.walk(stmt):
                    if "lineno" in node._attributes:
                        node.lineno = node.end_lineno = line  # type: ignore[attr-defined]
        return stmts

    def namespace(self) -> dict[str, Any]:
        """The names the expressions read (the compiler's constants, helpers and tables)."""
        return {k: v for k, v in self.ctx.namespace.items() if k != "__builtins__"} if self.parts else {}

    def _checked(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """`stmts` (compiler-made), checked as the body of a compiled function, then with the
        bindings renamed to the generated function's locals."""
        args = ast.arguments(
            posonlyargs=[],
            args=[ast.arg(arg=a) for a in ("g", "e", *self.given.values())],
            vararg=None,
            kwonlyargs=[],
            kw_defaults=[],
            kwarg=None,
            defaults=[],
        )
        mod = ast.Module(
            body=[
                ast.FunctionDef(
                    name="f", args=args, body=stmts or [ast.Pass()], decorator_list=[], returns=None, type_comment=None
                )
            ],
            type_ignores=[],
        )
        check_tree(mod, self.ctx.namespace)
        return copied(stmts, self.locals)

    def _replace(self, stmt: ast.stmt) -> list[ast.stmt] | None:
        """The statements standing for an engine statement that names a placeholder (None: it names none)."""
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Name) and stmt.value.id in self.parts:
            lines, value, _ = self.parts[stmt.value.id]
            if value is not None:
                raise RulesetError("internal error: an expression written as a statement")
            return self._stamped(stmt.value.id, self._checked(lines)) or [ast.Pass()]
        if isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Name) and stmt.test.id in self.parts:
            pre, value, _ = self.parts[stmt.test.id]
            if value is None:
                raise RulesetError("internal error: statements written as a condition")
            out = self._stamped(stmt.test.id, self._checked(pre + [ast.If(test=value, body=[ast.Pass()], orelse=[])]))
            last = out[-1]
            assert isinstance(last, ast.If)  # the renamed copy of the `if` above
            last.body = stmt.body
            return out
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Name) and stmt.value.id in self.parts:
            pre, value, _ = self.parts[stmt.value.id]
            out = self._stamped(stmt.value.id, self._checked(pre + [ast.Return(value=value)]))
            return out[:-1] + [ast.Assign(targets=stmt.targets, value=out[-1].value)]  # type: ignore[attr-defined]
        if isinstance(stmt, ast.For) and isinstance(stmt.iter, ast.Name) and stmt.iter.id in self.parts:
            pre, _, code = self.parts[stmt.iter.id]
            mark = ast.Pass()
            mark.hold = True  # type: ignore[attr-defined]  # found again after the copy in _checked
            hold: list[ast.stmt] = [mark]
            var: list[str] = []

            def body(card: ast.expr) -> list[ast.stmt]:
                var.append(card.id)  # type: ignore[attr-defined]
                return hold

            loop = self.comp.loop_of(code, body)  # type: ignore[union-attr]
            out = self._stamped(stmt.iter.id, self._checked(pre + loop))
            inner = copied(stmt.body, {stmt.target.id: self.locals.get(var[0], var[0])})  # type: ignore[attr-defined]
            if not _fill(out, inner):
                raise RulesetError("internal error: a target's loop was not written into the enumerator")
            return out
        return None

    def splice(self, tree: ast.Module) -> None:
        """Replace every placeholder statement of `tree` (checked engine source) by its expression."""
        named = Counter(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in self.parts)
        self._spliced.clear()
        self._splice(tree.body)  # (the source is walked before: after, it holds every expression written in)
        left = sorted((named - self._spliced).elements())
        if left:
            raise RulesetError(f"internal error: placeholders left in the enumerator: {sorted(left)}")

    def _splice(self, stmts: list[ast.stmt]) -> None:
        new: list[ast.stmt] = []
        for s in stmts:
            for field in ("body", "orelse"):
                inner = getattr(s, field, None)
                if isinstance(inner, list):
                    self._splice(inner)
            r = self._replace(s)
            new += [s] if r is None else r
        stmts[:] = new


def _fill(stmts: list[ast.stmt], inner: list[ast.stmt]) -> bool:
    """Put `inner` where the checked loop holds its one `pass` (the body handed to `loop_of`)."""
    for node in ast.walk(ast.Module(body=stmts, type_ignores=[])):
        for field in ("body", "orelse"):
            b = getattr(node, field, None)
            if isinstance(b, list) and len(b) == 1 and isinstance(b[0], ast.Pass) and getattr(b[0], "hold", False):
                setattr(node, field, inner)
                return True
    return False


__all__ = ["Inliner"]
