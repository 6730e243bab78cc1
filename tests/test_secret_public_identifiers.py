"""secret-in-memory and identifiers public by design that prove their own form (issue 29, round 9).

A Bitcoin donation address and an IPFS content id look random but are meant to be shared (batch 7 and 8 dev: a
README's donation table, a note naming a certificate's CID). A Bitcoin address passes on its checksum and address
version only; a CID only in its shape and where IPFS or a CID is named. A private key in WIF (another version
byte), a broken checksum, a CID-shaped value under a secret's name or with nothing naming IPFS stay secrets.
The addresses are the public test vectors of BIP 173 and BIP 350 and Bitcoin's first address; other rows are
written for this test.
"""

from __future__ import annotations

import hashlib

import pytest

from memwarden.analysis.secrets import scan

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _base58check(version: int, payload: bytes) -> str:
    data = bytes([version]) + payload
    data += hashlib.sha256(hashlib.sha256(data).digest()).digest()[:4]
    number, text = int.from_bytes(data, "big"), ""
    while number:
        number, rest = divmod(number, 58)
        text = _BASE58[rest] + text
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + text


PUBLIC = [
    "| BTC | `bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4` |\n",
    "Tips welcome: 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa\n",
    "- testnet faucet refund to tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7\n",
    "donate: bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0\n",
    f"P2SH multisig vault: {_base58check(0x05, hashlib.sha256(b'memwarden vault').digest()[:20])}\n",
    "The genesis certificate is pinned on IPFS:\n\n`QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG`\n",
    '<a href="https://gateway.example.net/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG">certificate</a>\n',
    "- CID: bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi\n",
]


@pytest.mark.parametrize("text", PUBLIC)
def test_a_public_identifier_is_no_secret(text):
    assert scan(text, "markdown") == []


STILL_SECRET = [
    # a private key in wallet import format: base58check, but a key's version byte
    f"backup: {_base58check(0x80, hashlib.sha256(b'memwarden test key').digest())}\n",
    "| BTC | `bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5` |\n",  # the checksum fails
    "`QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG`\n",  # nothing names IPFS
    "IPFS pinning: PINATA_API_KEY=QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG\n",  # under a secret's name
]


@pytest.mark.parametrize("text", STILL_SECRET)
def test_what_only_looks_like_a_public_identifier_is_still_found(text):
    assert len(scan(text, "markdown")) == 1
