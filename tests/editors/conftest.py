"""Paths and an isolated environment for running the editors' own tools."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NVIM_PLUGIN = REPO / "editors" / "nvim"
VSCODE = REPO / "editors" / "vscode"


@pytest.fixture
def nvim_env(tmp_path) -> dict[str, str]:
    """The environment for a headless Neovim that reads no user config and
    writes its state and logs under ``tmp_path``."""
    env = dict(os.environ)
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / name.lower())
    env.pop("NVIM", None)
    env.pop("VIMINIT", None)
    return env
