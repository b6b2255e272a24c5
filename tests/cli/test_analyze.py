"""`carroca analyze`: every decision of a verified match judged by the expert."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.scripted import deal, play, time_out
from typer.testing import CliRunner

from carroca import fair
from carroca import record as rec
from carroca.analysis import (
    FORMAT,
    MatchAnalysis,
    analyze_match,
    default_threshold,
    from_json,
    mistake_text,
    render_text,
    to_json,
)
from carroca.cli import app
from carroca.rules import Match
from carroca.rules import actions as A
from carroca.simulate import play_match

runner = CliRunner()
WIDE = {"COLUMNS": "200"}
SERVER = "00" * 32


def _analyze(
    match: Match, players: list[str], seed: int = 0, threshold: float | None = None
) -> MatchAnalysis:
    """Fast: no time budget and the expert's minimum of worlds per decision."""
    return analyze_match(match, players, 0, seed, worlds=4, threshold=threshold)


def _record(match: Match, players: list[str], client: str = "analise") -> dict[str, object]:
    fairness = rec.Fairness(fair.commitment(SERVER), client, SERVER)
    return rec.to_record(match, players, fairness)


def _simulated(ruleset: str, seed: int = 0) -> tuple[Match, list[str], dict[str, object]]:
    """A short bot match, written as a record and verified back."""
    match, players, server_seed, client_seed = play_match(ruleset, None, ("greedy",), seed, 0)
    fairness = rec.Fairness(fair.commitment(server_seed), client_seed, server_seed)
    record = rec.to_record(match, list(players), fairness)
    return rec.verify(json.loads(rec.dumps(record))), list(players), record


def _judged_points(match: Match) -> tuple[set[tuple[int, int, int]], list[int], list[int]]:
    """Replayed independently: (hand, index, seat) of every step with 2+ legal actions played
    in time, and per seat the forced and auto steps."""
    engine = Match(match.ruleset, match.options)
    judged: set[tuple[int, int, int]] = set()
    forced = [0] * match.n
    auto = [0] * match.n
    for h, log in enumerate(match.history):
        engine.deal([t for hand in log.dealt for t in hand] + list(log.boneyard))
        for i, step in enumerate(log.steps):
            if step.auto:
                auto[step.seat] += 1
            elif len(engine.legal_actions()) >= 2:
                judged.add((h, i, step.seat))
            else:
                forced[step.seat] += 1
            engine.apply(step.action, step.seat, auto=step.auto)
    return judged, forced, auto


@pytest.mark.parametrize("ruleset", ["classico", "duplas-pontos"])
def test_every_decision_is_judged(ruleset: str) -> None:
    match, players, _ = _simulated(ruleset)
    a = _analyze(match, players, seed=3)
    judged, forced, auto = _judged_points(match)
    assert {(d.hand, d.index, d.seat) for d in a.decisions} == judged
    assert len(a.hands) == len(match.history)
    assert [h.deal_index for h in a.hands] == [log.deal_index for log in match.history]
    for d in a.decisions:
        step = match.history[d.hand].steps[d.index]
        assert d.played is step.action
        values = {o.action: o.value for o in d.options}
        assert d.played in values and d.best in values
        assert d.options[0].value == max(values.values())
        assert d.loss == round(values[d.best] - values[d.played], 3) >= 0
        assert d.mistake == (d.loss > 0 and d.loss >= a.threshold)
        assert d.worlds >= 4
    summary = a.per_seat()
    assert [s.forced for s in summary] == forced
    assert [s.auto for s in summary] == auto
    assert sum(s.decisions for s in summary) == len(judged)
    assert sum(s.mistakes for s in summary) == len(a.mistakes)


def test_json_round_trip_and_determinism() -> None:
    match, players, _ = _simulated("mano-a-mano")
    a = _analyze(match, players, seed=7)
    data = to_json(a)
    text = json.dumps(data)
    assert from_json(json.loads(text)) == a
    assert from_json(data) == a
    assert data["format"] == FORMAT == "carroca-analysis/1"
    assert data["ruleset"] == "mano-a-mano" and data["players"] == players
    decision = data["hands"][0]["decisions"][0]
    assert set(decision) >= {"index", "seat", "played", "best", "loss", "options", "mistake"}
    assert decision["played"] in {o["action"] for o in decision["options"]}
    per_seat = data["summary"]["per_seat"]
    assert [s["decisions"] for s in per_seat] == [s.decisions for s in a.per_seat()]
    assert set(per_seat[0]) >= {"decisions", "mistakes", "points_lost"}
    assert _analyze(match, players, seed=7) == a  # same seed, same analysis
    with pytest.raises(ValueError, match="carroca-analysis/1"):
        from_json({**data, "format": "carroca-record/1"})
    with pytest.raises(ValueError):
        from_json({**data, "hands": [{"deal_index": 0}]})


def test_default_thresholds() -> None:
    assert default_threshold("duplas-pontos") == 5
    assert default_threshold("mano-a-mano") == 5
    assert default_threshold("classico") == 0.25
    assert default_threshold("bloqueio") == 0.5
    match, players, _ = _simulated("classico")
    assert _analyze(match, players).threshold == 0.25
    assert _analyze(match, players, threshold=2).threshold == 2


# --------------------------------------------------------------------------- a clear mistake


def _exact(m: Match, team: int) -> int:
    """Perfect-information minimax: `team`'s score minus the other's at the end of the hand."""
    if m.current_player is None:
        return m.score[team] - m.score[1 - team]
    values = []
    for a in m.legal_actions():
        child = m.copy()
        child.apply(a)
        values.append(_exact(child, team))
    return max(values) if m.turn % 2 == team else min(values)


def test_a_losing_move_in_a_known_endgame_is_an_erro() -> None:
    # mano-a-mano: both play their first legal action until the boneyard is empty and 9 tiles
    # are left in the hands; then everything is known to the seat to move.
    m = Match("mano-a-mano")
    m.deal(fair.shuffle(SERVER, "analise-8", 0))
    while not (
        m.boneyard_left == 0
        and sum(h.bit_count() for h in m.hands) <= 9
        and len(m.legal_actions()) >= 2
    ):
        m.apply(m.legal_actions()[0])
    seat, index = m.turn, len(m.steps)
    assert [str(a) for a in m.legal_actions()] == ["1-5:left", "2-5:right"]
    team = seat % 2
    base = m.score[team] - m.score[1 - team]
    exact = {}
    for action in m.legal_actions():
        child = m.copy()
        child.apply(action)
        exact[action] = _exact(child, team) - base
    good, bad = A.parse("1-5:left"), A.parse("2-5:right")
    assert exact[good] > 0 > exact[bad] and exact[good] - exact[bad] >= 50  # a win vs a loss
    m.apply(bad)
    while m.current_player is not None:
        m.apply(m.legal_actions()[0])

    players = ["ana", "rui"]
    verified = rec.verify(json.loads(rec.dumps(_record(m, players, "analise-8"))))
    a = _analyze(verified, players, seed=1)
    d = next(d for d in a.decisions if d.index == index)
    assert d.seat == seat and d.played is bad
    assert d.mistake and d.best is good
    assert d.loss == exact[good] - exact[bad]
    assert {o.action: o.value for o in d.options} == {good: exact[good], bad: exact[bad]}
    name = players[seat]
    loss = f"{d.loss:.1f}".replace(".", ",")
    line = (
        f"Mão 1, jogada {index + 1}: {name} jogou 2-5 na direita; "
        f"melhor 1-5 na esquerda (−{loss} pontos esperados)"
    )
    assert mistake_text(a, d) == line
    text = render_text(a, width=200)
    assert line in text
    assert "Análise — Mano a Mano (mano-a-mano)" in text
    assert "pontos perdidos" in text and "erros" in text


def test_auto_actions_abandon_and_a_hand_in_play() -> None:
    # marco times out twice (the server plays for him) and abandons: his auto steps are counted
    # apart, never judged
    hands = [
        ["6-6", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5"],
        ["3-6", "4-6", "5-6", "1-1", "1-2", "1-3", "1-4"],
        ["0-6", "1-5", "1-6", "2-2", "2-3", "2-4", "2-5"],
        ["2-6", "3-3", "3-4", "3-5", "4-4", "4-5", "5-5"],
    ]
    m = deal(Match("duplas-pontos"), hands)
    play(m, "6-6")
    seat = time_out(m, 3)
    m.abandon(seat)
    players = ["ana", "luis", "bia", "marco"]
    a = _analyze(m, players)
    assert a.per_seat()[3].auto == 2
    assert all(not m.history[0].steps[d.index].auto for d in a.decisions)
    assert len(a.hands) == 1

    # an unfinished match: the hand in play is analysed as far as it went
    u = Match("mano-a-mano")
    u.deal(fair.shuffle(SERVER, "analise", 0))
    for _ in range(6):
        u.apply(u.legal_actions()[-1])
    record = rec.to_record(u, ["ana", "rui"], rec.Fairness(fair.commitment(SERVER), "analise"))
    verified = rec.verify(json.loads(rec.dumps(record)))
    b = _analyze(verified, ["ana", "rui"])
    assert len(b.hands) == 1 and b.hands[0].deal_index == 0
    assert all(d.index < 6 for d in b.decisions)
    assert from_json(to_json(b)) == b


# --------------------------------------------------------------------------- the command


def _file(tmp_path: Path, ruleset: str = "classico") -> tuple[Path, dict[str, object]]:
    _, _, record = _simulated(ruleset)
    path = tmp_path / "partidas.jsonl"
    path.write_text(rec.dumps(record) + "\n", encoding="utf-8")
    return path, record


def test_cli_json(tmp_path: Path) -> None:
    path, record = _file(tmp_path)
    args = ["analyze", str(path), "--json", "--worlds", "4", "--seed", "5"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["format"] == FORMAT and data["players"] == record["players"]
    assert data["settings"] == {"threshold": 0.25, "worlds": 4, "think_ms": 0, "seed": 5}
    a = from_json(data)
    assert isinstance(a, MatchAnalysis) and a.decisions
    again = runner.invoke(app, args)
    assert again.stdout == result.stdout  # deterministic given --seed
    strict = runner.invoke(app, [*args, "--threshold", "0"])
    assert json.loads(strict.stdout)["settings"]["threshold"] == 0


def test_cli_text(tmp_path: Path) -> None:
    path, record = _file(tmp_path, "mano-a-mano")
    result = runner.invoke(app, ["analyze", str(path), "--worlds", "4"], env=WIDE)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Análise — Mano a Mano (mano-a-mano)" in out
    assert "decisões" in out and "pontos perdidos" in out and "Erros" in out
    players = record["players"]
    assert isinstance(players, list)
    for name in players:
        assert name in out


def test_cli_bad_input_exits_2(tmp_path: Path) -> None:
    path, _ = _file(tmp_path)
    missing = runner.invoke(app, ["analyze", str(tmp_path / "nada.jsonl")])
    assert missing.exit_code == 2 and "file not found" in missing.stderr
    folder = runner.invoke(app, ["analyze", str(tmp_path)])
    assert folder.exit_code == 2 and "is a folder" in folder.stderr
    beyond = runner.invoke(app, ["analyze", str(path), "--match", "2"])
    assert beyond.exit_code == 2 and "there is no match 2" in beyond.stderr
    negative = runner.invoke(app, ["analyze", str(path), "--threshold", "-1"])
    assert negative.exit_code == 2


def test_cli_tampered_record_exits_1(tmp_path: Path) -> None:
    _, record = _file(tmp_path)
    hands = record["hands"]
    assert isinstance(hands, list)
    hands[0]["score"] = [s + 1 for s in hands[0]["score"]]
    path = tmp_path / "adulterado.jsonl"
    path.write_text(rec.dumps(record) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["analyze", str(path), "--json"])
    assert result.exit_code == 1
    assert "does not verify" in result.stderr and "hand 0" in result.stderr
    assert result.stdout == ""
    garbage = tmp_path / "lixo.jsonl"
    garbage.write_text("{not json\n", encoding="utf-8")
    broken = runner.invoke(app, ["analyze", str(garbage)])
    assert broken.exit_code == 1 and "cannot be read" in broken.stderr
