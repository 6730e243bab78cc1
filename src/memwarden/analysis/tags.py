"""Normal forms shared by rules that must agree on when two values are the same."""

from __future__ import annotations


def normalize_tag(tag: str) -> str:
    return tag.strip().lower()


def normalized_tags(tags: list) -> list[str]:
    """Distinct, non-empty, normalised string tags, in first-seen order."""
    seen: dict[str, None] = {}
    for tag in tags:
        if isinstance(tag, str):
            value = normalize_tag(tag)
            if value:
                seen.setdefault(value, None)
    return list(seen)
