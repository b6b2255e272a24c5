"""`carroca replay`: a verified match told step by step in pt-BR."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.scripted import deal, play, time_out
from typer.testing import CliRunner

from carroca import record as rec
from carroca.cli import app
from carroca.replay import ReplayError, render_text
from carroca.rules import Match
from carroca.simulate import play_match, simulate

runner = CliRunner()
WIDE = {"COLUMNS": "200"}
PLAYERS = ["ana", "luis", "bia", "marco"]

HANDS_2V2 = [
    ["6-6", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5"],
    ["3-6", "4-6", "5-6", "1-1", "1-2", "1-3", "1-4"],
    ["0-6", "1-5", "1-6", "2-2", "2-3", "2-4", "2-5"],
    ["2-6", "3-3", "3-4", "3-5", "4-4", "4-5", "5-5"],
]


def _file(tmp_path: Path, ruleset: str, games: int, seed: int = 0) -> tuple[Path, list[Match]]:
    """A records file of random matches, and the verified matches in it."""
    lines: list[str] = []
    simulate(
        ruleset,
        None,
        ("random",),
        games,
        seed,
        on_match=lambda p: lines.append(p.line or ""),
        records=True,
    )
    path = tmp_path / f"{ruleset}.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, [rec.verify(json.loads(line)) for line in lines]


def _first(matches: list[Match], want: str) -> int:
    """1-based number of the first match with this score reason or end detail."""
    for k, m in enumerate(matches, start=1):
        for log in m.history:
            if want in {e.reason for e in log.events} | {log.end.kind, log.end.detail}:
                return k
    raise AssertionError(f"no match with {want!r}")


def _replay(path: Path, *args: str) -> str:
    result = runner.invoke(app, ["replay", str(path), *args], env=WIDE)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_scripted_hand_rows() -> None:
    m = deal(Match("duplas-pontos"), HANDS_2V2)
    play(m, "6-6", "3-6:left", "0-6:right")
    # marco (s3) runs out of time twice, then abandons on his third turn (rules.md §5)
    play(m, "3-3:left", auto=True)
    play(m, "0-3:left", "4-6:up", "2-4:up")
    play(m, "2-6:up", auto=True)
    play(m, "0-0:left", "5-6:up", "1-5:up")  # luis +5 (mesa)
    assert (m.turn, m.score) == (3, [0, 20])
    m.abandon(3)
    text = render_text(m, PLAYERS, width=160)
    assert "ana (Nós)" in text and "luis (Eles)" in text
    assert "sai com 6-6" in text
    assert "joga 3-6 na esquerda" in text
    assert "esq 3 · dir 6" in text
    assert "+15 Eles (mesa)" in text
    assert "joga 3-3 na esquerda (automática)" in text
    assert "joga 2-6 em cima (automática)" in text
    assert "+5 Eles (mesa)" in text
    assert "marco (Eles) abandonou a partida." in text
    assert "Fim da partida: vitória de Nós, Nós 0 × Eles 20 (por abandono)." in text
    assert "por abandono" in text


def test_hand_out_of_range() -> None:
    m = deal(Match("duplas-pontos"), HANDS_2V2)
    play(m, "6-6")
    m.abandon(time_out(m, 1))
    with pytest.raises(ReplayError, match="não existe a mão 3"):
        render_text(m, PLAYERS, hand=3)


@pytest.mark.parametrize(
    ("want", "words"),
    [
        ("galo", ["(galo)", "(passe)", "passa"]),
        ("saida-passada", ["não tem carroça: passa a saída", "(saída passada)"]),
        ("fechado", ["Jogo fechado", "Soma das mãos", "(jogo fechado)"]),
        ("batida-carroca", ["batida de carroça", "(garagem)"]),
        ("redeal", ["cinco carroças", "distribuídas de novo"]),
    ],
)
def test_duplas_pontos_words(tmp_path: Path, want: str, words: list[str]) -> None:
    path, matches = _file(tmp_path, "duplas-pontos", 25)
    text = _replay(path, "--match", str(_first(matches, want)))
    for word in [
        *words,
        "Nós",
        "Eles",
        "sai com",
        "Placar: Nós",
        "Pedras na mão",
        "mesa",
        "Fim da partida",
    ]:
        assert word in text, word


def test_line_rulesets_words(tmp_path: Path) -> None:
    path, matches = _file(tmp_path, "duplas-torneio", 6)
    assert "capicú!" in _replay(path, "--match", str(_first(matches, "capicu")))
    path, matches = _file(tmp_path, "bloqueio", 4)
    text = _replay(path, "--match", str(_first(matches, "la-e-lo")))
    assert "batida lá-e-lô" in text and "fora do jogo" in text and "Trancado" in text
    path, _ = _file(tmp_path, "mano-a-mano", 1)
    text = _replay(path)
    assert "compra " in text and "monte:" in text and "sai com" in text


def test_one_hand_only(tmp_path: Path) -> None:
    path, matches = _file(tmp_path, "pontos", 1)
    assert len(matches[0].history) >= 2
    text = _replay(path, "--hand", "2")
    assert "Mão 2 " in text
    assert "Mão 1 " not in text


def test_replay_refuses_a_tampered_record(tmp_path: Path) -> None:
    path, _ = _file(tmp_path, "pontos", 1)
    record = json.loads(path.read_text(encoding="utf-8"))
    record["result"]["winner"] = 1 - record["result"]["winner"]
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "does not verify" in result.stderr
    assert "Traceback" not in result.output


def test_replay_missing_match_and_hand(tmp_path: Path) -> None:
    path, _ = _file(tmp_path, "bloqueio", 1)
    result = runner.invoke(app, ["replay", str(path), "--match", "2"])
    assert result.exit_code == 2 and "there is no match 2" in result.stderr
    result = runner.invoke(app, ["replay", str(path), "--hand", "99"])
    assert result.exit_code == 2 and "there is no hand 99" in result.stderr


@pytest.mark.parametrize("ruleset", ["duplas-pontos", "bloqueio", "pontos"])
def test_every_play_row_shows_the_ends_after_it(ruleset: str) -> None:
    from carroca.replay import replay_rows

    match = play_match(ruleset, None, ("greedy", "random"), 3, 0)[0]
    for log, rows in zip(match.history, replay_rows(match), strict=True):
        assert [r.step for r in rows] == list(log.steps)
        for row in rows:
            if row.step.action.kind == "play":
                assert row.ends, (log.deal_index, row)
                assert row.count > 0 or set(row.ends.values()) == {0}
