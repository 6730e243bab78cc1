"""Identifiers that are public by design and carry their own proof of form: a Bitcoin address (its checksum says
so) and an IPFS content id (a hash of a published file, under words that name IPFS).

A donation address in a README, a certificate's CID in a note: random-looking, and meant to be shared. Only the
generic random-looking detector is overruled: a Bitcoin address passes only with a valid checksum and an address
version (a private key in WIF has another version byte and stays a secret); a CID passes only in its own shape and
on a line, or under a lead-in, that names IPFS or a CID.
"""

from __future__ import annotations

import hashlib

from memwarden.patterns import LazyPattern

_BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BASE58 = LazyPattern(r"\A[1-9A-HJ-NP-Za-km-z]{25,64}\Z")
_BECH32_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_BECH32_ADDRESS = LazyPattern(r"\A(?:bc|tb)1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{8,87}\Z")
_BITCOIN_VERSIONS = (0x00, 0x05, 0x6F, 0xC4)  # pay-to-key-hash and pay-to-script-hash, main and test networks
_CID_V0 = LazyPattern(r"\AQm[1-9A-HJ-NP-Za-km-z]{44}\Z")
_CID_V1 = LazyPattern(r"\Abafy[a-z2-7]{55}\Z")
_IPFS_WORDS = LazyPattern(r"(?i)\bipfs\b|\bcid\b|/ipfs/|ipfs://")


def is_public_identifier(value: str, context: str) -> bool:
    """A Bitcoin address, or an IPFS content id where ``context`` (its line and the lines just before) names
    IPFS or a CID."""
    if is_bitcoin_address(value):
        return True
    return bool((_CID_V0.match(value) or _CID_V1.match(value)) and _IPFS_WORDS.search(context))


def is_bitcoin_address(value: str) -> bool:
    if _BECH32_ADDRESS.match(value):
        return _bech32_checksum_holds(value)
    if not _BASE58.match(value):
        return False
    data = _base58_bytes(value)
    if len(data) != 25 or data[0] not in _BITCOIN_VERSIONS:
        return False
    return hashlib.sha256(hashlib.sha256(data[:-4]).digest()).digest()[:4] == data[-4:]


def _base58_bytes(value: str) -> bytes:
    number = 0
    for char in value:
        number = number * 58 + _BASE58_ALPHABET.index(char)
    leading = len(value) - len(value.lstrip("1"))
    return b"\x00" * leading + number.to_bytes((number.bit_length() + 7) // 8, "big")


def _bech32_checksum_holds(value: str) -> bool:
    """BIP 173's checksum (BIP 350's for taproot's bech32m)."""
    hrp, _, data = value.rpartition("1")
    values = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp] + [_BECH32_CHARSET.index(c) for c in data]
    checksum = 1
    generator = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    for number in values:
        top = checksum >> 25
        checksum = (checksum & 0x1FFFFFF) << 5 ^ number
        for i in range(5):
            checksum ^= generator[i] if (top >> i) & 1 else 0
    return checksum in (1, 0x2BC830A3)
