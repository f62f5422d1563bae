"""Pick what to serve: a manifest (`.yaml`/`.yml`), a snapshot (`.json`) or a bundled preset."""

from __future__ import annotations

from pathlib import Path

from mcptest.core.errors import did_you_mean, usage_error
from mcptest.mock.spec import MockSpec

PRESETS = Path(__file__).parent / "presets"


def preset_names() -> list[str]:
    """The bundled presets, by name."""
    return sorted(p.stem for p in PRESETS.glob("*.yaml"))


def load_source(tools_from: str | None, preset: str | None) -> MockSpec:
    """Load exactly one of `--tools-from PATH` and `--preset NAME`."""
    if (tools_from is None) == (preset is None):
        raise usage_error("mock: give exactly one of --tools-from PATH or --preset NAME")
    if preset is not None:
        return load_path(str(preset_path(preset)))
    assert tools_from is not None
    return load_path(tools_from)


def preset_path(name: str) -> Path:
    """The manifest file of a bundled preset, or a usage error naming the presets there are."""
    names = preset_names()
    if name not in names:
        raise usage_error(f"unknown preset '{name}'{did_you_mean(name, names)}; presets are {', '.join(names)}")
    return PRESETS / f"{name}.yaml"


def load_path(path: str) -> MockSpec:
    """Load a manifest or a snapshot, chosen by the file's extension."""
    suffix = Path(path).suffix.lower()
    if suffix in (".yaml", ".yml"):
        from mcptest.mock.loading import load_manifest

        return load_manifest(path)
    if suffix == ".json":
        from mcptest.mock.captured import load_snapshot

        return load_snapshot(path)
    raise usage_error(f"--tools-from {path}: expected a .yaml/.yml manifest or a .json tools/list snapshot")
