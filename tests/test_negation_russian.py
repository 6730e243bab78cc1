"""Russian negative claims (issue 29, round 9): read narrowly, a present-tense predicate or a block said of a name.

Every sentence here was written for this test, none copied from real memory.
"""

from __future__ import annotations

import pytest

from memwarden.analysis.negation import CLAIM, DIRECTIVE, classify, find_claims, language_of

from tests.test_claims import findings


@pytest.mark.parametrize(
    "text",
    [
        "Ubuntu 24.04 не поддерживает Python 3.8 из коробки.",
        "Notion API не отдаёт вложенные базы целиком.",
        "- Avito: Cloudflare блокирует запросы с VPS даже с заголовками браузера",
        "Figma плагины не видят локальные шрифты в веб-версии.",
        "- Discord вебхуки не принимают файлы больше 25 МБ",
        "Stripe в России недоступен.",
        "У Trello нет публичного API для автоматизаций Butler.",
        "- Яндекс Диск заблокирован для скачивания через curl",
        "Grafana Cloud free не позволяет больше трёх пользователей.",
        "Поиск по Hacker News: ничего не найдено.",
    ],
)
def test_russian_claims_about_the_world_are_claims(text):
    verdict, cue = classify(text)
    assert verdict == CLAIM, (text, verdict)
    assert cue


@pytest.mark.parametrize(
    "text",
    [
        # the owner's own setup
        "- pandas не установлен на сервере, считаем на чистом csv",
        "Docker не настроен на ноутбуке.",
        # a past event, a condition, a guess, the speaker as subject
        "Вчера Netlify не работал из-за инцидента.",
        "Heroku был недоступен всю ночь.",
        "Если Slack не отвечает, повторить через минуту.",
        "Возможно, Mailchimp не поддерживает кириллицу в теме письма.",
        "У нас нет доступа к GitHub организации клиента.",
        "Я не могу открыть Miro без приглашения.",
        # the project's own code, told with no outside name
        "Кнопка поиска в шапке пока не работает.",
        "Скрипт бэкапа не удаляет старые архивы.",
    ],
)
def test_russian_sentences_that_are_not_claims(text):
    assert classify(text)[0] != CLAIM, text


@pytest.mark.parametrize(
    "text",
    [
        "Никогда не удаляй ветку main на GitHub: Actions её не видит.",
        "Не трогай nginx конфиг, он не работает без прокси.",
        "Не надо запускать Playwright в CI, он не поддерживает этот раннер.",
    ],
)
def test_russian_directives_are_directives(text):
    assert classify(text)[0] == DIRECTIVE, text


def test_cyrillic_is_read_as_russian_and_other_scripts_stay_skipped():
    assert language_of("Booking не работает с сервера.") == "ru"
    assert language_of("Slack API는 지원하지 않는다.") == "other"
    assert language_of("Το Slack δεν υποστηρίζει αυτό.") == "other"
    # a lone Cyrillic letter in an English sentence keeps it English
    assert language_of("The API does not page (see note Б).") == "en"


def test_a_russian_claim_is_found_in_prose_and_located():
    text = "Почта настроена. Gmail блокирует HTML письма от новых доменов. Остальное работает."
    [claim] = find_claims(text)
    assert claim.sentence.startswith("Gmail блокирует")
    assert claim.language == "ru"


def test_rule_reports_a_russian_claim_in_a_note(workspace, cli):
    note = (
        "---\nname: n\ndescription: Что известно про Booking\nmetadata:\n  type: reference\n  updated: 2026-03-01\n---\n\n"
        "Цены берём с сайта.\n\n"
        "- Booking.com: WAF блокирует запросы с сервера даже с cookies.\n"
    )
    root = workspace({"memory/knowledge/references/n.md": note})
    [finding] = findings(cli("check", "--select", "MW301", "--format", "json", ".", cwd=root))
    assert finding["line"] == 11
    assert "WAF блокирует" in finding["message"]
