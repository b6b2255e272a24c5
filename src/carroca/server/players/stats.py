"""What each seat did in a match, for the profile's figures per ruleset: whether it won, its
batidas, galos and capicús.

Read off the match as played: the live one at its end (`tables.table`), or a stored record
replayed (`carroca.record.verify`) for matches kept before these figures were (the node's
upkeep counts those a few at a time). A galo is the player's whose play the three others passed
(the engine scores it to their team at the third pass); a capicú is a batida whose tile fit
both ends (`rules.rulesets.is_capicu`, told in the hand's end as its detail).
"""

from __future__ import annotations

import asyncio
import logging

from carroca.record import loads, verify
from carroca.rules import Match
from carroca.rules.actions import PLAY
from carroca.rules.game import Step
from carroca.server.storage.rows import SeatCounts as SeatStats
from carroca.server.storage.store import Store

log = logging.getLogger("carroca.server")


def _player_of_galo(steps: tuple[Step, ...], index: int) -> int | None:
    """The seat whose play the passes up to step `index` answered: the last one to play."""
    for step in reversed(steps[: index + 1]):
        if step.action.kind == PLAY:
            return step.seat
    return None


def seat_stats(match: Match) -> list[SeatStats]:
    """Per seat, what it did in `match` (won: its team won the match; none did unfinished)."""
    winner = match.result.winner if match.result is not None else None
    out: list[SeatStats] = [
        {"won": winner is not None and seat % 2 == winner, "batidas": 0, "galos": 0,
         "capicus": 0}
        for seat in range(match.n)
    ]
    for log in match.history:
        end = log.end
        if end.kind == "batida" and end.seat is not None:
            out[end.seat]["batidas"] += 1
            if end.detail == "capicu":
                out[end.seat]["capicus"] += 1
        for event in log.events:
            if event.reason == "galo":
                seat = _player_of_galo(log.steps, event.index)
                if seat is not None:
                    out[seat]["galos"] += 1
    return out


def record_stats(record: object) -> list[SeatStats]:
    """The same from a stored record (`RecordError` when it does not verify)."""
    return seat_stats(verify(record))


#: Matches counted at each pass of the node's upkeep (a record replays in 1–3 ms).
COUNT_BATCH = 200


async def count_stored(store: Store, limit: int = COUNT_BATCH) -> int:
    """Count what each player did in up to `limit` stored matches kept before these figures
    were (their records replayed off the event loop), in one write; returns how many were
    counted. A record that does not verify counts its stored result only, nothing else done
    (not tried again at every pass)."""
    todo = await store.uncounted_matches(limit)

    def replay() -> list[tuple[str, list[SeatStats]]]:
        out = []
        for row in todo:
            try:
                counts = record_stats(loads(row["record"]))
            except ValueError:  # RecordError among them
                log.warning("match %s: its record does not verify; only its result counted",
                            row["id"])
                winner = row["result"]["winner"] if row["result"] else None
                counts = [{"won": seat % 2 == winner, "batidas": 0, "galos": 0, "capicus": 0}
                          for seat in range(4)]
            out.append((row["id"], counts))
        return out

    counted = await asyncio.to_thread(replay)
    if counted:
        await store.set_counts(counted)
    return len(todo)
