"""Each rule's tier, stable or preview, read from the table the benchmark writes (rule_tiers.json).

A rule is on by default only when it is stable: measured right on real memory (bench/realmem.py
`--write-tiers` decides, by the policy written into the table, and is the only writer). Every other
rule, a rule the table does not name included (a new rule lands in preview), runs only with
`--preview`, `preview = true`, or when named exactly in `select`; a deprecated rule (measured wrong
nearly always, as ruff deprecates) only when named exactly. The table is read once, when a
run first needs a tier; a missing or damaged table is a clear error, never a silent change of
what runs.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path

from memwarden.errors import UsageError

TABLE = Path(__file__).with_name("rule_tiers.json")
STABLE, PREVIEW, DEPRECATED = "stable", "preview", "deprecated"


@dataclass(frozen=True)
class Tier:
    """A rule's tier and what it was measured at: judged true and false findings, dev and test pooled, and
    the held-out (test) half's alone, which the policy reads first."""

    name: str
    true: int = 0
    false: int = 0
    held_out_true: int = 0
    held_out_false: int = 0
    part: "Tier | None" = None  # the tier of the rule's part (rule.part), measured on its own

    @property
    def judged(self) -> int:
        return self.true + self.false

    @property
    def precision(self) -> float | None:
        return self.true / self.judged if self.judged else None

    @property
    def held_out_judged(self) -> int:
        return self.held_out_true + self.held_out_false

    @property
    def held_out_precision(self) -> float | None:
        return self.held_out_true / self.held_out_judged if self.held_out_judged else None

    @property
    def measured(self) -> str:
        """`0.93 held out (n=61); 0.89 (n=90)`, the pooled part alone when no held-out finding was judged, or
        `unmeasured` when no finding of the rule was judged true or false."""
        if not self.judged:
            return "unmeasured"
        pooled = f"{self.precision:.2f} (n={self.judged})"
        if not self.held_out_judged:
            return pooled
        return f"{self.held_out_precision:.2f} held out (n={self.held_out_judged}); {pooled}"


def read_table(path: Path) -> dict[str, Tier]:
    """Every rule the table names, with its tier; a UsageError when the table is missing or damaged."""
    damaged = f"{path}: the rule tier table is damaged"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{path}: the rule tier table is missing; reinstall memwarden") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise UsageError(f"{damaged} ({error}); reinstall memwarden") from None
    rules = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(rules, dict):
        raise UsageError(f"{damaged} (no \"rules\" table); reinstall memwarden")
    tiers = {}
    for name, entry in rules.items():
        parts = entry.get("parts") if isinstance(entry, dict) else None
        if parts is not None and not (isinstance(parts, dict) and len(parts) == 1):
            raise UsageError(f"{damaged} (rule {name!r} has a damaged part); reinstall memwarden")
        part = _entry(damaged, name, *next(iter(parts.items()))) if parts else None
        tiers[name] = _entry(damaged, name, "", entry, part)
    return tiers


def _entry(damaged: str, name: str, part_name: str, entry, part: "Tier | None" = None) -> Tier:
    entry = entry if isinstance(entry, dict) else {}
    pooled = entry.get("all") if isinstance(entry.get("all"), dict) else {}
    held_out = entry.get("test") if isinstance(entry.get("test"), dict) else {}
    counts = [pooled.get(key) for key in ("true", "false")] + [held_out.get(key, 0) for key in ("true", "false")]
    if entry.get("tier") not in (STABLE, PREVIEW, DEPRECATED) or not all(type(c) is int and c >= 0 for c in counts):
        what = f"rule {name!r}" + (f" (its part {part_name!r})" if part_name else "")
        raise UsageError(f"{damaged} ({what} has no tier or counts); reinstall memwarden")
    return Tier(entry["tier"], *counts, part=part)


@functools.lru_cache(maxsize=None)
def table() -> dict[str, Tier]:
    """The shipped table, read once per process (it changes only with the package).

    MEMWARDEN_TIER_TABLE names another table in the same format: the tests of selection and of the
    hooks' fixes use a table of their own, so they hold whatever the next measurement decides.
    """
    other = os.environ.get("MEMWARDEN_TIER_TABLE")
    return read_table(Path(other) if other else TABLE)


def tier_of(name: str) -> Tier:
    """The tier of a rule by name; a rule the table does not name is preview, unmeasured."""
    return table().get(name, Tier(PREVIEW))


def is_stable(name: str) -> bool:
    return tier_of(name).name == STABLE


def runs_whole_in_a_group(name: str, preview: bool) -> bool:
    """Whether `ALL` or a code prefix takes the whole rule: a stable one always, a preview one with preview on, a
    deprecated one never (only its exact name does)."""
    tier = tier_of(name).name
    return tier == STABLE or (preview and tier == PREVIEW)


def runs_in_a_group(name: str, preview: bool) -> bool:
    """Whether `ALL` or a code prefix takes the rule at all: whole, or only its stable part."""
    return runs_whole_in_a_group(name, preview) or stable_part(name)


def shown(name: str) -> str:
    """The tier as lists show it: `stable part` for a rule whose part alone is stable."""
    return "stable part" if stable_part(name) else tier_of(name).name


def stable_part(name: str) -> bool:
    """Whether the rule's part is stable while the rule is not: by default only that part runs."""
    tier = tier_of(name)
    return tier.name != STABLE and tier.part is not None and tier.part.name == STABLE


def described(name: str, code: str, part_name: str | None = None) -> str:
    """A rule's tier in a sentence, with its numbers and, for a preview rule, how to turn it on."""
    tier = tier_of(name)
    if tier.held_out_judged:
        numbers = (f"precision {tier.held_out_precision:.2f} over {tier.held_out_judged} judged findings in held-out "
                   f"real memory, {tier.precision:.2f} over all {tier.judged}")
    elif tier.judged:
        numbers = f"precision {tier.precision:.2f} over {tier.judged} judged findings in real memory"
    else:
        numbers = "unmeasured: no finding of it judged in real memory yet"
    if tier.name == STABLE:
        return f"Tier: stable ({numbers}): on by default."
    if stable_part(name):
        part = tier.part
        return (f"Tier: stable for its {part_name} part (precision {part.held_out_precision or 0:.2f} over "
                f"{part.held_out_judged} judged findings in held-out real memory, {part.precision or 0:.2f} over all "
                f"{part.judged}): on by default. The rest is preview ({numbers}): with `--preview`, `preview = true`, "
                f"or naming it (`select = [\"{name}\"]`, `--extend-select {code}`) it runs whole.")
    if tier.name == DEPRECATED:
        return (f"Tier: deprecated ({numbers}): nearly every finding was wrong, so not even `--preview` runs it; "
                f"only naming it does: `select = [\"{name}\"]` (or `--extend-select {code}`).")
    return (f"Tier: preview ({numbers}): off by default; turn it on with `--preview`, `preview = true` in the "
            f"config, or by naming it: `select = [\"{name}\"]` (or `--extend-select {code}`).")
