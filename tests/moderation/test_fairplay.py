"""The fair-play signal on the server: ranked matches' decisions counted from their stored
reviews; a bot-assisted account stands out from medium-level play in a moderator's view of its
history, and nothing is done to it; a ranked match nobody asked to review is reviewed in the
background (one at a time per node, never twice: two nodes claim different matches) and then
counted, its review kept for its players."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.moderation.helpers import count, make_moderator, player_ids, report
from tests.support.fairplay import ACCOUNTS, EXPERT, MEDIUM, insert_ranked, stored_matches
from tests.support.reviews import finished
from tests.support.server_app import account, guest, settings_for, wait_finished
from tests.support.wsplay import auth

from carroca import record
from carroca.analysis import DEFAULT_WORLDS, decision_from_json, judge_turn, plan_match
from carroca.botservice.jobs import REVIEW_SEED
from carroca.rules import get_ruleset
from carroca.server.app import create_app
from carroca.server.moderation.agreement import tally
from carroca.server.moderation.fairplay import FairPlay
from carroca.server.storage import db
from carroca.server.storage.db import make_engine
from carroca.server.tables.reviews import Reviews
from carroca.simulate import play_one

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres


def insert(database: str, match_id: str, players: list[tuple[int, str]], record_text: str,
           analysis: str | None) -> None:
    engine = make_engine(database)
    try:
        with engine.begin() as conn:
            insert_ranked(conn, match_id, players, record_text, analysis)
    finally:
        engine.dispose()


def test_the_stored_matches_are_the_engines() -> None:
    """The kept matches verify, and their reviews are what the server's review gives today (a
    decision of each account judged again): otherwise rewrite them (tests/support/fairplay)."""
    matches = stored_matches()
    assert {name for m in matches for name in m.players} == set(ACCOUNTS)
    checked: set[str] = set()
    for m in matches:
        match = record.verify(record.loads(m.record))
        review = json.loads(m.analysis)
        assert review["settings"]["worlds"] == DEFAULT_WORLDS
        for hand, judged in enumerate(review["hands"]):
            for d in judged["decisions"][:1]:
                name = m.players[d["seat"]]
                if name in checked:
                    continue
                checked.add(name)
                again = judge_turn(match, hand, d["index"], seed=REVIEW_SEED,
                                   worlds=DEFAULT_WORLDS)
                assert again == decision_from_json(hand, d)
    assert checked == set(ACCOUNTS)


def test_a_bot_assisted_account_stands_out_from_medium_play(database: str) -> None:
    """Six accounts' ranked matches, reviewed: the one whose decisions came from the expert
    agrees with the review far more often than the five whose decisions came from `medium`,
    and only it is flagged, in the history a moderator reads. No sanction, no log line."""
    settings = settings_for(database, fairplay_min_decisions=150, fairplay_min_players=5)
    with TestClient(create_app(settings)) as client:
        # Guests are enough here (the signal counts whoever sat; only the queue wants accounts)
        tokens = {name: guest(client, name) for name in ACCOUNTS}
        tokens["Mara"] = account(client, "Mara")
        make_moderator(database, "Mara")
        ids = player_ids(database)
        fairplay: FairPlay = client.app.state.fairplay  # type: ignore[attr-defined]
        expected: dict[str, list[int]] = {name: [0, 0] for name in ACCOUNTS}
        for m in stored_matches():
            match_id = f"fp{m.index}"
            insert(database, match_id, [(ids[n], n) for n in m.players], m.record, m.analysis)
            client.portal.call(fairplay.ended, match_id)  # as the end of a ranked table does
            for pid, (made, agreed) in tally(m.analysis, dict(enumerate(
                    ids[n] for n in m.players))).items():
                name = next(n for n in ACCOUNTS if ids[n] == pid)
                expected[name][0] += made
                expected[name][1] += agreed
        assert client.portal.call(fairplay.step) == len(stored_matches())
        assert count(database, "fairplay_due") == 0

        store = client.app.state.store  # type: ignore[attr-defined]
        seen: dict[str, Any] = {}
        for name in ACCOUNTS:
            lines = client.portal.call(store.run_side, partial(fairplay.signals,
                                                                player_id=ids[name]))
            assert len(lines) == 1 and lines[0]["ruleset"] == "bloqueio"
            seen[name] = lines[0]
            assert [lines[0]["decisions"], lines[0]["agreed"]] == expected[name]
        assert seen[EXPERT]["flagged"] and seen[EXPERT]["verdict"] == "above"
        assert seen[EXPERT]["population"]["players"] == len(MEDIUM)
        for name in MEDIUM:
            assert not seen[name]["flagged"] and seen[name]["verdict"] == "usual", seen[name]
        assert seen[EXPERT]["share"] > max(seen[n]["share"] for n in MEDIUM) + 0.1

        # What a moderator reads of each, from a report.
        made = report(client, tokens["Ana"], player=EXPERT, reason="trapaca", match="fp0")
        assert made.status_code == 201, made.text
        view = client.get(f"/api/moderation/reports/{made.json()['id']}",
                          headers=auth(tokens["Mara"])).json()
        line = view["history"]["fair_play"][0]
        share = round(100 * expected[EXPERT][1] / expected[EXPERT][0])
        assert line["text"].startswith(
            f"Concordância com o especialista (bloqueio): {share}% em {expected[EXPERT][0]} "
            "decisões (população: ")
        assert line["text"].endswith(f"{len(MEDIUM)} jogadores) — fora do comum")
        assert view["history"]["sanctions"] == []
        other = report(client, tokens[EXPERT], player="Bia", reason="outro")
        bia = client.get(f"/api/moderation/reports/{other.json()['id']}",
                         headers=auth(tokens["Mara"])).json()["history"]["fair_play"][0]
        assert bia["text"].endswith("— dentro do comum") and not bia["flagged"]
        assert client.get("/api/moderation/log",
                          headers=auth(tokens["Mara"])).json()["log"] == []
        assert count(database, "sanctions") == 0


@pytest.mark.slow
def test_unreviewed_ranked_matches_are_reviewed_in_the_background(database: str) -> None:
    """A ranked match played through the queue is due once it ends; with a scripted one, two
    nodes' background reviewers claim one each (the player a moderator looked at first), the
    workers review them, and the next step counts both: their reviews stay, for the
    players."""
    settings = settings_for(database, fairplay_reviews=True, turn_seconds=0.1,
                            choice_seconds=0.1, ranked_requires_account=False,
                            abandon_ban_minutes="")
    with TestClient(create_app(settings)) as client:
        tokens = [guest(client, name) for name in ("Ana", "Bia", "Caio")]
        answers = [client.post("/api/ranked", headers=auth(t), json={"ruleset": "bloqueio"})
                   for t in tokens[:2]]
        assert answers[-1].json()["status"] == "matched", answers[-1].text
        played = answers[-1].json()["id"]
        wait_finished(client, played)  # nobody moved: ended by abandonment
        client.portal.call(client.app.state.moderation.settle)  # type: ignore[attr-defined]
        assert count(database, "fairplay_due") == 1

        ids = player_ids(database)
        line = play_one("bloqueio", get_ruleset("bloqueio").make_options({"target": 1}),
                        ("greedy",), 5, 0, record=True).line
        assert line is not None
        insert(database, "scripted", [(ids["Caio"], "Caio"), (ids["Bia"], "Bia")], line, None)
        here: FairPlay = client.app.state.fairplay  # type: ignore[attr-defined]
        client.portal.call(here.ended, "scripted")
        store, bots = client.app.state.store, client.app.state.hub.bots  # type: ignore[attr-defined]
        there_reviews = Reviews(store, bots)
        there = FairPlay(store, settings, there_reviews)

        there.want(ids["Ana"])  # the newest first, but for the players a moderator looks at
        steps = [client.portal.call(there.step)]
        assert there.asked == 1 and there_reviews.running(played)
        steps.append(client.portal.call(here.step))
        assert here.asked == 1 and client.app.state.reviews.running(  # type: ignore[attr-defined]
            "scripted")
        steps.append(client.portal.call(here.step))
        assert here.asked == 1  # one at a time, and nothing else is due
        client.portal.call(finished, there_reviews, played)
        client.portal.call(finished, client.app.state.reviews, "scripted")  # type: ignore[attr-defined]
        steps.append(client.portal.call(here.step))
        assert sum(steps) == 2 and steps[0] == 0  # each counted once, by whoever looked
        assert count(database, "fairplay_due") == 0
        decisions = sum(len(p.turns) for p in plan_match(record.verify(record.loads(line))))
        engine = make_engine(database)
        try:
            with engine.begin() as conn:
                t = db.fairplay_tallies.c
                counted = {m: int(n) for m, n in conn.execute(
                    sa.select(t.match_id, sa.func.sum(t.decisions)).group_by(t.match_id))}
        finally:
            engine.dispose()
        assert counted == {played: 0, "scripted": decisions} and decisions > 0
        stored = client.get(f"/api/matches/{played}/analysis", headers=auth(tokens[0]))
        assert stored.status_code == 200 and stored.json()["format"] == "carroca-analysis/1"
