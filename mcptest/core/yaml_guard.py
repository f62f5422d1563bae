"""Bounds on what a YAML file may make mcptest build: alias expansion, nesting, tags (imported only to parse).

A few hundred bytes of aliases (billion laughs, `<<` merge bombs) can name billions of nodes, and a deep nesting
overflows the stack of every recursive reader after the parser. Both are stopped while composing, at the line
of the alias or the node that crosses the bound. Only the YAML 1.2 core types are data here: a `!!binary`,
`!!set` or `!!python/...` tag is an error rather than a value silently turned into something else.
"""

from __future__ import annotations

import copy
from typing import Any

from ruamel.yaml.composer import Composer, ComposerError
from ruamel.yaml.events import AliasEvent
from ruamel.yaml.nodes import MappingNode, SequenceNode

MAX_ALIAS_NODES = 100_000
MAX_DEPTH = 100
_CORE = "tag:yaml.org,2002:"
ALLOWED_TAGS = frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp", "merge"))


class Refused(ComposerError):
    """Well-formed YAML that mcptest will not build: past a bound, or a tag outside the core schema."""


class BoundedComposer(Composer):
    """The composer with a budget of nodes built from aliases, and only core-schema tags."""

    def __init__(self, loader: Any = None) -> None:
        super().__init__(loader)
        self.warn_double_anchors = False  # YAML 1.2 allows a reused anchor: an alias names the latest definition
        self.expanded = 0
        self.sizes: dict[int, int] = {}
        self.origins: dict[int, int] = {}  # id of a node placed at an alias -> id of the node the alias names

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.parser.check_event(AliasEvent):
            event = self.parser.peek_event()
            node = super().compose_node(parent, index)
            self.expanded += self._size(node)
            if self.expanded > MAX_ALIAS_NODES:
                raise Refused(
                    None,
                    None,
                    f"alias *{event.anchor} takes the nodes built from aliases past {MAX_ALIAS_NODES:,} "
                    "(an alias bomb?): repeat less through aliases",
                    event.start_mark,
                )
            return self._at_alias(node, event)
        node = super().compose_node(parent, index)
        if node.tag not in ALLOWED_TAGS:
            raise Refused(
                None,
                None,
                f"tag {_short(node.tag)} is not supported: mcptest reads plain YAML 1.2 data "
                "(strings, numbers, booleans, null, lists, mappings); remove the tag",
                node.start_mark,
            )
        return node

    def _at_alias(self, node: Any, event: Any) -> Any:
        """The aliased node placed where the alias is written, so problems in it point at the alias's line."""
        placed = copy.copy(node)
        placed.start_mark, placed.end_mark = event.start_mark, event.end_mark
        self.sizes[id(placed)] = self.sizes[id(node)]
        self.origins[id(placed)] = self.origins.get(id(node), id(node))
        return placed

    def _size(self, node: Any) -> int:
        """Nodes under `node`, itself included, counting each alias as the nodes it names (capped past the budget)."""
        known = self.sizes.get(id(node))
        if known is not None:
            return known
        self.sizes[id(node)] = 1  # an alias inside the node it names: the walk reports that cycle
        total = 1
        if isinstance(node, SequenceNode):
            children = list(node.value)
        elif isinstance(node, MappingNode):
            children = [part for pair in node.value for part in pair]
        else:
            children = []
        for child in children:
            total += self._size(child)
            if total > MAX_ALIAS_NODES:
                break
        self.sizes[id(node)] = total
        return total


def _short(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag
