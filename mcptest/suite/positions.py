"""Where each assertion and gate block is written: line:col pinned on the loaded models, for failure messages."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from mcptest.core.yaml_source import Loc, SourceDoc


def place(model: BaseModel, doc: SourceDoc, loc: Loc = ()) -> None:
    """Set `_pos` (line, col) on every model under `model` that declares it, from where `doc` holds its value;
    a model that declares `_at` also gets where each of its own keys is written."""
    private = type(model).__private_attributes__
    if "_pos" in private:
        model._pos = doc.value_pos(loc)  # type: ignore[attr-defined]
    if "_at" in private:
        model._at = {  # type: ignore[attr-defined]
            name: doc.key_pos((*loc, field.alias or name)) for name, field in type(model).model_fields.items()
        }
    for name, field in type(model).model_fields.items():
        _walk(getattr(model, name), doc, (*loc, field.alias or name))


def _walk(value: Any, doc: SourceDoc, loc: Loc) -> None:
    if isinstance(value, BaseModel):
        place(value, doc, loc)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, BaseModel | list | dict):
                _walk(item, doc, (*loc, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, BaseModel):
                _walk(item, doc, (*loc, key))
