"""Records of real matches for the record tests, and the specs of the golden files.

`python -m tests.support.records` rewrites `tests/data/golden/<ruleset>.jsonl` from `GOLDEN`;
the golden test fails whenever the engine would write a different line for the same seeds.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carroca import fair
from carroca.bots.random_bot import RandomBot
from carroca.driver import play_match
from carroca.record import Fairness, dumps, to_record
from carroca.rules import RULESETS, Match, get_ruleset

ZERO_SEED = "00" * 32
GOLDEN_DIR = Path(__file__).resolve().parent.parent / "data" / "golden"
PLAYERS = {2: ("ana", "luis"), 4: ("ana", "luis", "bia", "marco")}

#: record.md's test vector: the deals of server_seed "00"*32, client_seed "test".
VECTOR_COMMITMENT = "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
VECTOR_DEALS = (
    "2-3 0-4 0-2 2-6 0-1 1-5 0-0 | 2-5 1-3 4-6 2-4 1-6 2-2 3-3 | "
    "5-5 5-6 0-3 3-4 6-6 1-1 0-6 | 3-6 3-5 0-5 1-4 4-5 1-2 4-4",
    "3-6 2-2 4-5 6-6 1-1 1-2 2-6 | 1-5 3-3 0-4 3-5 1-6 0-6 1-3 | "
    "4-6 0-3 2-3 2-4 0-5 0-0 5-5 | 4-4 2-5 3-4 1-4 0-1 5-6 0-2",
)


def vector_groups(deal_index: int) -> list[list[str]]:
    return [group.split() for group in VECTOR_DEALS[deal_index].split("|")]


@dataclass(frozen=True)
class Spec:
    """A match between RandomBots: bot s is seeded `bot_base + s`."""

    ruleset: str
    client_seed: str
    bot_base: int
    options: dict[str, Any] = field(default_factory=dict)
    server_seed: str = ZERO_SEED

    def match(self) -> Match:
        rs = get_ruleset(self.ruleset)
        bots = [RandomBot(self.bot_base + s) for s in range(rs.seats)]
        opts = rs.make_options(self.options)
        return play_match(self.ruleset, opts, bots, self.server_seed, self.client_seed)

    def fairness(self) -> Fairness:
        return Fairness(fair.commitment(self.server_seed), self.client_seed, self.server_seed)

    def players(self) -> tuple[str, ...]:
        return PLAYERS[get_ruleset(self.ruleset).seats]

    def record(self) -> dict[str, Any]:
        return to_record(self.match(), self.players(), self.fairness())


#: One small match per ruleset, seeds chosen so that each shows the ruleset's special cases:
#: duplas-pontos cinco carroças (points), a passed saída and a galo; duplas-torneio a capicu
#: and a trancado; classico a tied fechado (no winner); bloqueio every batida type; pontos a
#: fechado with hand_end_pips. duplas-torneio and mano-a-mano deal record.md's test vector.
GOLDEN: dict[str, Spec] = {
    "duplas-pontos": Spec("duplas-pontos", "golden-5524", 0, {"target": 100}),
    "duplas-torneio": Spec("duplas-torneio", "test", 444000, {"target": 50, "capicu_bonus": 25}),
    "mano-a-mano": Spec("mano-a-mano", "test", 1323000),
    "classico": Spec("classico", "golden-1427", 1427000),
    "bloqueio": Spec("bloqueio", "golden-1695", 1695000),
    "pontos": Spec("pontos", "golden-1086", 1086000, {"hand_end_pips": True}),
}


def golden_line(name: str) -> str:
    return dumps(GOLDEN[name].record()) + "\n"


@functools.cache
def sample_records() -> tuple[tuple[str, str], ...]:
    """(ruleset, compact line) of a few finished matches per ruleset, built once per process."""
    out = []
    for name in RULESETS:
        for k in range(3):
            spec = Spec(name, f"sample-{k}", 100 * k)
            out.append((name, dumps(spec.record())))
    return tuple(out)


def write_golden() -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name in GOLDEN:
        (GOLDEN_DIR / f"{name}.jsonl").write_text(golden_line(name), encoding="utf-8")


if __name__ == "__main__":
    write_golden()
