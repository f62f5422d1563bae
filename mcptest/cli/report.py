"""`mcptest report` (placeholder until implemented)."""

import typer


def register(app: typer.Typer) -> None:
    """Add this command to the app (nothing yet)."""
