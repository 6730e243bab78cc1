"""secret-in-memory and what is public by design (issue 29, round 7): a publishable key, a wallet's address.

A key the service publishes for browsers (Stripe's `pk_`, Supabase's `sb_publishable_`) and a wallet's public
address are meant to be shared. A wallet's private key or seed, a Supabase secret key, and an address-shaped
value on a line that calls it private are still secrets. Every row is written for this test.
"""

from __future__ import annotations

import pytest

from memwarden.analysis.secrets import scan

_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base58(data: bytes) -> str:
    number = int.from_bytes(data, "big")
    out = ""
    while number:
        number, digit = divmod(number, 58)
        out = _B58[digit] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


ADDRESS = base58(bytes(range(7, 39)))  # 32 bytes: the size of a Solana public key
SECRET_64 = base58(bytes(range(40, 104)))  # 64 bytes: a Solana keypair's secret key

PUBLIC = [
    f'SUPABASE_ANON_KEY="sb_publishable_{"Qm7Rt2Xw9Lp4Zk8Vn3Hb6Jc1Fd5Gs0Ay_Tq4"}"\n',
    f"- Solana wallet: `{ADDRESS}`\n",
    f"**Treasury wallets:**\n- EVM: `0x52908400098527886E0F7030069857D2E4169EE7`\n- Solana: `{ADDRESS}`\n",
    f"Send the USDC to this deposit address: {ADDRESS}\n",
]


@pytest.mark.parametrize("text", PUBLIC)
def test_what_is_public_by_design_is_no_secret(text):
    assert [(d.type.slug, text[d.start : d.end]) for d in scan(text, "markdown")] == []


STILL_SECRET = [
    f'SUPABASE_SERVICE_KEY="sb_secret_{"Qm7Rt2Xw9Lp4Zk8Vn3Hb6Jc1Fd5Gs0Ay_Tq4"}"\n',
    f"- Solana wallet secret key: `{SECRET_64}`\n",
    f"- Solana wallet: `{SECRET_64}`\n",  # 64 bytes is no address, whatever the line calls it
    f"**Wallet generated:**\n- Private key: (in the vault)\n- Solana: `{ADDRESS}`\n",  # private named close by
    f"- Solana wallet seed: `{ADDRESS}`\n",
]


@pytest.mark.parametrize("text", STILL_SECRET)
def test_a_private_key_or_seed_is_still_a_secret(text):
    assert len(scan(text, "markdown")) == 1
