"""Fit the expert's belief model to a level's plays by maximum likelihood.

The belief (`carroca.bots.expert.belief`) scores every play a seat had by a few reasons (heavy
tile, double, numbers kept, table points, the next seats left without a play, the points the
next seat could score in reply) and takes P(the play made) as a soft-max of those scores. Here a
level (by default `medium`) plays matches against itself; at the end of each hand each seat's
plays are read back from the other seats' last observations in it (a hand's last plays, after
every other seat's last turn, are not read), with the hand the seat really held, and the
weights that make those plays most likely are found by Newton's method. The scores are linear in
the weights, so each reason's values are the model's own scores with that weight alone set to 1.

    python bench/belief_fit.py --ruleset duplas-pontos [--matches 300] [--level medium]
        [--worlds N] [--reasons pips,double,keep,...] [--seed fit]

Prints the fitted weights with their standard errors and the mean log-likelihood of a play
(plays with one choice left out) under the default `Params()`, the ruleset's current model
(`params_for`) and the fit. Deterministic: the same arguments give the same figures.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import fields, replace

import numpy as np

from carroca import fair
from carroca.bots import SEARCHING_LEVELS, make_bot
from carroca.bots.expert import default_worlds
from carroca.bots.expert.belief import Belief, Params, params_for
from carroca.rules import Match, Observation, get_ruleset, observation
from carroca.simulate import bot_seed, match_seeds

REASONS = tuple(f.name for f in fields(Params) if f.name != "scale")

#: One play read back: each reason's value for every play the seat had, and the one it made.
Sample = tuple["np.ndarray", int]


#: A seat's last observation in a hand, every seat's hand then and which hand it was.
View = tuple[Observation, list[int], tuple[int, int]]


def hand_ends(level: str, ruleset: str, matches: int, seed: str,
              worlds: int | None = None) -> list[View]:
    """For every hand played, each seat's last observation in it. A searching level plays with
    `worlds` a decision (default: its calibrated count), so the plays follow from the seed."""
    rs = get_ruleset(ruleset)
    if level in SEARCHING_LEVELS and worlds is None:
        worlds = default_worlds(rs.name, level)
    out: list[View] = []
    for i in range(matches):
        server, client = match_seeds(f"belief-fit-{seed}", i)
        bots = [make_bot(level, bot_seed(f"belief-fit-{seed}", i, s), None, worlds)
                for s in range(rs.seats)]
        m = Match(rs)
        last: dict[int, View] = {}
        while not m.is_over:
            if m.needs_deal:
                out.extend(last.values())
                last = {}
                m.deal(fair.shuffle(server, client, m.deal_index))
                continue
            seat = m.turn
            obs = observation(m, seat)
            last[seat] = (obs, list(m.hands), (i, m.deal_index))
            m.apply(bots[seat].choose(obs), seat)
        out.extend(last.values())
    return out


def samples(views: Sequence[View], reasons: Sequence[str]) -> list[Sample]:
    """Every play of another seat that the views read, each once."""
    units = [Params(**{r: (1.0 if r == reason else 0.0) for r in REASONS})
             for reason in reasons]
    seen: set[tuple[int, int, int, int]] = set()
    out: list[Sample] = []
    for obs, hands, (match, deal) in views:
        beliefs = [Belief(obs, p) for p in units]
        for i, d in enumerate(beliefs[0].decisions):
            key = (match, deal, d.seat, d.tile)
            if key in seen:
                continue
            seen.add(key)
            hand = hands[d.seat] | d.later
            columns = []
            chosen = -1
            for b in beliefs:
                scores, chosen = b.scores(d, hand, b.reads[i][0])
                columns.append(scores)
            if len(columns[0]) >= 2 and chosen >= 0:
                out.append((np.array(columns, dtype=float).T, chosen))
    return out


def log_likelihood(data: Sequence[Sample], w: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Σ log P(play made), its gradient and Hessian in the weights."""
    k = len(w)
    ll, grad, hess = 0.0, np.zeros(k), np.zeros((k, k))
    for x, y in data:
        z = x @ w
        z -= z.max()
        p = np.exp(z)
        p /= p.sum()
        ll += math.log(p[y])
        mu = p @ x
        grad += x[y] - mu
        hess -= (x * p[:, None]).T @ x - np.outer(mu, mu)
    return ll, grad, hess


def fit(data: Sequence[Sample], k: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Newton's method from 0 (the log-likelihood is concave): weights, standard errors and the
    mean log-likelihood of a play."""
    w = np.zeros(k)
    for _ in range(50):
        _, grad, hess = log_likelihood(data, w)
        step = np.linalg.solve(hess - 1e-9 * np.eye(k), grad)
        w = w - step
        if np.abs(step).max() < 1e-8:
            break
    ll, _, hess = log_likelihood(data, w)
    se = np.full(k, np.nan)  # a reason that never tells plays apart has no error (nor weight)
    used = np.abs(np.diag(hess)) > 1e-9
    if used.any():
        se[used] = np.sqrt(np.diag(np.linalg.inv(-hess[np.ix_(used, used)])))
    return w, se, ll / len(data)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--reasons", default=",".join(REASONS))
    parser.add_argument("--seed", default="fit")
    parser.add_argument("--worlds", type=int, default=None,
                        help="a searching level's worlds a decision (default: its own count)")
    args = parser.parse_args(argv)
    reasons = [r for r in args.reasons.split(",") if r]
    unknown = [r for r in reasons if r not in REASONS]
    if unknown or not reasons or len(set(reasons)) < len(reasons):
        parser.error(f"reasons are some of {', '.join(REASONS)}, each once")
    name = get_ruleset(args.ruleset).name
    data = samples(hand_ends(args.level, name, args.matches, args.seed, args.worlds), reasons)
    if not data:
        parser.error("no play with a choice was read")
    w, se, ll = fit(data, len(reasons))
    print(f"{name}, {args.level}: {len(data)} plays with a choice")
    for reason, value, error in zip(reasons, w, se, strict=True):
        print(f"  {reason:14} {value:+.3f} ± {error:.3f}")
    for label, params in (("Params()", Params()), ("params_for", params_for(name))):
        if not isinstance(params, Params):  # a mixture reads a whole hand, not one play
            continue
        current = np.array([getattr(params, r) * params.scale for r in reasons])
        if all(getattr(params, r) == 0 for r in REASONS if r not in reasons):
            print(f"  mean log-likelihood a play, {label}: "
                  f"{log_likelihood(data, current)[0] / len(data):.4f}")
    print(f"  mean log-likelihood a play, fitted: {ll:.4f}")
    fitted = replace(Params(**dict.fromkeys(REASONS, 0.0)),  # the reasons left out: 0
                     **{r: round(float(v), 3) for r, v in zip(reasons, w, strict=True)})
    print(f"  {fitted}")


if __name__ == "__main__":
    main()
