"""The base of every suite node: unknown keys are errors."""

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    """A suite node: unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
