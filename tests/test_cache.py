"""The on-disk cache answers only when nothing the findings depend on has changed."""

from __future__ import annotations

import os


def gish(workspace):
    return workspace({"MEMORY.md": "# Memory\n", "memory/fact.yml": "identity:\n  name: Alpha Beta Gamma\n"})


def names(result):
    return [f["name"] for f in result.json()["findings"]]


def test_a_repeated_check_is_served_from_the_cache_and_the_cache_is_gitignored(cli, workspace):
    root = gish(workspace)
    first = cli("check", "--format", "json", ".", cwd=root)
    runs = list((root / ".memwarden_cache" / "v1").glob("run-*.json"))
    assert len(runs) == 1
    assert (root / ".memwarden_cache" / ".gitignore").read_text().splitlines()[-1] == "*"
    second = cli("check", "--format", "json", ".", cwd=root)
    assert second.stdout == first.stdout
    assert len(list((root / ".memwarden_cache" / "v1").glob("run-*.json"))) == 1


def test_the_key_is_the_content_not_the_timestamp(cli, workspace):
    root = gish(workspace)
    facts = root / "memory" / "fact.yml"
    assert names(cli("check", "--format", "json", ".", cwd=root)) == []
    info = facts.stat()
    facts.write_text("identity:\n  name: A\n  name: B\n#pad\n")  # the same size
    os.utime(facts, ns=(info.st_atime_ns, info.st_mtime_ns))  # and the same mtime
    assert facts.stat().st_size == info.st_size and facts.stat().st_mtime_ns == info.st_mtime_ns
    assert names(cli("check", "--format", "json", ".", cwd=root)) == ["duplicate-key"]


def test_config_and_selection_changes_miss_the_cache(cli, workspace):
    root = gish(workspace)
    (root / "memory" / "fact.yml").write_text("identity:\n  name: A\n  name: B\n")
    assert names(cli("check", "--format", "json", ".", cwd=root)) == ["duplicate-key"]
    assert names(cli("check", "--format", "json", "--ignore", "duplicate-key", ".", cwd=root)) == []
    (root / ".memwarden.toml").write_text('ignore = ["duplicate-key"]\n')
    assert names(cli("check", "--format", "json", ".", cwd=root)) == []


def test_no_cache_writes_nothing_and_fix_runs_are_real(cli, workspace):
    root = workspace({"memory/scratchpad.md": "# pad\n", "memory/episodic.jsonl": '{"a": 1}\n\n'})
    cli("check", "--no-cache", ".", cwd=root)
    assert not (root / ".memwarden_cache").exists()
    select = ("--select", "malformed-jsonl")
    assert names(cli("check", "--format", "json", *select, ".", cwd=root)) == ["malformed-jsonl"]
    fixed = cli("check", "--fix", *select, ".", cwd=root)
    assert fixed.exit_code == 0 and "1 fixed" in fixed.stdout
    assert (root / "memory" / "episodic.jsonl").read_bytes() == b'{"a": 1}\n'
    assert names(cli("check", "--format", "json", *select, ".", cwd=root)) == []


def test_a_read_only_workspace_is_checked_without_a_cache(cli, workspace):
    root = gish(workspace)
    (root / "memory" / "fact.yml").write_text("identity:\n  name: A\n  name: B\n")
    os.chmod(root, 0o555)
    try:
        result = cli("check", "--format", "json", ".", cwd=root)
        assert names(result) == ["duplicate-key"]
    finally:
        os.chmod(root, 0o755)


def test_parallel_and_serial_checks_report_the_same(workspace, tmp_path):
    """Past PARALLEL_MIN_FILES the document rules run in worker processes; nothing may differ."""
    import json
    import subprocess
    import sys

    from memwarden.engine.parallel import PARALLEL_MIN_FILES

    token = "ghp_" + "R2f8Kd9Lq3Zx7Wm1Nc4Vb6Tj0Hs5Ya8Pe2Ug"
    files = {"MEMORY.md": "# Memory\n- [x](memory/knowledge/user/n0.md) no trigger\n",
             "memory/fact.yml": f"identity:\n  name: A\n  token: {token}\n"}
    for i in range(PARALLEL_MIN_FILES + 20):
        claim = "The export API does not support paging." if i % 7 == 0 else "Read the final state."
        files[f"memory/knowledge/user/n{i}.md"] = (
            f"---\nname: n{i}\ndescription: d{i}\nmetadata:\n  type: user\n  updated: 2026-0{1 + i % 9}-30\n---\n{claim}\n"
        )
    root = workspace(files)
    outputs = {}
    for jobs in ("1", "2"):
        done = subprocess.run([sys.executable, "-m", "memwarden", "check", "--no-cache", "--format", "json", "."],
                              cwd=root, capture_output=True, env={**os.environ, "MEMWARDEN_JOBS": jobs}, timeout=300)
        assert done.returncode == 1, done.stderr
        outputs[jobs] = json.loads(done.stdout)["findings"]
    assert outputs["1"] == outputs["2"]
    names = {f["name"] for f in outputs["1"]}
    assert {"negative-claim-without-expiry", "invalid-timestamp", "orphan-note", "secret-in-memory"} <= names
    assert token not in json.dumps(outputs["2"])
