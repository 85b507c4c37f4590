"""Compiling the uses of a ruleset's `define:` entries: a small definition copied in place (its
parameters standing for the caller's values), a larger one made its own generated function per kinds
and sizes of its arguments, and the size a definition takes once expanded. Functions given the
`Compiler` at work as `c`."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from interpreter.core.limits import MAX_DEFINE_DEPTH, MAX_INLINE_NODES

from . import tree as A
from .analysis import _refs, nodes
from .cost import ONE, ZERO, Cost
from .pyast import NotInline, Scope, _call, _Code, _load

if TYPE_CHECKING:
    from .compiler import Compiler


# -- definitions --------------------------------------------------------------------------
def define_size(c: Compiler, name: str, chain: tuple[str, ...] = ()) -> int:
    """The nodes of a definition once the definitions it copies in place are expanded (a cycle, or
    a chain deeper than MAX_DEFINE_DEPTH, counts as too large to copy: the compiler reports it)."""
    known = c.ctx.define_sizes.get(name)
    if known is not None:
        return known
    if name in chain or len(chain) >= MAX_DEFINE_DEPTH:
        return MAX_INLINE_NODES + 1
    params, body, _ = c.ctx.defines[name]
    size = 0
    for n in nodes(body):
        d = _refs(n, c.ctx)
        if d is not None and d not in params:
            inner = define_size(c, d, chain + (name,))
            size += inner if inner <= MAX_INLINE_NODES else 1
        else:
            size += 1
        if size > MAX_INLINE_NODES:
            break
    c.ctx.define_sizes[name] = size
    return size


def _expand(c: Compiler, node: A.Node, name: str, args: tuple[A.Node, ...], scope, used, loop: bool = False) -> _Code:
    params, body, span = c.ctx.defines[name]
    if len(args) != len(params):
        raise c.error(node, f"'{name}' takes {len(params)} argument(s), got {len(args)}", "E206")
    if name in c._expanding:
        raise c.error(
            node,
            f"definition '{name}' refers to itself ({' -> '.join(c._expanding + [name])}); definitions cannot recurse",
            "E207",
        )
    if len(c._expanding) >= MAX_DEFINE_DEPTH:
        raise c.error(
            node,
            f"definitions refer to definitions more than {MAX_DEFINE_DEPTH} deep here "
            f"({' -> '.join(c._expanding[:3] + ['...', name])}) (MAX_DEFINE_DEPTH)",
            "E207",
        )
    argc = [c.gen(a, scope, used) for a in args]
    arg_cost = sum((a.cost for a in argc), ZERO)
    c._expanding.append(name)
    saved_span, c.span = c.span, span
    saved_lets, c._let_sizes = c._let_sizes, {}
    try:
        small = define_size(c, name) <= MAX_INLINE_NODES
        if small and not c.plain and not all(a.simple() for a in argc):
            # small, its arguments worked out first into locals (as a call would): in place too
            argc = [a if a.simple() else _in_local(c, a) for a in argc]
        if small and all(a.simple() for a in argc):
            # small, and its arguments are plain variables or numbers: the body is generated in
            # place (no call), its parameters standing for the caller's variables; it sees
            # nothing else of the caller
            inner: Scope = {"me": None, "opponent": None}
            inner.update(zip(params, argc, strict=True))
            code = c.gen(body, inner, used, loop)
            return _Code(code.node, code.typ, code.cost + arg_cost, code.size, code.value, code.loop).like(code)
        if c._fixed:  # a definition's function reads the bindings from `e`, which a fragment has not
            raise NotInline(f"calls the function of definition '{name}'")
        # otherwise one generated function per definition and kinds and sizes of its arguments:
        # a parameter known to be a single card reads its attributes directly
        kinds = tuple("card" if a.typ == "card" else "any" for a in argc)
        sizes = tuple(1 if k == "card" else a.size for a, k in zip(argc, kinds, strict=True))
        key = f"{name}/{kinds}/{sizes}"
        known = c.ctx.define_fns.get(key)
        if known is None:
            known = c.ctx.define_fns[key] = _define_function(c, params, body, kinds, sizes)
    finally:
        c.span = saved_span
        c._let_sizes = saved_lets
        c._expanding.pop()
    fname, typ, cost, size = known
    out = _Code(_call(fname, _load("g"), _load("e"), *(a.node for a in argc)), typ, cost + arg_cost + ONE, size)
    out.nobody = typ == "player"  # (what the function returns is not known here: checked where used)
    return out


def _in_local(c: Compiler, a: _Code) -> _Code:
    """`a` worked out once into a local, read from there."""
    return _Code(c._local(a.node), a.typ, a.cost, a.size, a.value).like(a)


def _define_function(
    c: Compiler, params: tuple[str, ...], body: A.Node, kinds: tuple[str, ...], sizes: tuple[int, ...]
) -> tuple[str, str, Cost, int]:
    inner_used: dict[str, str] = {}
    inner: Scope = {"me": None, "opponent": None}
    for i, (p, k, s) in enumerate(zip(params, kinds, sizes, strict=True)):
        inner[p] = _Code(_load(f"p{i}"), k, ONE, s)
    saved_fixed, c._fixed = c._fixed, {}  # a function of its own reads its bindings from `e`
    try:
        pre, code = c._apart(lambda: c.gen(body, inner, inner_used))
    finally:
        c._fixed = saved_fixed
    fname = f"D{sum(1 for k in c.ns if k.startswith('D'))}"
    args = ast.arguments(
        posonlyargs=[],
        args=[ast.arg(arg=a) for a in ["g", "e"] + [f"p{i}" for i in range(len(params))]],
        vararg=None,
        kwonlyargs=[],
        kw_defaults=[],
        kwarg=None,
        defaults=[],
    )
    fn = ast.FunctionDef(
        name=fname,
        args=args,
        body=c._prologue(inner_used) + pre + [ast.Return(value=code.node)],
        decorator_list=[],
        returns=None,
        type_comment=None,
    )
    c._compile(ast.Module(body=[fn], type_ignores=[]), fname, c.ns)
    return fname, code.typ, code.cost, code.size
