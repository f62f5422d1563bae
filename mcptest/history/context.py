"""Where a run happened: the git commit and branch of the suite's folder, and the CI job it belongs to.

Git is read from its files (HEAD, refs, packed-refs), not by starting `git`: recording stays a few milliseconds.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

CI_JOB_VARS = (
    "MCPTEST_CI_JOB",
    "GITHUB_RUN_ID",
    "CI_PIPELINE_ID",
    "BUILDKITE_BUILD_ID",
    "CIRCLE_WORKFLOW_ID",
    "BUILD_TAG",
)
"""The variables a CI job id is read from, first set wins: one id for every shard of one CI run (GitHub Actions'
run, GitLab's pipeline, Buildkite's build, CircleCI's workflow, Jenkins' build tag); `MCPTEST_CI_JOB` overrides."""


@dataclass(frozen=True)
class RunContext:
    """What a stored run says about where it ran."""

    commit: str | None = None
    branch: str | None = None
    ci_job: str | None = None
    shard: str | None = None


def run_context(folder: Path, environ: Mapping[str, str], shard: str | None = None) -> RunContext:
    """The git commit/branch of `folder` (None outside a repository) and the CI job id (None outside CI)."""
    commit, branch = git_head(folder)
    job = next((environ[v] for v in CI_JOB_VARS if environ.get(v)), None)
    return RunContext(commit, branch, job, shard)


def git_head(folder: Path) -> tuple[str | None, str | None]:
    """(commit, branch) of the repository holding `folder`; branch is None on a detached HEAD."""
    git = _git_dir(folder.resolve())
    if git is None:
        return None, None
    try:
        head = (git / "HEAD").read_text(encoding="utf-8").strip()
    except OSError:
        return None, None
    if not head.startswith("ref:"):
        return head or None, None
    ref = head[4:].strip()
    branch = ref.removeprefix("refs/heads/")
    return _resolve(git, ref), branch


def _git_dir(folder: Path) -> Path | None:
    for here in (folder, *folder.parents):
        dot = here / ".git"
        if dot.is_dir():
            return dot
        if dot.is_file():  # a worktree or submodule: `gitdir: <path>`
            text = dot.read_text(encoding="utf-8").strip()
            if text.startswith("gitdir:"):
                return (here / text[7:].strip()).resolve()
    return None


def _resolve(git: Path, ref: str) -> str | None:
    common = git
    if (git / "commondir").is_file():  # a linked worktree keeps its refs in the main repository
        common = (git / (git / "commondir").read_text(encoding="utf-8").strip()).resolve()
    for base in (git, common):
        path = base / ref
        if path.is_file():
            return path.read_text(encoding="utf-8").strip() or None
    packed = common / "packed-refs"
    if packed.is_file():
        for line in packed.read_text(encoding="utf-8").splitlines():
            sha, _, name = line.partition(" ")
            if name == ref:
                return sha
    return None


def suite_identity(suite_file: str | Path, cwd: Path | None = None) -> str:
    """The name a suite is stored under: its path with POSIX separators and `.`/`..` folded (as `report --compare`
    folds suite paths), relative to the root of the git repository holding it, so every CI machine, whatever its
    checkout path or working folder, stores one suite under one name; outside a repository, its file name (the
    default store sits beside it)."""
    path = Path(os.path.normpath(Path(cwd or Path.cwd()) / suite_file))
    root = _work_tree(path.parent)
    return path.relative_to(root).as_posix() if root is not None else path.name


def _work_tree(folder: Path) -> Path | None:
    for here in (folder, *folder.parents):
        if (here / ".git").exists():
            return here
    return None
