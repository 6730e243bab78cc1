"""The composite GitHub Action: its shell steps run here as the runner would run them."""

from __future__ import annotations

import json
import os
import subprocess

from ruamel.yaml import YAML

from conftest import REPO, write_files

ACTION = YAML(typ="safe").load((REPO / "action.yml").read_text("utf-8"))


def _step(name: str) -> dict:
    return next(step for step in ACTION["runs"]["steps"] if step.get("name") == name)


def _run_step(step: dict, cwd, inputs: dict, env_extra: dict) -> subprocess.CompletedProcess:
    """Expand ${{ inputs.* }} into the step's env as GitHub does, then run its script with bash."""
    env = {**os.environ, **env_extra}
    for key, value in step.get("env", {}).items():
        for name, given in inputs.items():
            value = value.replace("${{ inputs.%s }}" % name, given)
        env[key] = value
    return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", step["run"]], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_action_declares_its_inputs_and_is_composite():
    assert ACTION["runs"]["using"] == "composite"
    assert {"paths", "args", "base", "sarif-file"} <= set(ACTION["inputs"])


def test_the_action_steps_write_sarif_and_annotate(tmp_path):
    root = write_files(tmp_path / "repo", {
        "MEMORY.md": "# Memory\n",
        "memory/fact.yml": "identity:\n  name: A\n  name: B\n",
    })
    inputs = {"paths": ".", "args": "", "base": "", "sarif-file": "memwarden.sarif"}
    output = tmp_path / "github_output"
    output.write_text("")
    env = {"GITHUB_OUTPUT": str(output), "GITHUB_ACTIONS": "true", "MEMWARDEN_NO_CACHE": "1"}
    sarif = _run_step(_step("SARIF report"), root, inputs, env)
    assert sarif.returncode == 0, sarif.stderr
    log = json.loads((root / "memwarden.sarif").read_text())
    assert log["version"] == "2.1.0" and log["runs"][0]["results"]
    assert "path=memwarden.sarif" in output.read_text()
    check = _run_step(_step("memwarden check"), root, inputs, env)
    assert check.returncode == 1
    assert check.stdout.startswith("::error file=memory/fact.yml,line=3")
