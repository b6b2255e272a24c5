"""The verifiable shuffle of record.md: commit to a seed, reveal it after, recompute every deal.

`shuffle(server_seed, client_seed, deal_index)` is the whole algorithm: HMAC-SHA256 blocks read
as big-endian 32-bit integers drive a Fisher–Yates shuffle with rejection sampling (no modulo
bias). Anyone holding the revealed seed can recompute the 28 tiles of every deal.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from carroca.rules import tiles as T

_HEX64 = re.compile(r"[0-9a-f]{64}")


class FairnessError(ValueError):
    """A seed or commitment that is not what record.md says it must be."""


def new_server_seed() -> str:
    """32 bytes from the operating system's cryptographic source, as 64 lowercase hex digits."""
    return secrets.token_bytes(32).hex()


def check_seed(server_seed: str) -> bytes:
    if not isinstance(server_seed, str) or not _HEX64.fullmatch(server_seed):
        raise FairnessError("server_seed must be 64 lowercase hex characters (32 bytes)")
    return bytes.fromhex(server_seed)


def commitment(server_seed: str) -> str:
    """sha256 of the seed's 32 bytes, shown to every player before the first deal."""
    return hashlib.sha256(check_seed(server_seed)).hexdigest()


def seed_matches(server_seed: str, commit: str) -> bool:
    return hmac.compare_digest(commitment(server_seed), str(commit))


def _words(key: bytes, client_seed: str, deal_index: int):  # type: ignore[no-untyped-def]
    k = 0
    while True:
        msg = f"{client_seed}:{deal_index}:{k}".encode()
        block = hmac.new(key, msg, hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        k += 1


def shuffle(server_seed: str, client_seed: str, deal_index: int) -> list[int]:
    """The 28 tiles (canonical indices) of deal `deal_index` in shuffled order."""
    if not isinstance(client_seed, str):
        raise FairnessError("client_seed must be a string")
    if isinstance(deal_index, bool) or not isinstance(deal_index, int) or deal_index < 0:
        raise FairnessError("deal_index must be a non-negative integer")
    key = check_seed(server_seed)
    order = list(range(T.TILE_COUNT))
    words = _words(key, client_seed, deal_index)
    for i in range(T.TILE_COUNT - 1, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % n
        order[i], order[j] = order[j], order[i]
    return order


def deal_names(server_seed: str, client_seed: str, deal_index: int) -> list[str]:
    """The shuffled deal in record form (`a-b`), for people and for the browser's check."""
    return [T.NAMES[t] for t in shuffle(server_seed, client_seed, deal_index)]
