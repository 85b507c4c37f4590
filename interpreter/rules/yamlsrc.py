"""YAML with positions: plain Python data plus a map from each value's path to where it was written.

Only safe constructs are read (PyYAML's SafeLoader composer and SafeConstructor for scalars).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from interpreter.core.errors import Location, RulesetError
from interpreter.core.limits import MAX_ALIAS_NODES, MAX_YAML_DEPTH, MAX_YAML_INT_DIGITS, MAX_YAML_NODES
from interpreter.core.source import Span

from .paths import PathDict

KEY = "<key>"
Path = tuple


@dataclass
class YamlDoc:
    data: Any
    file: str
    lines: tuple[str, ...]
    marks: PathDict = field(default_factory=PathDict)  # path -> Span

    def span(self, path: Path) -> Span | None:
        """The span of the value at `path`, or of the nearest enclosing value."""
        p = tuple(path)
        while p:
            if p in self.marks:
                return self.marks[p]
            p = p[:-1]
        return self.marks.get((), None)

    def where(self, path: Path) -> Location | None:
        s = self.span(path)
        return s.here() if s else None

    def key_where(self, path: Path) -> Location | None:
        s = self.marks.get(tuple(path) + (KEY,))
        return s.here() if s else self.where(path)


#: the length in the file of a double-quoted escape, by the letter after its backslash (others: 2)
_ESCAPE_LENGTH = {"x": 4, "u": 6, "U": 10}


def _folded_offsets(node: yaml.ScalarNode, text: str) -> tuple[tuple[int, int], ...] | None:
    """The file position of each character of a scalar whose text YAML folded or unescaped: the
    characters of the value are found in order in the raw source (a space may stand for a line
    break; a character a double-quoted escape such as \\n made stands at its backslash). None if
    they cannot all be found."""
    start, end = node.start_mark.index, node.end_mark.index
    line, col = node.start_mark.line + 1, node.start_mark.column + 1
    positions = []
    for i in range(start, end):
        positions.append((text[i], line, col))
        if text[i] == "\n":
            line, col = line + 1, 1
        else:
            col += 1
    out: list[tuple[int, int]] = []
    j = 0
    escapes = node.style == '"'  # (in a double-quoted value every backslash begins an escape)
    for ch in str(node.value):
        while j < len(positions):
            raw = positions[j][0]
            if escapes and raw == "\\":
                nxt = positions[j + 1][0] if j + 1 < len(positions) else ""
                if nxt == "\n":  # an escaped line break makes no character
                    j += 2
                    continue
                out.append((positions[j][1], positions[j][2]))  # the character the escape made
                j += _ESCAPE_LENGTH.get(nxt, 2)
                break
            if raw == ch or (ch == " " and raw == "\n"):
                out.append((positions[j][1], positions[j][2]))
                j += 1
                break
            j += 1
        else:
            return None
    return tuple(out)


def _span(node: yaml.Node, file: str, lines: tuple[str, ...], text: str = "") -> Span:
    m = node.start_mark
    line, col = m.line + 1, m.column + 1
    if (
        isinstance(node, yaml.ScalarNode)
        and text
        and isinstance(node.value, str)
        and (
            node.style == ">"
            or (node.style != "|" and (node.end_mark.line > m.line or "\\" in text[m.index : node.end_mark.index]))
        )
    ):
        offsets = _folded_offsets(node, text)
        if offsets:
            return Span(file, offsets[0][0], offsets[0][1], None, lines, offsets, node.value)
    if isinstance(node, yaml.ScalarNode):
        if node.style in ("|", ">"):
            # content starts on the next line, at the block's indentation
            nxt = line + 1
            text = lines[nxt - 1] if nxt - 1 < len(lines) else ""
            indent = len(text) - len(text.lstrip(" "))
            return Span(file, nxt, indent + 1, indent, lines)
        if node.style in ("'", '"'):
            col += 1
    return Span(file, line, col, None, lines)


class _Budget(Exception):
    def __init__(self, message: str, mark: Any) -> None:
        super().__init__(message)
        self.message, self.mark = message, mark


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, counting nodes and nesting as the composer builds them."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.count = 0
        self.depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self.count += 1
        if self.count > MAX_YAML_NODES:
            raise _Budget(f"more than {MAX_YAML_NODES:,} YAML values (MAX_YAML_NODES)", self.peek_event().start_mark)
        self.depth += 1
        try:
            if self.depth > MAX_YAML_DEPTH:
                raise _Budget(f"nested more than {MAX_YAML_DEPTH} deep (MAX_YAML_DEPTH)", self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def _location(file: str, lines: tuple[str, ...], mark: Any) -> Location | None:
    if mark is None:
        return None
    return Location(file, mark.line + 1, mark.column + 1, lines[mark.line] if mark.line < len(lines) else "")


def _refused_character(e: yaml.reader.ReaderError, text: str, file: str, code: str) -> RulesetError:
    """A character YAML does not allow, pointed at its line and column (not at 1:1)."""
    at = min(max(0, int(e.position)), len(text))
    line, column = text.count("\n", 0, at), at - (text.rfind("\n", 0, at) + 1)
    lines = text.splitlines()
    return RulesetError(
        f"not valid YAML: the character U+{e.character:04X} is not allowed in YAML text "
        '(a control character: write it as an escape in a double-quoted text, e.g. "\\e")',
        Location(file, line + 1, column + 1, lines[line] if line < len(lines) else ""),
        code=code,
    )


def load_yaml(text: str, file: str, code: str = "E001") -> YamlDoc:
    lines = tuple(text.splitlines())
    loader = None
    try:
        loader = _Loader(text)
        root = loader.get_single_node()
    except _Budget as e:
        raise RulesetError(f"too large: {e.message}", _location(file, lines, e.mark), code=code) from None
    except yaml.MarkedYAMLError as e:
        where = _location(file, lines, e.problem_mark)
        hint = None
        if where is not None and re.search(r"\bwhere\s+[A-Za-z_]\w*:\s", where.text or ""):
            # `target: field of opponent where x: ...` on one line: YAML reads the second `: ` as a key
            hint = "a text with `where x:` must be quoted, or written on the next lines after `|`"
        raise RulesetError(f"not valid YAML: {e.problem}", where, code=code, hint=hint) from None
    except yaml.reader.ReaderError as e:  # a character YAML refuses (a NUL, a control): where it is
        raise _refused_character(e, text, file, code) from None
    except yaml.YAMLError as e:
        raise RulesetError(
            f"not valid YAML: {str(e).splitlines()[0] if str(e) else type(e).__name__}",
            Location(file, 1, 1, ""),
            code=code,
        ) from None
    except RecursionError:  # pragma: no cover - the depth budget comes first
        raise RulesetError(
            f"too large: nested more than {MAX_YAML_DEPTH} deep", Location(file, 1, 1, ""), code=code
        ) from None
    finally:
        if loader is not None:
            loader.dispose()
    doc = YamlDoc(None, file, lines)
    if root is None:  # an empty file (or only comments): problems with it point at its start
        doc.data = None
        doc.marks[()] = Span(file, 1, 1, None, lines)
        return doc
    constructor = SafeConstructor()
    assert loader is not None
    budget = [loader.count + MAX_ALIAS_NODES]  # every node once, plus what aliases may repeat
    active: set[int] = set()  # the nodes being built (an alias to one of them refers to itself)

    def scalar(node: yaml.Node) -> Any:
        if node.tag == "tag:yaml.org,2002:int" and len(str(node.value)) > MAX_YAML_INT_DIGITS + 4:
            raise RulesetError(
                f"a number of more than {MAX_YAML_INT_DIGITS} digits", _span(node, file, lines).here(), code=code
            )
        try:
            value = constructor.construct_object(node)
        except (yaml.YAMLError, ValueError, OverflowError) as e:
            problem = getattr(e, "problem", None) or str(e).splitlines()[0]
            raise RulesetError(f"bad value: {problem}", _span(node, file, lines).here(), code=code) from None
        if isinstance(value, int) and not -(10**MAX_YAML_INT_DIGITS) < value < 10**MAX_YAML_INT_DIGITS:
            raise RulesetError(
                f"a number of more than {MAX_YAML_INT_DIGITS} digits", _span(node, file, lines).here(), code=code
            )
        return value

    def build(node: yaml.Node, path: Path) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise RulesetError(
                f"too large: its aliases (*name) repeat more than {MAX_ALIAS_NODES:,} values (MAX_ALIAS_NODES)",
                _span(node, file, lines).here(),
                code=code,
            )
        if id(node) in active:
            raise RulesetError(
                "an alias (*name) refers to the value that contains it", _span(node, file, lines).here(), code=code
            )
        if len(path) > 2 * MAX_YAML_DEPTH:
            raise RulesetError(
                f"too large: nested more than {2 * MAX_YAML_DEPTH} deep once aliases are expanded",
                _span(node, file, lines).here(),
                code=code,
            )
        doc.marks[path] = _span(node, file, lines, text)
        if isinstance(node, yaml.MappingNode):
            active.add(id(node))
            out: dict = {}
            for knode, vnode in node.value:
                if not isinstance(knode, yaml.ScalarNode):
                    raise RulesetError("a key must be a plain value", _span(knode, file, lines).here(), code=code)
                key = scalar(knode)
                key = str(key) if not isinstance(key, str) else key
                if key in out:
                    raise RulesetError(f"duplicate key '{key}'", _span(knode, file, lines).here(), code=code)
                doc.marks[path + (key, KEY)] = _span(knode, file, lines)
                out[key] = build(vnode, path + (key,))
            active.discard(id(node))
            return out
        if isinstance(node, yaml.SequenceNode):
            active.add(id(node))
            items = [build(v, path + (i,)) for i, v in enumerate(node.value)]
            active.discard(id(node))
            return items
        return scalar(node)

    doc.data = build(root, ())
    return doc
