"""`carroca simulate` with the expert: a budget in sampled worlds (the same seed, the same bytes,
however slow the machine), `--think-ms` for wall time, and progress on stderr only."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carroca import cli
from carroca import record as rec
from carroca.bots import make_bot
from carroca.bots.expert import DEFAULT_THINK_MS, DEFAULT_WORLDS, ExpertBot, default_worlds
from carroca.bots.expert import search as expert_search
from carroca.bots.expert.expert1 import EXPERT1_WORLDS
from carroca.cli import app
from carroca.rules import RULESETS, Match, observation
from carroca.simulate import Budget

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


def _slow_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine so slow (or so loaded) that every reading of the clock is 10 s later."""
    ticks = itertools.count()
    monkeypatch.setattr(expert_search.time, "perf_counter", lambda: 10.0 * next(ticks))


def _simulate(out: Path, *extra: str) -> None:
    result = runner.invoke(
        app,
        ["simulate", "-r", "bloqueio", "-n", "3", "--seed", "4", "--bots", "expert,greedy",
         "--worlds", "8", "--out", str(out), "--json", *extra],
    )
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_expert_records_are_byte_identical_for_a_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    _simulate(first)
    _simulate(second, "--workers", "2")
    _slow_clock(monkeypatch)  # a wall-clock budget would stop at the minimum here
    _simulate(third)
    assert first.read_bytes() == second.read_bytes() == third.read_bytes()
    lines = first.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    for line in lines:
        assert rec.verify(rec.loads(line)).is_over


def test_the_worlds_budget_is_exact_and_ignores_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random("budget")
    m = Match("duplas-pontos")
    order = list(range(28))
    rng.shuffle(order)
    m.deal(order)
    while len(m.legal_actions()) < 2:
        m.apply(m.legal_actions()[0])
    obs = observation(m, m.turn)
    calm = ExpertBot(seed=3, worlds=12).rate(obs)
    assert {r.worlds for r in calm} == {12}
    _slow_clock(monkeypatch)
    assert ExpertBot(seed=3, worlds=12).rate(obs) == calm
    timed = ExpertBot(seed=3, think_ms=50).rate(obs)  # wall time: the slow clock cuts it short
    assert timed[0].worlds == expert_search.MIN_WORLDS


def test_default_budgets() -> None:
    assert set(DEFAULT_WORLDS) == set(RULESETS)
    assert Budget().for_ruleset("bloqueio") == (None, default_worlds("bloqueio"))
    assert Budget(worlds=9).for_ruleset("pontos") == (None, 9)
    assert Budget(think_ms=150).for_ruleset("pontos") == (150, None)
    # each searching level its own default: a world costs each its own CPU
    assert Budget().for_ruleset("pontos", "expert-1") == (None, EXPERT1_WORLDS["pontos"])
    assert Budget(worlds=9).for_ruleset("pontos", "expert-1") == (None, 9)
    assert default_worlds("pontos", "expert-1") != default_worlds("pontos")
    quarter = Budget(scale=0.25)
    assert quarter.for_ruleset("pontos", "expert-1") == (None, round(EXPERT1_WORLDS["pontos"] / 4))
    assert Budget(worlds=9, scale=0.25).for_ruleset("pontos") == (None, 9)  # a count is a count
    with pytest.raises(ValueError):
        Budget(scale=0)
    assert Budget().deterministic and not Budget(think_ms=150).deterministic
    live = make_bot("expert", 1)  # tables and `play`: wall time
    assert isinstance(live, ExpertBot)
    assert (live.think_ms, live.deterministic) == (DEFAULT_THINK_MS, False)
    fixed = make_bot("expert", 1, worlds=33)
    assert isinstance(fixed, ExpertBot)
    assert (fixed.think_ms, fixed.worlds, fixed.deterministic) == (0, 33, True)
    with pytest.raises(ValueError):
        ExpertBot(worlds=0)


def test_summary_names_the_budget() -> None:
    default = runner.invoke(app, ["simulate", "-r", "bloqueio", "-n", "0", "-b", "expert"],
                            env=WIDE)
    assert default.exit_code == 0, default.output
    worlds = default_worlds("bloqueio")
    assert f"sampled worlds per decision: expert: {worlds} (" in default.stdout
    both = runner.invoke(app, ["simulate", "-r", "bloqueio", "-n", "0", "-b", "expert,expert-1"],
                         env=WIDE)
    assert both.exit_code == 0, both.output
    assert (f"expert: {worlds}, expert-1: {default_worlds('bloqueio', 'expert-1')} "
            in both.stdout)
    timed = runner.invoke(
        app, ["simulate", "-r", "bloqueio", "-n", "0", "-b", "expert", "--think-ms", "50"],
        env=WIDE,
    )
    assert timed.exit_code == 0, timed.output
    assert "expert: 50 ms per decision" in timed.stdout
    plain = runner.invoke(app, ["simulate", "-r", "bloqueio", "-n", "0"], env=WIDE)
    assert "expert:" not in plain.stdout  # no searching bot, no budget to tell


def test_think_ms_is_accepted() -> None:
    result = runner.invoke(
        app,
        ["simulate", "-r", "bloqueio", "-n", "1", "--bots", "expert,greedy", "--think-ms", "5",
         "--json"],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["matches"] == 1
    zero = runner.invoke(app, ["simulate", "-r", "bloqueio", "--think-ms", "0"])
    assert zero.exit_code == 2


# --------------------------------------------------------------------------- progress


def test_progress_lines_on_stderr_when_asked_without_a_terminal() -> None:
    result = runner.invoke(
        app, ["simulate", "-r", "bloqueio", "-n", "2", "-b", "greedy", "--json", "--progress"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["matches"] == 2  # stdout: the JSON alone
    assert result.stderr.splitlines()[-1].startswith("simulate bloqueio: 2/2 (")


@pytest.mark.parametrize("flags", [["--json"], ["--no-progress"], []])
def test_no_progress_by_default_without_a_terminal_or_with_json(flags: list[str]) -> None:
    result = runner.invoke(app, ["simulate", "-r", "bloqueio", "-n", "2", *flags])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_on_a_terminal_the_bar_goes_to_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "stderr_is_terminal", lambda: True)
    shown = runner.invoke(app, ["simulate", "-r", "bloqueio", "-n", "2"], env=WIDE)
    assert shown.exit_code == 0, shown.output
    assert "simulate bloqueio" in shown.stderr
    assert "simulate bloqueio" not in shown.stdout and "wins" in shown.stdout
    quiet = runner.invoke(app, ["simulate", "-r", "bloqueio", "-n", "2", "--json"])
    assert quiet.stderr == "" and json.loads(quiet.stdout)["matches"] == 2
    hidden = runner.invoke(app, ["simulate", "-r", "bloqueio", "-n", "2", "--no-progress"])
    assert hidden.stderr == ""
