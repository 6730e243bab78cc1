"""bench/secret_scan_speed.py runs and reports what it scanned: a generated tree of skill files (one GitHub token in
every fifty) and a folder's text files, both sides of the comparison on the same files. It times nothing here."""

from __future__ import annotations

import json
import random
import string
import subprocess
import sys

from conftest import REPO

BENCH = REPO / "bench" / "secret_scan_speed.py"


def run_bench(*args: str) -> dict:
    done = subprocess.run([sys.executable, str(BENCH), "--repeat", "1", *args], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_generated_tree_holds_the_keys_it_plants():
    report = run_bench("--files", "60")
    assert report["files"] == 60 and report["lines"] > 60 * 40
    assert report["detections"] >= 2  # files 7 and 57 carry a token
    assert report["memwarden_s"] > 0 and report["detect_secrets_s"] > 0 and report["ratio"] > 0


def test_a_folder_is_read_as_it_is(tmp_path):
    rng = random.Random(3)
    token = "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "deploy.md").write_text(f"# Deploy\n\nPush with {token}.\n", encoding="utf-8")
    (tmp_path / "notes" / "plain.md").write_text("# Plain\n\nNothing to see.\n", encoding="utf-8")
    (tmp_path / "image.png").write_bytes(b"\x89PNG\0\0")
    report = run_bench("--root", str(tmp_path))
    assert (report["files"], report["detections"]) == (2, 1)
    assert token not in json.dumps(report)
