"""English: which negative words make a claim."""

from __future__ import annotations

import re

from memwarden.analysis.negation.common import CLAIM, CLAUSE_BREAK, DIRECTIVE, NONE

# -- English -------------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
_NEXT_WORD = re.compile(r"\s+([A-Za-z][A-Za-z-]{0,40})")

_EN_NEGATIVE = {
    "not", "never", "no", "nothing", "nobody", "none", "neither", "nor", "nowhere", "cannot",
    "unsupported", "unavailable", "unable", "impossible", "lack", "lacks", "lacking", "nonexistent",
    "incompatible", "unreachable", "missing", "zero",
}
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
_EN_AFTER_NO_SKIP = {"doubt", "matter", "problem", "problems", "wonder", "worries", "need", "one's", "way"}


def _negative_token(word: str) -> bool:
    return word in _EN_NEGATIVE or word.endswith(("n't", "n’t"))


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
    conditional: list[bool] = []  # a condition opened earlier in this token's clause
    clause_first = 0
    previous_end = 0
    in_condition = False
    for index, (start, word) in enumerate(tokens):
        if index and CLAUSE_BREAK.search(text, previous_end, start):
            clause_first = index
            in_condition = False
        clause_of.append(clause_first)
        conditional.append(in_condition)
        lower = lowered[index]
        head = heads.setdefault(clause_first, [])
        if len(head) < 3 and lower not in _EN_FILLERS:
            head.append(index)
        previous = lowered[index - 1] if index > clause_first else ""
        if lower in _EN_CONDITIONS or (previous, lower) in _EN_CONDITION_PAIRS:
            in_condition = True
        previous_end = start + len(word)
    for index, word in enumerate(lowered):
        if not _negative_token(word):
            continue
        start, original = tokens[index]
        following = lowered[index + 1] if index + 1 < len(lowered) else ""
        following2 = lowered[index + 2] if index + 2 < len(lowered) else ""
        preceding = lowered[index - 1] if index > 0 else ""
        first = clause_of[index]
        head = [lowered[i] for i in heads[first] if i < index]
        verdict = _en_verdict(text, start, original, word, following, following2, preceding, head, lowered, first, index)
        if verdict == CLAIM and conditional[index]:
            verdict = NONE  # "If the file does not exist, ...": a condition, not a claim
        yield start, original, verdict


def _en_verdict(text, start, original, word, following, following2, preceding, head, lowered, first, index):
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
    if word == "missing" and (not preceding or preceding not in ("is", "are", "was", "were", "be", "been", "still", "also")):
        return NONE  # "missing keys are reported": a description, not a claim
    if word == "lack" and preceding not in ("we", "they", "i", "you", "to", "still", "also"):
        return NONE  # "lack of" as a noun is too vague to call
    if word == "not" and index == first and index > 0 and text[:start].rstrip().endswith(","):
        return NONE  # "..., not Hedge's g": a contrast, not a claim
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
    if preceding in _EN_HEDGE_MODALS or word in ("mightn't",):
        return NONE  # may not, might not: a guess
    return CLAIM


