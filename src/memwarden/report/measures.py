"""The numbers of `memwarden stats` and `memwarden budget` as JSON: what the CLI prints with --json and the MCP
server returns, built in one place, every quoted entry hidden and escaped as the text reports do."""

from __future__ import annotations

from memwarden.analysis.budget import STATUS_NAMES
from memwarden.text import escape_controls, excerpt


def measure_startup_index(ws):
    from memwarden.discover import startup_index
    from memwarden.rules.budget import budget_options

    settings = startup_index.resolve_settings(budget_options(ws.config), ws.profile.name, ws.root)
    measurement = startup_index.measure(ws, settings)
    return measurement if measurement.found else None


def counts(counter) -> dict:
    return {excerpt(str(key), 40): value for key, value in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))}


def stats_json(ws, s, measurement, day, within, shown) -> dict:
    worst = measurement.worst if measurement is not None else None
    return {
        "version": 1,
        "workspace": shown("."),
        "profile": ws.profile.name,
        "today": day.isoformat(),
        "within": within,
        "records": {
            "notes": {"total": s.notes, "by_type": counts(s.notes_by_type), "by_shelf": counts(s.notes_by_shelf)},
            "episodes": {"total": s.episodes, "archived": s.archived_episodes, "by_type": counts(s.episodes_by_type)},
            "facts": {"total": s.facts, "files": s.fact_files},
            "index_entries": {"total": s.index_entries,
                              "by_file": {shown(p): n for p, n in sorted(s.entries_by_index.items())}},
        },
        "tags": {
            "distinct": len(s.tag_uses),
            "top": [{"tag": excerpt(tag, 40), "uses": uses} for tag, uses in top_tags(s.tag_uses)],
            "entries": s.tagged_entries,
            "fewer_than_two": s.few_tags,
        },
        "claims": {
            "negative": s.claims_with_expires + s.claims_without_expires,
            "with_expires": s.claims_with_expires,
            "without_expires": s.claims_without_expires,
            "expired": len(s.expired),
            "expiring": len(s.expiring),
        },
        "expiring": [dict(d.to_json(), path=shown(d.path)) for d in by_date(s.expiring)],
        "expired": [dict(d.to_json(), path=shown(d.path)) for d in by_date(s.expired)],
        "orphans": [shown(p) for p in s.orphans],
        "unreadable": [shown(p) for p in s.unreadable],
        "budget": None if worst is None else {
            "files": [shown(src.relpath) for src in measurement.sources],
            "preset": measurement.settings.preset.name, "unit": worst.limit.unit, "used": worst.used,
            "max": worst.limit.max, "edge": worst.limit.edge, "status": STATUS_NAMES[worst.status],
        },
    }


def top_tags(counter) -> list[tuple[str, int]]:
    from memwarden.engine.stats import TOP_TAGS

    return sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_TAGS]


def by_date(dated) -> list:
    return sorted(dated, key=lambda d: (d.expires, d.path, d.line))


def hide_past_edge(measurement) -> None:
    """Entries past the edge quote the index: hide every secret found in their file, escape control characters."""
    from dataclasses import replace

    from memwarden.analysis.secrets import hider

    hiders = {}
    for gauge in measurement.gauges:
        shown = []
        for entry in gauge.past_edge:
            if entry.path not in hiders:
                source = next((s for s in measurement.sources if s.relpath == entry.path), None)
                hiders[entry.path] = hider(source.text, "index" if source.index is not None else "markdown") \
                    if source is not None else (lambda quoted: "[memwarden: hidden]" if quoted else quoted)
            hide = hiders[entry.path]

            def safe(quoted: str, hide=hide) -> str:
                return escape_controls(hide(quoted))

            shown.append(replace(
                entry, triggers=tuple(safe(t) for t in entry.triggers), title=safe(entry.title),
                target=safe(entry.target), text=safe(entry.text),
            ))
        gauge.past_edge = shown


def budget_json(measurement, shown) -> dict:
    worst = measurement.worst
    settings = measurement.settings
    return {
        "version": 1,
        "files": [shown(s.relpath) for s in measurement.sources],
        "preset": settings.preset.name,
        "unit": worst.limit.unit,
        "used": worst.used,
        "max": worst.limit.max,
        "edge": worst.limit.edge,
        "headroom": worst.headroom,
        "status": STATUS_NAMES[worst.status],
        "exit_code": worst.status,
        "past_edge": [dict(e.to_json(), path=shown(e.path)) for e in worst.past_edge],
        "other_cut_lines": worst.other_cut_lines,
        "limits": [
            {"unit": g.limit.unit, "used": g.used, "max": g.limit.max, "edge": g.limit.edge, "headroom": g.headroom,
             "status": STATUS_NAMES[g.status],
             **({"measured": shown(g.label) if g.label in {s.relpath for s in measurement.sources} else g.label}
                if g.label else {})}
            for g in measurement.gauges
        ],
        "notes": list(settings.notes),
    }
