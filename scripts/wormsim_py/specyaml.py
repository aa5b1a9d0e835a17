"""YAML for sweep specs, read the way wormsim's config reader (yaml-cpp) reads it.

Spec values reach `wormsim --set KEY=VALUE` as JSON, so the spec must read a scalar as
wormsim would. PyYAML's own schema is YAML 1.1: `no`/`yes`/`on`/`off` become booleans,
`010` octal 8, `2024-01-01` a date, and a repeated key silently keeps the last value,
while wormsim takes only `true`/`false` as booleans, `010` as 10 and refuses a repeated
key. Here (YAML 1.2 core, less what wormsim refuses: `.inf`, `0x10`):

- `true`/`false` are booleans; `null`, `Null`, `NULL`, `~` and nothing are null;
- decimal integers without leading zeros are integers, `1.5`, `.5`, `1e3` numbers;
- everything else stays the text written (`no`, `010`, `0x10`, `1_000`, `2024-01-01`,
  `.inf`), which wormsim reads as it reads that text in a config file;
- a key given twice in a mapping, a tag other than the standard scalar, list and
  mapping ones, nesting deeper than MAX_DEPTH, an alias inside its own value and a
  document of more than MAX_VALUES values once aliases are expanded are refused.
"""

import math
import re

import yaml

MAX_DEPTH = 100          # nesting levels; a spec needs a handful (deeper ran into RecursionError)
MAX_VALUES = 1_000_000   # values with aliases expanded: a "billion laughs" spec would hang the sweep
_T = "tag:yaml.org,2002:"
_INT = r"[-+]?(?:0|[1-9][0-9]*)"
_FLOAT = r"[-+]?(?:(?:\.[0-9]+|[0-9]+\.[0-9]*)(?:[eE][-+]?[0-9]+)?|[0-9]+[eE][-+]?[0-9]+)"
# explicit tags a value may carry, with the spelling its text must have (None: any)
_TAGS = {_T + "str": None, _T + "seq": None, _T + "map": None, _T + "merge": None,
         _T + "null": r"~|null|Null|NULL|", _T + "bool": r"true|false", _T + "int": _INT,
         _T + "float": f"{_INT}|{_FLOAT}"}


class Refused(Exception):
    """A value the spec reader does not accept: key path, what is wrong (with its line)."""

    def __init__(self, key, what):
        self.key, self.what = key, what
        super().__init__(f"{key}: {what}")


def _step(parent, index):
    """The key path part of a node: its mapping key, [i] in a list, None for the document."""
    if parent is None:
        return None
    if isinstance(index, int):
        return f"[{index}]"
    if isinstance(index, yaml.ScalarNode):
        return index.value
    return "(key)"


def key_path(steps, shown=6):
    """grid.tag.x[0]: the path of a node from its steps, the first `shown` of them."""
    steps = [s for s in steps if s is not None]
    text = ""
    for s in steps[:shown]:
        text += s if s.startswith("[") or not text else f".{s}"
    return (text + ("..." if len(steps) > shown else "")) or "(top level)"


class Loader(yaml.SafeLoader):
    yaml_implicit_resolvers = {}     # none of YAML 1.1's: the ones below, added at import

    def __init__(self, stream):
        super().__init__(stream)
        self._path = []              # key path of the node being composed
        self._open_anchors = set()   # anchors whose value is being composed
        self._measures = {}          # node id -> (values, depth), aliases expanded

    def compose_node(self, parent, index):
        self._path.append(_step(parent, index))
        try:
            line = self.peek_event().start_mark.line + 1
            # checked before going deeper: PyYAML's composer recurses once per level
            if len(self._path) > MAX_DEPTH:
                raise Refused(key_path(self._path), f"nested more than {MAX_DEPTH} levels deep (line {line})")
            if self.check_event(yaml.AliasEvent):
                anchor = self.peek_event().anchor
                if anchor in self._open_anchors:
                    raise Refused(key_path(self._path), f"the alias *{anchor} is inside the value it names "
                                                        f"(line {line})")
                return super().compose_node(parent, index)
            node = self._compose_anchored(parent, index)
            _check_tag(node, self._path)
            if isinstance(node, yaml.MappingNode):
                _refuse_repeated_keys(node, self._path)
            self._measure(node, line)
            return node
        finally:
            self._path.pop()

    def _compose_anchored(self, parent, index):
        # an alias to an anchor still open here would make a value that contains itself
        anchor = self.peek_event().anchor
        self._open_anchors.add(anchor)
        try:
            return super().compose_node(parent, index)
        finally:
            self._open_anchors.discard(anchor)

    def _measure(self, node, line):
        """Refuse a node too big or too deep once aliases are expanded; its children (and what
        their aliases name) are composed already, so this needs no recursion."""
        kids = node.value if isinstance(node, yaml.SequenceNode) else \
            [n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode) else []
        size = 1 + sum(self._measures[id(k)][0] for k in kids)
        depth = 1 + max((self._measures[id(k)][1] for k in kids), default=0)
        if depth > MAX_DEPTH:
            raise Refused(key_path(self._path), f"nested more than {MAX_DEPTH} levels deep once aliases "
                                                f"are expanded (line {line})")
        if size > MAX_VALUES:
            raise Refused(key_path(self._path), f"more than {MAX_VALUES} values once aliases are "
                                                f"expanded (line {line})")
        self._measures[id(node)] = (size, depth)


def _check_tag(node, path):
    line = node.start_mark.line + 1
    if node.tag not in _TAGS:
        raise Refused(key_path(path), f"values tagged {_short(node.tag)} are not accepted (line {line}): "
                                      "expected a number, text, true/false, null, a list or a mapping")
    pattern = _TAGS[node.tag]
    if pattern is None:
        return
    if not isinstance(node, yaml.ScalarNode) or not re.fullmatch(pattern, node.value):
        what = node.value if isinstance(node, yaml.ScalarNode) else "on a list or mapping"
        raise Refused(key_path(path), f"{_short(node.tag)} {what}: expected {_EXPECTED[node.tag]} (line {line})")
    if node.tag == _T + "float" and not math.isfinite(float(node.value)):
        raise Refused(key_path(path), f"{node.value}: too large for a number (line {line}; quote it for text)")


_EXPECTED = {_T + "null": "null or ~", _T + "bool": "true or false",
             _T + "int": "a decimal integer without leading zeros", _T + "float": "a decimal number"}


def _short(tag):
    return "!!" + tag[len(_T):] if tag.startswith(_T) else tag


def _refuse_repeated_keys(node, path):
    """wormsim refuses a key given twice; PyYAML would keep the last value without a word."""
    lines = {}
    for key, _ in node.value:
        if not isinstance(key, yaml.ScalarNode) or key.tag == _T + "merge":
            continue
        line = key.start_mark.line + 1
        if key.value in lines:
            raise Refused(key_path(path + [key.value]),
                          f"key given twice (lines {lines[key.value]} and {line}): give each key once")
        lines[key.value] = line


def _float(loader, node):
    return float(node.value)


def _int(loader, node):
    return int(node.value)


def _bool(loader, node):
    return node.value == "true"


for _tag, _pattern, _first in (("null", r"~|null|Null|NULL|", ["~", "n", "N", ""]),
                               ("bool", r"true|false", ["t", "f"]),
                               ("int", _INT, list("-+0123456789")),
                               ("float", _FLOAT, list("-+.0123456789")),
                               ("merge", r"<<", ["<"])):
    Loader.add_implicit_resolver(_T + _tag, re.compile(f"^(?:{_pattern})$"), _first)
Loader.add_constructor(_T + "int", _int)
Loader.add_constructor(_T + "float", _float)
Loader.add_constructor(_T + "bool", _bool)


def load(text):
    """The one YAML document in text. Raises yaml.YAMLError or Refused."""
    return yaml.load(text, Loader=Loader)
