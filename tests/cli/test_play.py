"""`carroca play`: whole matches driven by scripted answers, bad input, hints, quitting, records."""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console
from tests.support.scripted import deal, play
from typer.testing import CliRunner

from carroca import fair
from carroca import record as rec
from carroca.bots import BOT_LEVELS, make_bot
from carroca.cli import app
from carroca.play import PlaySession, PlaySettings, layout
from carroca.rules import IllegalMove, Match, RulesError, get_ruleset, observation
from carroca.rules import actions as A
from carroca.rules import tiles as T

runner = CliRunner()
SEED = "00" * 32
Answer = Callable[[PlaySession, str], str]


def _number(session: PlaySession, action: A.Action) -> str:
    """How a person types `action`: the tile's number in the hand, `c`, `p`, or `pontos`."""
    if action.kind == A.PLAY:
        hand = list(observation(session.match, session.me).hand)
        return str(hand.index(action.tile) + 1)
    return {"draw": "c", "pass": "p"}.get(action.kind, "pontos")


def first_legal(session: PlaySession, prompt: str) -> str:
    """Always the first legal move; the first end offered; Enter to go on."""
    if prompt.startswith("Qual ponta"):
        return "1"
    if prompt.startswith("Enter"):
        return ""
    return _number(session, observation(session.match, session.me).legal[0])


def _session(
    ruleset: str,
    answer: Answer,
    *options: str,
    seat: int = 0,
    hint: str = "greedy",
    think_ms: int | None = None,
    server_seed: str = SEED,
    prompts: list[str] | None = None,
) -> tuple[PlaySession, io.StringIO]:
    rs = get_ruleset(ruleset)
    values = dict(o.split("=") for o in options)
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False)
    holder: list[PlaySession] = []

    def ask(prompt: str) -> str:
        if prompts is not None:
            prompts.append(prompt)
        reply = answer(holder[0], prompt)
        console.print(f"{prompt}{reply}")
        return reply

    settings = PlaySettings(
        rs.name, rs.make_options(values, strings=True), seat=seat, hint_level=hint,
        seed=7, think_ms=think_ms, bot_delay_ms=0,
    )
    session = PlaySession(settings, console, ask, server_seed=server_seed, client_seed="teste")
    holder.append(session)
    return session, out


def _verified(session: PlaySession, finished: bool = True) -> Match:
    outcome = session.run()
    assert outcome.finished is finished
    record = outcome.record()
    assert record["fairness"]["commitment"] == fair.commitment(SEED)
    assert record["fairness"]["server_seed"] == SEED
    replayed = rec.verify(rec.loads(rec.dumps(record)))
    assert replayed.score == outcome.match.score
    return outcome.match


# --------------------------------------------------------------------------- whole matches


@pytest.mark.parametrize(("ruleset", "target"), [("mano-a-mano", 20), ("bloqueio", 3)])
def test_whole_1v1_match_with_the_first_legal_move(ruleset: str, target: int) -> None:
    session, out = _session(ruleset, first_legal, f"target={target}")
    match = _verified(session)
    text = out.getvalue()
    assert match.is_over and match.result is not None
    assert "Fim da partida" in text and "Fim da mão 1" in text
    assert "Você" in text and "Zé (greedy)" in text  # 1v1: the score by player name
    assert "× " in text and "Servem:" in text
    assert "Sua mão" in text and "Pontas: esquerda" in text
    assert ("Monte:" in text) == (ruleset == "mano-a-mano")
    assert "✓ confere com o compromisso" in text and SEED in text
    assert "Traceback" not in text


def test_whole_2v2_match_asking_a_hint_before_every_move() -> None:
    asked: set[int] = set()

    def hint_then_first(session: PlaySession, prompt: str) -> str:
        if prompt.startswith("Sua vez"):
            key = len(session.match.steps) * 100 + len(session.match.history)
            if key not in asked:
                asked.add(key)
                return "dica"
        return first_legal(session, prompt)

    session, out = _session("duplas-pontos", hint_then_first, "target=100", seat=1)
    match = _verified(session)
    text = out.getvalue()
    assert match.result is not None
    assert "Nós" in text and "Eles" in text
    assert "Dica (greedy): sugere" in text
    assert "Mesa:" in text and "(mesa)" in text  # the count and the points it made
    assert "Fim da mão" in text and "Pontos do fim da mão" in text
    assert ("Nós vencemos!" in text) == (match.result.winner == 1)


# --------------------------------------------------------------------------- bad input


def test_bad_input_gets_the_message_and_a_new_prompt() -> None:
    script: Iterator[str] | None = None
    prompts: list[str] = []
    seen: list[str] = []
    start = -1

    def answer(session: PlaySession, prompt: str) -> str:
        nonlocal script, start
        obs = observation(session.match, session.me)
        if script is None and prompt.startswith("Sua vez") and obs.legal[0].kind == A.PLAY:
            fits = {a.tile for a in obs.legal}
            stuck = [t for t in obs.hand if t not in fits]
            if obs.table and stuck:
                number = str(list(obs.hand).index(stuck[0]) + 1)
                script = iter([number, "passo", "xyz", "99", "0-0:norte", "ajuda", "sair", "n"])
                start = len(prompts) - 1
        if script is not None:
            reply = next(script, None)
            if reply is not None:
                seen.append(reply)
                return reply
        return first_legal(session, prompt)

    session, out = _session("duplas-torneio", answer, "target=50", prompts=prompts)
    _verified(session)
    text = out.getvalue()
    assert seen[0].isdigit()
    assert seen[1:] == ["passo", "xyz", "99", "0-0:norte", "ajuda", "sair", "n"]
    assert "não encaixa em nenhuma ponta" in text
    assert "Você tem pedra que serve: não pode passar." in text
    assert "Pedra inválida: 'xyz'" in text
    assert "escolha um número de 1 a" in text
    assert "Ponta desconhecida: 'norte'" in text
    assert "Pontas: esquerda (e), direita (d)" in text  # `ajuda`
    # every refused answer is followed by the same question again, and play goes on after `n`
    assert all(p.startswith("Sua vez") for p in prompts[start : start + 7])
    assert prompts[start + 7].startswith("Sair mesmo?")
    assert prompts[start + 8].startswith("Sua vez")


HANDS_2V2 = [
    ["6-6", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5"],
    ["3-6", "4-6", "5-6", "1-1", "1-2", "1-3", "1-4"],
    ["0-6", "1-5", "1-6", "2-2", "2-3", "2-4", "2-5"],
    ["2-6", "3-3", "3-4", "3-5", "4-4", "4-5", "5-5"],
]


def _after_opening(ruleset: str, answer: Answer) -> tuple[PlaySession, io.StringIO]:
    """A session for seat 1 on a scripted deal, right after seat 0 opened with the 6-6.

    Seat 1 holds 1-1 1-2 1-3 1-4 3-6 4-6 5-6 (numbers 1 to 7).
    """
    session, out = _session(ruleset, answer, seat=1)
    session.match = deal(Match(ruleset), HANDS_2V2)
    play(session.match, "6-6")
    return session, out


def test_pass_is_refused_while_a_tile_fits_and_draw_outside_the_boneyard() -> None:
    session, _ = _after_opening("duplas-torneio", first_legal)
    obs = observation(session.match, 1)
    action = session.read_action("p", obs)
    assert action is A.PASS_ACTION
    with pytest.raises(IllegalMove, match="Você tem pedra que serve: não pode passar"):
        session.match.apply(action, 1)
    with pytest.raises(RulesError, match="Nesta modalidade não se compra"):
        session.read_action("c", obs)
    assert [T.NAMES[t] for t in obs.hand][5] == "4-6"
    assert session.read_action("6:dir", obs) is A.play("4-6", "right")
    assert session.read_action("4-6 esquerda", obs) is A.play("4-6", "left")
    assert session.read_action("7:e", obs) is A.play("5-6", "left")


def test_a_tile_on_two_ends_asks_which_and_enter_goes_back() -> None:
    replies = iter(["cima", "", "6", "direita"])
    session, out = _after_opening("duplas-torneio", lambda s, p: next(replies))
    obs = observation(session.match, 1)
    assert session.read_action("6", obs) is None  # `cima` is not open; Enter goes back
    assert session.read_action("6", obs) is A.play("4-6", "right")  # `6` is refused, then right
    text = out.getvalue()
    assert "A 4-6 serve em mais de uma ponta: 1) esquerda (6) · 2) direita (6)" in text
    assert "A 4-6 serve em: esquerda, direita." in text


# --------------------------------------------------------------------------- hints


def test_hint_names_the_move_the_level_would_make() -> None:
    session, _ = _session("pontos", first_legal)
    session.match = deal(Match("pontos"), [["5-6", "0-5", "1-2", "1-3", "2-4", "3-4", "4-6"],
                                          ["6-6", "0-6", "1-6", "2-6", "3-6", "0-0", "1-1"]])
    play(session.match, "6-6")  # seat 1 holds the highest double and opens
    obs = observation(session.match, 0)
    text = session.hint(obs).plain
    # greedy: no count of 5 on offer, so the heaviest tile: 5-6, the 7th of the hand
    assert make_bot("greedy").choose(obs) is A.play("5-6", "left")
    assert text == "Dica (greedy): sugere 5-6 (nº 7) na esquerda."


EVALUATING = [
    name for name in BOT_LEVELS if callable(getattr(make_bot(name, 0, 10), "evaluate", None))
]


@pytest.mark.skipif(not EVALUATING, reason="no bot level has `evaluate` yet")
@pytest.mark.parametrize("level", EVALUATING)
def test_hint_with_evaluate_shows_the_expected_points(level: str) -> None:
    session, _ = _session("duplas-pontos", first_legal, seat=1, hint=level, think_ms=20)
    session.match = deal(Match("duplas-pontos"), HANDS_2V2)
    play(session.match, "6-6")
    obs = observation(session.match, 1)
    text = session.hint(obs).plain
    first, others = text.splitlines()
    assert first.startswith(f"Dica ({level}): sugere ")
    assert first.endswith(" pontos.") and "saldo esperado na mão: " in first
    assert others.startswith("  outras: ")
    offered = {session.describe(a, obs.hand) for a in obs.legal}
    assert first.split("sugere ")[1].split(" — ")[0] in offered


# --------------------------------------------------------------------------- five doubles


def _five_doubles_seed() -> str:
    """A server seed whose first deal gives seat 0 five doubles or more (duplas-pontos)."""
    for i in itertools.count():
        seed = f"{i:064x}"
        order = fair.shuffle(seed, "teste", 0)
        if sum(T.IS_DOUBLE[t] for t in order[:7]) >= 5:
            return seed
        assert i < 20000
    raise AssertionError  # pragma: no cover


@pytest.mark.parametrize("choice", ["pontos", "embaralhar"])
def test_cinco_carrocas_asks_points_or_a_new_deal(choice: str) -> None:
    seed = _five_doubles_seed()
    replies: list[str] = []

    def answer(session: PlaySession, prompt: str) -> str:
        if session.match.phase.name == "CHOICE" and prompt.startswith("Sua vez"):
            replies.append(choice)
            return "talvez" if len(replies) == 1 else choice
        if replies and prompt.startswith("Sua vez"):
            return "sair"
        if prompt.startswith("Sair"):
            return "s"
        return first_legal(session, prompt)

    session, out = _session("duplas-pontos", answer, server_seed=seed)
    outcome = session.run()
    text = out.getvalue()
    assert "carroças! Fique com os pontos" in text
    assert "Responda pontos (p) ou embaralhar (e)." in text  # `talvez` is refused
    first = outcome.match.history[0] if outcome.match.history else None
    if choice == "pontos":
        assert "cinco carroças: pontos" in text and "+50 Nós (cinco carroças)" in text
    else:
        assert first is not None and first.end.kind == "redeal"
        assert "Cinco carroças: Você pediu nova distribuição." in text


# --------------------------------------------------------------------------- quitting


def test_quit_asks_for_confirmation_then_reveals_the_seed() -> None:
    replies = iter(["", "sair", "n", "sair", "s"])
    session, out = _session("classico", lambda s, p: next(replies))
    match = _verified(session, finished=False)
    text = out.getvalue()
    assert match.result is None
    assert text.count("Sair mesmo?") == 2
    assert "Você saiu da partida." in text and SEED in text


def test_end_of_input_leaves_quietly() -> None:
    def closed(session: PlaySession, prompt: str) -> str:
        raise EOFError

    session, out = _session("mano-a-mano", closed)
    outcome = session.run()
    assert not outcome.finished
    assert "Você saiu da partida." in out.getvalue()


# --------------------------------------------------------------------------- layout


def test_layout_turns_each_tile_to_match_its_neighbour() -> None:
    m = deal(Match("duplas-pontos"), HANDS_2V2)
    play(m, "6-6", "3-6:left", "1-6:right", "2-6:up", "0-1:right", "5-6:down", "2-5:down",
         "3-4:left", "0-4:left", "1-2:up")
    obs = observation(m, 0)
    lay = layout(obs.table)
    assert [h for h, _t, _i in lay.line] == [(0, 4), (4, 3), (3, 6), (6, 6), (6, 1), (1, 0)]
    assert lay.opening == 3
    assert [h for h, _t, _i in lay.up] == [(1, 2), (2, 6)]  # outermost first, down to the 6-6
    assert [h for h, _t, _i in lay.down] == [(6, 5), (5, 2)]  # from the 6-6 outwards
    assert obs.ends == {"left": 0, "right": 0, "up": 1, "down": 2}


# --------------------------------------------------------------------------- the command


def _cycle(size: int, rounds: int) -> str:
    """Answers that always make progress: every tile number in turn, then draw and pass."""
    one = [str(k) for k in range(1, size + 1)] + ["c", "p"]
    return "\n".join(["", *one * rounds]) + "\n"


def test_command_plays_a_match_and_writes_a_record_that_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fair, "new_server_seed", lambda: SEED)
    out = tmp_path / "partida.jsonl"
    result = runner.invoke(
        app,
        ["play", "--ruleset", "bloqueio", "--option", "target=2", "--seed", "3",
         "--hint-level", "greedy", "--bot-delay-ms", "0", "--client-seed", "abc",
         "--out", str(out)],
        input=_cycle(7, 400),
    )
    assert result.exit_code == 0, result.output
    assert "Fim da partida" in result.output
    assert fair.commitment(SEED) in result.output
    assert f"record written to {out}" in result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    record = rec.loads(lines[0])
    assert record["fairness"]["client_seed"] == "abc"
    assert "result" in record
    rec.verify(record)
    check = runner.invoke(app, ["verify", str(out)])
    assert check.exit_code == 0 and "ok" in check.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ruleset", "bloqueio", "--seat", "2"], "the seats of bloqueio are 0 to 1"),
        (["--ruleset", "bloqueio", "--partner", "greedy"], "there is no partner"),
        (["--opponents", "mestre"], "unknown bot 'mestre'"),
        (["--hint-level", "mestre"], "--hint-level: unknown bot"),
        (["--ruleset", "truco"], "unknown ruleset 'truco'"),
        (["--option", "target=7"], "target"),
    ],
)
def test_command_refuses_bad_settings(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", *args], input="\n")
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
