"""English: which negative words make a claim."""

from __future__ import annotations

import re

from memwarden.analysis.negation.common import LOOKBACK as _LOOKBACK
from memwarden.analysis.negation.common import CLAIM, CLAUSE_BREAK, DIRECTIVE, NONE, hidden_spans, paren_depths
from memwarden.analysis.negation.evidence import en_evidence
from memwarden.patterns import LazyPattern

# -- English -------------------------------------------------------------------

# A word, or an identifier whole (`ghp_x9i9`, `i18n`, `S3`): a letter glued to digits or underscores is no word of
# its own (the `i` of a pasted token read as the pronoun made its sentence the owner's own state). Starting only at
# a boundary keeps the search linear on a long run of digits.
_WORD = LazyPattern(r"(?<![A-Za-z0-9_])[0-9_]*[A-Za-z][A-Za-z0-9_]*(?:['’][A-Za-z]+)?")
_NEXT_WORD = LazyPattern(r"\s+([A-Za-z][A-Za-z-]{0,40})")

_EN_NEGATIVE = {
    "not", "never", "no", "nothing", "nobody", "none", "neither", "nor", "nowhere", "cannot",
    "unsupported", "unavailable", "unable", "impossible", "lack", "lacks", "lacking", "nonexistent",
    "incompatible", "unreachable", "missing", "zero", "cant",
}
# Every word en_claims may take as negative (`_negative_token`: a whole token of the set, or one ending in
# n't), as one expression: a sentence without any has no English negation to judge.
NEGATIVE_WORDS = LazyPattern(
    r"(?<![A-Za-z])(?i:" + "|".join(sorted(_EN_NEGATIVE, key=len, reverse=True)) + r")(?![A-Za-z])|(?i:n['’]t)"
)
_EN_FILLERS = {"please", "so", "and", "but", "then", "also", "just", "still", "simply", "you", "or", "thus", "again",
               "therefore", "instead", "otherwise", "now", "first", "finally", "always"}
_EN_IMPERATIVE_OPENERS = {"ensure", "check", "verify", "confirm", "avoid", "try"}
_EN_IMPERATIVE_PAIRS = {("make", "sure"), ("be", "sure"), ("be", "careful"), ("take", "care"), ("double", "check")}
_EN_CONDITIONS = {"if", "when", "whenever", "unless", "until", "whether", "once", "lest", "provided", "suppose",
                  "assuming"}
_EN_CONDITION_PAIRS = {("in", "case"), ("as", "long")}
_EN_MODALS = {"must", "should", "shall", "ought", "need", "mustn't", "shouldn't", "needn't", "better"}
_EN_HEDGE_MODALS = {"may", "might", "could", "would"}
_EN_AFTER_NOT_SKIP = {"only", "just", "merely", "bad", "necessarily", "sure", "certain", "least", "to", "quite",
                      "always", "exactly", "even", "mention", "as"}  # "not as fast as": a comparison
_EN_RELATIVE = {"that", "which", "who", "whose"}
_EN_LINKING = {"have", "has", "had", "is", "are", "was", "were", "can", "will", "do", "does", "did"}
# Verbs that open an imperative sentence; "Keep it short and don't add prose" is one instruction.
_EN_IMPERATIVE_VERBS = {
    "keep", "use", "run", "add", "read", "write", "check", "make", "put", "leave", "stop", "start", "try", "avoid",
    "prefer", "treat", "ask", "report", "set", "test", "commit", "push", "delete", "archive", "update", "restart",
    "rotate", "open", "close", "call", "wait", "mark", "tag", "record", "log", "back", "pin", "fix", "move", "rename",
    "review", "verify", "confirm", "ensure", "remember", "follow", "pull", "merge", "deploy", "install", "skip",
}
_EN_AFTER_NO_SKIP = {"doubt", "matter", "problem", "problems", "wonder", "worries", "need", "one's", "way", "effect",
                     "impact", "difference", "reason", "idea", "point", "leak", "risk", "harm", "conflict", "regression"}
# "has no effect": how a thing behaves; "so there is no leak": a bad thing found absent, an all-clear

# Real prose (issue #19): a claim says that something outside the project lacks, cannot, does not
# support or no longer does something. These lists tell it from what memory notes say besides.
_SKIP_ADVERBS = {"yet", "currently", "really", "fully", "officially", "always", "even", "actually", "directly",
                 "publicly", "natively", "properly", "correctly", "reliably", "ever", "necessarily"}
# After a bare "not" (no verb before it: "— not visible from the container"), only a word of
# availability or capability makes a claim; "(not a separate module)", "spaces not tabs" contrast.
_LIMIT_WORDS = {
    "supported", "available", "compatible", "implemented", "installed", "enabled", "allowed", "permitted",
    "exposed", "documented", "visible", "reachable", "accessible", "possible", "present", "found", "included",
    "provided", "configurable", "recognized", "recognised", "processed", "indexed", "returned", "loaded",
    "respected", "honoured", "honored", "handled", "shipped", "published", "released", "offered", "listed",
    "synced", "usable", "writable", "readable", "working", "functional", "applied", "accepted", "detected",
}
# What a tool can or cannot do; a negated verb outside this list with an inline-code subject
# ("`serialize` sets it, but `deserialize` doesn't project it") describes the project's own code.
_CAPABILITY_VERBS = _LIMIT_WORDS | {
    "support", "supports", "have", "has", "exist", "exists", "work", "works", "include", "expose", "provide",
    "allow", "accept", "know", "recognize", "recognise", "read", "load", "run", "handle", "return", "ship",
    "install", "compile", "respect", "honour", "honor", "offer", "list", "parse", "find", "reach", "connect",
    "match", "start", "build", "see", "understand", "pass", "get",
}
_PRESENT_VERBS = {
    "exists", "works", "covers", "mentions", "calls", "answers", "responds", "uses", "runs", "loads", "reads",
    "returns", "handles", "includes", "exposes", "provides", "allows", "accepts", "knows", "matches", "ships",
    "appears", "shows", "supports", "has", "contains", "lists", "offers", "exist", "work", "support",
}
# "not fun", "isn't trivial", "not worth hoisting", "not clear if": a judgement, not a fact to recheck.
_EVALUATIVE = {
    "fun", "great", "good", "nice", "easy", "trivial", "simple", "straightforward", "ideal", "pretty", "clean",
    "elegant", "worth", "worthwhile", "clear", "obvious", "unheard", "uncommon", "unusual", "rare", "perfect",
    "optimal", "pleasant", "painful", "terrible", "hard", "difficult", "interesting", "helpful", "useful",
    "important", "relevant", "necessary", "needed", "required", "recommended", "that", "too", "very", "so", "much",
    "love", "like", "enjoy", "mind", "care", "need", "needs", "think", "believe", "feel", "interchangeable", "negotiable", "ideal",
    "fine", "wrong", "right", "big",
}
# Where secrets or state are kept by policy: "keys are never stored here; they live in Vault".
_STORAGE_VERBS = {"stored", "kept", "committed", "saved", "tracked", "persisted", "checked", "put", "placed", "held",
                  "live", "lives", "sit", "sits", "belong", "belongs", "go", "goes"}
# What a person reports having searched for and not found stays a claim ("I couldn't find the docs");
# what a person did or did not do ("we didn't use the venv") is a post-mortem.
_SEARCH_VERBS = {"find", "locate", "reproduce", "reach", "access", "connect", "install", "load", "open", "see",
                 "receive", "hear", "found", "located", "reproduced", "received", "heard"}
_IRREGULAR_PAST = {"took", "ran", "went", "made", "got", "had", "was", "were", "did", "broke", "came", "gave", "held",
                   "kept", "let", "put", "saw", "sent", "set", "showed", "stood", "told", "thought", "wrote", "forgot"}
_PARTICIPLES = {"written", "read", "set", "built", "run", "made", "kept", "sent", "given", "taken", "shown", "done"}
_RESULT_NOUNS = {"results", "result", "matches", "match", "hits", "hit", "output", "response", "responses", "reply",
                 "replies", "entries", "records", "rows", "data", "errors", "warnings", "issues", "answer", "one"}
# A sentence that opens on one of these past verbs, its subject dropped, narrates what was done.
_NARRATIVE_OPENERS = {
    "tried", "worked", "used", "ran", "went", "installed", "fixed", "added", "moved", "spent", "wasted", "forgot",
    "missed", "skipped", "pushed", "merged", "deployed", "rebuilt", "rolled", "reverted", "switched", "replaced",
    "upgraded", "downgraded", "changed", "refactored", "rewrote", "deleted", "renamed", "started", "finished",
    "attempted", "did", "didn't", "made", "wrote", "ended",
}
_CODE_LITERALS = {"null", "undefined", "nil", "none", "true", "false", "nan"}
_AUXILIARIES = {"do", "does", "did", "is", "are", "was", "were", "be", "been", "am", "has", "have", "had", "can",
                "could", "will", "would", "shall", "should", "may", "might", "must", "need", "it's", "that's",
                "there's", "here's"}
_PREDICATE_BEFORE_NO = _AUXILIARIES | {
    "returned", "returns", "return", "found", "finds", "shows", "show", "showed", "gets", "get", "got", "contains",
    "contain", "offers", "offer", "provides", "provide", "supports", "support", "exposes", "expose", "gives",
    "give", "gave", "yields", "yield", "lists", "list", "turned", "turns", "printed", "prints", "listed", "having",
}
_SQL_AFTER_NOT = {"NULL", "EXISTS", "IN", "LIKE", "BETWEEN", "ILIKE", "DEFERRABLE"}
_SQL_BEFORE_NOT = {"IS", "AND", "OR", "WHERE", "IF"}
_CONTRAST_AFTER = LazyPattern(r"[,;:—–(]\s*(?:it'?s|it is|they'?re|they are|that'?s|rather|instead|but)\b|\bbut (?:rather|it'?s|it is)\b", re.I)
_LABEL = LazyPattern(r"^[*_\s]*(why|how to apply)\s*[*_]*\s*:", re.I)
_DESIGN = LazyPattern(r"\b(?:intentional(?:ly)?|deliberate(?:ly)?|by design|on purpose)\b", re.I)
_PREFERENCE = LazyPattern(r"\b(?:prefers|preferred|likes|dislikes|wants|hates|would rather)\b", re.I)
_SETTING = LazyPattern(r"(?<![\w.])[A-Za-z_][\w.]{0,40}=[\w.\"'-]")
_CODE_SUBJECT = LazyPattern(
    r"^[\s(]*(?:(?:but|and|so|then|while|whereas|also)\s+)*(?:the\s+)?(?:CODE\b|`[^`]*`)"
    # "The `payments` service account has no ...": the code span names a vendor's thing, which is the subject
    r"(?!\s+(?:service account|account|bucket|tenant|project|namespace|cluster|instance|role|token|key|queue|topic)\b)",
    re.I)
_QUOTED_SUBJECT = LazyPattern(r'^\s*(?:"[^"]*"|“[^”]*”)\s*(?:\w+\s*){0,2}$')





def _negative_token(word: str) -> bool:
    return word in _EN_NEGATIVE or word.endswith(("n't", "n’t"))


def _sentence_verdict(text: str, lowered: list[str], tokens) -> str | None:
    """A verdict for every cue of the sentence, when the sentence as a whole is not a claim."""
    label = _LABEL.match(text)
    if label:
        # Claude Code's "**Why:**" (the reason for a decision) and "**How to apply:**" (a note to self).
        return DIRECTIVE if label.group(1).lower().startswith("how") else NONE
    if _DESIGN.search(text) or _PREFERENCE.search(text):
        return NONE  # "not auto-cleared — intentional", "Prefers answers with no fluff"
    if tokens:
        start, first = tokens[0]
        after = text[start + len(first) : start + len(first) + 1]
        lower = lowered[0]
        if first[:1].isupper() and lower in _NARRATIVE_OPENERS and after == " " and not text[:start].strip("*_ "):
            return NONE  # "Worked in a loop ...", "Tried installing globally, didn't work": a post-mortem
    return None


def en_claims(text: str):
    """(cue start, cue text, verdict) for each negative word of an English sentence.

    One pass records, for every token, where its clause starts, the first few
    words of that clause that are not fillers, and whether a condition ("if",
    "when", "unless") came earlier in the clause, so each cue is judged in
    constant time.
    """
    tokens = [(m.start(), m.group()) for m in _WORD.finditer(text)]
    lowered = [word.lower().replace("’", "'") for _, word in tokens]
    clause_of: list[int] = []  # first token index of each token's clause
    heads: dict[int, list[int]] = {}  # clause's first token -> its first non-filler tokens (at most 3)
    opened_by: dict[int, str] = {}  # clause's first token -> the break before it ("" at the sentence start)
    conditional: list[bool] = []  # a condition opened earlier in this token's clause
    outer_first = inner_first = 0  # the clause outside any brackets, and the innermost one
    previous_end = 0
    outer_condition = inner_condition = False
    opened_by[0] = ""
    parens = paren_depths(text)
    for index, (start, word) in enumerate(tokens):
        inside = bool(parens[start])
        if index:
            found = CLAUSE_BREAK.search(text, previous_end, start)
            if found:
                inner_first, inner_condition = index, False
                opened_by[index] = found.group().strip() or "-"
                if not parens[found.start()]:
                    outer_first, outer_condition = index, False  # "2 docs (a, b) have no ...": one clause
            elif inside and "(" in text[previous_end:start]:
                inner_first, inner_condition = index, False  # an aside opens a clause of its own
                opened_by[index] = "("
            if not inside:
                inner_first, inner_condition = outer_first, outer_condition
        clause_first = inner_first if inside else outer_first
        clause_of.append(clause_first)
        conditional.append(inner_condition if inside else outer_condition)
        lower = lowered[index]
        head = heads.setdefault(clause_first, [])
        if len(head) < 3 and lower not in _EN_FILLERS:
            head.append(index)
        previous = lowered[index - 1] if index > clause_first else ""
        if lower in _EN_CONDITIONS or (previous, lower) in _EN_CONDITION_PAIRS:
            inner_condition = True
            if not inside:
                outer_condition = True
        previous_end = start + len(word)
    whole = _sentence_verdict(text, lowered, tokens)
    mentioned = bytearray(len(text))
    for begin, end in hidden_spans(text):
        mentioned[begin:end] = b"\x01" * (end - begin)
    setting = _SETTING.search(text) is not None
    for index, word in enumerate(lowered):
        if not _negative_token(word):
            continue
        start, original = tokens[index]
        if whole is not None:
            yield start, original, whole
            continue
        if mentioned[start] or _in_slug(text, start, start + len(original)):
            yield start, original, NONE  # "not found" in quotes, `--no-cache`, [[do-not-mock]], a URL, a slug
            continue
        cue = _Cue(text, tokens, lowered, index, clause_of, heads, opened_by, bool(parens[start]), setting)
        verdict = _en_verdict(cue)
        if verdict == CLAIM and conditional[index]:
            verdict = NONE  # "If the file does not exist, ...": a condition, not a claim
        if verdict == CLAIM and not en_evidence(text, tokens, lowered, index, clause_of[index]):
            verdict = NONE  # no capability predicate, or nothing outside the project it is said of
        yield start, original, verdict


def _in_slug(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    if before in "-_/#.\\@" or after in "_/\\@":
        return True
    if after in "-." and end + 1 < len(text) and text[end + 1].isalnum():
        return True  # not-found.md, no-cache (no-op is handled with "no doubt")
    return False


class _Cue:
    """One negative word with what its verdict reads around it."""

    __slots__ = ("text", "start", "original", "word", "following", "following2", "preceding", "head", "lowered",
                 "first", "index", "opened_by", "in_parens", "setting", "tokens", "clause_of")

    def __init__(self, text, tokens, lowered, index, clause_of, heads, opened_by, in_parens, setting):
        first = clause_of[index]
        self.clause_of = clause_of
        self.text = text
        self.tokens = tokens
        self.start, self.original = tokens[index]
        self.word = lowered[index]
        self.lowered = lowered
        self.index = index
        self.first = first
        self.following = lowered[index + 1] if index + 1 < len(lowered) else ""
        self.following2 = lowered[index + 2] if index + 2 < len(lowered) else ""
        self.preceding = lowered[index - 1] if index > 0 else ""
        self.head = [lowered[i] for i in heads[first] if i < index]
        self.opened_by = opened_by.get(first, "")
        self.in_parens = in_parens
        self.setting = setting

    def next_content(self, offset: int = 1) -> str:
        """The next word after the cue, adverbs such as "yet" and "currently" skipped."""
        position = self.index + offset
        while position < len(self.lowered) and self.lowered[position] in _SKIP_ADVERBS:
            position += 1
        return self.lowered[position] if position < len(self.lowered) else ""

    def clause_text(self) -> str:
        """The clause before the cue, from just before its first word (so an opening quote is kept)."""
        begin = self.tokens[self.first][0]
        if begin and self.text[begin - 1] in "\"“":
            begin -= 1
        return self.text[begin : min(self.start, begin + _LOOKBACK)]

    def rest_of_clause(self, count: int) -> list[str]:
        """Up to count words after the cue in its own clause (an aside in brackets left out)."""
        end = min(len(self.lowered), self.index + 1 + count)
        return [self.lowered[i] for i in range(self.index + 1, end) if self.clause_of[i] == self.first]


def _en_verdict(cue: _Cue) -> str:
    verdict = _old_verdict(cue)
    if verdict != CLAIM:
        return verdict
    return _real_prose_verdict(cue)


def _old_verdict(cue: _Cue) -> str:
    text, start, original, word = cue.text, cue.start, cue.original, cue.word
    following, following2, preceding, head = cue.following, cue.following2, cue.preceding, cue.head
    lowered, first, index = cue.lowered, cue.first, cue.index
    # Words that only look negative.
    if word == "not" and following in _EN_AFTER_NOT_SKIP:
        return NONE  # not only, not just, not sure, not to (a purpose or a directive), not bad
    if word == "not" and preceding in ("or", "if"):
        return NONE  # whether or not, if not
    if word == "no" and (following in _EN_AFTER_NO_SKIP or text[start + 2 : start + 3] == "-"):
        return NONE  # no doubt, no matter, no-op
    if word == "no" and following in ("circumstances", "account") and preceding in ("under", "on", "in"):
        return DIRECTIVE  # "Under no circumstances restart the primary"
    if word == "none" and original == "None" and index > first:
        return NONE  # Python's None in prose
    if word == "not" and original == "Not" and following == "found" and index > first:
        return NONE  # "404 Not Found", a status, not a claim
    if word == "nothing" and (following in ("but", "beats", "like", "else") or (following == "to" and index == first)):
        return NONE  # nothing but, nothing beats, "Nothing to report today."
    if word == "none" and following == "other":
        return NONE  # none other than
    if word == "zero" and not (following.isalpha() and preceding in ("has", "have", "had", "are", "were")):
        return NONE  # "the repo has zero tests" is a claim; "counted zero failures" reports a number
    if word.endswith("n't") or word == "cannot":
        if any(w in ("more", "better", "less", "worse", "happier") for w in lowered[index + 1 : index + 5]):
            return NONE  # "couldn't have been more helpful": praise, not a claim
    if word in ("can't", "cannot") and following in ("wait", "help") and following2 in ("to", "but", "for"):
        return NONE  # can't wait to, cannot help but
    if word == "never" and following == "mind":
        return NONE
    if word == "missing" and (not preceding or preceding not in ("is", "are", "be", "been", "still", "also")):
        return NONE  # "missing keys are reported": a description; "was missing ... and added it": a past event
    if word == "lack" and preceding not in ("we", "they", "i", "you", "to", "still", "also"):
        return NONE  # "lack of" as a noun is too vague to call
    if word == "not" and index == first and index > 0 and text[:start].rstrip().endswith(",") and cue.next_content() not in _LIMIT_WORDS:
        return NONE  # "..., not Hedge's g": a contrast; "..., not visible from the container" is a claim
    # Directives: a prohibition at the head of its clause.
    if not head:
        if word in ("don't", "never") or (word == "do" and following == "not"):
            return DIRECTIVE
        next_word = _NEXT_WORD.match(text, start + len(original))
        if word == "no" and next_word and next_word.group(1).lower().endswith("ing"):
            return DIRECTIVE  # "No force-pushing to shared branches."
    if head and head[0] == "do" and len(head) == 1 and word == "not":
        return DIRECTIVE
    if head and (head[0] in ("don't", "never") or head[:2] == ["do", "not"]):
        return DIRECTIVE  # "Never assume the tool doesn't retry": all of it is the instruction
    if head and (head[0] in _EN_IMPERATIVE_OPENERS or tuple(head[:2]) in _EN_IMPERATIVE_PAIRS):
        return DIRECTIVE  # "Make sure the cache is not stale": the negation is part of an instruction
    if word in ("don't", "never", "do") and preceding in ("and", "or", "but") and lowered[0] in _EN_IMPERATIVE_VERBS:
        return DIRECTIVE  # "Keep the index short and don't add prose to it."
    # "Tests that don't touch the network run in parallel": the negation picks out the subject.
    # After a comma ("Run it, which doesn't deploy anything") the clause asserts it: still a claim.
    if (preceding in _EN_RELATIVE and index - 1 > first) or (
        index >= 2 and lowered[index - 2] in _EN_RELATIVE and preceding in _EN_LINKING and index - 2 > first
    ):
        return NONE
    if preceding in _EN_MODALS or word in ("mustn't", "shouldn't", "needn't"):
        return DIRECTIVE  # must not, should never, need not: a rule, not an observation
    if preceding in _EN_HEDGE_MODALS or word in ("mightn't",) or (
            preceding in ("be", "become") and index >= 2 and lowered[index - 2] in _EN_HEDGE_MODALS):
        return NONE  # may not, might not, "may be unavailable": a guess
    return CLAIM




_STRONG = {"unsupported", "unavailable", "impossible", "incompatible", "unreachable", "nonexistent", "unable"}


def _real_prose_verdict(cue: _Cue) -> str:
    """What a claim must also pass on real memory: not an aside, a contrast, a post-mortem, a setting, a judgement."""
    word, following, preceding, head = cue.word, cue.following, cue.preceding, cue.head
    nxt = cue.next_content()
    if cue.original == "NOT" and (cue.text[cue.start + 4 :].lstrip()[:8].split(" ")[0].rstrip(";,)") in _SQL_AFTER_NOT
                                  or (cue.index and cue.tokens[cue.index - 1][1] in _SQL_BEFORE_NOT)):
        return NONE  # NOT NULL, IS NOT, WHERE NOT: SQL
    if word == "nor":
        return NONE  # "neither X nor Y": the "neither" carries the claim, if there is one
    if word in ("no", "nobody") and any(w in ("needs", "need", "needed") for w in cue.lowered[cue.index + 1 : cue.index + 3]):
        return NONE  # "no one needs to ask", "Nobody needs you to be right": no necessity, not an absence
    if (cue.first == 0 and cue.lowered[0] in _EN_IMPERATIVE_VERBS and cue.tokens[0][1][:1].isupper()
            and not cue.text[: cue.tokens[0][0]].strip("*_ ")):
        return DIRECTIVE  # "Read SKILL.md before saying a feature doesn't exist": all of it is the instruction
    if word == "none" and following not in ("of", "found") and preceding not in ("found", "returned", "got", "has", "have", "had"):
        return NONE  # "None are blocking", "mode: none": not a claim that something is absent
    if any(w in _CODE_LITERALS for w in cue.lowered[cue.index + 1 : cue.index + 3]):
        return NONE  # "never emit null", "returns no nil": how the code behaves
    change = word == "no" and following == "longer"
    if change:
        after = cue.next_content(2)
        if (after.endswith("ed") or after in _IRREGULAR_PAST) and preceding not in ("is", "are", "be", "been"):
            return NONE  # "no longer took effect": a past event ("is no longer supported" is a passive, a claim)
        return CLAIM  # "port 3001 no longer answers": a change in the world, worth re-checking even in an aside
    if word == "no" and following == "more" and cue.following2 != "than":
        return NONE  # "no more raw SQL": a change the project made
    if word in _STRONG and preceding in ("a", "an", "the", "this", "that", "its", "their"):
        return NONE  # "resolves the impossible design": an adjective describing a noun
    strong = word in _STRONG or (word in ("not", "isn't", "aren't") and nxt in _LIMIT_WORDS)
    if cue.in_parens and not strong:
        return NONE  # "(no GitHub issues)", "(ONNX, no torch)", "(not a separate module)": an aside
    if any(w in ("needed", "required", "necessary", "allowed") for w in cue.lowered[cue.index + 1 : cue.index + 5]) and word == "no":
        return NONE  # "no confirmation needed", "no adapter needed": a rule or a design note
    copula = word in ("isn't", "aren't", "wasn't") or (word == "not" and preceding in ("is", "are", "was", "it's", "that's"))
    if copula and nxt not in _LIMIT_WORDS and _CONTRAST_AFTER.search(cue.text, cue.start, min(len(cue.text), cue.start + 120)):
        return NONE  # "X is not Y, it is Z"
    negator = word in ("not", "never") or word.endswith("n't") or word == "cannot"
    if nxt in _EVALUATIVE and negator:
        return NONE  # "wasn't fun", "not trivial", "don't love", "not worth hoisting": a judgement
    if nxt in _STORAGE_VERBS and negator:
        return NONE  # "keys are never stored here": where things are kept, by policy
    if word == "no":
        verdict = _no_verdict(cue)
        if verdict != CLAIM:
            return verdict
    if word in ("not", "never") and preceding not in _AUXILIARIES and not preceding.endswith("n't"):
        if word == "not" and not strong:
            return NONE  # bare "not": "use X not Y", "— NOT hub", "Not interchangeable"
        if word == "never" and (nxt in ("a", "an", "the") or cue.text[cue.start + 5 : cue.start + 7].strip()[:1] in "\"“'"):
            return NONE  # '— never "the answer looks better"': a contrast
    if preceding == "but" and cue.index >= 2:
        before_but = cue.lowered[cue.index - 2]
        if before_but in _PARTICIPLES or (before_but.endswith(("ed", "en")) and cue.index >= 3 and cue.lowered[cue.index - 3] in _AUXILIARIES):
            return NONE  # "the column is written but never read": the project's own code
    if not head and word.endswith("n't") and word not in ("don't",) or (not head and word == "cannot"):
        return NONE  # "Didn't use the venv", "Cannot pass undefined": a post-mortem or a rule, no subject
    if head and head[0] in ("i", "we") and _past_negation(cue) and nxt not in _SEARCH_VERBS:
        return NONE  # "I didn't get to it today", "we didn't use the venv": a post-mortem
    if head and _QUOTED_SUBJECT.match(cue.clause_text()):
        return NONE  # '"I think it's useful" is not a challenge': a quotation judged
    if head and _CODE_SUBJECT.match(cue.clause_text()) and nxt not in _CAPABILITY_VERBS and word not in _STRONG:
        return NONE  # "`deserialize` doesn't project it": the project's own code
    return CLAIM


def _past_negation(cue: _Cue) -> bool:
    word = cue.word
    if word in ("didn't", "wasn't", "weren't", "couldn't", "hadn't"):
        return True
    if word == "not" and cue.preceding in ("did", "was", "were", "could", "had"):
        return True
    return word == "never" and (cue.following.endswith("ed") or cue.following in _IRREGULAR_PAST)


def _no_verdict(cue: _Cue) -> str:
    """ "no" makes a claim when a verb states it ("has no", "there is no", "returned no"), or in a list of facts."""
    preceding = cue.preceding if cue.index > cue.first else ""
    if preceding in _PREDICATE_BEFORE_NO or preceding.endswith("n't"):
        return CLAIM
    if cue.head:
        return NONE  # "with no fallback", "but no music-specific handling", "only, no provisioning": a description
    if cue.following in _RESULT_NOUNS or cue.following == "one":
        return CLAIM  # "No results for 'invoice'", "No one could reproduce it"
    rest = cue.rest_of_clause(7)
    if any(w in _AUXILIARIES and w not in ("need",) for w in rest):
        if any(w in ("was", "were") for w in rest) and not any(w in _SEARCH_VERBS for w in rest):
            return NONE  # "no data was lost": a past event
        return CLAIM  # "No test in the suite has ever covered it"
    if any(w in _PRESENT_VERBS for w in rest) or (
        len(rest) >= 3 and rest[1].endswith("s") and not rest[0].endswith("s") and rest[2] in ("the", "a", "an", "any", "this", "our", "its")
    ):
        return CLAIM  # "No ARM build exists", "No test covers the retry path"
    clause_start = cue.tokens[cue.first][0]
    previous_clause = cue.text[max(0, clause_start - 20) : clause_start].rstrip(" ;")
    if cue.opened_by == ";" and not cue.setting and not previous_clause.lower().endswith(" only"):
        return CLAIM  # "needs Read access; no local permission storage; ...": one fact in a list of facts
    return NONE  # "No deploys on Friday", "No fluff", "— no adapter needed": a rule or a design note
