"""The shared link scanner (documents/scan.py) on big and hostile Markdown: it must stay linear.

    python bench/link_scan.py

Each case is scanned for links (inline, reference-style, none in code or comments) and wikilinks;
the time should grow with the size of the text, never with its square.
"""

from __future__ import annotations

import time

from memwarden.documents.scan import find_wikilinks, markdown_links

CASES = {
    "1 MB of ordinary note text": ("See [a](x.md \"t\") and `code` and [r][ref] [[wiki]].\n" * 20000) + "\n[ref]: y.md\n",
    "200k '['": "[" * 200_000,
    "100k backtick runs of mixed length": "".join("`" * (i % 7 + 1) + "a" for i in range(100_000)),
    "100k '[['": "[[" * 100_000,
    "50k '[a]['": "[a][" * 50_000 + "\n[a]: x.md\n",
    "50k unclosed comments and fences": "<!-- [a](x.md)\n```\n" * 50_000,
}


def main() -> None:
    for name, text in CASES.items():
        start = time.perf_counter()
        links = len(markdown_links(text))
        wikis = len(find_wikilinks(text))
        took = time.perf_counter() - start
        print(f"{name:40} {len(text):>9,} chars {links:>6} links {wikis:>6} wikilinks {took * 1000:>7.0f} ms")


if __name__ == "__main__":
    main()
