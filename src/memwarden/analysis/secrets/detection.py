"""What a scan finds: a :class:`Detection` per secret (where it is and a hash of it, never the secret), and the
:class:`ScanStats` of the work done."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from memwarden.analysis.secrets.patterns import SecretType


@dataclass(frozen=True)
class Detection:
    """One secret in a text. It never holds the secret itself: only where it is and a hash of it."""

    type: SecretType
    start: int  # offsets into the scanned text: the characters a redaction replaces
    end: int
    line: int  # 1-based line and column of start
    column: int
    digest: str  # sha256 hex of the secret value
    allowed: bool = False  # an allow marker on its line
    encoded: bool = False  # found in the text a base64 blob decodes to: start and end are its base64's

    @property
    def short_hash(self) -> str:
        return self.digest[:8]

    @property
    def baseline_hash(self) -> str:
        return self.digest[:16]


@dataclass
class ScanStats:
    """How much work a scan did: windows seen and the characters in them (for the linear-time test)."""

    windows: int = 0
    characters: int = 0
    longest_window: int = 0


def digest_of(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
