"""secret-in-memory and the addresses of pages and media files (issue 29, round 8).

A random-looking string in a URL whose path names a page or a media file (`.html`, `.shtml`, `.jpeg`, `.mp4` ...)
is the file's name, an article's or a listing's id, or a CDN's parameters for a public file (scraped search
results, saved design mock-ups, a note's source links), not a key. A value under a secret-like parameter name,
a token a detector knows by its format, a password in the URL's user part, and a random-looking string in the
path of an API's address stay secrets. Every row is written for this test.
"""

from __future__ import annotations

import pytest

from memwarden.analysis.secrets import scan

RANDOM = "Qm7Rt2Xw9Lp4Zk8Vn3Hb6Jc1Fd5Gs0AyTq4"
OTHER = "Vb8Nc3Xz1Lk7Jh5Gf2Ds9Aq4Wp6Eo0Ri"

ADDRESSES = [
    (f"- **TripAdvisor:** https://www.example-travel.com/AttractionProductReview-{RANDOM}-Night_Tour.html\n", "markdown"),
    (f"**链接**: https://news.example.cn/2026/03/27/ARTI{RANDOM}.shtml\n", "markdown"),
    (f'{{"coverUrl": "https://p16-sign.cdn.example.com/obj/{RANDOM}~tplv-cover:720:720.jpeg?dr=9640&x-expires=1773'
     f'&x-signature={OTHER}%3D&t=4d5b"}}\n', "jsonl"),
    (f'  <img alt="chart" src="https://images.example.net/assets/{RANDOM}/render.webp"/>\n', "markdown"),
    (f"cover: https://media.example.org/v/{RANDOM}/clip.mp4?rc={OTHER}\n", "yaml"),
    (f"- cover https://lh3.googleusercontent.com/aida-public/{RANDOM}{OTHER}\n", "markdown"),
    (f'{{"playUrl": "https://v16-webapp.tiktok.com/video/tos/{RANDOM}/?a=1988&rc={OTHER}"}}\n', "jsonl"),
]


@pytest.mark.parametrize(("text", "fmt"), ADDRESSES)
def test_a_page_or_media_files_address_is_no_secret(text, fmt):
    assert [d.type.slug for d in scan(text, fmt)] == []


STILL_SECRET = [
    # a secret-like parameter name says what the value is, whatever file the URL names
    (f"- avatar: https://cdn.example.com/u/me.png?token={RANDOM}\n", "markdown"),
    (f'{{"url": "https://cdn.example.com/report.html?api_key={RANDOM}"}}\n', "jsonl"),
    (f"report: https://bucket.s3.amazonaws.com/q3.pdf?X-Amz-Expires=900&X-Amz-Security-Token={RANDOM}\n", "yaml"),
    (f"<video src=\"https://media.example.org/clip.mp4?access_token={RANDOM}\"></video>\n", "markdown"),
    # a token known by its format, in the path of a page's address
    ("see https://example.com/ghp_" + "Qm7Rt2Xw9Lp4Zk8Vn3Hb6Jc1Fd5Gs0AyTq4Wx" + "/index.html\n", "markdown"),
    # a password in the user part of a page's address
    (f"admin page: https://admin:{RANDOM}@intranet.example.com/status.html\n", "markdown"),
    # a dynamic page's query may carry a session or a reset token under a short name: not exempted
    (f"reset link: https://shop.example.com/reset.php?t={RANDOM}\n", "markdown"),
    # a random-looking string in the path of an API's address (no file named)
    (f"endpoint: https://api.example.com/v1/{RANDOM}/send\n", "yaml"),
    # a page's address on the line does not cover the key written after it
    (f"docs https://example.com/setup.html key: {RANDOM}\n", "markdown"),
]


@pytest.mark.parametrize(("text", "fmt"), STILL_SECRET)
def test_a_secret_in_or_beside_a_files_address_is_still_found(text, fmt):
    assert len(scan(text, fmt)) == 1
