"""RFC 6570 expansion as resource templates use it: the spec's examples, numbers as decimal text, matching."""

from __future__ import annotations

import pytest

from mcptest.core.uri_template import expand, matches, variables

ARGS = {"var": "value", "hello": "Hello World!", "path": "/foo/bar", "x": 1024, "y": 768, "empty": ""}


@pytest.mark.parametrize(
    ("template", "uri"),
    [
        ("{var}", "value"),
        ("{hello}", "Hello%20World%21"),
        ("{+hello}", "Hello%20World!"),
        ("{+path}/here", "/foo/bar/here"),
        ("{#path}", "#/foo/bar"),
        ("map?{x,y}", "map?1024,768"),
        ("{x,hello,y}", "1024,Hello%20World%21,768"),
        ("X{.var}", "X.value"),
        ("{/var,x}/here", "/value/1024/here"),
        ("{;x,y,empty}", ";x=1024;y=768;empty"),
        ("{?x,y,empty}", "?x=1024&y=768&empty="),
        ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
        ("{var:3}", "val"),
        ("{?undefined}", ""),
    ],
)
def test_rfc_6570_examples_expand(template: str, uri: str) -> None:
    assert expand(template, ARGS) == uri


def test_numbers_and_booleans_expand_as_their_text() -> None:
    assert expand("notes://{owner}/{id}", {"owner": "ada", "id": 7}) == "notes://ada/7"
    assert expand("n://{a}/{b}/{c}", {"a": 7.0, "b": 2.5, "c": True}) == "n://7/2.5/true"


def test_variables_are_listed_once_in_order() -> None:
    assert variables("n://{owner}/{id}{?owner,page}") == ["owner", "id", "page"]


def test_a_uri_matches_the_templates_that_could_produce_it() -> None:
    assert matches("demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/text/7")
    assert not matches("demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/text/7/more")
    assert matches("file:///{+path}", "file:///a/b/c.md")
    assert not matches("notes://{id}", "other://1")
