"""The language rule (docs/cli.md, "Languages"): the program speaks English, the game pt-BR.

Every `--help`, usage error and message of the `carroca` program is English; what a player sees
of a game (the table of `play`, a match drawn by `replay`, the review of `analyze`) is pt-BR.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carroca.cli import app
from carroca.rules import RULESETS
from carroca.simulate import play_one

runner = CliRunner()
WIDE = {"COLUMNS": "200"}
COMMANDS = ["simulate", "tournament", "verify", "replay", "play", "analyze", "serve"]

# Words that give Portuguese away (none of them is English); accented letters too.
PORTUGUESE = {
    "de", "da", "das", "dos", "não", "uma", "um", "os", "para", "com", "pelo", "pela", "em",
    "na", "nas", "é", "ou", "mesma", "mesmo", "padrão", "partida", "partidas", "jogada",
    "jogador", "registro", "registros", "arquivo", "mão", "mãos", "erro", "pontos", "vitórias",
    "semente", "modalidade", "opção", "nível", "tempo", "seu", "sua", "joga", "mostra",
}
ACCENTS = re.compile(r"[áàâãéêíóôõúç]", re.IGNORECASE)
# The game's own words, pt-BR in every language (as "checkmate" is in English): the rulesets'
# names, the keys typed at the table and the names of ways a hand ends.
GAME_WORDS = {"compra", "passo", "dica", "sair", "esq", "batida", "trancado"}


def portuguese_in(text: str) -> list[str]:
    for name in RULESETS:
        text = text.replace(name, "")
    words = {w for w in re.findall(r"[^\W\d_]+", text.lower())} - GAME_WORDS
    return sorted(words & PORTUGUESE) + ACCENTS.findall(text)


def test_the_checker_tells_the_languages_apart() -> None:
    assert portuguese_in("Joga N partidas entre bots e resume o resultado.")
    assert portuguese_in("Análise")
    assert not portuguese_in("Play N matches between bots and sum them up.")


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_every_help_is_english(command: str | None) -> None:
    args = ["--help"] if command is None else [command, "--help"]
    result = runner.invoke(app, args, env=WIDE)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip()
    assert portuguese_in(result.stdout) == [], result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "-r", "canastra"],
        ["simulate", "-r", "pontos", "-o", "cor=azul"],
        ["simulate", "-r", "pontos", "--bots", "mestre"],
        ["simulate", "-r", "pontos", "--games", "-1"],
        ["tournament", "--format", "suico"],
        ["tournament", "--players", "7"],
        ["tournament", "--format", "knockout", "--rounds", "3"],
        ["verify", "nada.jsonl"],
        ["replay", "nada.jsonl"],
        ["analyze", "nada.jsonl"],
        ["play", "--ruleset", "bloqueio", "--seat", "5"],
        ["play", "--opponents", "mestre"],
        ["serve", "--turn-seconds", "0"],
        ["nada"],
    ],
)
def test_usage_errors_and_messages_are_english(args: list[str]) -> None:
    result = runner.invoke(app, args, env=WIDE)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip()
    assert portuguese_in(result.stderr) == [], result.stderr


def test_verify_verdicts_are_english(tmp_path: Path) -> None:
    line = play_one("bloqueio", None, ("greedy",), 1, 0, record=True).line
    path = tmp_path / "r.jsonl"
    path.write_text(f"{line}\n{{}}\n", encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert result.stdout.startswith("record 1: ok\nrecord 2: rejected: ")
    assert portuguese_in(result.stdout) == []


def test_tournament_standings_are_english() -> None:
    result = runner.invoke(app, ["tournament", "-r", "bloqueio", "--players", "4", "--bots",
                                 "greedy"], env=WIDE)
    assert result.exit_code == 0, result.output
    assert portuguese_in(result.stdout) == [], result.stdout


def test_the_game_is_pt_br(tmp_path: Path) -> None:
    line = play_one("mano-a-mano", None, ("greedy", "random"), 2, 0, record=True).line
    path = tmp_path / "r.jsonl"
    path.write_text(f"{line}\n", encoding="utf-8")
    replay = runner.invoke(app, ["replay", str(path), "--hand", "1"], env=WIDE)
    assert replay.exit_code == 0 and "Mão 1" in replay.stdout
    review = runner.invoke(app, ["analyze", str(path), "--worlds", "4"], env=WIDE)
    assert review.exit_code == 0 and "Análise" in review.stdout
    assert "decisões" in review.stdout and "pontos perdidos" in review.stdout
