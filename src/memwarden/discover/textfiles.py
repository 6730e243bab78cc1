"""Which files no kind claims are text to check: not binary, and not named as a format that is not text."""

from __future__ import annotations

import posixpath
from pathlib import Path

from memwarden.discover.profiles import other_text_kind
from memwarden.fileio import read_regular

# A file's head read to tell text from binary.
TEXT_SNIFF_BYTES = 8192
# Extensions of formats that are not text whatever a file holds: images, audio and video, fonts, archives, office
# documents, compiled code. A file named so is never read as text, as detect-secrets leaves them out: an HTML page
# saved as `photo.jpeg` in a backup is no note, and its scripts' tokens are no secret pasted into memory.
_NOT_TEXT_EXTENSIONS = frozenset(
    """
    .png .jpg .jpeg .gif .bmp .ico .tif .tiff .webp .heic .heif .avif .psd .svg
    .mp3 .mp4 .m4a .mov .avi .mkv .wav .ogg .flac .webm
    .ttf .otf .eot .woff .woff2
    .zip .tar .gz .tgz .bz2 .xz .zst .7z .s7z .rar .jar .war .whl .dmg .iso
    .pdf .doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp .numbers .pages
    .exe .dll .so .dylib .bin .class .pyc .o .a .mo
    """.split()
)


def is_text_file(path: Path, relpath: str) -> bool:
    """Whether a file no kind claims is text to check: no NUL byte in its head, and (unless its extension
    names a format, when a bad byte is a parse error to report) valid UTF-8 or a BOM's encoding; never a file
    whose extension names a format that is not text (an image, an archive)."""
    if posixpath.splitext(relpath)[1].lower() in _NOT_TEXT_EXTENSIONS:
        return False
    try:
        head = read_regular(path, limit=TEXT_SNIFF_BYTES)
    except PermissionError:
        return True  # it may hold anything: reported as unreadable
    except OSError:
        return other_text_kind(relpath).format != "text"  # a loop, a dangling link: reported if it names a format
    if head.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")):
        return True  # UTF-16/32: NUL bytes are part of the text
    if b"\x00" in head:
        return False
    if other_text_kind(relpath).format != "text":
        return True
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.start >= len(head) - 3 and len(head) == TEXT_SNIFF_BYTES  # a character cut at the edge
    return True
