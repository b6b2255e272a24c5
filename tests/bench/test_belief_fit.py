"""bench/belief_fit.py: the plays it reads back and the maximum it finds."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np

from carroca.bots.expert.belief import EXPERT_PONTOS, TABLE_PLAYER_PONTOS, Params

_BENCH = str(Path(__file__).resolve().parents[2] / "bench")
if _BENCH not in sys.path:
    sys.path.insert(0, _BENCH)
F = importlib.import_module("belief_fit")


def test_the_fit_explains_the_plays_at_least_as_well_as_the_models_shipped() -> None:
    views = F.hand_ends("medium", "duplas-pontos", 4, "test")
    data = F.samples(views, F.REASONS)
    assert len(data) > 50
    for x, chosen in data:  # one row a play the seat had, one column a reason
        assert x.shape[1] == len(F.REASONS) and x.shape[0] >= 2 and 0 <= chosen < x.shape[0]
    w, se, ll = F.fit(data, len(F.REASONS))
    assert np.all(np.isfinite(se[:4]))  # the play's own reasons always tell plays apart
    _, grad, _ = F.log_likelihood(data, w)
    assert np.abs(grad).max() < 1e-4 * len(data)  # a maximum: no direction still climbs
    for params in (Params(), TABLE_PLAYER_PONTOS, EXPERT_PONTOS):
        current = np.array([getattr(params, r) * params.scale for r in F.REASONS])
        assert ll >= F.log_likelihood(data, current)[0] / len(data)


def test_each_play_is_read_once() -> None:
    views = F.hand_ends("medium", "duplas-pontos", 2, "once")
    reads = F.samples(views, ("pips",))
    again = F.samples(views + views, ("pips",))
    assert len(reads) == len(again) > 0
