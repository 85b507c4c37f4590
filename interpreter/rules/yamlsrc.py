"""YAML with positions: plain Python data plus a map from each value's path to where it was written.

Only safe constructs are read (PyYAML's SafeLoader composer and SafeConstructor for scalars).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from interpreter.core.errors import Location, RulesetError
from interpreter.core.source import Span

KEY = "<key>"
Path = tuple


@dataclass
class YamlDoc:
    data: Any
    file: str
    lines: tuple[str, ...]
    marks: dict[Path, Span] = field(default_factory=dict)

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


def _folded_offsets(node: yaml.ScalarNode, text: str) -> tuple[tuple[int, int], ...] | None:
    """The file position of each character of a scalar whose text YAML folded or unescaped: the
    characters of the value are found in order in the raw source (a space may stand for a line
    break). None if they cannot all be found (an escape such as \\n)."""
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
    for ch in str(node.value):
        while j < len(positions):
            raw = positions[j][0]
            if raw == ch or (ch == " " and raw == "\n"):
                break
            j += 1
        if j >= len(positions):
            return None
        out.append((positions[j][1], positions[j][2]))
        j += 1
    return tuple(out)


def _span(node: yaml.Node, file: str, lines: tuple[str, ...], text: str = "") -> Span:
    m = node.start_mark
    line, col = m.line + 1, m.column + 1
    if isinstance(node, yaml.ScalarNode) and text and isinstance(node.value, str) and (
            node.style == ">" or (node.style != "|" and (node.end_mark.line > m.line or "\\" in
                                                         text[m.index:node.end_mark.index]))):
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


def load_yaml(text: str, file: str, code: str = "E001") -> YamlDoc:
    lines = tuple(text.splitlines())
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        m = e.problem_mark
        loc = None
        if m is not None:
            loc = Location(file, m.line + 1, m.column + 1, lines[m.line] if m.line < len(lines) else "")
        raise RulesetError(f"not valid YAML: {e.problem}", loc, code=code) from None
    except yaml.YAMLError as e:
        raise RulesetError(f"not valid YAML: {e}", Location(file, 1, 1, ""), code=code) from None
    doc = YamlDoc(None, file, lines)
    if root is None:  # an empty file (or only comments): problems with it point at its start
        doc.data = None
        doc.marks[()] = Span(file, 1, 1, None, lines)
        return doc
    constructor = SafeConstructor()

    def build(node: yaml.Node, path: Path) -> Any:
        doc.marks[path] = _span(node, file, lines, text)
        if isinstance(node, yaml.MappingNode):
            out: dict = {}
            for knode, vnode in node.value:
                if not isinstance(knode, yaml.ScalarNode):
                    raise RulesetError("a key must be a plain value", _span(knode, file, lines).here(), code=code)
                key = constructor.construct_object(knode)
                key = str(key) if not isinstance(key, str) else key
                if key in out:
                    raise RulesetError(f"duplicate key '{key}'", _span(knode, file, lines).here(), code=code)
                doc.marks[path + (key, KEY)] = _span(knode, file, lines)
                out[key] = build(vnode, path + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [build(v, path + (i,)) for i, v in enumerate(node.value)]
        try:
            return constructor.construct_object(node)
        except yaml.YAMLError as e:
            raise RulesetError(f"bad value: {e}", _span(node, file, lines).here(), code=code) from None

    doc.data = build(root, ())
    return doc
