"""`verify` refuses every kind of wrong record, naming the first point of disagreement."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from typing import Any

import pytest
from tests.support.records import GOLDEN, PLAYERS, ZERO_SEED
from tests.support.scripted import time_out

from carroca import fair
from carroca.record import RecordError, dumps, loads, to_record, verify
from carroca.rules import Match
from carroca.rules import actions as A


@functools.cache
def _line(name: str) -> str:
    return dumps(GOLDEN[name].record())


def rec_of(name: str) -> dict[str, Any]:
    """A fresh, mutable copy of the golden record of a ruleset."""
    return loads(_line(name))  # type: ignore[no-any-return]


def rejected(rec: object) -> RecordError:
    with pytest.raises(RecordError) as info:
        verify(rec)
    return info.value


def find_action(rec: dict[str, Any], test: Callable[[dict[str, Any]], bool]) -> tuple[int, int]:
    for h, hand in enumerate(rec["hands"]):
        for j, action in enumerate(hand["actions"]):
            if test(action):
                return h, j
    raise LookupError("no such action")


def action_refused(name: str, test: Callable[[dict[str, Any]], bool], key: str, value: str
                   ) -> tuple[RecordError, int, int]:
    """The golden record of `name`, `key` of its first action that passes `test` set to `value`:
    its refusal, which names that action, and the action's hand and index."""
    rec = rec_of(name)
    h, j = find_action(rec, test)
    rec["hands"][h]["actions"][j][key] = value
    err = rejected(rec)
    assert (err.hand, err.action) == (h, j)
    return err, h, j


# --------------------------------------------------------------------------- the brief's list


def test_changed_hand_score() -> None:
    rec = rec_of("duplas-pontos")
    good = rec["hands"][1]["score"]
    rec["hands"][1]["score"] = [good[0], good[1] + 5]
    err = rejected(rec)
    assert (err.hand, err.action) == (1, None)
    assert str(err) == f"hand 1: expected score {good}, found {[good[0], good[1] + 5]}".replace(
        "'", '"'
    )
    assert err.expected == good


def test_changed_result_score() -> None:
    rec = rec_of("mano-a-mano")
    rec["result"]["score"][1] += 1
    err = rejected(rec)
    assert (err.hand, err.action) == (None, None)
    assert str(err).startswith("expected result.score [")


def test_wrong_winner() -> None:
    rec = rec_of("duplas-torneio")
    winner = rec["result"]["winner"]
    rec["result"]["winner"] = 1 - winner
    err = rejected(rec)
    assert str(err) == f"expected result.winner {winner}, found {1 - winner}"


def test_swapped_pair_of_actions() -> None:
    rec = rec_of("bloqueio")
    actions = rec["hands"][2]["actions"]
    actions[4], actions[5] = actions[5], actions[4]
    err = rejected(rec)
    assert (err.hand, err.action) == (2, 4)
    assert "expected an action by seat" in str(err)


def test_dropped_action() -> None:
    rec = rec_of("classico")
    del rec["hands"][1]["actions"][3]
    err = rejected(rec)
    assert (err.hand, err.action) == (1, 3)


def test_dropped_last_action() -> None:
    rec = rec_of("classico")
    actions = rec["hands"][0]["actions"]
    actions.pop()
    err = rejected(rec)
    assert (err.hand, err.action) == (0, len(actions))
    assert "(the hand is not over), found the end of the actions and end {" in str(err)


def test_extra_action_after_the_hand_ended() -> None:
    rec = rec_of("pontos")
    actions = rec["hands"][0]["actions"]
    actions.append({"seat": 0, "type": "pass"})
    err = rejected(rec)
    assert (err.hand, err.action) == (0, len(actions) - 1)
    assert "expected no more actions: the hand ended (" in str(err)


def test_wrong_server_seed() -> None:
    rec = rec_of("duplas-pontos")
    rec["fairness"]["server_seed"] = "11" * 32
    err = rejected(rec)
    assert (err.hand, err.action) == (None, None)
    assert str(err) == (
        f"fairness.commitment: expected sha256(server_seed) = \"{fair.commitment('11' * 32)}\", "
        f"found \"{fair.commitment(ZERO_SEED)}\""
    )


def test_wrong_client_seed() -> None:
    rec = rec_of("duplas-pontos")
    rec["fairness"]["client_seed"] = "golden-5525"
    err = rejected(rec)
    assert (err.hand, err.action) == (0, None)
    assert str(err).startswith("hand 0: expected dealt[0] (any order) [")


def test_changed_dealt_tile() -> None:
    rec = rec_of("duplas-torneio")
    dealt = rec["hands"][1]["dealt"]
    dealt[2][3], dealt[3][0] = dealt[3][0], dealt[2][3]
    err = rejected(rec)
    assert (err.hand, err.action) == (1, None)
    assert str(err).startswith("hand 1: expected dealt[2] (any order) [")


def test_dealt_in_another_order_is_fine() -> None:
    rec = rec_of("duplas-torneio")
    for hand in rec["hands"]:
        for seat in hand["dealt"]:
            seat.reverse()
    verify(rec)


def test_wrong_boneyard_order() -> None:
    rec = rec_of("mano-a-mano")
    bones = rec["hands"][1]["boneyard"]
    bones[0], bones[1] = bones[1], bones[0]
    err = rejected(rec)
    assert (err.hand, err.action) == (1, None)
    assert str(err).startswith("hand 1: expected boneyard [")


def test_wrong_draw_tile() -> None:
    rec = rec_of("mano-a-mano")
    h, j = find_action(rec, lambda a: a["type"] == "draw")
    right = rec["hands"][h]["actions"][j]["tile"]
    wrong = rec["hands"][h]["boneyard"][-1]
    rec["hands"][h]["actions"][j]["tile"] = wrong
    err = rejected(rec)
    assert (err.hand, err.action) == (h, j)
    assert str(err) == f'hand {h}, action {j}: expected the boneyard\'s next tile "{right}", ' \
        f'found "{wrong}"'


def test_missing_option() -> None:
    rec = rec_of("duplas-pontos")
    del rec["options"]["galo_points"]
    assert str(rejected(rec)) == "options: missing key 'galo_points'"


def test_tile_not_in_record_form() -> None:
    err, h, j = action_refused("bloqueio", lambda a: a["type"] == "play" and a["tile"] == "3-6",
                               "tile", "6-3")
    assert str(err) == (
        f'hand {h}, action {j}: tile: expected a tile written a-b with a <= b (0-0 … 6-6), '
        'found "6-3"'
    )


def test_tile_not_in_record_form_in_a_deal() -> None:
    rec = rec_of("bloqueio")
    rec["hands"][0]["dealt"][1][2] = "3:5"
    err = rejected(rec)
    assert (err.hand, err.action) == (0, None)
    assert "dealt[1][2]: expected a tile written a-b" in str(err)


def test_bad_end_name() -> None:
    err, h, j = action_refused("pontos", lambda a: a.get("end") == "right", "end", "direita")
    assert str(err) == (
        f"hand {h}, action {j}: end: expected one of left, right, up, down (omitted for the "
        'opening), found "direita"'
    )


def test_end_where_only_duplas_pontos_has_it() -> None:
    err, _, _ = action_refused("pontos", lambda a: a.get("end") == "left", "end", "up")
    assert "refused by the rules: A ponta de cima não está aberta." in str(err)


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (("format",), "missing key 'format'"),
        (("players",), "missing key 'players'"),
        (("fairness", "commitment"), "fairness: missing key 'commitment'"),
        (("fairness", "client_seed"), "fairness: missing key 'client_seed'"),
        (("hands", 0, "deal_index"), "hand 0: missing key 'deal_index'"),
        (("hands", 0, "dealt"), "hand 0: missing key 'dealt'"),
        (("hands", 0, "boneyard"), "hand 0: missing key 'boneyard'"),
        (("hands", 0, "actions"), "hand 0: missing key 'actions'"),
        (("hands", 1, "score"), "hand 1: missing key 'score'"),
        (("hands", 1, "actions", 2, "seat"), "hand 1, action 2: missing key 'seat'"),
        (("hands", 1, "actions", 2, "type"), "hand 1, action 2: missing key 'type'"),
        (("hands", 1, "actions", 2, "tile"), "hand 1, action 2: missing key 'tile'"),
        (("hands", 1, "end", "seat"), "hand 1: end: missing key 'seat'"),
        (("result", "reason"), "result: missing key 'reason'"),
    ],
)
def test_missing_key(path: tuple[str | int, ...], message: str) -> None:
    rec = rec_of("duplas-torneio")
    parent: Any = rec
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    assert str(rejected(rec)) == message


def test_missing_end_of_a_finished_hand() -> None:
    rec = rec_of("duplas-torneio")
    end = rec["hands"][0].pop("end")
    assert str(rejected(rec)) == f"hand 0: missing key 'end': expected {json.dumps(end)}"


def test_missing_result() -> None:
    rec = rec_of("classico")
    del rec["result"]
    err = rejected(rec)
    assert str(err).startswith("missing key 'result': the match is over, expected {")


def test_finished_record_must_reveal_the_seed() -> None:
    rec = rec_of("classico")
    del rec["fairness"]["server_seed"]
    assert str(rejected(rec)) == (
        "fairness: missing key 'server_seed' (a finished record must reveal it)"
    )


# --------------------------------------------------------------------------- more structure


@pytest.mark.parametrize("value", [None, [], "record", 3, True])
def test_not_an_object(value: object) -> None:
    assert str(rejected(value)).startswith("record: expected a JSON object, found ")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "carroca-record/2"},
         'expected format "carroca-record/1", found "carroca-record/2"'),
        ({"ruleset": "truco"}, 'ruleset: expected one of duplas-pontos, duplas-torneio, '
         'mano-a-mano, classico, bloqueio, pontos, found "truco"'),
        ({"ruleset": 7}, "ruleset: expected a string, found 7"),
        ({"options": []}, "options: expected a JSON object, found a list"),
        ({"players": ["a", "b", "c"]},
         'players: expected a list of 2 player names (strings), found ["a", "b", "c"]'),
        ({"players": ["a", 2]},
         'players: expected a list of 2 player names (strings), found ["a", 2]'),
        ({"fairness": None}, "fairness: expected a JSON object, found null"),
        ({"hands": {}}, "hands: expected a list, found {}"),
    ],
)
def test_top_level_structure(change: dict[str, Any], message: str) -> None:
    rec = rec_of("mano-a-mano")
    rec.update(change)
    assert str(rejected(rec)) == message


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"target": 250}, "options: A opção target vale 250, mas só pode ser 100, 200, 300."),
        ({"target": "200"}, "options: A opção target precisa ser um número inteiro positivo."),
        ({"target": 200.0}, "options: A opção target precisa ser um número inteiro positivo."),
        ({"always_six_six": 0}, "options: A opção always_six_six precisa ser true ou false."),
        ({"pass_points": True}, "options: A opção pass_points precisa ser um número inteiro"),
    ],
)
def test_invalid_option_value(options: dict[str, Any], fragment: str) -> None:
    rec = rec_of("duplas-pontos")
    rec["options"].update(options)
    assert str(rejected(rec)).startswith(fragment)


def test_unknown_option_keys_are_ignored() -> None:
    rec = rec_of("duplas-pontos")
    rec["options"]["house_rule"] = "whatever"
    verify(rec)


def test_options_matter() -> None:
    rec = rec_of("duplas-pontos")
    rec["options"]["galo_points"] = 55
    err = rejected(rec)
    assert err.hand is not None and "expected score" in str(err)


def test_unknown_keys_are_allowed_anywhere() -> None:
    rec = rec_of("duplas-pontos")
    rec["x-server"] = {"table": 7}
    rec["fairness"]["note"] = 1
    rec["result"]["elapsed"] = 600
    for hand in rec["hands"]:
        hand["started"] = "2026-01-01T00:00:00Z"
        hand["end"]["detail"] = "anything"
        for action in hand["actions"]:
            action["ms"] = 1200
    verify(rec)


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("ABC", 'fairness.commitment: expected 64 lowercase hex characters, found "ABC"'),
        ("A" * 64, "fairness.commitment: expected 64 lowercase hex characters"),
        (None, "fairness.commitment: expected a string, found null"),
    ],
)
def test_bad_commitment(value: object, fragment: str) -> None:
    rec = rec_of("pontos")
    rec["fairness"]["commitment"] = value
    assert str(rejected(rec)).startswith(fragment)


@pytest.mark.parametrize("seed", ["00", "0" * 63 + "G", None, 0])
def test_bad_server_seed(seed: object) -> None:
    rec = rec_of("pontos")
    rec["fairness"]["server_seed"] = seed
    assert str(rejected(rec)).startswith("fairness.server_seed: expected ")


def test_client_seed_must_be_text() -> None:
    rec = rec_of("pontos")
    rec["fairness"]["client_seed"] = 12
    assert str(rejected(rec)) == "fairness.client_seed: expected a string, found 12"
    rec["fairness"]["client_seed"] = "\ud800"
    assert str(rejected(rec)).startswith("fairness.client_seed: not encodable as UTF-8")


def test_deal_index_without_gaps() -> None:
    rec = rec_of("bloqueio")
    rec["hands"][3]["deal_index"] = 4
    assert str(rejected(rec)) == "hand 3: expected deal_index 3, found 4"
    rec = rec_of("bloqueio")
    del rec["hands"][2]
    err = rejected(rec)
    assert str(err) == "hand 2: expected deal_index 2, found 3"


def test_2v2_has_an_empty_boneyard() -> None:
    rec = rec_of("duplas-pontos")
    rec["hands"][0]["boneyard"] = ["0-0"]
    assert str(rejected(rec)) == (
        'hand 0: boneyard: expected [] (2v2 deals every tile), found ["0-0"]'
    )


def test_1v1_boneyard_has_14_tiles() -> None:
    rec = rec_of("bloqueio")
    rec["hands"][0]["boneyard"].pop()
    assert str(rejected(rec)).startswith("hand 0: boneyard: expected a list of 14 tiles, found [")


def test_a_tile_dealt_twice() -> None:
    rec = rec_of("bloqueio")
    del rec["fairness"]["server_seed"]
    del rec["result"]
    dealt = rec["hands"][0]["dealt"]
    dealt[1][0] = dealt[0][0]
    assert str(rejected(rec)) == f"hand 0: dealt/boneyard: tile {dealt[0][0]} appears twice"


def test_seven_tiles_per_seat() -> None:
    rec = rec_of("bloqueio")
    rec["hands"][0]["dealt"][0].append("0-0")
    assert str(rejected(rec)).startswith("hand 0: dealt[0]: expected a list of 7 tiles, found [")


def test_hands_after_the_match_ended() -> None:
    rec = rec_of("classico")
    rec["hands"].append(copy.deepcopy(rec["hands"][-1]))
    n = len(rec["hands"]) - 1
    err = rejected(rec)
    assert (err.hand, err.action) == (n, None)
    assert str(err).startswith(
        f"hand {n}: expected no more hands: the match ended after hand {n - 1} ("
    )


def test_result_of_a_match_that_is_not_over() -> None:
    rec = rec_of("classico")
    rec["hands"].pop()
    err = rejected(rec)
    assert str(err).startswith("result: expected none, the match is not over after the last hand")


def test_result_reason_and_pneu() -> None:
    rec = rec_of("duplas-torneio")
    assert rec["result"]["pneu"] is True
    rec["result"]["reason"] = "abandon"
    assert str(rejected(rec)) == 'expected result.reason "target", found "abandon"'
    rec = rec_of("duplas-torneio")
    rec["result"]["pneu"] = False
    assert str(rejected(rec)) == "expected result.pneu true, found false"
    rec = rec_of("duplas-torneio")
    del rec["result"]["pneu"]
    verify(rec)


def test_wrong_end() -> None:
    rec = rec_of("duplas-torneio")
    end = rec["hands"][0]["end"]
    shown = json.dumps(end)
    end["kind"] = "fechado" if end["kind"] == "batida" else "batida"
    err = rejected(rec)
    assert (err.hand, err.action) == (0, None)
    assert str(err).startswith(f"hand 0: expected end {shown}, found ")
    rec = rec_of("duplas-torneio")
    rec["hands"][0]["end"]["kind"] = "draw"
    assert str(rejected(rec)).startswith(
        'hand 0: end.kind: expected one of batida, fechado, redeal, abandon, found "draw"'
    )


def test_wrong_seat() -> None:
    rec = rec_of("duplas-pontos")
    rec["hands"][0]["actions"][3]["seat"] = 0
    seat = rec_of("duplas-pontos")["hands"][0]["actions"][3]["seat"]
    err = rejected(rec)
    assert (err.hand, err.action) == (0, 3)
    assert str(err) == f"hand 0, action 3: expected an action by seat {seat}, found 0"
    rec["hands"][0]["actions"][3]["seat"] = True
    assert str(rejected(rec)) == "hand 0, action 3: seat: expected an integer, found true"


def test_illegal_action_quotes_the_rules() -> None:
    rec = rec_of("duplas-pontos")
    # The first hand opens with the 6-6: try another double of the same seat.
    h, j = find_action(rec, lambda a: a["type"] == "play")
    action = rec["hands"][h]["actions"][j]
    assert action["tile"] == "6-6"
    action["end"] = "left"
    err = rejected(rec)
    assert (err.hand, err.action) == (h, j)
    assert str(err) == (
        f"hand {h}, action {j}: expected one of 6-6; found 6-6:left by seat {action['seat']}, "
        "refused by the rules: A saída tem de ser com a 6-6."
    )
    assert err.expected == ["6-6"] and err.found == "6-6:left"


def test_unknown_action_type_and_bad_choice() -> None:
    rec = rec_of("duplas-pontos")
    h, j = find_action(rec, lambda a: a["type"] == "five-doubles")
    rec["hands"][h]["actions"][j]["choice"] = "both"
    assert str(rejected(rec)) == (
        f'hand {h}, action {j}: choice: expected points or redeal, found "both"'
    )
    rec["hands"][h]["actions"][j]["type"] = "bet"
    assert str(rejected(rec)) == (
        f'hand {h}, action {j}: type: expected one of play, draw, pass, five-doubles, '
        'found "bet"'
    )


def test_auto_must_be_a_boolean() -> None:
    rec = rec_of("pontos")
    rec["hands"][0]["actions"][1]["auto"] = "yes"
    assert str(rejected(rec)) == 'hand 0, action 1: auto: expected true or false, found "yes"'
    rec["hands"][0]["actions"][1]["auto"] = False
    verify(rec)


# --------------------------------------------------------------------------- unfinished records


def _unfinished(name: str, hands: int, actions: int) -> dict[str, Any]:
    """The golden record cut after `actions` actions of hand `hands`, without its seed."""
    rec = rec_of(name)
    del rec["result"], rec["fairness"]["server_seed"]
    rec["hands"] = rec["hands"][: hands + 1]
    last = rec["hands"][-1]
    last["actions"] = last["actions"][:actions]
    del last["end"], last["score"]
    return rec


def test_unfinished_without_seed_still_checks_play() -> None:
    rec = _unfinished("mano-a-mano", 1, 5)
    verify(rec)
    rec["hands"][1]["actions"][4]["seat"] ^= 1
    assert str(rejected(rec)).startswith("hand 1, action 4: expected an action by seat")


def test_unfinished_without_seed_cannot_check_deals() -> None:
    rec = _unfinished("mano-a-mano", 0, 0)
    bones = rec["hands"][0]["boneyard"]
    bones[0], bones[1] = bones[1], bones[0]  # unverifiable without the seed
    verify(rec)


def test_only_the_last_hand_may_be_open() -> None:
    rec = _unfinished("mano-a-mano", 1, 5)
    rec["hands"].append(copy.deepcopy(rec["hands"][1]))
    err = rejected(rec)
    assert (err.hand, err.action) == (1, 5)
    assert "found the end of the actions and no 'end'" in str(err)


def test_open_hand_has_no_score() -> None:
    rec = _unfinished("mano-a-mano", 1, 5)
    rec["hands"][1]["score"] = [0, 0]
    assert str(rejected(rec)) == "hand 1: score: expected none for a hand still in play"


# --------------------------------------------------------------------------- ends


def _abandoned() -> dict[str, Any]:
    """A duplas-pontos record of hand 0 abandoned by seat 2 at its third timeout in a row."""
    m = Match("duplas-pontos")
    m.deal(fair.shuffle(ZERO_SEED, "quit", 0))
    for _ in range(5):
        m.apply(m.legal_actions()[0], m.current_player)
    time_out(m, 2)
    m.abandon(2)
    rec = to_record(m, PLAYERS[4], GOLDEN["duplas-pontos"].fairness())
    rec["fairness"]["client_seed"] = "quit"
    return rec


def test_abandon_verifies() -> None:
    rec = _abandoned()
    actions = rec["hands"][0]["actions"]
    assert [a.get("auto", False) for a in actions if a["seat"] == 2][-2:] == [True, True]
    m = verify(rec)
    assert m.result is not None and (m.result.winner, m.result.reason) == (1, "abandon")


def test_abandon_is_the_last_hand() -> None:
    rec = _abandoned()
    hand = copy.deepcopy(rec["hands"][0])
    hand["deal_index"] = 1
    rec["hands"].append(hand)
    assert str(rejected(rec)).startswith(
        "hand 1: expected no more hands: the match ended after hand 0 (abandoned by seat 2)"
    )


def test_abandon_winner_and_seat() -> None:
    rec = _abandoned()
    rec["result"]["winner"] = 0
    assert str(rejected(rec)) == "expected result.winner 1, found 0"
    rec = _abandoned()
    rec["hands"][0]["end"]["seat"] = 4
    assert str(rejected(rec)) == "hand 0: end.seat: expected a seat 0..3, found 4"


@pytest.mark.parametrize("seat", [0, 1, 3])
def test_abandon_by_a_seat_not_to_move(seat: int) -> None:
    rec = _abandoned()
    rec["hands"][0]["end"]["seat"] = seat
    err = rejected(rec)
    n = len(rec["hands"][0]["actions"])
    assert (err.hand, err.action) == (0, n)
    assert str(err).startswith(f"hand 0, action {n}: end: abandon by seat {seat} refused by ")
    assert err.found == {"kind": "abandon", "seat": seat}


@pytest.mark.parametrize("keep", [0, 1])
def test_abandon_without_two_timeouts_before(keep: int) -> None:
    """Only `keep` of seat 2's last two actions were timeouts: no abandonment yet."""
    rec = _abandoned()
    actions = rec["hands"][0]["actions"]
    mine = [a for a in actions if a["seat"] == 2][-2:]
    for action in mine[: 2 - keep]:
        del action["auto"]
    err = rejected(rec)
    assert (err.hand, err.action) == (0, len(actions))
    assert str(err).startswith(
        f"hand 0, action {len(actions)}: end: abandon by seat 2 refused by the rules: "
    )
    assert f"tem {keep} antes deste" in str(err)


def _abandon_in_hand_1(auto: bool) -> tuple[dict[str, Any], int]:
    """duplas-torneio's golden record cut in hand 1 where its opener is to move again, and
    abandoned there by it; `auto` marks its two actions before as timeouts."""
    rec = rec_of("duplas-torneio")
    hand = rec["hands"][1]
    opener = hand["actions"][0]["seat"]
    hand["actions"] = hand["actions"][:8]  # a full round twice: the opener is to move
    for action in hand["actions"]:
        if action["seat"] == opener and auto:
            action["auto"] = True
    hand["end"] = {"kind": "abandon", "seat": opener}
    hand["score"] = rec["hands"][0]["score"]
    winner = 1 - opener % 2
    rec["result"] = {"winner": winner, "score": hand["score"], "reason": "abandon"}
    return rec, opener


def test_abandon_in_a_later_hand() -> None:
    rec, opener = _abandon_in_hand_1(auto=True)
    m = verify(rec)
    assert m.result is not None and m.result.reason == "abandon"
    assert m.history[-1].end.seat == opener
    rec, opener = _abandon_in_hand_1(auto=False)
    err = rejected(rec)
    assert (err.hand, err.action) == (1, 8)
    assert str(err).startswith(f"hand 1, action 8: end: abandon by seat {opener} refused by ")
    rec, opener = _abandon_in_hand_1(auto=True)
    rec["hands"][1]["end"]["seat"] = (opener + 1) % 4
    err = rejected(rec)
    assert (err.hand, err.action) == (1, 8)
    assert str(err).startswith(f"hand 1, action 8: end: abandon by seat {(opener + 1) % 4} ")
    assert "refused by the rules" in str(err)


def test_abandon_at_zero_zero_is_no_pneu() -> None:
    m = Match("classico")
    m.deal(fair.shuffle(ZERO_SEED, "quit", 0))
    time_out(m)
    quitter = m.current_player
    assert quitter is not None and m.score == [0, 0]
    m.abandon(quitter)
    rec = to_record(m, PLAYERS[2], GOLDEN["classico"].fairness())
    rec["fairness"]["client_seed"] = "quit"
    assert rec["result"] == {
        "winner": 1 - quitter,
        "score": [0, 0],
        "reason": "abandon",
        "pneu": False,
    }
    assert verify(rec).result == m.result
    rec["result"]["pneu"] = True
    assert str(rejected(rec)) == "expected result.pneu false, found true"


def test_abandon_cannot_replace_a_finished_hand() -> None:
    rec = rec_of("duplas-torneio")
    rec["hands"][0]["end"] = {"kind": "abandon", "seat": 1}
    err = rejected(rec)
    assert str(err).startswith("hand 0: expected end {")


def test_redeal_end() -> None:
    m = Match("duplas-pontos")
    from carroca.rules import tiles as T

    doubles = [T.DOUBLE_OF[n] for n in range(7)]
    rest = [t for t in range(28) if t not in doubles]
    order = doubles[:5] + rest
    order = order[:7] + doubles[5:] + order[7:]
    m.deal(order)
    m.apply(A.FIVE_REDEAL, 0)
    rec = to_record(m, PLAYERS[4], GOLDEN["duplas-pontos"].fairness())
    del rec["fairness"]["server_seed"]  # a scripted deal: play only
    verify(rec)
    rec["hands"][0]["end"]["seat"] = 0
    assert str(rejected(rec)) == "hand 0: end.seat: expected none for a redeal"
