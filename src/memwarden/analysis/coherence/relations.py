"""Whether two statements contradict or repeat each other.

Precision first: a false conflict costs a user's trust more than a missed one. Two statements
conflict only when

- one is a negative claim (the detector's verdict) and the other is plainly positive (no cue word
  at all), and their content is the same: the same Latin words, the same numbers and versions,
  and nearly the same CJK characters. "Refresh tokens never expire" against "access tokens expire"
  differs in a word, so it is about another object and is not a conflict; or
- both are plainly positive, their content is the same, and one amount differs: the same number
  of values, each pair with the same unit, at least one pair with two numbers ("expire after 15
  minutes" against "expire after 24 hours" is not this; "expire after 15 minutes" against
  "expire after 60 minutes" is). A number with no unit is a version or a name ("Node 18",
  "MySQL 5.7") and is part of the content; or
- both are plainly positive and give one setting two values in other words (`setting_value`): the
  same leading name with one amount in the same unit, or the same tool at another version as the
  object of a subject both share; or
- one says a thing was removed and the other plainly uses it (`removal`): the thing is a name both
  write, or a run of CJK_SUBJECT Han characters both share.

Two records repeat each other when their content (Latin words, CJK character pairs; function
words and cue words out) overlaps past a threshold, or the shorter one's content is nearly all in
the longer one, or they name the same things with the same amounts and share some content; their
numbers must be the same (a record's own date aside: a copy a day later is still a copy) and
neither may carry a polarity cue the other lacks.
"""

from __future__ import annotations


from memwarden.analysis.coherence.sketch import jaccard
from memwarden.analysis.coherence.statements import Statement, sentences, statement
from memwarden.patterns import LazyPattern

NEGATION = "negation"
VALUE = "value"
REMOVAL = "removal"
CJK_SAME = 0.8  # CJK wording varies a little (支援/支持): characters shared, of all used on both sides
MIN_CONTENT = 2  # a statement with less content than this says too little to contradict anything
REPEAT = 0.5  # Jaccard index of content words and CJK character pairs
CONTAINED = 0.8  # share of the shorter record's content found in the longer one
MIN_CONTAINED = 4  # containment says little about a record of three words
SHORT = 6  # Latin words in a statement short enough that one swapped word changes its subject
NAMED = 0.1  # content shared by two records that name the same things with the same amounts
SHORT_RECORD = 300  # characters: a fact or a one-line episode, where names and amounts are most of what it says
_HAN_RUN = LazyPattern(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")  # Han only: a kana run is grammar or a loanword
LONGEST = 240  # characters: a longer sentence is a narrative, with too many things in it to set against one


def _same_content(a: Statement, b: Statement, similarity: float) -> bool:
    if a.latin != b.latin or a.scoped != b.scoped or a.qualifiers != b.qualifiers:
        return False
    if a.cjk or b.cjk:
        return jaccard(set(a.cjk), set(b.cjk)) >= similarity
    return True


def conflict(a: Statement, b: Statement, similarity: float = CJK_SAME) -> str | None:
    """NEGATION, VALUE, REMOVAL, or None when the two do not contradict each other."""
    if removal(a, b) or removal(b, a):
        return REMOVAL
    if setting_value(a, b):
        return VALUE
    if len(a.content) < MIN_CONTENT or len(b.content) < MIN_CONTENT or not _same_content(a, b, similarity):
        return None
    if a.numbers == b.numbers and ((a.negative and b.positive) or (b.negative and a.positive)):
        return NEGATION
    if a.positive and b.positive and len(a.values) == len(b.values) and a.values != b.values:
        pairs = list(zip(a.values, b.values))
        if all(x == y or (x[1] and y[1]) for x, y in pairs):
            return VALUE
    return None


def setting_value(a: Statement, b: Statement) -> bool:
    """Two plain statements that give one setting two values in other words: the same leading name
    (or, with no Latin name, the same CJK head: `_cjk_run_shared`) with one amount in the same unit
    ("Kafka keeps messages 7 days" / "Kafka topic retention.ms is 3 days"), or the same tool at
    another version as the object of the same subject ("every CI workflow uses Node 20" / "all CI
    workflows run on Node 18"). Another object, plan, platform or
    environment keeps them apart as it does any other pair; a version at the start of a sentence is
    its subject ("Rails 7 needs X" / "Rails 8 ships X": two versions, two facts), not a setting."""
    if not (a.positive and b.positive) or a.removal or b.removal or a.qualifiers != b.qualifiers or a.scoped != b.scoped:
        return False
    if len(a.sentence) > LONGEST or len(b.sentence) > LONGEST:
        return False
    units_a = [value for value in a.values if value[1]]
    units_b = [value for value in b.values if value[1]]
    same_subject = (a.lead and a.lead == b.lead) or (not a.lead and _cjk_run_shared(a.normal, b.normal))
    if len(units_a) == 1 and len(units_b) == 1 and same_subject:
        (number_a, unit_a), (number_b, unit_b) = units_a[0], units_b[0]
        if unit_a == unit_b and number_a != number_b and a.numbers - {number_a} == b.numbers - {number_b}:
            return True
    for name, version, before in a.versioned:
        for other_name, other_version, other_before in b.versioned:
            if name == other_name and version != other_version and len(before & other_before) >= MIN_CONTENT:
                return True
    return False


def removal(gone: Statement, kept: Statement) -> bool:
    """`gone` says a named thing was removed, retired or replaced; `kept` says plainly that it is in use.

    They must share a name (written as a name inside one of them at least, not only as a capitalised
    first word) that stands in the clause saying what was removed, be short enough to be one claim
    each (LONGEST), be about the same environment, plan or platform, and not name different
    versions; two accounts of one day's event ("switched to the new key" twice) are not a conflict.
    """
    if len(gone.sentence) > LONGEST or len(kept.sentence) > LONGEST or not gone.removal or kept.removal or not kept.positive:
        return False
    shared = gone.names & kept.names & (gone.inner_names | kept.inner_names)  # not two capitalised first words
    clause = gone.removed_clause
    if not any(name in clause for name in shared) and not _cjk_shared(clause, kept.normal):
        return False  # the name is elsewhere in the sentence, not what was removed
    # A removal said of no environment or platform holds for all of them; one said of staging does not
    # remove what production has.
    if (gone.qualifiers and gone.qualifiers != kept.qualifiers) or (gone.numbers and kept.numbers and gone.numbers.isdisjoint(kept.numbers)):
        return False
    return not (gone.day and gone.day == kept.day)


CJK_SUBJECT = 4  # CJK characters in a row that a removed clause and a plain statement share: one named thing


def _cjk_shared(clause: str, other: str) -> bool:
    """Whether the removed clause and the other sentence share a run of CJK_SUBJECT Han characters
    (「钉钉扫码登录」, 「存档自动格式化」): a name, as CJK writes one, without capitals to find it by."""
    return any(gram in other for gram in han_grams(clause))


_CJK_WORD = LazyPattern(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaffー]+")
_PARTICLES = "".join(chr(c) for c in range(0x3040, 0x30A0))  # hiragana: grammar before a subject


def cjk_head(normal: str) -> str:
    """The first CJK_SUBJECT characters of a sentence's first CJK run, hiragana particles before
    it left out ("" when shorter): the subject a CJK sentence opens on."""
    run = _CJK_WORD.search(normal)
    head = run.group().lstrip(_PARTICLES)[:CJK_SUBJECT] if run else ""
    return head if len(head) == CJK_SUBJECT else ""


def _cjk_run_shared(a: str, b: str) -> bool:
    """Whether two sentences open on the same CJK subject: each one's `cjk_head` stands in the other.
    「短信验证码」 against 「邮箱验证码」 share the rest, not the head, and are two things."""
    head_a, head_b = cjk_head(a), cjk_head(b)
    return bool(head_a and head_b) and head_a in b and head_b in a


def han_grams(text: str) -> set[str]:
    """Every run of CJK_SUBJECT Han characters in a text."""
    return {run[i : i + CJK_SUBJECT] for run in _HAN_RUN.findall(text) for i in range(len(run) - CJK_SUBJECT + 1)}


def repeats(a: Statement, b: Statement, threshold: float = REPEAT, containment: float = CONTAINED) -> bool:
    """Whether b says what a says: the same numbers and polarity cues, and content words shared past
    the threshold (Jaccard), or the shorter one's content nearly all in the longer one."""
    if a.numbers - a.dates != b.numbers - b.dates or a.cued != b.cued or a.scoped != b.scoped or a.qualifiers != b.qualifiers:
        return False
    x, y = a.shingles, b.shingles
    if not x or not y:
        return False
    if not (a.pairs or b.pairs) and a.latin - b.latin and b.latin - a.latin and len(a.latin | b.latin) <= SHORT:
        return False  # a short statement with one name swapped for another is about another thing
    similar = jaccard(x, y)
    if similar >= threshold:
        return True
    if len(x & y) / min(len(x), len(y)) >= containment and min(len(x), len(y)) >= MIN_CONTAINED:
        return True
    # A short record reworded, naming the same things with the same amounts: "bge-large-zh (1024 dims)".
    if similar < NAMED or len(a.sentence) > SHORT_RECORD or len(b.sentence) > SHORT_RECORD:
        return False
    return bool(a.numbers - a.dates) and bool(a.names) and a.names == b.names


def _statements(text: str) -> list[Statement]:
    """The statements of a text, its headings and label lines left out (they name what follows, claim nothing)."""
    return [said for said in (statement(sentence) for sentence, _ in sentences(text)) if not said.heading]


def relate(text_a: str, text_b: str, threshold: float = REPEAT, similarity: float = CJK_SAME) -> str | None:
    """How two records' texts relate, as the rules would see them: "conflict", "duplicate" or None.

    The rules reach the same verdicts through buckets; this compares one pair directly (tests and
    bench/coherence_accuracy.py).
    """
    said_a, said_b = _statements(text_a), _statements(text_b)
    if any(conflict(a, b, similarity) for a in said_a for b in said_b):
        return "conflict"
    if repeats(statement(text_a), statement(text_b), threshold):
        return "duplicate"
    return None
