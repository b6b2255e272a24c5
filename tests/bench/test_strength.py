"""bench/strength.py: its statistics by hand, the duplicate pairing, and a tiny run."""

from __future__ import annotations

import importlib
import json
import math
import sys
from pathlib import Path

import pytest
from tests.support.deals import FIVE_DOUBLES_S0
from tests.support.scripted import deal, play

from carroca import fair
from carroca import record as rec
from carroca.bots.expert.belief import EXPERT_PONTOS, TABLE_PLAYER_PONTOS, Params
from carroca.rules import Match
from carroca.rules import actions as A

# bench/ is not a package: its scripts are found through sys.path, as they find each other, so
# that worker processes can import the module by name too
_BENCH = str(Path(__file__).resolve().parents[2] / "bench")
if _BENCH not in sys.path:
    sys.path.insert(0, _BENCH)
S = importlib.import_module("strength")


def test_wilson_against_hand_computed_values() -> None:
    # 8 of 10 at z = 1.96: centre (0.8 + 0.19208) / 1.38416, half-width
    # 1.96 * sqrt(0.016 + 0.009604) / 1.38416, so [0.4902, 0.9433]
    low, high = S.wilson(8, 10, z=1.96)
    assert low == pytest.approx(0.49016, abs=1e-4)
    assert high == pytest.approx(0.94330, abs=1e-4)
    # no successes: starts at 0 (a plain normal interval would be [0, 0])
    low, high = S.wilson(0, 20, z=1.96)
    assert low == 0.0
    assert high == pytest.approx(3.8416 / 23.8416, abs=1e-6)
    assert S.wilson(0, 0) == (0.0, 1.0)


def test_ratio_interval_by_hand() -> None:
    # one hand per pair: the mean 4 with the sample sd 2 over sqrt(3)
    mean, low, high = S.ratio_interval([2, 4, 6], [1, 1, 1], z=2.0)
    assert mean == 4
    assert high - mean == pytest.approx(2 * 2 / math.sqrt(3))
    assert mean - low == pytest.approx(high - mean)
    # unequal hands per pair: ratio of sums 4 / 4 = 1; residuals 3-1 = 2 and 1-3 = -2,
    # variance 8 / 1 / 2 / 2² = 1
    mean, low, high = S.ratio_interval([3, 1], [1, 3], z=1.0)
    assert (mean, low, high) == pytest.approx((1.0, 0.0, 2.0))
    assert S.ratio_interval([], []) == (0.0, 0.0, 0.0)


def test_duplicate_pairs_swap_sides_on_the_same_deals() -> None:
    first, second = S.duplicate_games(1, 7)
    assert (first.pair, second.pair) == (7, 7)
    assert (first.a_team, second.a_team) == (0, 1)
    assert (first.server_seed, first.client_seed) == (second.server_seed, second.client_seed)
    other = S.duplicate_games(1, 8)[0]
    assert other.server_seed != first.server_seed
    assert S.duplicate_games(2, 7)[0].server_seed != first.server_seed
    assert S.seat_levels("x", "y", 0, 4) == ("x", "y", "x", "y")
    assert S.seat_levels("x", "y", 1, 4) == ("y", "x", "y", "x")
    assert S.seat_levels("x", "y", 1, 2) == ("y", "x")


def test_hand_outcomes_from_the_team_of_a() -> None:
    # one hand played out with the first legal action, read from either side
    m = Match("bloqueio")
    m.deal(fair.shuffle("ab" * 32, "outcomes", 0))
    while m.current_player is not None:
        m.apply(m.legal_actions()[0])
    log = m.history[0]
    as_zero = S.hand_outcomes(m, 0)
    as_one = S.hand_outcomes(m, 1)
    assert len(as_zero) == len(as_one) == 1
    a0, b0, o0 = as_zero[0]
    assert (a0, b0) == (log.score[0], log.score[1])
    assert as_one[0] == (b0, a0, -o0)
    assert o0 == (0 if log.end.winner is None else 1 if log.end.winner == 0 else -1)


def test_a_redeal_is_no_hand() -> None:
    m = deal(Match("duplas-pontos"), FIVE_DOUBLES_S0)
    play(m, "five-doubles:redeal")
    assert m.history[0].end.kind == "redeal"
    assert S.hand_outcomes(m, 0) == []


def test_timed_bot_counts_decisions() -> None:
    class Fixed:
        name = "fixed"

        def choose(self, obs: object) -> A.Action:
            return A.PASS_ACTION

    timed = S.TimedBot(Fixed())
    assert timed.name == "fixed"
    timed.choose(None)
    timed.choose(None)
    assert timed.decisions == 2
    assert timed.seconds >= 0 and timed.cpu >= 0 and 0 <= timed.longest <= timed.seconds


def test_each_side_its_own_budget_and_expert_settings() -> None:
    job = S.Job("mano-a-mano", None, "expert", "expert-1", 1, None, False, 30, 12, None,
                (("prior", "1.5"), ("crn", "false")), ())
    assert job.side(True) == (12, (("prior", "1.5"), ("crn", "false")))
    assert job.side(False) == (30, ())
    config = S.expert_config(job.a_set)
    assert config.prior == 1.5 and config.crn is False and config.race == S.Config().race
    bot = S.side_bot("expert", 5, None, 12, job.a_set)
    assert bot.worlds == 12 and bot.config == config  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown expert setting 'priorr'"):
        S.expert_config((("priorr", "1"),))
    mixed = S.expert_config((("params", "default,table-player-pontos"),
                             ("partner", "expert-pontos")))
    assert mixed.params == (Params(), TABLE_PLAYER_PONTOS) and mixed.partner == EXPERT_PONTOS
    with pytest.raises(ValueError, match="belief models are"):
        S.expert_config((("params", "table-player"),))
    with pytest.raises(ValueError, match="for the expert level"):
        S.side_bot("medium", 5, None, None, (("prior", "1"),))


def test_a_run_with_budgets_per_side_reports_cpu(capsys: pytest.CaptureFixture[str]) -> None:
    S.main(["--ruleset", "mano-a-mano", "--a", "expert", "--b", "expert-1", "--matches", "2",
            "--a-worlds", "4", "--b-worlds", "6", "--a-set", "race=0", "--json",
            "--option", "target=10"])  # fmt: skip
    d = json.loads(capsys.readouterr().out)
    assert d["matches"] == 2
    assert d["a_cpu_per_decision"] > 0 and d["b_cpu_per_decision"] > 0
    assert d["a_longest_decision"] >= d["a_seconds_per_decision"]
    with pytest.raises(SystemExit):
        S.main(["--ruleset", "mano-a-mano", "--a", "greedy", "--b", "random", "--matches", "2",
                "--a-set", "prior=2"])


def test_same_level_on_both_sides_is_exactly_even(tmp_path: Path) -> None:
    """Deterministic levels on duplicate deals: every pair is a mirror, so 50% and 0 points."""
    out = tmp_path / "records.jsonl"
    with out.open("w", encoding="utf-8") as f:
        job = S.Job("duplas-torneio", None, "greedy", "greedy", 3, None, True)
        summary = S.run(job, 2, 1, f)
    d = summary.to_dict()
    assert (d["pairs"], d["matches"], d["a_wins"]) == (2, 4, 2)
    assert d["a_hand_wins"] == d["a_hand_losses"]
    assert d["diff_per_hand"] == 0
    assert d["a_points_per_hand"] == d["b_points_per_hand"]
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    records = [json.loads(line) for line in lines]
    assert records[0]["fairness"] == records[1]["fairness"]  # one deal sequence per pair
    assert records[0]["fairness"] != records[2]["fairness"]
    for line in lines:
        rec.verify(rec.loads(line))  # every record replays


def test_workers_give_the_same_result_in_the_same_order(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--ruleset", "mano-a-mano", "--a", "greedy", "--b", "random", "--matches", "4",
            "--json", "--option", "target=20"]  # fmt: skip
    S.main(args)
    one = json.loads(capsys.readouterr().out)
    S.main([*args, "--workers", "2"])
    two = json.loads(capsys.readouterr().out)
    for d in (one, two):
        d.pop("seconds")
        d.pop("a_seconds_per_decision")
        d.pop("b_seconds_per_decision")
        for key in ("a_cpu_per_decision", "b_cpu_per_decision", "a_longest_decision",
                    "b_longest_decision"):
            d.pop(key)
    assert one == two
    assert one["matches"] == 4
    assert one["hands"] == one["a_hand_wins"] + one["a_hand_losses"] + one["hands_none"]


def test_odd_match_count_is_refused() -> None:
    with pytest.raises(SystemExit):
        S.main(["--ruleset", "bloqueio", "--a", "greedy", "--b", "random", "--matches", "3"])
