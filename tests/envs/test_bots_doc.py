"""docs/bots.md's examples run as written."""

from __future__ import annotations

import random

import pytest
from tests.support.docs import python_blocks, run_block

from carroca.rules import Match
from carroca.rules.observation import observation

BLOCKS = python_blocks("bots.md")
BOT_API = 0  # the twenty-line bot; the environments' examples follow


def test_the_doc_has_its_examples() -> None:
    assert len(BLOCKS) == 5


def test_the_twenty_line_bot_chooses_a_legal_action_in_every_ruleset() -> None:
    """The Bot API's example, its `main` left out (it needs a server: tests/server/
    test_bot_api.py runs it against one): its choice is legal at every turn of whole matches."""
    assert len(BLOCKS[BOT_API].strip().splitlines()) <= 25
    choose = run_block("bots.md", BOT_API)["choose"]
    rng = random.Random(5)
    for ruleset in ("duplas-pontos", "pontos", "bloqueio"):
        match = Match(ruleset)
        while not match.is_over:
            if match.needs_deal:
                match.deal(rng.sample(range(28), 28))
                continue
            seat = match.current_player
            assert seat is not None
            obs = observation(match, seat)
            action = choose(obs)
            assert action in obs.legal
            match.apply(action)


@pytest.mark.parametrize("index", range(BOT_API + 1, len(BLOCKS)))
def test_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    namespace = run_block("bots.md", index, "bots_md")
    if "env" in namespace and hasattr(namespace["env"], "agents"):
        assert not namespace["env"].agents  # type: ignore[attr-defined]  # played to the end
    if "state" in namespace:
        assert namespace["state"].is_terminal()  # type: ignore[attr-defined]
        assert capsys.readouterr().out.strip() in ("[1.0, -1.0]", "[-1.0, 1.0]", "[0.0, 0.0]")
