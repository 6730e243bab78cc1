"""The store (engine/cache/store.py) answers only when nothing the findings depend on has changed, and a database
that is damaged, foreign, of another schema or locked is never trusted and never a crash."""

from __future__ import annotations

import os
import sqlite3
import threading

from memwarden.engine.cache import store as store_module

DATABASE = (".memwarden_cache", "store.sqlite3")


def gish(workspace):
    return workspace({"MEMORY.md": "# Memory\n", "memory/fact.yml": "identity:\n  name: Alpha Beta Gamma\n",
                      "memory/episodic.jsonl": '{"id": "ep-1", "ts": "2026-01-01", "content": "Tool X does not support Y."}\n'})


def names(result):
    return [f["name"] for f in result.json()["findings"]]


def memwardens(path) -> bool:
    """Whether the file at path is a database of memwarden's schema."""
    connection = sqlite3.connect(path)
    try:
        application = connection.execute("PRAGMA application_id").fetchone()[0]
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        connection.close()
    return (application, version) == (store_module.APPLICATION_ID, store_module.SCHEMA_VERSION) and "notes" not in tables


def test_a_repeated_check_is_served_from_the_store_and_the_cache_is_gitignored(cli, workspace):
    root = gish(workspace)
    first = cli("check", "--format", "json", ".", cwd=root)
    database = root.joinpath(*DATABASE)
    assert database.is_file() and memwardens(database)
    assert (root / ".memwarden_cache" / ".gitignore").read_text().splitlines()[-1] == "*"
    assert [p.name for p in (root / ".memwarden_cache").iterdir() if p.name != ".gitignore"] == ["store.sqlite3"]
    second = cli("check", "--format", "json", ".", cwd=root)
    assert second.stdout == first.stdout


def test_the_key_is_the_content_not_the_timestamp(cli, workspace):
    root = gish(workspace)
    facts = root / "memory" / "fact.yml"
    assert "duplicate-key" not in names(cli("check", "--format", "json", ".", cwd=root))
    info = facts.stat()
    facts.write_text("identity:\n  name: A\n  name: B\n#pad\n")  # the same size
    os.utime(facts, ns=(info.st_atime_ns, info.st_mtime_ns))  # and the same mtime
    assert facts.stat().st_size == info.st_size and facts.stat().st_mtime_ns == info.st_mtime_ns
    assert "duplicate-key" in names(cli("check", "--format", "json", ".", cwd=root))


def test_config_and_selection_changes_miss_the_cache(cli, workspace):
    root = gish(workspace)
    (root / "memory" / "fact.yml").write_text("identity:\n  name: A\n  name: B\n")
    select = ("--select", "duplicate-key,malformed-jsonl")
    assert names(cli("check", "--format", "json", *select, ".", cwd=root)) == ["duplicate-key"]
    assert names(cli("check", "--format", "json", "--ignore", "duplicate-key", *select, ".", cwd=root)) == []
    (root / ".memwarden.toml").write_text('ignore = ["duplicate-key"]\n')
    assert names(cli("check", "--format", "json", *select, ".", cwd=root)) == []


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
        assert "duplicate-key" in names(result)
    finally:
        os.chmod(root, 0o755)


def _foreign(path) -> None:
    """Another program's database in its place."""
    path.unlink()
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE notes (x)")
    connection.execute("INSERT INTO notes VALUES (1)")
    connection.commit()
    connection.close()


def _older(path) -> None:
    path.unlink()
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA application_id={store_module.APPLICATION_ID}")
    connection.execute(f"PRAGMA user_version={store_module.SCHEMA_VERSION - 1}")
    connection.execute("CREATE TABLE entries (key TEXT PRIMARY KEY, value TEXT)")  # an older layout
    connection.commit()
    connection.close()


def _torn(path) -> None:
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 3])


def _scribbled(path) -> None:
    """Every page after the first overwritten: a header that reads, tables that do not."""
    raw = bytearray(path.read_bytes())
    for at in range(4096, len(raw), 97):
        raw[at] = 0xA5
    path.write_bytes(bytes(raw))


def test_a_damaged_foreign_or_older_database_is_discarded_and_rebuilt(cli, workspace):
    root = gish(workspace)
    plain = cli("check", "--exit-zero", "--format", "json", ".", cwd=root, env={"MEMWARDEN_NO_CACHE": "1"}).stdout
    database = root.joinpath(*DATABASE)
    damages = {
        "garbage": lambda p: p.write_bytes(b"\x00\xff not a database at all" * 40),
        "empty": lambda p: p.write_bytes(b""),
        "torn": _torn,
        "scribbled": _scribbled,
        "foreign": _foreign,
        "older schema": _older,
    }
    for name, damage in damages.items():
        assert cli("check", "--exit-zero", "--format", "json", ".", cwd=root).stdout == plain  # a sound store
        for side in ("-wal", "-shm"):
            assert not root.joinpath(*DATABASE[:-1], DATABASE[-1] + side).exists()  # closed: no side file left
        damage(database)
        damaged = cli("check", "--exit-zero", "--format", "json", ".", cwd=root)
        assert damaged.exit_code == 0 and damaged.stdout == plain, name
        again = cli("check", "--exit-zero", "--format", "json", ".", cwd=root)  # rebuilt by now, at the latest
        assert again.stdout == plain, name
        assert memwardens(database), name


def test_a_locked_database_leaves_the_run_uncached_and_the_next_run_uses_it(cli, workspace, monkeypatch):
    root = gish(workspace)
    plain = cli("check", "--exit-zero", "--format", "json", ".", cwd=root, env={"MEMWARDEN_NO_CACHE": "1"}).stdout
    cli("check", "--exit-zero", ".", cwd=root)
    monkeypatch.setattr(store_module, "BUSY_SECONDS", 0.1)
    holder = sqlite3.connect(root.joinpath(*DATABASE), isolation_level=None, check_same_thread=False)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")  # another process writing, for longer than a run waits
    try:
        (root / "memory" / "fact.yml").write_text("identity:\n  name: Alpha Beta Gamma Delta\n")
        plain = cli("check", "--exit-zero", "--format", "json", ".", cwd=root, env={"MEMWARDEN_NO_CACHE": "1"}).stdout
        result = {}
        worker = threading.Thread(target=lambda: result.update(
            out=cli("check", "--exit-zero", "--format", "json", ".", cwd=root)))
        worker.start()
        worker.join(60)
        assert not worker.is_alive(), "a locked store hung the run"
        assert result["out"].exit_code == 0 and result["out"].stdout == plain
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert memwardens(root.joinpath(*DATABASE))  # left alone, never discarded for being busy
    rows = _rows(root)
    cli("check", "--exit-zero", ".", cwd=root)
    assert _rows(root) > rows  # what the locked run could not keep, this one kept


def _rows(root) -> int:
    connection = sqlite3.connect(root.joinpath(*DATABASE))
    try:
        return sum(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in ("entries", "lines"))
    finally:
        connection.close()


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
    for jobs, cache in (("1", "--no-cache"), ("2", "--no-cache"), ("2", "--exit-zero"), ("2", "--exit-zero")):
        done = subprocess.run([sys.executable, "-m", "memwarden", "check", cache, "--format", "json", "."],
                              cwd=root, capture_output=True, env={**os.environ, "MEMWARDEN_JOBS": jobs}, timeout=300)
        assert done.returncode in (0, 1), done.stderr
        outputs[jobs, cache] = json.loads(done.stdout)["findings"]
    assert outputs["1", "--no-cache"] == outputs["2", "--no-cache"] == outputs["2", "--exit-zero"]
    names = {f["name"] for f in outputs["1", "--no-cache"]}
    assert {"negative-claim-without-expiry", "invalid-timestamp", "orphan-note", "secret-in-memory"} <= names
    assert token not in json.dumps(outputs["2", "--no-cache"])


def test_the_earlier_json_store_is_removed_and_a_link_in_it_is_not_followed(cli, workspace, tmp_path):
    root = gish(workspace)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("kept")
    earlier = root / ".memwarden_cache" / "v1" / "incremental"
    earlier.mkdir(parents=True)
    (earlier / "documents-00.json").write_text('{"format": 3, "entries": {}}')
    (earlier / "elsewhere").symlink_to(outside)
    cli("check", "--exit-zero", ".", cwd=root)
    assert not (root / ".memwarden_cache" / "v1").exists()
    assert (outside / "keep.txt").read_text() == "kept"
    assert memwardens(root.joinpath(*DATABASE))


def test_a_fifo_in_the_tree_is_no_file_to_hash(workspace, tmp_path):
    """The store keys every file of the tree by its content hash for a rule that reads every file: a FIFO has no
    content to hash, and opening one with no writer would wait forever."""
    import subprocess
    import sys

    root = gish(workspace)
    (root / "notes").mkdir()
    os.mkfifo(root / "notes" / "pipe")
    for _ in range(2):  # the second run asks the store whether every file is as it was
        done = subprocess.run([sys.executable, "-m", "memwarden", "check", "--exit-zero", "."], cwd=root,
                              capture_output=True, timeout=60, env={**os.environ, "MEMWARDEN_PREVIEW": "1"})
        assert done.returncode == 0, done.stderr


def test_the_code_fingerprint_covers_every_module_of_the_package_wherever_the_store_sits():
    # The store moved into engine/cache/; a fingerprint taken from its own folder's parent would miss the rules,
    # and a changed rule would be answered from the cache.
    from pathlib import Path

    import memwarden
    from memwarden.engine.cache.tree_files import code_files
    from memwarden.rules import claims

    package = Path(memwarden.__file__).resolve().parent
    covered = set(code_files())
    assert Path(claims.__file__).resolve() in covered and package / "cli" / "main.py" in covered
    assert package / "rule_tiers.json" in covered
