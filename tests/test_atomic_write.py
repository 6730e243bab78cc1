"""Writes are atomic: `write_atomic` keeps modes and symlinks, and an interrupted write leaves the old file whole.

Interruptions are real where they can be (a process killed with SIGKILL in the
middle of a write, a folder the user may not write to) and monkeypatched
failures of os.fsync / os.replace / os.chmod / the data write where they
cannot be provoked otherwise.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO, write_files
from memwarden.engine.run import RunOptions, check_workspace
from memwarden.fixes import write as write_module
from memwarden.fixes.write import write_atomic
from memwarden.discover.workspace import open_workspace

TEMP_SUFFIX = ".memwarden-tmp"
OLD = b'{"ts": "2026-03-01T10:00:00Z", "type": "decision"}\n'
NEW = b'{"ts": "2026-03-02T10:00:00Z", "type": "lesson"}\n'


def listing(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


def mode_of(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


# -- modes, symlinks, temp files -----------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o600, 0o644, 0o755, 0o640])
def test_keeps_the_file_mode_and_leaves_no_temp_file(tmp_path, mode):
    path = tmp_path / "episodic.jsonl"
    path.write_bytes(OLD)
    os.chmod(path, mode)
    write_atomic(path, NEW)
    assert path.read_bytes() == NEW
    assert mode_of(path) == mode
    assert listing(tmp_path) == ["episodic.jsonl"]


def test_keeps_the_mode_whatever_the_umask(tmp_path):
    path = tmp_path / "fact.yml"
    path.write_bytes(OLD)
    os.chmod(path, 0o644)
    old_umask = os.umask(0o077)
    try:
        write_atomic(path, NEW)
    finally:
        os.umask(old_umask)
    assert mode_of(path) == 0o644 and path.read_bytes() == NEW


def test_a_new_file_gets_the_umask_mode_and_its_folders(tmp_path):
    path = tmp_path / "memory" / "_archive" / "restored.jsonl"
    old_umask = os.umask(0o022)
    try:
        write_atomic(path, NEW)
    finally:
        os.umask(old_umask)
    assert path.read_bytes() == NEW
    assert mode_of(path) == 0o644
    assert listing(path.parent) == ["restored.jsonl"]


def test_follows_a_symlink_and_keeps_the_link_a_link(tmp_path):
    real = tmp_path / "store" / "MEMORY.md"
    real.parent.mkdir()
    real.write_bytes(OLD)
    os.chmod(real, 0o600)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    link = workspace / "MEMORY.md"
    link.symlink_to(Path("..") / "store" / "MEMORY.md")
    write_atomic(link, NEW)
    assert link.is_symlink() and os.readlink(link) == os.path.join("..", "store", "MEMORY.md")
    assert real.read_bytes() == NEW and link.read_bytes() == NEW
    assert mode_of(real) == 0o600
    assert listing(workspace) == ["MEMORY.md"] and listing(real.parent) == ["MEMORY.md"]


def test_follows_a_chain_of_symlinks(tmp_path):
    real = tmp_path / "real.md"
    real.write_bytes(OLD)
    (tmp_path / "middle.md").symlink_to("real.md")
    (tmp_path / "front.md").symlink_to("middle.md")
    write_atomic(tmp_path / "front.md", NEW)
    assert (tmp_path / "front.md").is_symlink() and (tmp_path / "middle.md").is_symlink()
    assert real.read_bytes() == NEW
    assert listing(tmp_path) == ["front.md", "middle.md", "real.md"]


def test_many_writes_leave_one_file(tmp_path):
    path = tmp_path / "scratchpad.md"
    path.write_bytes(OLD)
    for n in range(50):
        write_atomic(path, f"line {n}\n".encode())
    assert path.read_bytes() == b"line 49\n"
    assert listing(tmp_path) == ["scratchpad.md"]


# -- a write that fails half-way (in process) -----------------------------------------------------


def _fail(exception):
    def fail(*args, **kwargs):
        raise exception

    return fail


@pytest.mark.parametrize(
    "target, exception",
    [
        ("fsync", OSError(errno.EIO, "Input/output error")),
        ("replace", OSError(errno.EXDEV, "Invalid cross-device link")),
        ("chmod", PermissionError(errno.EPERM, "Operation not permitted")),
        ("fsync", KeyboardInterrupt()),  # Ctrl-C in the middle: BaseException, not Exception
    ],
    ids=["fsync-eio", "replace-exdev", "chmod-eperm", "fsync-ctrl-c"],
)
def test_a_failed_step_leaves_the_original_and_no_temp_file(tmp_path, monkeypatch, target, exception):
    path = tmp_path / "episodic.jsonl"
    path.write_bytes(OLD)
    os.chmod(path, 0o640)
    before = listing(tmp_path)
    monkeypatch.setattr(write_module.os, target, _fail(exception))
    with pytest.raises(type(exception)):
        write_atomic(path, NEW * 1000)
    monkeypatch.undo()
    assert path.read_bytes() == OLD
    assert mode_of(path) == 0o640
    assert listing(tmp_path) == before


def test_a_disk_full_in_the_middle_of_the_data_leaves_the_original(tmp_path, monkeypatch):
    """Half the bytes reach the temp file, then ENOSPC: the original is untouched and the half file is gone."""
    path = tmp_path / "fact.yml"
    path.write_bytes(OLD)
    real_fdopen = os.fdopen
    written: list[int] = []

    class HalfThenFull:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()
            return False

        def write(self, data):
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            written.append(os.fstat(self.handle.fileno()).st_size)
            raise OSError(errno.ENOSPC, "No space left on device")

        def flush(self):
            self.handle.flush()

        def fileno(self):
            return self.handle.fileno()

    monkeypatch.setattr(write_module.os, "fdopen", lambda fd, *a, **k: HalfThenFull(real_fdopen(fd, *a, **k)))
    with pytest.raises(OSError) as raised:
        write_atomic(path, NEW * 10_000)
    monkeypatch.undo()
    assert raised.value.errno == errno.ENOSPC
    assert written and written[0] == len(NEW * 10_000) // 2  # the failure really came half-way
    assert path.read_bytes() == OLD
    assert listing(tmp_path) == ["fact.yml"]


def test_a_failed_write_during_a_fix_run_leaves_every_file_as_it_was(tmp_path, monkeypatch):
    """The engine's own write goes through write_atomic: a failing rename changes nothing on disk."""
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/episodic.jsonl": b'{"ts": "2026-03-01T10:00:00+08:00"}\n\n{"ts": "2026-03-02T10:00:00+08:00"}',
    })
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    monkeypatch.setattr(write_module.os, "replace", _fail(OSError(errno.EIO, "Input/output error")))
    from memwarden.errors import UsageError

    with pytest.raises(UsageError, match="cannot write .*episodic.jsonl"):
        check_workspace(open_workspace(root, "three-layer"),
                        RunOptions(select=["malformed-jsonl"], fix=True, cwd=root))
    monkeypatch.undo()
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before


# -- a process killed in the middle of a write --------------------------------------------------------

# The child stops inside write_atomic right after the data is written to the temp file and
# before the rename (os.fsync is where it waits), so the kill lands at the worst moment.
_STALL_CHILD = """
import os, sys, time
from pathlib import Path
from memwarden.fixes import write

def stall(fd):
    sys.stdout.write("written\\n")
    sys.stdout.flush()
    time.sleep(120)

write.os.fsync = stall
write.write_atomic(Path(sys.argv[1]), b"N" * int(sys.argv[2]))
"""

_BIG_CHILD = """
import sys
from pathlib import Path
from memwarden.fixes.write import write_atomic
data = b"N" * int(sys.argv[2])
sys.stdout.write("start\\n")
sys.stdout.flush()
write_atomic(Path(sys.argv[1]), data)
"""


def _child(script: str, path: Path, size: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.Popen([sys.executable, "-c", script, str(path), str(size)], stdout=subprocess.PIPE, env=env)


def _temp_files(folder: Path) -> list[str]:
    return [name for name in listing(folder) if name.endswith(TEMP_SUFFIX)]


def test_sigkill_after_the_data_is_written_leaves_the_original_byte_identical(tmp_path):
    path = tmp_path / "episodic.jsonl"
    path.write_bytes(OLD)
    os.chmod(path, 0o600)
    child = _child(_STALL_CHILD, path, 4_000_000)
    try:
        assert child.stdout.readline() == b"written\n"
        child.send_signal(signal.SIGKILL)
        assert child.wait(timeout=30) == -signal.SIGKILL
    finally:
        child.kill()
        child.stdout.close()
    assert path.read_bytes() == OLD and mode_of(path) == 0o600
    leftovers = _temp_files(tmp_path)
    # The temp file is the only other thing there: hidden, named after the file, never a memory file.
    assert set(listing(tmp_path)) == {"episodic.jsonl", *leftovers} and len(leftovers) <= 1
    assert all(name.startswith(".episodic.jsonl.") for name in leftovers)
    from memwarden.discover.profiles import PROFILES

    for profile in PROFILES.values():
        assert all(profile.classify(f"memory/{name}") is None and profile.classify(name) is None for name in leftovers)


# The child writes 64 MB in one go; the kill lands while the data is still going to disk.
_BIG_CHILD = """
import sys
from pathlib import Path
from memwarden.fixes import write
sys.stdout.write("start\\n")
sys.stdout.flush()
write.write_atomic(Path(sys.argv[1]), b"N" * int(sys.argv[2]))
"""


def test_sigkill_in_the_middle_of_a_big_write_leaves_old_or_new_never_half(tmp_path):
    path = tmp_path / "episodic.jsonl"
    path.write_bytes(OLD)
    size = 64 * 1024 * 1024
    child = _child(_BIG_CHILD, path, size)
    try:
        assert child.stdout.readline() == b"start\n"
        time.sleep(0.05)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    finally:
        child.kill()
        child.stdout.close()
    content = path.read_bytes()
    assert content == OLD or content == b"N" * size


def test_sigkill_in_the_middle_of_a_write_leaves_no_stray_temp_file(tmp_path):
    """A SIGKILL between the temp file and the rename leaves `.NAME.PID.xxxxxxxx.memwarden-tmp` (nothing can
    run in the killed process): the next write in that folder, in another process, removes it, since the
    pid in its name is gone. Only that: a look-alike that is a symlink (its target untouched), names that
    only end like ours, and a temp file of a process still running are kept."""
    path = tmp_path / "episodic.jsonl"
    path.write_bytes(OLD)
    child = _child(_STALL_CHILD, path, 1000)
    try:
        assert child.stdout.readline() == b"written\n"
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        child.kill()
        child.stdout.close()
    [stale] = _temp_files(tmp_path)
    assert stale.startswith(f".episodic.jsonl.{child.pid}.")
    target = tmp_path / "target.md"
    target.write_bytes(OLD)
    keep = {
        f".notes.md.{child.pid}.abcdefgh{TEMP_SUFFIX}": None,  # a symlink named like a dead write's temp file
        f"notes.md.{child.pid}.abcdefgh{TEMP_SUFFIX}": b"x",  # not hidden: not ours
        f".notes.md.{child.pid}.abc{TEMP_SUFFIX}": b"x",  # not mkstemp's 8 characters
        f".notes.md.{os.getppid()}.abcdefgh{TEMP_SUFFIX}": b"x",  # its process (pytest's parent) is alive
        f".notes.md.{child.pid}.abcdefgh.memwarden-tmp.bak": b"x",
    }
    for name, data in keep.items():
        if data is None:
            (tmp_path / name).symlink_to(target)
        else:
            (tmp_path / name).write_bytes(data)
    later = subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; "
                            "from memwarden.fixes.write import write_atomic; write_atomic(Path(sys.argv[1]), b'new')",
                            str(tmp_path / "other.md")], capture_output=True, timeout=60)
    assert later.returncode == 0, later.stderr
    assert stale not in listing(tmp_path)
    assert set(keep) <= set(listing(tmp_path)) and target.read_bytes() == OLD and path.read_bytes() == OLD
    assert (tmp_path / "other.md").read_bytes() == b"new"


def test_a_temp_file_older_than_an_hour_is_stale_whoever_has_its_pid_now(tmp_path):
    """A pid is reused: a temp file of a dead write whose pid now names a live process (here: this one's
    parent), or one named before the pid was in the name, goes once it is older than STALE_AFTER; a fresh
    one of the old naming stays (its write may be running)."""
    from memwarden.fixes import write

    old = [f".a.md.{os.getppid()}.abcdefgh{TEMP_SUFFIX}", f".b.md.abcdefgh{TEMP_SUFFIX}"]
    fresh = f".c.md.abcdefgh{TEMP_SUFFIX}"
    for name in [*old, fresh]:
        (tmp_path / name).write_bytes(b"x")
    past = time.time() - write.STALE_AFTER - 60
    for name in old:
        os.utime(tmp_path / name, (past, past))
    assert sorted(write.sweep(tmp_path)) == sorted(old)
    assert listing(tmp_path) == [fresh]
    assert write.sweep(tmp_path) == []  # once per folder and process


# -- folders memwarden may not write to ------------------------------------------------------------


@pytest.fixture
def read_only():
    """read_only(folder) makes a folder unwritable (0555) until the test ends."""
    changed: list[Path] = []

    def make(folder: Path) -> Path:
        folder.chmod(0o555)
        changed.append(folder)
        return folder

    yield make
    for folder in changed:
        folder.chmod(0o755)


def _memwarden_unprivileged(read_only_folder: Path):
    """run(*args, cwd) for memwarden as a user the folder's permissions apply to.

    As root chmod does not stop a write, so memwarden runs as `nobody` in a user namespace
    (unshare -U); everything the test wants writable is opened up to others first.
    """
    if os.geteuid() != 0:
        prefix: list[str] = []
    elif shutil.which("unshare") and subprocess.run(["unshare", "-U", "true"], capture_output=True).returncode == 0:
        prefix = ["unshare", "-U"]
    else:
        pytest.skip("needs a non-root user or user namespaces to make a folder read-only")
    root = read_only_folder
    while root.parent != root and not (root / "memory").exists() and root.name != "ws":
        root = root.parent
    for directory, dirnames, filenames in os.walk(root):
        if Path(directory) != read_only_folder and read_only_folder not in Path(directory).parents:
            os.chmod(directory, 0o777)
        for name in filenames:
            os.chmod(os.path.join(directory, name), 0o666)
    for parent in root.parents:
        if os.stat(parent).st_mode & 0o005 != 0o005:
            os.chmod(parent, os.stat(parent).st_mode | 0o005)

    def run(*args, cwd: Path):
        env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "MEMWARDEN_NO_CACHE": "1", "MEMWARDEN_NO_PROGRESS": "1"}
        return subprocess.run([*prefix, sys.executable, "-m", "memwarden", *args], cwd=cwd, env=env,
                              capture_output=True, timeout=120)

    return run


def _over_budget_gish(root: Path) -> Path:
    """A gish workspace whose startup index is over a small budget, so the shelving fix has work to do."""
    entries = "".join(
        f'- "the deploy said done but step {i} never ran" → [n{i}](memory/knowledge/feedback/n{i}.md)\n'
        for i in range(8)
    )
    files = {
        "MEMORY.md": "# Memory\n\n" + entries,
        ".memwarden.toml": "[rules.index-over-budget]\nmax = 300\nedge = 2000\n",
    }
    for i in range(8):
        files[f"memory/knowledge/feedback/n{i}.md"] = (
            f"---\nname: n{i}\ndescription: d\nmetadata:\n  type: feedback\n  updated: 2026-01-01\n---\nBody.\n"
        )
    return write_files(root, files)


def test_a_fix_across_two_files_loses_nothing_when_the_second_cannot_be_written(tmp_path, read_only):
    root = _over_budget_gish(tmp_path / "ws")
    before = (root / "MEMORY.md").read_bytes()
    run = _memwarden_unprivileged(read_only(root / "memory" / "knowledge"))
    done = run("check", "--select", "index-over-budget", "--fix", "--unsafe-fixes", ".", cwd=root)
    assert done.returncode == 2, done.stderr
    assert (root / "MEMORY.md").read_bytes() == before


def test_a_read_only_folder_is_named_as_the_memory_file_that_cannot_be_written(tmp_path, read_only):
    raw = b'{"ts": "2026-03-01T10:00:00+08:00"}\n\n{"ts": "2026-03-02T10:00:00+08:00"}'
    root = write_files(tmp_path / "ws", {"memory/scratchpad.md": "# pad\n", "memory/episodic.jsonl": raw})
    run = _memwarden_unprivileged(read_only(root / "memory"))
    done = run("check", "--profile", "three-layer", "--select", "malformed-jsonl", "--fix", ".", cwd=root)
    stderr = done.stderr.decode("utf-8", "replace")
    assert "internal error" not in stderr and TEMP_SUFFIX not in stderr
    assert "memory/episodic.jsonl" in stderr


# -- a file changed on disk since it was read is never replaced (issue 11, item 11) ---------------


def _stamp(path: Path) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_size, info.st_mtime_ns


def test_a_file_changed_since_it_was_read_is_not_replaced_and_nothing_is_written(tmp_path):
    from memwarden.fixes.write import ChangedOnDisk, ReadAs, write_all_atomic

    log, facts = tmp_path / "episodic.jsonl", tmp_path / "fact.yml"
    log.write_bytes(OLD)
    facts.write_bytes(b"a: 1\n")
    read_as = {log: ReadAs(OLD, _stamp(log)), facts: ReadAs(b"a: 1\n", _stamp(facts))}
    log.write_bytes(OLD + NEW)  # appended meanwhile
    with pytest.raises(ChangedOnDisk) as raised:
        write_all_atomic([(facts, b"a: 2\n"), (log, NEW)], read_as)
    assert raised.value.path == log and "size" in raised.value.reason
    assert log.read_bytes() == OLD + NEW and facts.read_bytes() == b"a: 1\n"
    assert listing(tmp_path) == ["episodic.jsonl", "fact.yml"]


@pytest.mark.parametrize("change", ["same size", "mtime only", "created", "deleted"])
def test_every_kind_of_change_since_the_read_is_seen(tmp_path, change):
    from memwarden.fixes.write import ReadAs, change_since

    path = tmp_path / "episodic.jsonl"
    if change == "created":
        assert change_since(path, ReadAs(None)) is None
        path.write_bytes(NEW)
        assert change_since(path, ReadAs(None)) is not None
        return
    path.write_bytes(OLD)
    read_as = ReadAs(OLD, _stamp(path))
    assert change_since(path, read_as) is None
    if change == "same size":
        path.write_bytes(OLD.replace(b"decision", b"lessonXX"))
        os.utime(path, ns=(read_as.stamp[1], read_as.stamp[1]))  # even with the old mtime: the hash differs
        assert change_since(path, read_as) == "its content changed"
    elif change == "mtime only":
        os.utime(path, ns=(read_as.stamp[1] + 10**9, read_as.stamp[1] + 10**9))
        assert change_since(path, read_as) == "its modification time changed"
    else:
        path.unlink()
        assert change_since(path, read_as) == "it was deleted"


def test_write_changes_skips_a_changed_file_and_every_file_a_fix_moved_lines_with(tmp_path):
    from types import SimpleNamespace

    from memwarden.engine.fixing import FileChange, write_changes

    for name in ("log.jsonl", "archive.jsonl", "other.yml"):
        (tmp_path / name).write_bytes(OLD)
    changes = [FileChange(name, OLD, NEW, _stamp(tmp_path / name)) for name in ("log.jsonl", "archive.jsonl", "other.yml")]
    (tmp_path / "archive.jsonl").write_bytes(OLD + OLD)
    applied = [frozenset({"log.jsonl", "archive.jsonl"}), frozenset({"other.yml"})]
    skipped = write_changes(SimpleNamespace(root=tmp_path), changes, applied)
    assert [(s.relpath, s.along) for s in skipped] == [("archive.jsonl", ("log.jsonl",))]
    assert "archive.jsonl changed on disk" in skipped[0].message and "log.jsonl" in skipped[0].message
    assert (tmp_path / "log.jsonl").read_bytes() == OLD  # moved-from file kept: the move did not happen
    assert (tmp_path / "archive.jsonl").read_bytes() == OLD + OLD
    assert (tmp_path / "other.yml").read_bytes() == NEW
