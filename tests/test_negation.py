"""The negative-claim detector: the labelled table, per-language floors, and the cases the rules rely on."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from memwarden.analysis.negation import CLAIM, DIRECTIVE, NONE, QUESTION, classify, find_claims, language_of, sentences

REPO = Path(__file__).resolve().parents[1]
TABLE = REPO / "tests" / "data" / "negation_table.tsv"
LABELS = {"claim", "directive", "question", "positive", "other"}

# Measured on the table (557 rows) when the detector was last changed; a change
# that lowers any of these is a regression. The three batches of held-out rows
# at the end of the table were written before the detector saw them.
# Since issue #19's second batch a claim needs positive evidence (a capability predicate said of
# something outside the project): precision went to 1.00 everywhere and recall fell from 1.00
# (ja 0.98) to what these floors say; the rows it now misses are mostly claims about the project
# itself ("No test covers the retry path") or with no name in them ("找不到相關資料").
# Issue #14 raised recall again without a false alarm: searches that came back empty and missing
# support need no name, a CJK term in an English sentence is a name, and more kinds of removal,
# block, limit, empty result, 'ignores' and double negative are read (the table grew by rows of those kinds).
# Round 2 of issue 14 read the kinds its first test half missed (environments, names after the verb,
# 'failing since', more limit and removal words) and raised the floors to what the grown table measures.
# Round 3 added the learned scorer where the rules are silent; it was trained on this table too, so
# these floors are tuned figures (bench/README.md, "Issue #14, round 3", has the held-out estimate).
# Issue 29 took the scorer out of the rule (0 true of 18 on real memory nobody had tuned on): the
# floors are the rules' own figures on the table. A Latin word for the project's own things (repo,
# Dockerfile, test) is no longer a name in Chinese and Japanese: 「這個 repo 的解析器一個測試也沒有」 is
# about the project's own code, which issue 29 keeps silent; so are 「備份腳本不支援 Unicode 檔名」 and
# 「这个脚本从来没有在生产环境跑过」 (generic words and the project's scripts are not names).
FLOORS = {
    "en": (1.00, 0.82),
    "zh-Hant": (1.00, 0.81),
    "zh-Hans": (1.00, 0.78),
    "ja": (1.00, 0.88),
}


def _bench():
    """bench/negation_accuracy.py, loaded by path (bench/ is not a package): one scorer for both."""
    name = "memwarden_bench_negation_accuracy"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, REPO / "bench" / "negation_accuracy.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while the class is built
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(scope="module")
def table():
    return _bench().load_table(TABLE)


def test_table_is_big_enough_and_well_formed(table):
    assert len(table) >= 200
    per_language = {}
    for row in table:
        assert row["label"] in LABELS, row
        assert row["text"].strip() == row["text"] and row["text"], row
        per_language.setdefault(row["language"], []).append(row)
    assert set(per_language) == set(FLOORS)
    for language, rows in per_language.items():
        assert len(rows) >= 50, language
        labels = {row["label"] for row in rows}
        assert {"claim", "directive", "question"} <= labels, language
    texts = [row["text"] for row in table]
    assert len(texts) == len(set(texts)), "a sentence appears twice"


@pytest.mark.parametrize("language", sorted(FLOORS))
def test_precision_and_recall_stay_above_the_measured_floor(table, language):
    scores = _bench().score([row for row in table if row["language"] == language])
    result = scores[language]
    precision_floor, recall_floor = FLOORS[language]
    misses = "\n".join(f"{kind}: {text}" for kind, _, text in result.misses)
    assert result.precision >= precision_floor, misses
    assert result.recall >= recall_floor, misses


@pytest.mark.parametrize(
    "text",
    [
        "X does not support Y.",
        "gh doesn't support listing draft releases.",
        "The search found nothing for 'invoice'.",
        "There is no batch export in the Stripe dashboard.",
        "The key wasn't found in the vault.",
        "This endpoint cannot paginate.",
        "在 Confluence 找不到相關資料。",
        "該 CLI 不支援批次匯出。",
        "该版本没有批量导出功能。",
        "镜像站目前访问不了。",
        "このAPIはページングに対応していない。",
        "Confluenceで関連する資料は見つかりませんでした。",
        # issue 29: a tool named in lower case at the start, what it does not see, a verb left out, a search
        "podman-remote has no build cache on this host.",
        "pyright does not see modules installed by the editable hook.",
        "The mirror serves arm64 wheels, the PyPI CDN doesn't.",
        "Looked on crates.io for a maintained fork: none found.",
        # issue 29 round 7: the agent's sandbox; what a vendor's plan leaves off is no setup of the owner's
        "GitHub Pages is not enabled for private repos on the free plan.",
        "Supabase 的免费方案未启用 PITR 备份。",
        "Vercel の無料プランでは Edge Config が有効になっていない。",
    ],
)
def test_claims_about_the_world_are_claims(text):
    verdict, cue = classify(text)
    assert verdict == CLAIM, (text, verdict)
    assert cue


@pytest.mark.parametrize(
    "text",
    [
        "Never run rm -rf on the workspace.",
        "Do not delete episodes.",
        "Don't push to main.",
        "If the build fails, do not retry.",
        "You must not share the key.",
        "不要刪除任何紀錄。",
        "請勿直接推送。",
        "请勿删除归档文件。",
        "别把密钥提交到仓库。",
        "本番DBを直接変更しないでください。",
        "ここでrm -rfを実行してはいけない。",
        "認証情報を書き込まないこと。",
    ],
)
def test_directives_are_not_claims(text):
    assert classify(text)[0] == DIRECTIVE, text
    assert find_claims(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Does the CLI not support dry runs?",
        "這個 CLI 不支援 dry-run 嗎？",
        "真的没有办法批量导出吗",
        "为什么找不到配置文件呢",
        "このCLIは対応していないのか。",
        "方法はないのでしょうか",
        "是不是沒有清乾淨?",
    ],
)
def test_questions_are_not_claims(text):
    assert classify(text)[0] == QUESTION, text
    assert find_claims(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "This affects not only the CLI but the web app.",
        "Use the mirror unless the registry is reachable.",
        "A fresh nonce is generated per request.",
        "I can't wait to try the new index.",
        "No doubt the index is faster now.",
        "If the file does not exist, gish creates it.",
        "I'm not sure whether the vendor fixed it.",
        "The endpoint returns 404 Not Found for archived pages.",
        "Tests that don't touch the network run in parallel.",
        "這不僅影響 CLI。",
        "新格式效果不錯。",
        "這次改動非常成功。",
        "我們不得不重跑一次。",
        "如果檔案不存在，會自動建立。",
        "没有标签的记录会被跳过。",
        "残りの作業は少ない。",
        "原因はキャッシュに違いない。",
        "再起動するしかない。",
        "ファイルが存在しない場合は作成する。",
        "タグのない記録はスキップされる。",
    ],
)
def test_words_that_only_look_negative_are_not_claims(text):
    assert classify(text)[0] == NONE, text


def test_find_claims_returns_each_claim_sentence_with_its_offsets():
    text = "Read the logs first. The CLI does not support --json. Never guess.\n\n這個 API 不能分頁。請勿刪除。"
    claims = find_claims(text)
    assert [c.sentence for c in claims] == ["The CLI does not support --json.", "這個 API 不能分頁。"]
    for claim in claims:
        assert text[claim.start : claim.end] == claim.sentence
    assert [c.language for c in claims] == ["en", "zh"]
    assert claims[0].cue == "not"


@pytest.mark.parametrize("name", ["ghp_gnPucbaY7sUMuCzuzee6uMDhqnYNX5I3SEQw", "ghp_F0rx7jqKr2lXUNfUxv7jqqqwyrKDaj9i9qom",
                                  "i18n", "build_2i4", "sk_test_9i9Ab"])
def test_a_letter_inside_an_identifier_is_no_word(name):
    """The `i` of `9i9` or `i18n` read as the pronoun made the claim the owner's own state (a test's random token
    flipped the verdict one draw in twenty)."""
    assert classify(f"The value {name} does not work with the deploy API.")[0] == CLAIM, name


def test_sentences_do_not_break_inside_versions_abbreviations_or_numbers():
    text = "Use v1.2, e.g. the pinned one. No. 5 is next. Done"
    spans = [text[a:b] for a, b in sentences(text)]
    assert spans == ["Use v1.2, e.g. the pinned one.", "No. 5 is next.", "Done"]


def test_a_speakers_turn_starts_a_sentence_and_a_wrapped_line_does_not():
    # Issue 29 round 7: in a session transcript the user's line, with no full stop, is not part of the
    # agent's answer on the next line; a line wrapped inside a sentence still continues it.
    text = "[Wed 18:24] why is it off\nassistant: the Acme API does not return the field\n**User:** ok\nThe CLI\ndoes not support --tail."
    assert [text[a:b] for a, b in sentences(text)] == [
        "[Wed 18:24] why is it off",
        "assistant: the Acme API does not return the field",
        "User:** ok\nThe CLI\ndoes not support --tail.",  # a bold label loses its leading marks, as a list marker does
    ]
    claims = find_claims(text)
    assert [c.sentence for c in claims][:1] == ["assistant: the Acme API does not return the field"]


def test_cjk_sentences_end_at_full_width_marks_without_spaces():
    text = "找不到資料。請勿刪除！為什麼？データがない。"
    assert [text[a:b] for a, b in sentences(text)] == ["找不到資料。", "請勿刪除！", "為什麼？", "データがない。"]


def test_language_is_read_from_the_script():
    assert language_of("The API does not page.") == "en"
    assert language_of("該 API 不支援分頁。") == "zh"
    assert language_of("このAPIは対応していない。") == "ja"


def test_a_claim_after_a_directive_in_the_same_sentence_is_still_found():
    # The prohibition is a directive; the reason after "because" is a claim about the tool.
    assert classify("Don't use the Notion export button, because it does not include archived rows.")[0] == CLAIM
    assert classify("Safariが対応していないので、手動で変換してください。")[0] == CLAIM


@pytest.mark.parametrize(
    "text",
    [
        # a negative word mentioned, not used: a wikilink, a slug, a quote, a code span, a URL
        "See [[feedback-do-not-mock]] first.",
        "The page is docs/not-found.md.",
        'Differentiate upstream failures from "not found".',
        "Run `git commit --no-verify` only in emergencies, says the wiki at https://x.example/no-verify.",
        # SQL and code words, settings
        "ALTER TABLE users MODIFY phone VARCHAR(20) NOT NULL;",
        "Rows WHERE deleted_at IS NOT NULL are skipped.",
        "None are blocking correctness.",
        "Plot with width=0.6, no legend.",
        "Responses never emit null here.",
        # notes to self, rules, preferences
        "How to apply: never mark a flaky test as skipped.",
        "No secrets in logs, ever.",
        "No adapter needed for the shared base.",
        "Prefers short answers with no preamble.",
        "Read SKILL.md before saying a CLI feature doesn't exist.",
        # post-mortems and judgements
        "Tried the beta channel, didn't help.",
        "We didn't pin the lockfile, so the build drifted.",
        "Tests broke because the patch no longer took effect.",
        "Honestly the new dashboard isn't great.",
        "The remaining duplicates are not worth hoisting.",
        # the project's own design, asides and contrasts
        "Why: digests need durable state the cache can't hold.",
        "Embeddings via FastEmbed (ONNX, no torch).",
        "The chat UI lives inside the app (not a separate module).",
        "Use uv not pip.",
        "It is not a bug, it is the documented default.",
        "`metadata.kind` is written but never read.",
        "`serialize` sets it, but `deserialize` doesn't project it.",
        # issue 29: how things stood then, told as history
        "當時 CI 沒有快取，所以每次都要重裝依賴。",
        "当时 CI 没有缓存，所以每次都要重装依赖。",
        # issue 29: the project's own code, files and open to-dos, in Chinese and Japanese
        "目前 CI pipeline 沒有跑 e2e 測試。",
        "docker-compose.yml 裡沒有設定 healthcheck。",
        "backend 的 handler 不會回傳 null。",
        "此專案不支援 Windows。",
        "部署腳本不會自動備份資料庫。",
        "TODO：上傳功能還不支援大檔案。",
        "TODO: アップロード機能はまだ大きなファイルに対応していない。",
        "Local state is not auto-cleared — intentional, to avoid a race.",
        "Keys are never stored in this repo; they live in Vault.",
        # languages the detector does not read (Russian is read since issue 29 round 9: test_negation_russian.py)
        "이 기능은 not supported 입니다.",
        "Αυτή η έκδοση δεν υποστηρίζει SSO, not supported.",
        "Esta versión no funciona con el proxy de la oficina.",
        "沒鎖版本就升級，結果壞了。",
        "令牌不放在代码库里，统一放 Vault。",
        "設定檔不是 YAML，是 TOML。",
        "このCLIのヘルプはあまり読みやすくない。",
        "レビューを待たずにマージしてしまった。",
    ],
)
def test_real_prose_that_is_not_a_claim(text):
    assert find_claims(text) == [], classify(text)


@pytest.mark.parametrize(
    "text",
    [
        "AnythingLLM moved off port 3001 (3001 no longer answers).",
        "The compose file is on the host — not visible from the devcontainer.",
        "Two docs (a.md, b.md) have no docSource in their chunk metadata.",
        "SharePoint search settings: Refinable fields (unsupported in modern search).",
        "Returned by Graph search but not processed by the answers.",
        "The native DOM SubmitEvent is NOT compatible with React's prop type.",
        "No ARM build exists for the CLI.",
        "`jq` isn't available on the Alpine runner image.",
        "I couldn't find any documentation for the flag.",
        "gh does not support merge queues; it's a known gap.",
        # a condition inside what is not supported, not one the negation opens (issue 29 round 8)
        "Vercel 的 Hobby 方案不支持在没有绑定信用卡的情况下运行 Cron。",
        "Stripe 的測試模式不支援在沒有 webhook 簽章的情況下重送事件。",
    ],
)
def test_real_prose_claims_stay_claims(text):
    assert classify(text)[0] == CLAIM, text


@pytest.mark.parametrize(
    "text",
    [
        # no capability, availability or existence predicate: a judgement, a rule, a behaviour
        "GitHub is not the bottleneck here.",
        "A green resolve in SwiftPM is not evidence the graph is sound.",
        "The documented MISTKIT_KEY never resolves; only the undocumented one does.",
        "Adding tables to the Postgres schema does not bump the version.",
        # the project as the subject: we, I, you, our own code, a rule, a test
        "We don't support Windows yet.",
        "I can't run the Docker tests on this laptop.",
        "Our backup script doesn't support Windows.",
        "The users table has no index on email in Postgres.",
        "Filing follow-up issues on GitHub is not allowed.",
        # nothing outside the project named at all
        "There is no batch export in the admin panel.",
        "この関数は本番で一度も呼ばれていない。",
        "Needs Read access; no local permission storage; results are trimmed per user.",
        # a case, not a standing fact; a past event
        "Once the branch is deleted, the commits are unreachable on GitHub.",
        "If Node 18 is not installed, the script falls back to Bun.",
        "Python wasn't loading the plugin from that path.",
        "The Cask had no quarantine block in the 0.4 release.",
        # no negative word: a removal or a block that is the project's own, or a dependency
        "The old PhysX code was removed, nothing replaced it.",
        "#407 is blocked on brightdigit/ConfigKeyKit#1 shipping.",
        "The column was removed in the last migration.",
    ],
)
def test_negations_without_positive_evidence_are_not_claims(text):
    # Issue #19, batch 2: a negation is reported only when it attaches to a capability,
    # availability or existence predicate said of something outside the project.
    assert find_claims(text) == [], classify(text)


@pytest.mark.parametrize(
    "text",
    [
        # Issue #14: a search that came back empty, or support that is missing, is a claim whoever ran
        # it and whatever it names (these two were pinned as silent by issue #19's batch 2; the hand
        # table and both blind sets label them claims).
        "找不到相關資料。",
        "該工具不支援批次匯出。",
        "搜索日志也没找到这条记录。",
        "社内Wikiを検索したが何も出てこなかった。",
        "Dark mode is not supported on the embedded viewer.",
        # claims with no negative word, and code-mixed ones
        "The 沙盒 has no outbound internet access.",
        "gRPC gateway 不 support streaming 接口。",
        "The office proxy blocks pypi.org.",
        "ImageMagick on the CI image was built without HEIC support.",
        "單次 Kinesis 寫入最大 1 MB。",
        "舊的通知服務已經下架。",
        "公司防火牆把 22 埠對外關了。",
        "旧エンドポイントの `/v1/status` は 410 を返す。",
        "Netlify free sites time out after 10 seconds.",
    ],
)
def test_kinds_of_claim_that_need_no_name_or_no_negative_word(text):
    assert len(find_claims(text)) == 1, classify(text)


@pytest.mark.parametrize(
    "text",
    [
        # removal or end of life, a block by policy, an empty result, a limit: no negative word
        "The ubuntu-18.04 runner image was removed by GitHub.",
        "The old Grafana at grafana-old.example.com has been decommissioned.",
        "Outbound SMTP is blocked on the staging hosts.",
        "The CRM lookup for customer 4821 came back empty.",
        "The partner API accepts at most 50 ids per call.",
        "Stripe list endpoints cap the page size at 100.",
        "LINE Notify 已經停止服務。",
        "舊的 Heroku app 已經關掉了。",
        "企业微信接口每分钟最多调用 600 次。",
        "Google Optimize はサービス終了済み。",
        "社内ネットワークから ChatGPT へのアクセスは遮断されている。",
        "Backlog API は 1 分あたり 150 リクエストまで。",
        # a search that came back empty, whoever ran it
        "I couldn't find any documentation for the flag.",
        "Grepping the monorepo for 'legacy_auth' turned up nothing.",
        # the project's own possessive does not hide a named thing
        "Our Auth0 tenant doesn't support passkeys yet.",
        "我們的帳號沒有管理員權限。",
    ],
)
def test_positive_evidence_makes_a_claim(text):
    assert classify(text)[0] == CLAIM, text


@pytest.mark.parametrize(
    "line",
    [
        "no; " * 25_000,
        "(no " * 25_000,
        "a=" * 50_000,
        '"not" ' * 16_000,
        "[[not]] " * 12_000,
        "don't " * 16_000,
        "if not " * 14_000,
        "x" * 99_990 + "n't",
        "不" * 100_000,
        "如果不" * 33_000,
        "ない" * 50_000,
        "ずず" * 50_000,
        "." * 100_000,
        "e.g. " * 20_000,
        "'" * 100_000,
        "We don't support it with GitHub, " * 3_000,
        "the log is empty, " * 6_000,
        "caps x at 1, " * 8_000,
    ],
)
def test_hostile_long_lines_give_an_answer(line):
    # Speed is measured by bench/negation_accuracy.py --speed; here: no exception, a sane result.
    claims = find_claims(line)
    assert all(line[c.start : c.end] == c.sentence for c in claims)


def test_evidence_costs_linear_time_on_a_long_sentence():
    # Every negative word asks about the names of the same sentence: they are found once, not per
    # word (a 99,000-character line of "We don't support it with GitHub, " took 112 s when they were not).
    import time

    # The Chinese contrast check searched to the end of the sentence from every cue (75 s for "不支援，" * 25,000).
    lines = ("We don't support it with GitHub, " * 3_000, "it is blocked; " * 7_000, "Our x has no GitHub, " * 5_000,
             "不支援，" * 25_000, "密鑰不放，都在，" * 12_000, "対応していない、" * 12_000,
             # round 2 of issue 14: a name looked for after each verb reads a bounded window, not the rest of the line
             "it is broken in GitHub; " * 4_000, "x is denied by a policy, " * 4_000, "從週一起一直報錯，" * 10_000,
             # issue 29: a quotation mark left alone is looked for in one sweep, a to-do once per sentence
             '"a" doesn\'t TODO ' * 8_000, 'x " no GitHub ' * 8_000,
             # each Japanese or Chinese cue asked the whole line for a to-do, a name and a self subject (15 minutes)
             "ない" * 50_000, "我們無" * 30_000,
             # issue 29 round 6: each dated removal looked to the end of the line for what holds now (23 s)
             "GitHub was removed in 2024, " * 4_000)
    for line in lines:
        began = time.perf_counter()
        find_claims(line)
        assert time.perf_counter() - began < 10, line[:40]
