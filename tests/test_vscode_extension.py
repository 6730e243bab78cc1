"""The VS Code extension under editors/vscode/ installs and packages with vsce, and starts `memwarden server`."""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

EXTENSION = Path(__file__).resolve().parents[1] / "editors" / "vscode"


def test_the_extension_starts_memwarden_server_over_stdio():
    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    assert manifest["main"] == "./extension.js" and "vscode-languageclient" in manifest["dependencies"]
    source = (EXTENSION / "extension.js").read_text(encoding="utf-8")
    assert '"server"' in source and "TransportKind.stdio" in source
    assert manifest["contributes"]["configuration"]["properties"]["memwarden.path"]["default"] == "memwarden"


@pytest.mark.skipif(shutil.which("npm") is None or shutil.which("npx") is None,
                    reason="npm is not installed: the VS Code extension cannot be packaged here")
def test_the_extension_packages_with_vsce(tmp_path):
    copy = tmp_path / "vscode"
    shutil.copytree(EXTENSION, copy, ignore=shutil.ignore_patterns("node_modules", "*.vsix", "package-lock.json"))
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=copy, check=True,
                   capture_output=True, timeout=600)
    done = subprocess.run(["npx", "--no-install", "vsce", "package", "--out", "memwarden.vsix"], cwd=copy,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    with zipfile.ZipFile(copy / "memwarden.vsix") as vsix:
        names = set(vsix.namelist())
    assert {"extension/extension.js", "extension/package.json"} <= names
    assert "extension/node_modules/vscode-languageclient/package.json" in names
