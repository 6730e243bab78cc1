"""Finding secrets in a memory file's text, with detect-secrets' detectors and our own.

The text is scanned line by line, which covers front matter, YAML values, JSON
strings, prose, HTML comments and code blocks alike; the string values of JSON
lines that hold escapes (``\\n``, ``\\"``, ``\\u0041``) are also decoded and
scanned, and what is found there is mapped back to the raw characters.

detect-secrets keeps its settings in a process-wide singleton. Every scan here
runs inside its ``transient_settings`` with an explicit plugin list and no
filters, so nothing a caller (or detect-secrets' own CLI) configured leaks in,
and nothing leaks out. detect-secrets is imported only inside these functions.

Lines are cut into bounded, overlapping windows before any detector sees them,
and a long word made of many secret-like names is thinned out first: some of
detect-secrets' regexes backtrack quadratically on such input, and a window
bounds that cost, so a 100,000-character line scans in linear time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memwarden.analysis.secrets import blobs, forms, patterns, plugins, public_ids, values
from memwarden.analysis.secrets.detection import Detection, ScanStats, digest_of
from memwarden.analysis.secrets.gate import MAY_HOLD_SECRET, may_hold_secret  # noqa: F401 (tests replace it here)
from memwarden.analysis.secrets.patterns import SecretType
from memwarden.patterns import LazyPattern
from memwarden.analysis.secrets.lines import (
    assigned_occurrence, decode_json_literal, dotted_url_password, extend_jwt, inside, json_literals, key_identity,
    looks_like_path, non_overlapping, password_assignments, pieces, public_blocks, url_segments, secret_span, sublines,
    spelled_labels, thin_keywords, url_password, url_user, windows, word_around,
)

MAX_PER_LINE = 200  # a line with more detections than this is not scanned further
MAX_RESCANS = 16  # keyword detection finds one match per search; search again after it

_KEYWORD_STEMS = ("key", "pass", "pwd", "secret", "contrase")  # every secret-like name lines.thin_keywords knows holds one
_KEY_TAIL = LazyPattern(r"-{0,5}(?:[A-Za-z0-9+/=]|\\[nr]){0,20000}")


@dataclass
class _Hit:
    type: SecretType
    start: int  # offsets in the text
    end: int
    value: str
    extra: dict = field(default_factory=dict)


# -- scanning ------------------------------------------------------------------------


def scan_text(text: str, fmt: str, *, high_entropy: bool = True, stats: ScanStats | None = None) -> list[Detection]:
    """Every secret in ``text``, a memory file of format ``fmt`` (yaml, jsonl, markdown, index)."""
    return scan_texts([(text, fmt)], high_entropy=high_entropy, stats=stats)[0]


def scan_texts(items, *, high_entropy: bool = True, stats: ScanStats | None = None) -> list[list[Detection]]:
    """Detections for each (text, format), under one detect-secrets settings context (loaded only if needed)."""
    stats = stats or ScanStats()
    results: list[list[Detection]] = [[] for _ in items]
    todo = [(i, text, fmt) for i, (text, fmt) in enumerate(items)
            if may_hold_secret(text) or forms.may_join_secret(text, fmt)]
    if not todo:
        return results
    from detect_secrets.settings import get_plugins, transient_settings

    with transient_settings(plugins.plugin_config()):
        loaded = plugins.PluginSet([p for p in get_plugins() if type(p).__name__ not in plugins.SKIPPED_PLUGINS],
                                   high_entropy)
        for i, text, fmt in todo:
            results[i] = _Scan(text, fmt, loaded, stats).run()
    return results


class _Scan:
    def __init__(self, text: str, fmt: str, loaded: "plugins.PluginSet", stats: ScanStats, read_blobs: bool = True):
        self.text = text
        self.read_blobs = read_blobs  # a blob's decoded text is read once, not its blobs in turn
        self.fmt = fmt
        self.loaded = loaded
        self.keyword_plugins = loaded.keyword
        self.entropy_plugins = loaded.entropy
        self.regex_plugins = loaded.regex
        self.stats = stats
        self.line_starts = [0]
        index = text.find("\n")
        while index != -1:
            self.line_starts.append(index + 1)
            index = text.find("\n", index + 1)

    # -- lines ------------------------------------------------------------------
    def lines(self):
        """(line number, start offset, text without its line ending)."""
        text = self.text
        starts = self.line_starts
        for number, start in enumerate(starts, 1):
            end = starts[number] - 1 if number < len(starts) else len(text)
            line = text[start:end]
            if line.endswith("\r"):
                line = line[:-1]
            yield number, start, line

    def line_col(self, offset: int) -> tuple[int, int]:
        import bisect

        index = bisect.bisect_right(self.line_starts, offset) - 1
        return index + 1, offset - self.line_starts[index] + 1

    def line_text(self, number: int) -> str:
        starts = self.line_starts
        if not 1 <= number <= len(starts):
            return ""
        end = starts[number] - 1 if number < len(starts) else len(self.text)
        return self.text[starts[number - 1] : end].rstrip("\r")

    def run(self) -> list[Detection]:
        hits: list[_Hit] = []
        for number, start, line in self.lines():
            if line.strip():
                hits.extend(self.scan_line(line, start, json_raw=self.fmt == "jsonl"))
        if self.fmt == "jsonl":
            hits.extend(self.scan_json_strings())
        else:  # YAML, front matter: "\x41KIA..." is AKIA... once read
            hits.extend(self.scan_json_strings(yaml=True))
        hits.extend(self.scan_forms())
        return self.finish(hits)

    def scan_line(self, line: str, base: int, json_raw: bool = False) -> list[_Hit]:
        """Hits in one line; ``base`` is the line's offset in the text."""
        found: list[_Hit] = []
        if not MAY_HOLD_SECRET.search(line):
            return found
        # `**Token:** v`, `**パスワード**: v`, `mot de passe : v` read as `Token: v` by every detector; the same
        # length, so every offset still points into the line as written.
        line = spelled_labels(line, spaced_names=False)
        for window_start, window in windows(line):
            self.stats.windows += 1
            self.stats.characters += len(window)
            self.stats.longest_window = max(self.stats.longest_window, len(window))
            for hit in self.scan_window(window, line, window_start, json_raw):
                hit.start += base
                hit.end += base
                found.append(hit)
            if len(found) > MAX_PER_LINE:
                break
        if self.read_blobs:  # here, so every form of a line has its blobs read: a JSON string's `\/` decoded too
            found.extend(self.blob_hits(line, base))
        return found

    def blob_hits(self, line: str, base: int) -> list[_Hit]:
        """The secrets in the text each blob of a line decodes to (:mod:`blobs`), at their base64: any but a
        random-looking string, which in decoded data is an id or a hash far more often than a key."""
        hits = []
        for start, end, text in blobs.blobs(line):
            for found in _Scan(text, "markdown", self.loaded, self.stats, read_blobs=False).run():
                if found.type.confident:
                    first, last = blobs.encoded_span(text, found.start, found.end, end - start)
                    hits.append(_Hit(found.type, base + start + first, base + start + last,
                                     text[found.start : found.end], {"encoded": True}))
        return hits

    def scan_window(self, window: str, line: str, offset: int, json_raw: bool) -> list[_Hit]:
        hits: list[_Hit] = []
        lowered = window.lower()
        if any(word in lowered for word in _KEYWORD_STEMS):  # each keyword pattern needs one of these
            for plugin in self.keyword_plugins:
                hits.extend(self.keyword_hits(plugin, window, line, offset, json_raw))
        for plugin in self.entropy_plugins:
            hits.extend(self.entropy_hits(plugin, window, offset, line))
        gate = self.loaded.regex_gate  # one search: can any pattern without a required literal match here?
        gated = gate is None or gate.search(window) is not None
        for plugin in self.regex_plugins:
            if plugin.literal in window if plugin.literal is not None else gated:
                hits.extend(self.regex_hits(plugin, window, offset, json_raw))
        hits.extend(self.credential_key_hits(window, offset, json_raw))
        for start, value, quoted in password_assignments(window):
            if not quoted:
                found = self.unquoted_value(window, offset, start, value, patterns.KEYWORD_PASSWORD)
                if found is not None:
                    hits.extend(found)
                    continue
            if (json_raw and "\\" in value) or "://" in value or len(value) < 6 or not patterns.has_letters_and_digits(value):
                continue  # '(optional)', '[none]': words in brackets, not a password
            if patterns.is_placeholder(value) or patterns.is_reference(value):
                continue
            if quoted or patterns.is_line_key(line, offset + start):
                hits.append(_Hit(patterns.KEYWORD_PASSWORD, offset + start, offset + start + len(value), value))
        for detector in patterns.EXTRA_DETECTORS:
            for match in detector.regex.finditer(window):
                start, end = match.span(detector.group)
                value = match.group(detector.group)
                if json_raw and "\\" in value:
                    continue  # escaped content: the decoded pass sees it as it really is
                if patterns.is_placeholder(value):
                    continue
                if patterns.is_reference(value) and not dotted_url_password(detector, value):
                    continue
                if detector.needs_mixed and not (len(value) >= 6 and patterns.has_mixed_classes(value)):
                    continue
                if detector.type is patterns.KEYWORD_PASSWORD and values.is_cjk_sentence(window, start, value):
                    continue  # 密码是他常用的6个密码之一，...: a sentence about a password
                if detector.type.slug == "url-password" and url_user(window, start) == value:
                    continue
                hits.append(_Hit(detector.type, offset + start, offset + end, value))
        return hits

    def credential_key_hits(self, window: str, offset: int, json_raw: bool) -> list[_Hit]:
        """`pass: ...`, `access_token: ...`, `"apikey": "..."`: names detect-secrets' keyword list lacks."""
        lowered = window.lower()
        if not any(word in lowered for word in ("pass", "token", "apikey", "pat", "credential")):
            return []
        hits = []
        for match in patterns.CREDENTIAL_KEY.finditer(window):
            words = patterns.key_words(match.group("key"))
            last = words[-1] if words else ""
            if last not in patterns.PASSWORD_WORDS and last not in patterns.TOKEN_WORDS:
                continue
            if patterns.is_verdict_label(window[:match.start("key")], match.group("key")):
                continue
            value = match.group("secret")
            if value.endswith(("...", "…")):
                continue  # an elided value: 'sk-ant-api03-...'
            value = value.rstrip(".")
            if json_raw and "\\" in value:
                value = value.split("\\", 1)[0]
            if "://" in value or value.startswith(("/", "~", "./", "../", "$")):
                continue
            start = match.start("secret")
            if window[start - 1] not in "\"'`":
                found = self.unquoted_value(
                    window, offset, start, value,
                    patterns.KEYWORD_PASSWORD if last in patterns.PASSWORD_WORDS else patterns.KEYWORD_SECRET)
                if found is not None:
                    hits.extend(found)
                    continue
            if patterns.is_placeholder(value) or patterns.is_reference(value) or patterns.is_uuid_like(value):
                continue
            letters = any(c.isalpha() for c in value)
            digits = any(c.isdigit() for c in value)
            if last in patterns.PASSWORD_WORDS:
                if len(value) < 6 or not patterns.has_mixed_classes(value):
                    continue
                if last == "pass" and patterns.is_word_value(value):
                    continue  # `pass: audit-only`: which pass, not a password
                secret_type = patterns.KEYWORD_PASSWORD
            else:
                if len(value) < 12 or not (letters and digits):
                    continue
                secret_type = patterns.KEYWORD_SECRET
            hits.append(_Hit(secret_type, offset + start, offset + start + len(value), value))
            if len(hits) > MAX_PER_LINE:
                break
        return hits

    # -- detect-secrets' regex plugins ----------------------------------------------
    def regex_hits(self, plugin: "plugins.RegexPlugin", window: str, offset: int, json_raw: bool) -> list[_Hit]:
        """Spans of a regex plugin's patterns (its ``denylist``); its own ``analyze_string`` vets them if it has one."""
        secret_type = plugin.type
        hits = []
        for regex in plugin.denylist:
            for match in regex.finditer(window):
                start, end = secret_span(match)
                value = window[start:end]
                if not value:
                    continue
                if secret_type is patterns.PRIVATE_KEY:
                    hits.extend(self.private_key_hits(window, offset, start, value))
                    continue
                if plugin.vetted and not any(True for _ in plugin.plugin.analyze_string(match.group(0))):
                    continue
                if json_raw and "\\" in value:
                    value = value.split("\\", 1)[0]
                    end = start + len(value)
                if patterns.is_placeholder(value) or patterns.is_reference(value) or patterns.is_uuid_like(value):
                    continue
                if secret_type.slug == "artifactory-token" and not (len(value) >= 20 and patterns.has_mixed_classes(value)):
                    continue  # its 'AP...' pattern also matches words like APACHEKAFKACLUSTER
                if secret_type.slug == "jwt":
                    end = extend_jwt(window, end)
                if secret_type.slug == "azure-storage-key" and value.startswith("AccountKey="):
                    start += len("AccountKey=")
                if secret_type.slug == "url-password" and (
                        url_user(window, start) == value or patterns.is_placeholder(url_password(value))):
                    continue  # postgres:postgres@localhost, guest:guest@, user:pass@: a default or a stand-in
                hits.append(_Hit(secret_type, offset + start, offset + end, window[start:end]))
                if len(hits) > MAX_PER_LINE:
                    return hits
        return hits

    def private_key_hits(self, window: str, offset: int, start: int, marker: str) -> list[_Hit]:
        end = start + len(marker)
        dashes = window.rfind("-----", max(0, start - 6), start)
        start = dashes if dashes != -1 else start
        return [_Hit(patterns.PRIVATE_KEY, offset + start, offset + end, marker, {"block": True})]

    # -- keyword assignments ----------------------------------------------------------
    def keyword_hits(self, plugin, window: str, line: str, offset: int, json_raw: bool) -> list[_Hit]:
        """Values assigned to secret-like names. detect-secrets' keyword search returns one value per
        pattern, so search again after each; a pattern that found nothing in the rest of the window
        finds nothing in a shorter rest either (none is anchored), so it is not run again."""
        hits = []
        window = spelled_labels(window)
        searched = thin_keywords(window)
        active = dict(plugins.config_regexes())
        cursor = 0
        for _ in range(MAX_RESCANS):
            part = searched[cursor:]
            found = None
            for regex, group in list(active.items()):
                values = list(plugin.analyze_string(part, denylist_regex_to_group={regex: group}))
                if not values:
                    del active[regex]
                    continue
                start = assigned_occurrence(part, values[0])
                if start is not None and (found is None or start < found[0]):
                    found = (start, values[0])
            if found is None:
                break
            start = found[0] + cursor
            value = window[start : start + len(found[1])]
            cursor = start + max(len(value), 1)
            hit = self.keyword_value(window, line, offset, start, value, json_raw)
            if hit is not None:
                hits.append(hit)
        return hits

    def keyword_value(self, window: str, line: str, offset: int, start: int, value: str, json_raw: bool) -> _Hit | None:
        before = window[start - 1] if start > 0 else ""
        after = window[start + len(value)] if start + len(value) < len(window) else ""
        quoted = before in "\"'`" and before != "" and after == before
        if json_raw and "\\" in value:
            value = value.split("\\", 1)[0]
        if not quoted:
            value = value.split(None, 1)[0] if value.split() else ""
            if value.endswith(("...", "…")):
                return None  # an elided value: 'sk-ant-api03-...'
            value = value.rstrip(".,;")
            for opening, closing in ("()", "[]", "{}"):  # "(password: abc123)": the bracket is the sentence's
                if value.endswith(closing) and opening not in value:
                    value = value[:-1]
        if not value or any(c.isspace() for c in value) or "://" in value:
            return None  # a URL's password, if it has one, is the URL detectors' to find
        key = patterns.key_before(window, start)
        if key is None or patterns.is_about_secret(key):
            return None
        is_password = any(word in key.lower() for word in ("pass", "pwd", "contrase"))
        secret_type = patterns.KEYWORD_PASSWORD if is_password else patterns.KEYWORD_SECRET
        if not quoted:
            start, value = values.after_scheme(window, start, value) or (start, value)
            found = self.unquoted_value(window, offset, start, value, secret_type)
            if found is not None:
                return found[0] if found else None
        whole = window[start:].split(None, 1)[0].rstrip(".,;") if window[start:].split() else value
        if patterns.is_placeholder(value) or patterns.is_reference(value) or patterns.is_reference(whole):
            return None  # whole: detect-secrets stops at a quote, 'get_secret(' of 'get_secret("db")'
        structured = quoted or patterns.is_line_key(line, offset + start)
        if not structured and not (len(value) >= 6 and patterns.has_mixed_classes(value)):
            return None  # prose: "password: see the vault" is a sentence, not a password
        return _Hit(secret_type, offset + start, offset + start + len(value), value)

    def unquoted_value(self, window: str, offset: int, start: int, value: str, secret_type) -> list[_Hit] | None:
        """None when the bare value at ``window[start]`` is to be judged as it stands; else the hits it holds:
        none for words describing a secret or code that only reads one (:mod:`values`), the string literals
        of code that could evaluate to one (`getenv("KEY", "<default>")`)."""
        literals = values.code_literals(window, start)
        if literals is None:
            return [] if values.is_description(window, start, value) else None
        password = secret_type is patterns.KEYWORD_PASSWORD
        return [_Hit(secret_type, offset + at, offset + at + len(text), text)
                for at, text in literals if values.judged_literal(text, password=password)]

    # -- high-entropy strings -----------------------------------------------------------
    def entropy_hits(self, plugin: "plugins.EntropyPlugin", window: str, offset: int, line: str) -> list[_Hit]:
        hex_plugin = plugin.hex
        hits = []
        cursor = 0
        for run in plugin.runs(window):
            if len(run) < 16:
                continue  # too short to hold a piece worth measuring
            run_start = window.find(run, cursor)
            if run_start == -1:
                continue
            cursor = run_start + len(run)
            if blobs.is_blob(run) or plugin.cut_by_window(line, offset, window, run_start, cursor):
                continue  # a blob, or a run the next window sees whole: no token (blobs are read decoded)
            for piece, piece_start in url_segments(window, pieces(run, run_start)):
                if len(piece) < 16 or plugin.entropy(piece) <= plugin.entropy_limit:
                    continue
                hit = self.entropy_value(window, piece, piece_start, hex_plugin)
                if hit is not None:
                    hit.start += offset
                    hit.end += offset
                    hits.append(hit)
        return hits

    def entropy_value(self, window: str, piece: str, start: int, hex_plugin: bool) -> _Hit | None:
        from detect_secrets.filters.heuristic import is_sequential_string

        key = patterns.key_before(window, start)
        if patterns.is_id_name(key) or patterns.is_about_secret(key):
            return None
        if patterns.is_hex(piece):
            # Memory is full of hex: fingerprints, git SHAs, digests. Hex counts only under a secret's name.
            if not (hex_plugin and patterns.is_secret_name(key)):
                return None
            secret_type = patterns.HIGH_ENTROPY_HEX
        else:
            if hex_plugin:
                return None
            secret_type = patterns.HIGH_ENTROPY
            if not (any(c.isdigit() for c in piece) and any(c.isalpha() for c in piece)):
                return None
            if patterns.is_ulid(piece) or window[max(0, start - 7) : start].lower().endswith("base64,"):
                return None
            if looks_like_path(piece) or piece.lower().startswith(("sha256-", "sha384-", "sha512-")):
                return None
            if not patterns.is_secret_name(key) and (
                patterns.in_service_url(window, start, start + len(piece)) or patterns.is_drive_id(piece, window)
                or patterns.in_file_url(window, start, start + len(piece))
            ):
                return None  # a Google Doc, Drive folder, Figma file, video, page or image: an address, not a key
            if patterns.PUBLIC_KEY_PREFIX.search(window[max(0, start - 40) : start]):
                return None  # an SSH public key: meant to be shared
        if patterns.is_uuid_like(piece) or is_sequential_string(piece) or patterns.is_placeholder(piece):
            return None
        return _Hit(secret_type, start, start + len(piece), piece)

    # -- JSON strings with escapes --------------------------------------------------------
    def scan_json_strings(self, yaml: bool = False) -> list[_Hit]:
        """Secrets written with escapes in JSON strings (or, with ``yaml``, YAML double-quoted scalars)."""
        hits = []
        for number, line_start, line in self.lines():
            if "\\" in line:
                hits.extend(self.escaped_string_hits(line, line_start, yaml))
        return hits

    def escaped_string_hits(self, line: str, line_start: int, yaml: bool) -> list[_Hit]:
        hits = []
        for literal_start, literal_end in json_literals(line):
            literal = line[literal_start:literal_end]
            if "\\" not in literal:
                continue
            decoded = decode_json_literal(literal, yaml=yaml)
            if decoded is None:
                continue
            value, raw_index = decoded
            base = line_start + literal_start
            for sub_start, sub_line in sublines(value):
                if len(sub_line.strip()) < 8:
                    continue  # nothing that short holds a name and a secret
                for hit in self.scan_line(sub_line, 0):
                    if hit.extra.get("block"):
                        # A private key inside a JSON string: its block ends inside the same string.
                        hit.extra["decoded"] = (value, sub_start + hit.start)
                    a, b = sub_start + hit.start, sub_start + hit.end
                    hit.start = base + raw_index[a]
                    hit.end = base + raw_index[b]
                    hits.append(hit)
        return hits

    def scan_forms(self) -> list[_Hit]:
        """Secrets the raw lines keep apart and another form joins (:mod:`forms`): YAML's escaped line breaks
        folded, Markdown rendered; each hit mapped back to the file's characters, markup and all."""
        hits = []
        for line, offsets in forms.joined_lines(self.text, self.fmt):
            json_raw = self.fmt == "jsonl"  # a log's line rendered is still JSON: its escapes end a value
            for hit in self.scan_line(line, 0, json_raw=json_raw) + self.escaped_string_hits(line, 0, yaml=not json_raw):
                if not hit.extra.get("block") and hit.end > hit.start:
                    hit.start, hit.end = offsets[hit.start], offsets[hit.end - 1] + 1
                    hits.append(hit)
        return hits

    # -- results ------------------------------------------------------------------
    def finish(self, hits: list[_Hit]) -> list[Detection]:
        for hit in hits:
            if hit.extra.get("block"):
                self.extend_private_key(hit)
        hits = [h for h in hits if not h.extra.get("no_key")]
        public = public_blocks(self.text)
        if public:
            # The body of a public key or certificate is random-looking and meant to be shared.
            hits = [h for h in hits if h.type.priority > patterns.HIGH_ENTROPY.priority or not inside(h, public)]
        hits = [h for h in hits if not self.public_by_design(h)]
        chosen = non_overlapping(sorted(hits, key=lambda h: (-h.type.priority, -(h.end - h.start), h.start)))
        detections = []
        allowed_on: dict[int, bool] = {}  # by line: a long line of many tokens is searched once, not once a token
        for hit in chosen:
            line, column = self.line_col(hit.start)
            if line not in allowed_on:
                allowed_on[line] = bool(patterns.ALLOW_MARKER.search(self.line_text(line))) or (
                    line > 1 and bool(patterns.ALLOW_NEXT_LINE.search(self.line_text(line - 1)))
                )
            allowed = allowed_on[line]
            detections.append(
                Detection(hit.type, hit.start, hit.end, line, column, digest_of(hit.extra.get("identity", hit.value)), allowed,
                          hit.extra.get("encoded", False))
            )
        return detections

    def public_by_design(self, hit: _Hit) -> bool:
        """A publishable key, a wallet's public address (a random-looking string only), or (for a random-looking
        string or a value under a secret-like name, not a password) base64 that decodes to plain text holding no
        secret."""
        if patterns.is_publishable_key(word_around(self.text, hit.start, hit.end)):
            return True
        if hit.type is patterns.HIGH_ENTROPY:
            line, _ = self.line_col(hit.start)
            context = "\n".join(map(self.line_text, range(max(1, line - 3), line + 1)))
            if patterns.is_public_address(hit.value, context) or public_ids.is_public_identifier(hit.value, context):
                return True
        if hit.type not in (patterns.HIGH_ENTROPY, patterns.KEYWORD_SECRET):
            return False
        sentence = patterns.base64_text(hit.value)
        # A sentence is no key, unless it holds one: then the base64 carries that secret.
        return sentence is not None and not _Scan(sentence, "markdown", self.loaded, self.stats).run()

    def extend_private_key(self, hit: _Hit) -> None:
        """Stretch a private-key hit from its BEGIN line to its END line, and hash the key body."""
        decoded = hit.extra.get("decoded")
        if decoded is not None:
            value, begin = decoded
            end_match = patterns.PRIVATE_KEY_END.search(value, begin, begin + patterns.PRIVATE_KEY_BODY_LIMIT)
            if end_match is not None:
                body = value[begin : end_match.start()]
                line, _ = self.line_col(hit.start)
                line_end = self.line_starts[line] if line < len(self.line_starts) else len(self.text)
                raw_end = self.text.find(end_match.group(0), hit.start, line_end)
                if raw_end != -1:
                    hit.end = raw_end + len(end_match.group(0))
                hit.extra["identity"] = key_identity(body)
                hit.extra["no_key"] = patterns.holds_no_key(body)
            return
        text = self.text
        end_match = self.private_key_end(hit.end)
        if end_match is not None:
            body = text[hit.end : end_match.start()]
            if "\\n" in body or "\\r" in body:
                body = body.replace("\\r", "").replace("\\n", "\n").replace("\\/", "/")
            hit.end = end_match.end()
            hit.extra["identity"] = key_identity(body)
            hit.extra["no_key"] = patterns.holds_no_key(body)
            return
        # No END line: take the key body that follows on the line (in JSON, across its \n escapes),
        # then any base64 lines below it, so the body is redacted too.
        line, _ = self.line_col(hit.start)
        line_end = self.line_starts[line] - 1 if line < len(self.line_starts) else len(text)
        hit.end += _KEY_TAIL.match(text, hit.end, line_end).end() - hit.end
        if not text[hit.end : line_end].strip():
            next_line = line + 1
            while next_line <= len(self.line_starts) and patterns.BASE64_LINE.match(self.line_text(next_line)):
                hit.end = self.line_starts[next_line - 1] + len(self.line_text(next_line))
                next_line += 1
        hit.extra["identity"] = key_identity(text[hit.start : hit.end])

    def private_key_end(self, start: int):
        """The first END line within reach of ``start``; remembers its last answer, since a line of
        many BEGIN markers would otherwise search the same stretch once per marker."""
        limit = start + patterns.PRIVATE_KEY_BODY_LIMIT
        memo = getattr(self, "_end_memo", None)
        if memo is not None:
            searched_from, searched_to, match = memo
            if searched_from <= start:
                if match is not None and match.start() >= start and match.end() <= limit:
                    return match
                if match is None and limit <= searched_to:
                    return None
        match = patterns.PRIVATE_KEY_END.search(self.text, start, limit)
        self._end_memo = (start, limit, match)
        return match
