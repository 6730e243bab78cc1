"""What a Markdown memory file says about its repository: the paths, commands and symbols it names.

Read from inline code, fenced code blocks (commands only), link targets and, for paths, prose.
HTML comments are skipped. Every mention keeps its offset in the file's text, so a finding points
at the line and column where it is written.
"""

from __future__ import annotations

import bisect
import re
import shlex
from dataclasses import dataclass, replace

from memwarden.analysis.negation.denial import denies
from memwarden.documents.scan import code_spans, comment_spans, fence_spans, has_scheme, inside, markdown_links
from memwarden.patterns import LazyPattern

# A path's characters; a path in prose needs a '/' between two names (`src/ui/`, `scripts/deploy.sh`).
_PROSE_PATH = LazyPattern(r"(?<![\w./@:~$-])(?:\./)?[A-Za-z0-9_][\w.-]*(?:/[\w.-]+)+/?(?![\w/@])")
_SEGMENT = LazyPattern(r"^[\w.+-]+$")
# A line that tells of a removal or a move is history, not a claim that the path is there.
# "Deleted", "removed", "discarded", "renamed" in Japanese, Chinese and Korean, for a line and for a list's label.
# Not "移动" (also "mobile"); in Russian, not "удалённый" ("remote").
_REMOVED_CJK = r"削除|删除|刪除|移除|廃止|废弃|重命名|삭제|제거|폐기"
_HISTORY_WORDS = LazyPattern(
    r"\b(?:delet|remov|renam|mov|replac|migrat|deprecat|legacy|former|old|used to|no longer|was |were |gone|drop"
    r"|archiv|obsolete|instead of|not exist|doesn't exist|does not exist|never)"
    rf"|{_REMOVED_CJK}|廢棄|改名|迁移|遷移|移行|удал(?:ён|ен|ены|ена|ено|или|ил|ение)\b"
    r"|переимен|перенес|\b(?:entfernt|gelöscht|umbenannt|supprimé|renommé|eliminad|rimoss|eliminat)", re.IGNORECASE)
# A list's label that says what follows was removed ("**Deleted files (confirmed gone):**", "Deleted in Sprint 11:"):
# each item of the list is a record of the removal. Narrower than the line's words: a label covers many lines.
_REMOVAL_LABEL = LazyPattern(
    rf"\b(?:deleted|removed|renamed|moved|dropped|retired|archived|gone|no longer)\b|{_REMOVED_CJK}"
    r"|удал(?:ён|ен|ены|ено|или)\b", re.IGNORECASE)
_LIST_ITEM = LazyPattern(r"[ \t]*(?:[-*+]|\d{1,3}[.)])\s")
_LABEL = LazyPattern(r"^\s*(?:#{1,6}\s.*|.*[:：]\**\s*)$")
_LABEL_REACH = 200  # lines walked up a list to its label: a bound, so a long list costs no more than its length
# A line that says a path lives outside the repository: its absence from HEAD is what the note says.
_OUT_OF_REPO_WORDS = LazyPattern(
    r"(?:\bgit-?ignored\b|\bignored by git\b|\bephemeral\b|\.gitignore\b|\bout-of-repo\b|\boutside (?:the |this )?repo"
    r"|\b(?:un|not |no |never )tracked\b|\bnot (?:checked in|committed)\b|\bnot in (?:git|the repo)|\blocal[- ]only\b"
    r"|不提交|未提交|未追踪|未跟踪|不追踪|不跟踪|不在仓库|不在倉庫|不納入版本|不纳入版本|被忽略)", re.IGNORECASE)
# A name followed by an arrow to another (`launcher/Old/` → `launcher/New/`): the line records a rename.
_RENAMED_TO = LazyPattern(r"[^\s`'\"]+[`'\"]?[ \t]{0,3}(?:→|⟶|⇒|->|=>)[ \t]{0,3}[`'\"]?[\w~-]*[./]")
# Words that say a command is planned, not there yet: "(when implemented)", "add script to package.json".
_NOT_YET = LazyPattern(
    r"(?i)\b(?:(?:when|if|once|after)\s+(?:it\s+is\s+|it's\s+)?(?:implemented|added|available|created|set\s+up)"
    r"|add\s+(?:the\s+|a\s+)?(?:script|target|task)|to\s+be\s+(?:added|implemented|created|written)"
    r"|not\s+(?:yet\s+)?(?:implemented|added|defined|created)|planned|TODO)\b")
# A specific symbol: a call written as one (`validateSession()`, `auth.check_token()`), or a CamelCase name.
_CALL = LazyPattern(r"^(?:[A-Za-z_]\w*\.)*(?P<name>[A-Za-z_]\w*)\(\)$")
_CAMEL = LazyPattern(r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+){2,}$")
_COMMAND_SPLIT = LazyPattern(r"&&|\|\||[;|]")
_PROMPT = LazyPattern(r"^\s*(?:\$|>|#)\s+")


@dataclass(frozen=True)
class Mention:
    offset: int  # in the file's text
    value: str  # the path, the symbol, or the command's words joined by spaces
    history_context: bool = False  # the line tells of a removal or move
    also_at: tuple[int, ...] = ()  # where the same claim is written again: a link's target that repeats its text


@dataclass(frozen=True)
class Command:
    offset: int
    words: tuple[str, ...]
    elsewhere: bool = False  # after a `cd` out of the repository (`cd ~/other-app && npm run dev`) in its span or block
    not_yet: bool = False  # said to be planned or asked about: "# Run unit tests (when implemented)", "`npm test`?"

    @property
    def text(self) -> str:
        return " ".join(self.words)


def _blank(text: str, spans) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


class Scan:
    """A body's code spans, fences and links, found once and shared by every kind of mention."""

    def __init__(self, text: str, body_start: int):
        self.text = _blank(text, [(s, e) for s, e in comment_spans(text) if s >= body_start])
        self.body_start = body_start
        self.fences = fence_spans(self.text, body_start)
        self.inline = [(s, e) for s, e in code_spans(self.text, body_start) if not inside(self.fences, s)]

    def inline_code(self):
        """(offset, content) of each inline code span, backticks dropped."""
        for start, end in self.inline:
            raw = self.text[start:end]
            ticks = len(raw) - len(raw.lstrip("`"))
            content = raw[ticks : len(raw) - ticks] if len(raw) > 2 * ticks else ""
            lead = len(content) - len(content.lstrip())
            yield start + ticks + lead, content.strip()

    def fence_blocks(self):
        """Each fenced code block's lines, as (offset, line) (the fence lines left out)."""
        for start, end in self.fences:
            lines = self.text[start:end].split("\n")
            offset = start + len(lines[0]) + 1
            block = []
            for line in lines[1:]:
                if line.lstrip().startswith(("```", "~~~")):
                    break
                block.append((offset, line))
                offset += len(line) + 1
            yield block

    def history_context(self, offset: int) -> bool:
        """Whether the prose of offset's line tells of a removal or move, or the line is an item of a list whose
        label does ("**Deleted files:**" over `- tests/old.py`)."""
        return bool(_HISTORY_WORDS.search(self.line_prose(offset))) or self._under_removal_label(offset)

    def _under_removal_label(self, offset: int) -> bool:
        start = self.text.rfind("\n", 0, offset) + 1
        if not _LIST_ITEM.match(self.text, start):
            return False
        blanks = 0
        for _ in range(_LABEL_REACH):  # up the list, to the first line that is no item of it
            if start <= self.body_start:
                return False
            above = self.text.rfind("\n", 0, start - 1) + 1
            line = self.text[above:start - 1]
            start = above
            if not line.strip():
                blanks += 1
                if blanks > 1:
                    return False  # two blank lines end the list
                continue
            blanks = 0
            if not _LIST_ITEM.match(line) and not line.startswith((" ", "\t")):
                return bool(_LABEL.match(line)) and bool(_REMOVAL_LABEL.search(self.line_prose(above)))
        return False

    def renamed_from(self, offset: int) -> bool:
        """Whether the name written at offset is followed by an arrow to another name: the old name of a rename."""
        return _RENAMED_TO.match(self.text, offset) is not None

    def kept_out_of_repo(self, offset: int) -> bool:
        """Whether the prose of offset's line says what it names lives outside the repository ("`PLAN.md`
        (gitignored)", "`cover.py` (out-of-repo)"): its deletion from the history agrees with the note."""
        return bool(_OUT_OF_REPO_WORDS.search(self.line_prose(offset)))

    def line_prose(self, offset: int) -> str:
        """Offset's line with the names written on it (code spans, paths) blanked: `src/legacy/` or
        `old_util.py` is a name, not a word about the past."""
        start = self.text.rfind("\n", 0, offset) + 1
        end = self.text.find("\n", offset)
        end = end if end >= 0 else len(self.text)
        first = bisect.bisect_left(self.inline, (start, start))
        spans = []
        for span_start, span_end in self.inline[first:]:
            if span_start >= end:
                break
            spans.append((span_start - start, min(span_end, end) - start))
        return _PROSE_PATH.sub(lambda match: " " * len(match.group()), _blank(self.text[start:end], spans))

    def denies(self, offset: int) -> bool:
        """Whether the clause that names something at offset says it is not there or forbids it ("There is no
        `db.rs`", "Do not use `unstable_cache()`"): no claim that it exists."""
        return denies(self.text, offset)


def _clean_path(candidate: str) -> str | None:
    """The repository path a written path means ('./a/b' -> 'a/b', 'a/b:12' -> 'a/b'), or None if it is not one."""
    value = candidate.strip().strip("'\"").rstrip(".,;:)")
    value = re.sub(r"(?::\d+){1,2}$", "", value)  # file.py:12 or file.py:12:3
    value = value.split("#", 1)[0]
    if value.startswith("./"):
        value = value[2:]
    if not value or value.startswith(("/", "~", "-", "..", "$", "%", "@")) or has_scheme(value) or "//" in value:
        return None
    parts = value.rstrip("/").split("/")
    if any(not part or not _SEGMENT.match(part) or part in (".", "..") or set(part) <= {"."} for part in parts):
        return None
    if len(parts) == 1 and "." not in parts[0].strip("."):
        return None  # a bare word: not decidable as a path
    if any(mark in value for mark in ("...", "<", ">", "*", "{", "}", "[", "]")):
        return None
    return value


def path_mentions(scan: Scan, note_dir: str) -> list[Mention]:
    """Paths the body names: whole inline code spans, local link targets (from the note's folder), prose paths."""
    found: list[Mention] = []  # inline code
    targets: list[tuple[int, Mention]] = []  # (where the link starts, its target)
    for offset, content in scan.inline_code():
        if " " in content:
            continue
        value = _clean_path(content)
        if value is not None:
            found.append(Mention(offset, value, scan.history_context(offset)))
    for link in markdown_links(scan.text, scan.body_start):
        target = link.target.strip("<>").split("#", 1)[0].split("?", 1)[0]
        if not target or has_scheme(target) or target.startswith("/"):
            continue
        joined = f"{note_dir}/{target}" if note_dir else target
        parts: list[str] = []
        for part in joined.split("/"):
            if part == "..":
                if not parts:
                    parts = ["\0"]
                    break
                parts.pop()
            elif part not in ("", "."):
                parts.append(part)
        value = _clean_path("/".join(parts)) if parts and "\0" not in parts else None
        if value is not None:
            at = link.target_start if link.target_start >= 0 else link.start
            targets.append((link.start, Mention(at, value, scan.history_context(at))))
    prose: list[Mention] = []
    skip = sorted([*scan.fences, *scan.inline])
    for match in _PROSE_PATH.finditer(scan.text, scan.body_start):
        if inside(skip, match.start()) or "/" not in match.group().strip("/"):
            continue
        value = _clean_path(match.group())
        if value is not None:
            prose.append(Mention(match.start(), value, scan.history_context(match.start())))
    return _one_claim_per_link(found, targets, prose)


def _one_claim_per_link(inline: list[Mention], targets: list[tuple[int, Mention]],
                        prose: list[Mention]) -> list[Mention]:
    """Inline code, link targets, prose paths, in that order; but [src/a.py](src/a.py) is one claim: a link's
    target that names the path its text names joins that mention (and the prose match of the target's words goes)."""
    written = inline + prose
    joined: set[int] = set()
    kept_targets = []
    for link_start, target in targets:
        same = next((i for i, m in enumerate(written) if link_start < m.offset < target.offset
                     and m.value == target.value), None)
        if same is None:
            kept_targets.append(target)
            continue
        written[same] = replace(written[same], also_at=(*written[same].also_at, target.offset))
        joined.add(target.offset)
    return written[: len(inline)] + kept_targets + [m for m in written[len(inline) :] if m.offset not in joined]


def commands(scan: Scan) -> list[Command]:
    """Shell commands written in inline code or code blocks, split at `&&`, `||`, `;` and `|`."""
    found: list[Command] = []
    blocks = [(True, [piece]) for piece in scan.inline_code()] + [(False, block) for block in scan.fence_blocks()]
    for inline, block in blocks:
        elsewhere = False
        comment = ""  # a block's comment line just above ("# Run unit tests (when implemented)")
        for offset, content in block:
            if inline:
                not_yet = (scan.text.startswith("`?", offset + len(content))
                           or _NOT_YET.search(scan.line_prose(offset)) is not None)
            else:
                not_yet = _NOT_YET.search(f"{comment} {content.partition(' #')[2]}") is not None
                # `# npm test` may be a root prompt too: the line is read as a command as well
                comment = content if content.lstrip().startswith("#") else "" if content.strip() else comment
            stripped = _PROMPT.sub("", content)
            offset += len(content) - len(stripped)
            position = 0
            for part in _COMMAND_SPLIT.split(stripped):
                at = offset + stripped.find(part, position)
                position += len(part)
                try:
                    words = tuple(shlex.split(part, comments=True))
                except ValueError:
                    continue
                while words and "=" in words[0] and not words[0].startswith("-"):
                    words = words[1:]  # FOO=1 npm test
                if words[:1] == ("cd",):
                    # An absolute or home path leaves the repository: what runs there is another project's.
                    elsewhere = len(words) > 1 and words[1].startswith(("/", "~", "$"))
                elif words:
                    found.append(Command(at + len(part) - len(part.lstrip()), words, elsewhere, not_yet))
    return found


def symbol_mentions(scan: Scan) -> list[Mention]:
    """Symbols named specifically enough to decide: a whole inline code span that is a call (`validateSession()`,
    `auth.check_token()`) of a name with a capital inside or an underscore, or a CamelCase name of three parts."""
    found: list[Mention] = []
    for offset, content in scan.inline_code():
        call = _CALL.match(content)
        name = call.group("name") if call else content if _CAMEL.match(content) else None
        if name is None or len(name) < 6:
            continue
        if call and not (re.search(r"[a-z][A-Z]", name) or "_" in name.strip("_")):
            continue
        found.append(Mention(offset + content.rfind(name), name, scan.history_context(offset)))
    return found
