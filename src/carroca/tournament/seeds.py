"""Everything random in an event follows from its seed, committed before and revealed after.

The event seed is a `server_seed` as record.md defines it (32 bytes, 64 hex digits), and its
commitment is the same sha256. From it, by HMAC-SHA256 keyed with the seed:
- each match's `server_seed` (`match_seed`): so every match uses record.md's verifiable
  shuffle, and revealing a finished match's seed reveals nothing of the event's or of the
  matches still to come;
- the draw of lots that orders unrated entrants (`lot`);
- a small per-round number per entrant (`round_keys`) that breaks ties between equally good
  pairings, so a pairing is one function of the standings and the seed.
Anyone holding the revealed seed recomputes all of it.
"""

from __future__ import annotations

import hashlib
import hmac

from carroca import fair

#: Bits of the per-pair tie-break (`jitter`): the last criterion of every pairing's cost.
JITTER_BITS = 16


def offline_seed(seed: int | str) -> str:
    """The event seed of an offline event (`carroca tournament --seed S`): sha256 of a label."""
    return hashlib.sha256(f"carroca-tournament:{seed}".encode()).hexdigest()


def _mac(event_seed: str, label: str) -> bytes:
    return hmac.new(fair.check_seed(event_seed), label.encode(), hashlib.sha256).digest()


def match_seed(event_seed: str, round_no: int, table: int, game: int) -> str:
    """The `server_seed` of game `game` of table `table` in round (or arena wave) `round_no`."""
    return _mac(event_seed, f"match:{round_no}:{table}:{game}").hex()


def client_seed(event_id: str, round_no: int, table: int, game: int) -> str:
    """The match's `client_seed`: fixed and public before its first deal."""
    return f"{event_id}:{round_no}.{table}.{game}"


def lot(event_seed: str, entrant_id: str) -> int:
    """An entrant's number in the draw of lots (64 bits): orders entrants of equal rating."""
    return int.from_bytes(_mac(event_seed, f"lot:{entrant_id}")[:8], "big")


def round_keys(event_seed: str, round_no: int, ids: list[str]) -> dict[str, int]:
    """A 64-bit key per entrant for round `round_no`, mixed pairwise by `jitter`."""
    return {i: int.from_bytes(_mac(event_seed, f"round:{round_no}:{i}")[:8], "big") for i in ids}


def jitter(key_a: int, key_b: int) -> int:
    """A symmetric number in [0, 2**JITTER_BITS) for a pair: the draw among equal pairings."""
    mixed = ((key_a ^ key_b) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    return mixed >> (64 - JITTER_BITS)
