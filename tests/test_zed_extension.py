"""The Zed extension under editors/zed/ builds for Zed's target (wasm32-wasip1) and starts `memwarden server`."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

EXTENSION = Path(__file__).resolve().parents[1] / "editors" / "zed"
TARGET = "wasm32-wasip1"


def test_the_extension_starts_memwarden_server_for_markdown():
    manifest = (EXTENSION / "extension.toml").read_text(encoding="utf-8")
    assert "[language_servers.memwarden]" in manifest and '"Markdown"' in manifest
    source = (EXTENSION / "src" / "lib.rs").read_text(encoding="utf-8")
    assert '"memwarden"' in source and '"server"' in source


def _wasm_target_installed() -> bool:
    if shutil.which("cargo") is None or shutil.which("rustup") is None:
        return False
    installed = subprocess.run(["rustup", "target", "list", "--installed"], capture_output=True, text=True)
    return TARGET in installed.stdout.split()


@pytest.mark.skipif(not _wasm_target_installed(), reason=f"no Rust toolchain with the {TARGET} target here")
def test_the_extension_builds_for_zeds_target(tmp_path):
    built = subprocess.run(["cargo", "build", "--release", "--target", TARGET], cwd=EXTENSION,
                           env={**os.environ, "CARGO_TARGET_DIR": str(tmp_path)},
                           capture_output=True, text=True, timeout=1800)
    assert built.returncode == 0, built.stderr[-3000:]
    assert (tmp_path / TARGET / "release" / "zed_memwarden.wasm").is_file()
