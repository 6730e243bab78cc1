"""Where a secret sits in a structured file, and the edit that redacts it without changing what the file means.

secret-in-memory's unsafe fix: the JSON path of a value, whether the secret is a JSON key, and an edit that keeps
YAML a string, JSON inside its string and every key of an object distinct; an edit that would change the parsed
structure anywhere else is refused.
"""

from __future__ import annotations

from memwarden.documents import JsonlDocument, MarkdownDocument, YamlDocument, format_json_path
from memwarden.model import Edit


def json_path_at(doc, offset: int) -> str | None:
    """The JSON path of the value holding a text offset, for structured files."""
    try:
        if isinstance(doc, JsonlDocument):
            for record in doc.records:
                if record.ok and record.start <= offset < record.end:
                    spans = doc.positions(record).spans
                    relative = offset - record.start
                    inside = [p for p, (s, e, _) in spans.items() if s <= relative < e and (not p or p[0] != "\0dup")]
                    return format_json_path(max(inside, key=len)) if inside else None
            return None
        tree = doc.tree if isinstance(doc, YamlDocument) else getattr(doc, "front_matter_tree", None)
        if tree is None:
            return None
        inside = [p for p, span in tree.spans.items() if span.start_offset <= offset < span.end_offset]
        return format_json_path(max(inside, key=len)) if inside else None
    except (ValueError, IndexError, RecursionError):
        return None


def json_key_at(doc, start: int, end: int):
    """(record, JSON path) of the object key of a JSONL record that holds text[start:end]; None elsewhere."""
    if not isinstance(doc, JsonlDocument):
        return None
    import json

    try:
        for record in doc.records:
            if record.ok and record.start <= start < record.end:
                text = doc.text[record.start : record.end]
                for path, (_, _, key_at) in doc.positions(record).spans.items():
                    if key_at is None or (path and path[0] == "\0dup"):
                        continue
                    _, key_end = json.JSONDecoder().raw_decode(text, key_at)
                    if record.start + key_at <= start and end <= record.start + key_end:
                        return record, path
                return None
    except (ValueError, IndexError, RecursionError):
        return None
    return None


def key_stays_unique(doc, key, edit: Edit) -> bool:
    """Whether the redacted key is a key no other member of its object has."""
    import json

    record, path = key
    text = doc.text[record.start : record.end]
    redacted = text[: edit.start - record.start] + edit.replacement + text[edit.end - record.start :]
    try:
        new_key, _ = json.JSONDecoder().raw_decode(redacted, doc.positions(record).spans[path][2])
    except (ValueError, KeyError):
        return False
    holder = _lookup(record.data, path[:-1])
    return isinstance(holder, dict) and new_key not in holder


def _yaml_data(doc):
    return doc.data if isinstance(doc, YamlDocument) else getattr(doc, "front_matter", None)


def _lookup(data, path):
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _yaml_scalar(doc, start: int, end: int):
    """(path, span) of the YAML string scalar that holds text[start:end]; None outside any (a comment)."""
    tree = doc.tree if isinstance(doc, YamlDocument) else getattr(doc, "front_matter_tree", None)
    if tree is None:
        return None
    data = _yaml_data(doc)
    best = None
    for path, span in tree.spans.items():
        if span.start_offset <= start and end <= span.end_offset and isinstance(_lookup(data, path), str):
            if best is None or span.end_offset - span.start_offset < best[1].end_offset - best[1].start_offset:
                best = (path, span)
    return best


def _in_front_matter(doc, offset: int) -> bool:
    if isinstance(doc, YamlDocument):
        return True
    if isinstance(doc, MarkdownDocument) and doc.front_matter_lines:
        return doc.line_col(offset)[0] <= doc.front_matter_lines[1]
    return False


def redaction_edit(doc, found, replacement: str, verify: bool) -> Edit | None:
    """The edit that redacts a secret, keeping the file's structure; None if no safe edit exists.

    In YAML a value that starts with '[' is a list, so a bare value is quoted; when
    ``verify`` is set (the fix may be applied) the result is parsed again and must
    differ from the original only in that one string.
    """
    plain = Edit(found.start, found.end, replacement)
    if not _in_front_matter(doc, found.start):
        return plain
    located = _yaml_scalar(doc, found.start, found.end)
    if located is None:  # a comment, or a value the data does not hold (a duplicated key's): nothing parsed changes
        edit = _quoted_if_it_starts_a_value(doc, found, replacement) or plain
        return edit if not verify or _keeps_structure(doc, None, edit, found, replacement) else None
    path, span = located
    candidates = []
    whole = found.start == span.start_offset and found.end == span.end_offset
    if span.style is None:  # a plain scalar: '[' would start a flow sequence, ', ' ends it in flow style
        if whole:
            candidates.append(Edit(found.start, found.end, f'"{replacement}"'))
        elif found.start > span.start_offset and not span.flow and not _in_flow(doc, span):
            candidates.append(plain)
        raw = doc.text[span.start_offset : span.end_offset]
        if "\n" not in raw:
            redacted = raw[: found.start - span.start_offset] + replacement + raw[found.end - span.start_offset :]
            candidates.append(Edit(span.start_offset, span.end_offset, _double_quoted(redacted)))
    else:
        candidates.append(plain)
    if not verify:
        return candidates[0] if candidates else None
    for edit in candidates:
        if _keeps_structure(doc, path, edit, found, replacement):
            return edit
    return None


def _quoted_if_it_starts_a_value(doc, found, replacement: str) -> Edit | None:
    """A quoted redaction for a secret that is a whole plain value on a line with no comment before it (a duplicated
    key's value has no span): bare, '[REDACTED…]' would read as a flow list. None when it is not such a value."""
    line_start = doc.text.rfind("\n", 0, found.start) + 1
    line_end = doc.text.find("\n", found.end)
    before = doc.text[line_start : found.start]
    after = doc.text[found.end : len(doc.text) if line_end < 0 else line_end]
    rest = after.strip()
    if "#" in before or (rest and not rest.startswith("#")):
        return None
    if before.strip() and not before.rstrip().endswith((":", "-")):
        return None
    return Edit(found.start, found.end, f'"{replacement}"')


def _in_flow(doc, span) -> bool:
    """A scalar inside [...] or {...}: the text before it on its line opens a flow collection."""
    line = doc.line_text(span.line)
    before = line[: span.column - 1]
    return before.count("[") > before.count("]") or before.count("{") > before.count("}")


def _double_quoted(value: str) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


def _keeps_structure(doc, path, edit: Edit, found, replacement: str) -> bool:
    """Re-parse the redacted text: nothing may change but the one string, which now holds the redaction."""
    import copy

    from memwarden.documents import load
    from memwarden.fixes.apply import apply_edits

    after = load(doc.root, doc.relpath, doc.kind, doc.encode(apply_edits(doc.text, [edit])))
    if not after.ok:
        return False
    before_data = _yaml_data(doc)
    after_data = _yaml_data(after)
    if path is None:
        return after_data == before_data
    new_value = _lookup(after_data, path)
    if not isinstance(new_value, str) or replacement not in new_value:
        return False
    expected = copy.deepcopy(before_data)
    holder = _lookup(expected, path[:-1]) if path else None
    if holder is None:
        return False
    holder[path[-1]] = new_value
    return after_data == expected
