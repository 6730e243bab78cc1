"""The README's commands and sample output stay true."""

from __future__ import annotations

import re

from conftest import REPO

README = (REPO / "README.md").read_text("utf-8")


def _blocks(language: str = "text") -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def test_the_two_first_screen_commands_are_there_and_ci_runs_the_test_one():
    first_screen = README[: README.index("## Why")]
    assert "pip install . && memwarden check examples/" in first_screen
    test_command = "pip install -e '.[test]' && python -m pytest -n auto"
    assert test_command in first_screen
    assert test_command.replace("pip install", "") in (REPO / ".ci" / "run").read_text()


def test_sample_check_output_is_what_memwarden_prints(cli, monkeypatch):
    monkeypatch.delenv("MEMWARDEN_PREVIEW")  # the README shows the default: the stable rules
    result = cli("check", "examples/", cwd=REPO)
    assert result.exit_code == (1 if " error" in result.stdout.splitlines()[-1] else 0)
    sample = next(b for b in _blocks() if b.startswith("examples/"))
    printed = result.stdout.splitlines()
    if not any(line.endswith(": ...") for line in sample.splitlines()):  # shown whole
        assert printed == sample.splitlines()
    for line in sample.splitlines():
        if line.endswith(": ..."):  # abridged in the README
            assert any(p.startswith(line[:-3]) for p in printed), line
        elif line.startswith(("examples/", "Found", "[*]")):
            assert line in printed, line


def test_sample_budget_gauge_is_what_memwarden_prints(cli):
    block = next(b for b in _blocks() if b.startswith("$ memwarden budget"))
    command, *expected = block.rstrip("\n").splitlines()
    result = cli(*command.split()[2:], cwd=REPO)
    assert result.exit_code == 2
    assert result.stdout.rstrip("\n").splitlines() == expected
