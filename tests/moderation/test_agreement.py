"""The fair-play signal's arithmetic: a review's decisions counted per player (a tie with the
best counts as agreement; bots' seats are nobody's), and a player's share against the others'
(themselves left out), with the minimum sample, the population's floor of spread, and a flag only
far above."""

from __future__ import annotations

import json

import pytest
from tests.support.reviews import a_record

from carroca import record
from carroca.analysis import analyze_match, to_json
from carroca.server.moderation.agreement import (
    SD_FLOOR,
    Rules,
    population_of,
    signal,
    signals,
    tally,
)

RULES = Rules(min_decisions=100, min_players=5, z=3.0)
OTHERS = [0.50, 0.52, 0.54, 0.56, 0.58, 0.60]  # mean 0.55, sd about 0.0374


def test_a_review_counted_per_player() -> None:
    rec = record.loads(a_record("bloqueio", seed=3))
    text = json.dumps(to_json(analyze_match(record.verify(rec), rec["players"], worlds=4)))
    review = json.loads(text)
    decisions = [(d["seat"], d["played"] == d["best"], d["loss"])
                 for hand in review["hands"] for d in hand["decisions"]]
    counted = tally(text, {0: 11, 1: 22})
    for seat, pid in ((0, 11), (1, 22)):
        mine = [d for d in decisions if d[0] == seat]
        assert counted[pid] == (len(mine), sum(agreed for _, agreed, _ in mine))
        assert all(agreed == (loss == 0) for _, agreed, loss in mine)
    assert tally(text, {1: 22}) == {22: counted[22]}  # seat 0 a bot's: nobody's decisions
    assert tally(text, {0: 11, 1: 22, 5: 33})[33] == (0, 0)
    with pytest.raises(ValueError):
        tally('{"format": "outro"}', {0: 1})
    with pytest.raises(ValueError):
        tally("não é json", {0: 1})


def test_far_above_the_others_is_flagged_and_said_in_portuguese() -> None:
    population = population_of([*OTHERS, 187 / 240])  # the player among them
    line = signal("bloqueio", 240, 187, population, RULES)  # 77.9%
    assert line["population"]["players"] == len(OTHERS)  # left out of their own comparison
    assert line["population"]["mean"] == pytest.approx(0.55)
    assert line["z"] is not None and line["z"] > 3 and line["flagged"]
    assert line["verdict"] == "above"
    assert line["text"] == ("Concordância com o especialista (bloqueio): 78% em 240 decisões "
                            "(população: 55% ± 4 pontos, 6 jogadores) — fora do comum")


def test_usual_and_below_are_not_flagged() -> None:
    population = population_of(OTHERS)
    usual = signal("bloqueio", 200, 116, population, RULES)  # 58%, one of them
    assert usual["verdict"] == "usual" and not usual["flagged"]
    assert usual["text"].endswith("— dentro do comum")
    low = signal("bloqueio", 200, 40, population_of([*OTHERS, 0.2]), RULES)
    assert low["verdict"] == "below" and not low["flagged"]
    assert low["text"].endswith("— abaixo do comum")


def test_too_few_decisions_or_players_are_not_compared() -> None:
    few = signal("bloqueio", 40, 39, population_of(OTHERS), RULES)
    assert few["verdict"] == "few_decisions" and few["z"] is None and not few["flagged"]
    assert few["text"] == ("Concordância com o especialista (bloqueio): 98% em 40 decisões — "
                           "poucas decisões para comparar (mínimo 100)")
    small = signal("bloqueio", 300, 290, population_of([0.5, 0.6, 0.97]), RULES)
    assert small["verdict"] == "small_population" and not small["flagged"]
    assert "população pequena demais para comparar (2 jogadores" in small["text"]
    alone = signal("pontos", 300, 290, None, RULES)
    assert alone["verdict"] == "small_population" and alone["population"]["players"] == 0


def test_a_tight_population_does_not_make_a_small_difference_far() -> None:
    tight = population_of([0.550, 0.551, 0.552, 0.553, 0.554, 0.555])  # sd under a point
    near = signal("bloqueio", 1000, 590, tight, RULES)  # 59%: 3.7 points above
    assert near["population"]["sd"] < SD_FLOOR
    assert near["z"] is not None and near["z"] < RULES.z and not near["flagged"]
    far = signal("bloqueio", 1000, 640, tight, RULES)  # 64%: 9 points above
    assert far["flagged"]


def test_one_line_per_ruleset_with_decisions_most_first() -> None:
    lines = signals([("bloqueio", 120, 70), ("pontos", 0, 0), ("mano-a-mano", 300, 150)],
                    {"bloqueio": population_of(OTHERS)}, RULES)
    assert [(s["ruleset"], s["decisions"]) for s in lines] == [("mano-a-mano", 300),
                                                               ("bloqueio", 120)]
    assert lines[0]["verdict"] == "small_population"
    assert lines[1]["verdict"] == "usual"
