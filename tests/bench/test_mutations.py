"""Each mutation kind edits exactly the description, as documented."""

from __future__ import annotations

from mcptest.bench import mutations as m
from mcptest.bench.spec import Blank, DropKeyword, Genericize, Truncate
from mcptest.records.catalog import Tool
from tests.bench.conftest import tool

WEATHER = Tool(tool("get_weather", "Return the current Weather forecast for a city. Forecasts are JSON.", title="W"))


def test_blank_removes_the_description_and_keeps_everything_else() -> None:
    edited = Blank(tool="get_weather", kind="blank").apply(WEATHER)
    assert "description" not in edited.raw
    assert edited.raw == {k: v for k, v in WEATHER.raw.items() if k != "description"}


def test_genericize_puts_the_contentless_phrase_in_place() -> None:
    edited = Genericize(tool="get_weather", kind="genericize").apply(WEATHER)
    assert edited.description == m.GENERIC_DESCRIPTION == "A general-purpose helper utility."
    assert edited.raw["title"] == "W"


def test_truncate_keeps_the_first_chars_characters() -> None:
    assert Truncate(tool="x", kind="truncate", chars=14).apply(WEATHER).description == "Return the cur"
    assert Truncate(tool="x", kind="truncate", chars=0).apply(WEATHER).description == ""
    assert Truncate(tool="x", kind="truncate", chars=999).apply(WEATHER).description == WEATHER.description


def test_drop_keyword_removes_every_spelling_and_inflection_and_tidies_spaces() -> None:
    edited = DropKeyword(tool="x", kind="drop_keyword", word="forecast").apply(WEATHER)
    assert edited.description == "Return the current Weather for a city. are JSON."
    assert m.occurrences(WEATHER, "forecast") == 2
    assert m.occurrences(WEATHER, "WEATHER") == 1


def test_drop_keyword_leaves_words_that_only_contain_the_keyword() -> None:
    text = Tool(tool("t", "Lists lists, listings and blacklists."))
    assert m.drop_keyword(text, "list").description == "and blacklists."


def test_mutations_do_not_touch_the_original_tool() -> None:
    before = dict(WEATHER.raw)
    for edit in (m.blank, m.genericize, lambda t: m.truncate(t, 3), lambda t: m.drop_keyword(t, "city")):
        edit(WEATHER)
    assert WEATHER.raw == before
