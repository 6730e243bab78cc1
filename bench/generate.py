"""Synthetic Ghost In Shell workspaces the size of a real year of use, and multiples of it.

1x is what the Ghost In Shell article reports after a year: about 1,000 episodes,
570 knowledge notes and a 16,000-character startup index, in English and CJK.
10x and 100x multiply the episodes, notes and shelf entries; the startup index
keeps its size (it is capped by the budget, shelves take the growth).

    python bench/generate.py OUT_DIR --scale 1
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path

EPISODES_1X = 1_000
NOTES_1X = 570
INDEX_CHARS = 16_000
SHELVES = {"feedback": "feedback", "projects": "project", "references": "reference", "user": "user"}
TYPES = ["decision", "failure", "milestone", "insight", "pitfall", "lesson", "bugfix", "setup", "discovery"]
TAGS = ["deploy", "cache", "testing", "ci", "memory", "index", "export", "api", "security", "docs",
        "python", "r", "statistics", "hooks", "multi-cli", "release", "database", "migration"]
EN = [
    "The deploy tool reported success but the live page still showed the old build.",
    "Zero errors in the acceptance run, yet the service exited before the load step.",
    "A formatter hook removed the line right after the editor saved it.",
    "Read the final state where the user sees it, with a cache-buster.",
    "The checker had unit tests but no call site outside them.",
    "Count call sites after removing definitions and tests before trusting a gate.",
    "Consolidation merged three setup notes and archived the sources.",
    "The research agent found no evidence for the assumed parent company.",
]
CJK = [
    "部署工具回報成功，但使用者看到的還是快取裡的舊版。",
    "錯誤數是 0，但服務在載入之前就已經結束了。",
    "搜尋一次沒找到，不代表資料不存在，要附上試過的關鍵字。",
    "整合前先提案，審查評為 A 到 C 才套用。",
    "上線前先拿真實資料跑一輪，不要直接設成會擋人的閘門。",
    "交接時還沒驗證的想法寫成問句，不要寫成陳述句。",
    "記憶裡的否定句是有日期的快照。",
    "启动索引只放每个任务都可能碰到的铁律。",
]
TRIGGERS_EN = [
    "The tool said it succeeded, so it is done",
    "Zero errors, so the run was clean",
    "That check already exists, we wrote it last month",
    "It blocked me, but I never passed that flag",
    "The search found nothing, so it does not exist",
    "The other agent's answer matches what I expected",
]
TRIGGERS_CJK = [
    "工具說成功了，應該好了吧",
    "錯誤數是 0，所以沒問題",
    "那道檢查我們早就寫好了",
    "記憶裡寫著這個工具不支援",
    "另一個 agent 交回來的結論，跟我想的一模一樣",
    "來壓縮記憶索引吧，裡面一定很多過時條目",
]


def _fingerprint(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def episode(rng: random.Random, number: int) -> dict:
    cjk = number % 3 == 0
    sentences = CJK if cjk else EN
    content = " ".join(rng.sample(sentences, 2))
    title = content[:40] if cjk else content.split(".")[0][:60]
    day = 1 + number % 28
    month = 1 + (number // 28) % 12
    record = {
        "id": f"ep_{number:08d}",
        "ts": f"2026-{month:02d}-{day:02d}T{number % 24:02d}:{number % 60:02d}:00+08:00",
        "type": rng.choice(TYPES),
        "title": title,
        "content": content,
        "tags": rng.sample(TAGS, 3),
        "importance": rng.randint(1, 10),
        "fingerprint": _fingerprint(f"{number}:{content}"),
        "decay_status": "active",
        "retrieval": {"count": rng.randint(0, 20), "last_accessed": None, "strength": round(rng.random(), 2)},
    }
    return record


def note(rng: random.Random, shelf: str, number: int) -> str:
    cjk = number % 3 == 0
    sentences = CJK if cjk else EN
    body = "\n\n".join(" ".join(rng.sample(sentences, 3)) for _ in range(3))
    slug = f"note-{number:05d}"
    return (
        f"---\nname: {slug}\ndescription: {rng.choice(sentences)[:80]}\nmetadata:\n"
        f"  type: {SHELVES[shelf]}\n  updated: 2026-{1 + number % 12:02d}-{1 + number % 28:02d}\n"
        f"  confidence: 0.{rng.randint(5, 9)}\n  expires: 2027-{1 + number % 12:02d}-01\n---\n\n{body}\n"
    )


def generate(out: Path, scale: int = 1, seed: int = 5) -> dict:
    rng = random.Random(seed)
    memory = out / "memory"
    knowledge = memory / "knowledge"
    for shelf in SHELVES:
        (knowledge / shelf).mkdir(parents=True, exist_ok=True)
    (out / ".gish").mkdir(parents=True, exist_ok=True)
    (out / ".gish" / "config.yml").write_text("version: 5\nindex:\n  max_chars: 20000\n  truncate_edge_chars: 24400\n")
    (memory / "fact.yml").write_text(
        "schema_version: 1\nidentity:\n  name: Bench Agent\n  call_as: Agent\n  language: zh-TW\n"
        "  timezone: Asia/Taipei\n  last_updated: \"2026-10-01\"\npreferences:\n  communication:\n"
        "    - Lead with the answer.\nrules:\n  - Never delete memory; archive it.\ntools:\n  gish:\n"
        "    version: \"5.2.0\"\narchive: {}\n",
        encoding="utf-8",
    )
    episodes = EPISODES_1X * scale
    with (memory / "episodic.jsonl").open("w", encoding="utf-8") as log:
        for number in range(1, episodes + 1):
            log.write(json.dumps(episode(rng, number), ensure_ascii=False) + "\n")
    notes = []
    for number in range(NOTES_1X * scale):
        shelf = list(SHELVES)[number % len(SHELVES)]
        path = knowledge / shelf / f"note-{number:05d}.md"
        path.write_text(note(rng, shelf, number), encoding="utf-8")
        notes.append((shelf, path.name))
    # Startup index: entries until INDEX_CHARS, the rest on shelves.
    lines = ["# Memory Index\n\n## Tier 1 — rules you will not know you are breaking\n\n"]
    size = len(lines[0])
    shelved: dict[str, list[str]] = {shelf: [] for shelf in SHELVES}
    for i, (shelf, name) in enumerate(notes):
        trigger = (TRIGGERS_CJK if i % 2 else TRIGGERS_EN)[i % 6] + f" ({i})"
        startup = f'- "{trigger}" → [{name[:-3]}](memory/knowledge/{shelf}/{name})\n'
        if size + len(startup) < INDEX_CHARS - 400:
            lines.append(startup)
            size += len(startup)
        else:
            shelved[shelf].append(f'- "{trigger}" → [{name[:-3]}]({shelf}/{name})\n')
    lines.append("\n## Shelves\n\n")
    for shelf in SHELVES:
        lines.append(f'- "Looking up {shelf}" → [{shelf} shelf](memory/knowledge/INDEX_{shelf}.md)\n')
        (knowledge / f"INDEX_{shelf}.md").write_text(f"# {shelf} shelf\n\n" + "".join(shelved[shelf]), encoding="utf-8")
    (out / "MEMORY.md").write_text("".join(lines), encoding="utf-8")
    return {"episodes": episodes, "notes": len(notes), "index_chars": len("".join(lines))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args()
    print(generate(args.out, args.scale))


if __name__ == "__main__":
    main()
