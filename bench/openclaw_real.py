#!/usr/bin/env python3
"""Measure memwarden on real OpenClaw workspaces that are NOT copied into this repository (batch 6a).

The workspaces live in public GitHub repositories of any licence, so nothing of theirs is committed
here: only their names, the commit measured, and per finding the path, line, rule and a judge's
verdict.  This script re-creates the measurement from those records.

Inputs (in ``bench/judged/`` unless told otherwise):

``openclaw_6a_sources.tsv`` (or any later measure-only batch's ``*_sources.tsv``, given with
``--sources``; several batches at once: ``--sources A.tsv B.tsv --judged ...``)
    one repository a row, with a header: ``repo  split  commit  workspace  kind  files  note``.
    ``repo`` is ``OWNER__NAME``; ``split`` is ``dev`` or ``test`` (fixed by the name alone:
    ``test`` when ``int(sha256("owner/name").hexdigest()[:8], 16)`` is even); ``workspace`` is the
    OpenClaw workspace folder inside the repository (``.`` for the root); ``files`` the number of
    workspace files at that commit.
``openclaw_6a_dev.tsv``, ``openclaw_6a_test.tsv``
    the judged findings, with a header: ``repo  commit  path  line  rule  default  verdict  note``.
    ``verdict`` is ``true``, ``false`` or ``debatable`` (empty: not judged yet); ``default`` is
    ``yes`` when the finding appears without ``--preview``.  Rows with rule ``EXPECTED-CLAIM`` and
    verdict ``expected`` list the negative claims a reader found by hand (``default`` is ``-``);
    recall counts those matched by a ``negative-claim-without-expiry`` finding on the same path and
    line.  Rows with rule ``EXPECTED-SECRET`` list the lines that hold a live credential's value
    (the note describes it, never copies it); recall counts those a ``secret-in-memory`` finding
    names on the same path and line.

For each repository the script uses a clone (``--clones DIR`` holding ``OWNER__NAME/``, used as
it is; else ``--cache DIR``: ``https://github.com/OWNER/NAME`` is cloned there once and the
recorded commit checked out), and runs, from the **repository root** as a new user would::

    MEMWARDEN check --format json --no-cache --exit-zero --today 2026-12-02 [--preview]

with ``GIT_CEILING_DIRECTORIES`` set to the clone's parent folder (so git never takes an
enclosing repository for the workspace's).  Without ``--preview`` only the default (stable)
rules run.  With ``--preview`` it runs both ways: every finding of the preview run is marked
``default`` when the default run reports it too, and the tables are printed twice (default
findings; all findings).

Findings are joined with the judged rows by (repo, path, rule, line).  Printed per split and per
rule: found / true / false / debatable / unjudged / precision (true / (true + false)), then the
same over all rules, then the expected-claims recall.

Examples::

    python bench/openclaw_real.py --clones /tmp/oc6/clones --memwarden "/path/to/venv/bin/memwarden" \\
        --preview --split all
    python bench/openclaw_real.py --cache ~/.cache/oc6 --preview --split dev \\
        --write-unjudged /tmp/unjudged.tsv --repo OWNER__NAME

``--write-counts [FILE]`` (with ``--split all --preview``, every repository and the default judged
files) writes the per-rule, per-split found / true / false / debatable / unjudged counts of every
finding of the ``--preview`` run to FILE (default ``bench/judged/openclaw_6a_counts.tsv``), in the
format ``bench/realmem.py --write-tiers`` adds to its own counts before the one tier policy decides.

``--findings DIR`` reads each repository's ``--preview`` report from ``DIR/OWNER__NAME.json`` (the
command above, run from its root by the same build) instead of running memwarden: a recount of many
batches from one run, with the --preview tables and ``--write-counts`` only.

``--write-unjudged FILE`` appends the findings no judged row covers (one row per key, verdict
empty), in the judged TSVs' columns, ready to be judged and moved into them.  ``--markdown``
prints the tables as Markdown.  Standard library only, but for the one list of known secret formats
(a part's findings are also counted as `rule#part`: bench/judging.py, part_of).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shlex
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import judging  # noqa: E402  bench/judging.py: the counts file's one reader and writer, and what a part is
JUDGED = HERE / "judged"
TODAY = "2026-12-02"
CLAIM_RULE = "negative-claim-without-expiry"
# A reader's hand-found rows, and the rule whose findings on the same path and line recall them.
EXPECTED = {"EXPECTED-CLAIM": CLAIM_RULE, "EXPECTED-SECRET": "secret-in-memory"}
COLUMNS = ["repo", "commit", "path", "line", "rule", "default", "verdict", "note"]


def read_tsv(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as fh:
        return [dict(r) for r in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)]


def clone_for(repo: str, commit: str, clones: Path | None, cache: Path | None) -> Path:
    if clones is not None:
        path = clones / repo
        if not path.is_dir():
            sys.exit(f"no clone of {repo} in {clones}")
        head = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
        if commit and head != commit:
            print(f"warning: {repo} is at {head[:12]}, the sources name {commit[:12]}", file=sys.stderr)
        return path
    assert cache is not None
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / repo
    if not path.is_dir():
        owner, name = repo.split("__", 1)
        subprocess.run(["git", "clone", "-q", f"https://github.com/{owner}/{name}", str(path)], check=True)
    if commit:
        subprocess.run(["git", "-C", str(path), "checkout", "-q", commit], check=True)
    return path


def run_memwarden(cmd: list[str], root: Path, preview: bool) -> list[dict]:
    env = dict(os.environ)
    env["GIT_CEILING_DIRECTORIES"] = str(root.resolve().parent)
    argv = cmd + ["check", "--format", "json", "--no-cache", "--exit-zero", "--today", TODAY]
    if preview:
        argv += ["--preview", *judging.every_rule_args()]
    proc = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"memwarden failed in {root} ({proc.returncode}): {proc.stderr[-2000:]}")
    return json.loads(proc.stdout).get("findings", [])


def key(repo: str, f: dict) -> tuple[str, str, str, str]:
    return (repo, f["path"], f["name"], str(f.get("line") or 0))


def table(rows: list[tuple[str, str]], markdown: bool, title: str) -> str:
    """rows: (rule, verdict) per finding; verdict '' when unjudged."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for rule, verdict in rows:
        # A part's row (rule#part) counts its rule's findings again: it is shown, never added to the total.
        for name in (rule,) if "#" in rule else (rule, "**all**" if markdown else "ALL"):
            counts[name]["found"] += 1
            counts[name][verdict or "unjudged"] += 1
    head = ["rule", "found", "true", "false", "debatable", "unjudged", "precision"]
    lines = []
    names = sorted(n for n in counts if n not in ("ALL", "**all**")) + [n for n in ("ALL", "**all**") if n in counts]
    body = []
    for name in names:
        c = counts[name]
        judged = c["true"] + c["false"]
        p = f"{c['true'] / judged:.2f}" if judged else "-"
        body.append([name, str(c["found"]), str(c["true"]), str(c["false"]), str(c["debatable"]),
                     str(c["unjudged"]), p])
    if markdown:
        lines.append(f"#### {title}\n")
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "---|" * len(head))
        lines += ["| " + " | ".join(r) + " |" for r in body] or ["| (none) |" + " |" * (len(head) - 1)]
    else:
        lines.append(f"== {title}")
        lines.append("  ".join(f"{h:>9}" if i else f"{h:<32}" for i, h in enumerate(head)))
        for r in body or [["(none)", "0", "0", "0", "0", "0", "-"]]:
            lines.append("  ".join(f"{v:>9}" if i else f"{v:<32}" for i, v in enumerate(r)))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sources", type=Path, nargs="+", default=[JUDGED / "openclaw_6a_sources.tsv"],
                    help="sources TSVs, one or more batches (default: openclaw_6a_sources.tsv)")
    ap.add_argument("--judged", type=Path, nargs="*", default=None,
                    help="judged TSVs (default: openclaw_6a_dev.tsv and openclaw_6a_test.tsv)")
    ap.add_argument("--clones", type=Path, help="a folder holding OWNER__NAME/ clones, used as they are")
    ap.add_argument("--cache", type=Path, help="clone from GitHub into this folder (when --clones is not given)")
    ap.add_argument("--memwarden", default="memwarden", help="the command to run (default: memwarden on PATH)")
    ap.add_argument("--preview", action="store_true", help="run every rule too, and mark each finding default or not")
    ap.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--repo", action="append", help="only this OWNER__NAME (repeatable)")
    ap.add_argument("--skip-missing", action="store_true",
                    help="leave out a repository with no clone in --clones, or no report in --findings (named on stderr), "
                         "instead of stopping")
    ap.add_argument("--write-unjudged", type=Path, help="append the unjudged findings to this TSV")
    ap.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    ap.add_argument("--findings", type=Path, metavar="DIR",
                    help="read each repository's --preview findings from DIR/OWNER__NAME.json, the JSON report of the "
                         "same command run from its root, instead of running memwarden (a recount of many batches "
                         "from one run): only the --preview tables and counts, no default run")
    ap.add_argument("--write-counts", nargs="?", const=JUDGED / "openclaw_6a_counts.tsv", type=Path, metavar="FILE",
                    help="write per-rule, per-split counts for the tier table (needs --split all --preview)")
    args = ap.parse_args(argv)
    if args.findings is not None:
        args.preview = True
    if args.write_counts and (args.split != "all" or not args.preview or args.repo):
        ap.error("--write-counts measures both halves with every rule: give --split all --preview, and drop --repo")
    if args.clones is None and args.cache is None:
        args.cache = Path.home() / ".cache" / "memwarden-openclaw-6a"

    sources = [s for path in args.sources for s in read_tsv(path)
               if (args.split == "all" or s["split"] == args.split) and (not args.repo or s["repo"] in args.repo)]
    if args.skip_missing and (args.clones is not None or args.findings is not None):
        missing = [s["repo"] for s in sources if not ((args.findings / f"{s['repo']}.json").is_file() if args.findings
                                                      else (args.clones / s["repo"]).is_dir())]
        if missing:
            print(f"left out, no clone: {len(missing)} repositories: {' '.join(missing)}", file=sys.stderr)
        sources = [s for s in sources if s["repo"] not in missing]
    judged_files = args.judged if args.judged else [JUDGED / "openclaw_6a_dev.tsv", JUDGED / "openclaw_6a_test.tsv"]
    verdicts: dict[tuple[str, str, str, str], str] = {}
    expected: list[dict[str, str]] = []
    for jf in judged_files:
        for r in read_tsv(jf):
            if r["rule"] in EXPECTED:
                expected.append(r)
                continue
            verdicts[(r["repo"], r["path"], r["rule"], r["line"])] = (r.get("verdict") or "").strip()

    cmd = shlex.split(args.memwarden)
    modes = ("preview",) if args.findings else ("default", "preview") if args.preview else ("default",)
    per_split: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    recalled: dict[str, set[tuple[str, str, str, str]]] = {m: set() for m in modes}
    unjudged: dict[tuple[str, str, str, str], list[str]] = {}
    for s in sources:
        repo, split = s["repo"], s["split"]
        if args.findings is not None:
            report = args.findings / f"{repo}.json"
            if not report.is_file():
                sys.exit(f"no findings of {repo}: {report} is missing")
            default, found = [], {"preview": json.loads(report.read_text(encoding="utf-8")).get("findings", [])}
        else:
            root = clone_for(repo, s.get("commit", ""), args.clones, args.cache)
            default = run_memwarden(cmd, root, preview=False)
            found = {"default": default}
            if args.preview:
                found["preview"] = run_memwarden(cmd, root, preview=True)
        default_keys = {key(repo, f) for f in default}
        print(f"{repo} ({split}): {len(default)} default, "
              + (f"{len(found['preview'])} preview findings" if args.preview else "default run only"),
              file=sys.stderr)
        for mode in modes:
            for f in found[mode]:
                k = key(repo, f)
                verdict = verdicts.get(k, "")
                for name in judging.count_names(f["name"], f.get("message", "")):
                    per_split[(split, mode)].append((name, verdict))
                    per_split[("all", mode)].append((name, verdict))
                if f["name"] in EXPECTED.values():
                    recalled[mode].add((f["name"], repo, f["path"], k[3]))
                if k not in verdicts and k not in unjudged:
                    unjudged[k] = [repo, s.get("commit", ""), k[1], k[3], k[2],
                                   "yes" if k in default_keys else "no", "", ""]

    splits = ["dev", "test", "all"] if args.split == "all" else [args.split]
    out = []
    for split in splits:
        for mode in modes:
            label = "default rules" if mode == "default" else "all rules (--preview)"
            out.append(table(per_split.get((split, mode), []), args.markdown, f"{split}: {label}"))
    if args.preview and not args.findings:
        # The keep-rate: the share of every true finding that the default (stable) rules report.
        for split in splits:
            kept = sum(1 for r, v in per_split.get((split, "default"), []) if v == "true" and "#" not in r)
            every = sum(1 for r, v in per_split.get((split, "preview"), []) if v == "true" and "#" not in r)
            share = f"{kept / every:.2f}" if every else "-"
            out.append(f"true findings the default rules keep, {split}: {kept}/{every} = {share}\n")
    repos = {s["repo"] for s in sources}
    split_of = {s["repo"]: s["split"] for s in sources}
    for row_rule, rule in EXPECTED.items():
        what = "claims" if row_rule == "EXPECTED-CLAIM" else "secrets"
        for split in splits:
            exp = [e for e in expected if e["rule"] == row_rule and e["repo"] in repos
                   and (split == "all" or split_of[e["repo"]] == split)]
            if not exp and row_rule != "EXPECTED-CLAIM":
                continue
            for mode in modes:
                hit = sum(1 for e in exp if (rule, e["repo"], e["path"], e["line"]) in recalled[mode])
                rec = f"{hit / len(exp):.2f}" if exp else "-"
                out.append(f"recall of expected {what}, {split}, {mode}: {hit}/{len(exp)} = {rec}\n")
    print("\n".join(out))

    if args.write_counts:
        by_name: dict[str, dict] = {split: {} for split in judging.SPLITS}
        for split in judging.SPLITS:
            for rule, verdict in per_split.get((split, "preview"), []):
                counter = by_name[split].setdefault(rule, Counter())
                counter["found"] += 1
                counter[verdict if verdict in ("true", "false", "debatable") else "unjudged"] += 1
        judging.write_counts(args.write_counts, by_name)
        print(f"per-rule counts written to {args.write_counts}", file=sys.stderr)

    if args.write_unjudged and unjudged:
        new = not args.write_unjudged.exists() or args.write_unjudged.stat().st_size == 0
        with args.write_unjudged.open("a", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE, escapechar="\\")
            if new:
                w.writerow(COLUMNS)
            for row in sorted(unjudged.values(), key=lambda r: (r[0], r[2], int(r[3]), r[4])):
                w.writerow(row)
        print(f"{len(unjudged)} unjudged findings appended to {args.write_unjudged}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
