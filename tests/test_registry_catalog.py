"""The registry's catalog (names, codes, modules) against what the rule modules declare."""

from __future__ import annotations

import subprocess
import sys

from memwarden import registry


def test_the_catalog_is_what_the_modules_declare():
    declared = {r.name: (r.code, r.check.__module__) for r in registry.all_rules()}
    lines = "".join(f'    "{name}": ("{code}", "{module}"),\n' for name, (code, module) in
                    sorted(declared.items(), key=lambda item: item[1][0]))
    assert registry.CATALOG == declared, "registry.CATALOG should read:\n" + lines


def test_codes_are_unique_in_the_catalog():
    codes = [code for code, _ in registry.CATALOG.values()]
    assert len(codes) == len(set(codes))


def _imported_after(code: str) -> set[str]:
    script = code + "\nimport sys\nprint(' '.join(m for m in sys.modules if m.startswith('memwarden.rules.')))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def test_resolving_names_and_codes_imports_no_rule_module():
    loaded = _imported_after(
        "from memwarden import registry\n"
        "assert registry.resolve(['MW1', 'orphan-note', 'mw701']) >= {'orphan-note', 'secret-in-memory', 'duplicate-id'}\n"
        "assert registry.name_of('MW405') == 'orphan-note' and registry.name_of('nope') is None\n"
    )
    assert loaded == set()


def test_selecting_rules_imports_only_their_modules():
    loaded = _imported_after(
        "from memwarden import registry\n"
        "rules = registry.rules_named(['orphan-note', 'too-few-tags'])\n"
        "assert [r.name for r in rules] == ['too-few-tags', 'orphan-note']\n"
    )
    assert "memwarden.rules.index_targets" in loaded and "memwarden.rules.tags" in loaded
    assert "memwarden.rules.claims" not in loaded and "memwarden.rules.append_only" not in loaded


def test_a_catalog_entry_its_module_does_not_declare_is_an_error(monkeypatch):
    monkeypatch.setitem(registry.CATALOG, "vanished-rule", ("MW999", "memwarden.rules.meta"))
    try:
        registry.rules_named(["vanished-rule"])
    except RuntimeError as error:
        assert "vanished-rule" in str(error) and "memwarden.rules.meta" in str(error)
    else:
        raise AssertionError("a rule missing from its module ran quietly")


def test_a_module_that_fails_to_import_is_an_error(monkeypatch):
    monkeypatch.setitem(registry.CATALOG, "gone-rule", ("MW998", "memwarden.rules.no_such_module"))
    try:
        registry.rules_named(["gone-rule"])
    except ModuleNotFoundError as error:
        assert "no_such_module" in str(error)
    else:
        raise AssertionError("a module that does not import was skipped")


def _loaded_by_check(tmp_path, *args: str) -> set[str]:
    (tmp_path / "MEMORY.md").write_text("# Memory\n\n- [Deploys](deploys.md): how we deploy\n", "utf-8")
    (tmp_path / "deploys.md").write_text("---\nname: deploys\ndescription: how we deploy\n---\nWe deploy on Fridays.\n",
                                         "utf-8")
    probe = (
        "import os, sys\nos.chdir(sys.argv[1])\nfrom memwarden.cli.main import main\n"
        "try:\n    main(sys.argv[2:])\nexcept SystemExit:\n    pass\n"
        "print(' '.join(m for m in sys.modules if m.startswith(('memwarden.rules.', 'memwarden.analysis.history'))),"
        " file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe, str(tmp_path), "check", ".", "--no-cache", *args],
                          capture_output=True, text=True, check=True)
    return set(done.stderr.strip().splitlines()[-1].split())


def test_a_check_imports_only_the_rules_it_runs(tmp_path):
    loaded = _loaded_by_check(tmp_path, "--select", "broken-note-link")
    # secret-in-memory's options say how the engine hides secrets in any finding; nothing else: not the other
    # rules (the text report needs none of them), nor the history a --staged or --base run compares with
    assert loaded == {"memwarden.rules.note_links", "memwarden.rules.secrets"}


def test_a_sarif_report_still_lists_every_rule(tmp_path):
    loaded = _loaded_by_check(tmp_path, "--select", "broken-note-link", "--format", "sarif")
    assert {module for _, module in registry.CATALOG.values()} <= loaded
