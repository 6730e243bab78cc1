"""secret-in-memory and a sentence in Chinese or Japanese after a secret's name (issue 29, round 9).

Without spaces between words, the text after `密码是` or `Token:` reads as one bare value: an exam question saying
"the correct password is one of the six he often uses", a usage line "used 3940/4500 (87.6%), past the 80% line".
Such text is a sentence when it speaks of the secret itself or runs on with a sentence's punctuation over six
letters or more; a run of six Latin letters or digits in it, or a short name with a year, is still judged as a
value. Every row is written for this test.
"""

from __future__ import annotations

import pytest

from memwarden.analysis.secrets import scan

SENTENCES = [
    ("某网站规定：邮箱在一天内输错3次即锁定.小李确定该邮箱的正确密码是他常用的5个密码之一，他决定逐个尝试.\n", "markdown"),
    ('{"text": "已知正确密码是他常用的4个密码之一，求尝试次数的分布列"}\n', "jsonl"),
    ("- Token: 今日已用2810/4000（70.3%），尚未超过80%警戒线\n", "markdown"),
    ("- token：本周消耗1200/5000，月底前够用\n", "markdown"),
    ("パスワードは彼がよく使う5つのパスワードの一つで、順に試すことにした。\n", "markdown"),
]


@pytest.mark.parametrize(("text", "fmt"), SENTENCES)
def test_a_sentence_about_a_secret_is_no_value(text, fmt):
    assert scan(text, fmt) == []


STILL_SECRET = [
    ("- 密码：我的Qm7Rt2Xw9Lp4Zk8V，别告诉别人\n", "markdown"),  # a key inside the sentence
    ("- 密码：张三2024，别忘了\n", "markdown"),  # a name and a year: a password
    ("密码是王五1987。\n", "markdown"),
    ("- 邮箱密码：Hunter-2024（上周改的）\n", "markdown"),
    ("パスワードは田中1975、忘れないこと\n", "markdown"),
]


@pytest.mark.parametrize(("text", "fmt"), STILL_SECRET)
def test_a_password_in_a_sentence_is_still_found(text, fmt):
    assert len(scan(text, fmt)) == 1
