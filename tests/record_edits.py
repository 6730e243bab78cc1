"""Edits that move a generated workspace's records among the others, shared by the tests of the store's
record indexes (test_repeat_index.py, test_conflict_index.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path


def split_front_matter(text: str) -> tuple[str, str]:
    """(front matter with its fences, body)."""
    if not text.startswith("---\n"):
        return "", text
    end = text.index("\n---", 4) + 4
    end = text.index("\n", end) + 1 if "\n" in text[end:] else len(text)
    return text[:end], text[end:]


def edit_log_lines(lines: list[str], rng: random.Random, what: str, episode) -> None:
    """A line deleted, an episode archived (or brought back), two records on one line (``episode(n)``: a record)."""
    if what == "delete-line":
        del lines[rng.randrange(len(lines))]
    elif what == "archive":
        index = rng.randrange(len(lines))
        record = json.loads(lines[index])
        record["decay_status"] = "archived" if record.get("decay_status") != "archived" else "active"
        lines[index] = json.dumps(record, ensure_ascii=False) + "\n"
    elif what == "two-on-a-line":
        lines.append(json.dumps(episode(3)) + " " + json.dumps(episode(4)) + "\n")


def edit_notes(notes: list[Path], rng: random.Random, what: str, step: int) -> None:
    """A note's date changed, a note copied, removed, superseded or no longer superseding."""
    if what == "note-date":  # a top-level date moves the note among the others (it wins over metadata's)
        target = rng.choice(notes)
        head, body = split_front_matter(target.read_text("utf-8"))
        day = f"20{rng.randint(20, 27)}-0{rng.randint(1, 9)}-0{rng.randint(1, 9)}"
        head = "".join(line for line in head.splitlines(keepends=True) if not line.startswith("updated:"))
        target.write_text(head.replace("---\n", f"---\nupdated: {day}\n", 1) + body, encoding="utf-8")
    elif what == "note-copy":
        source = rng.choice(notes)
        (source.parent / f"copy-{step}.md").write_bytes(source.read_bytes())
    elif what == "note-delete":
        rng.choice(notes).unlink()
    elif what in ("supersede", "unsupersede"):
        target, old = rng.sample(notes, 2)
        head, body = split_front_matter(target.read_text("utf-8"))
        if what == "supersede":
            head = head.replace("---\n", f"---\nsupersedes: {old.name}\n", 1)
        else:
            head = "".join(line for line in head.splitlines(keepends=True) if not line.startswith("supersedes:"))
        target.write_text(head + body, encoding="utf-8")
