"""Players' data rights (Brazil's LGPD): what the server keeps about a player, handed to them as
JSON (`export_player`), their sessions listed and ended, and their account deleted
(`delete_player`).

Deletion keeps the matches others played: the player's row stays, under a pseudonym and with
nothing personal (no password, key, ratings, sessions, devices or marks), so the participants
and seats of other players' records still point at someone. Every stored record, seating,
analysis and event row that named the player names the pseudonym instead. A record's fairness
(`record.md`) commits to the server seed only, never to names, so every record still passes
`carroca verify` afterwards.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from typing import Any, TypedDict, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from carroca.server.records import MatchResult, Mode, TableStatus
from carroca.server.storage import db
from carroca.server.storage.friends import forget_links, friend_links_of
from carroca.server.storage.names import lookalike_keys
from carroca.server.storage.plumbing import Storage, token_hash
from carroca.server.storage.rows import PlayerRow
from carroca.server.storage.tokens import tokens_listed

SESSION_ID_CHARS = 16  # a session is named to its owner by the start of its token's digest
PSEUDONYM_PREFIX = "Excluído "
DELETED = "deleted"  # players.kind of a deleted account's pseudonym row


class WrittenLine(TypedDict):
    match: str
    text: str
    at: float


class ReportMade(TypedDict):
    id: int
    reason: str
    comment: str | None
    match: str | None
    status: str
    created_at: float


class SanctionGiven(TypedDict):
    kind: str
    reason: str
    created_at: float
    until: float | None
    lifted_at: float | None


def _chat_lines(conn: Connection, player_id: int) -> list[WrittenLine]:
    """The chat lines the player wrote, as written (moderation keeps them for reports)."""
    c = db.chat_lines.c
    return [{"match": r.match_id, "text": r.text, "at": r.at} for r in conn.execute(
        sa.select(c.match_id, c.text, c.at).where(c.player_id == player_id).order_by(c.id))]


def _reports_made(conn: Connection, player_id: int) -> list[ReportMade]:
    r = db.reports.c
    return [{"id": x.id, "reason": x.reason, "comment": x.comment, "match": x.match_id,
             "status": x.status, "created_at": x.created_at} for x in conn.execute(
        sa.select(r.id, r.reason, r.comment, r.match_id, r.status, r.created_at)
        .where(r.reporter_id == player_id).order_by(r.id))]


def _sanctions(conn: Connection, player_id: int) -> list[SanctionGiven]:
    s = db.sanctions.c
    return [{"kind": x.kind, "reason": x.reason, "created_at": x.created_at, "until": x.until,
             "lifted_at": x.lifted_at} for x in conn.execute(
        sa.select(s.kind, s.reason, s.created_at, s.until, s.lifted_at)
        .where(s.player_id == player_id).order_by(s.id))]


class LadderState(TypedDict):
    step: int
    clean: int
    abandons: int
    updated_at: float


def _abandon_ladder(conn: Connection, player_id: int) -> LadderState | None:
    """Where the player stands on the abandonment ladder (None: never counted)."""
    a = db.abandon_ladder.c
    row = conn.execute(sa.select(a.step, a.clean, a.abandons, a.updated_at)
                       .where(a.player_id == player_id)).first()
    return None if row is None else {"step": row.step, "clean": row.clean,
                                     "abandons": row.abandons, "updated_at": row.updated_at}


class FairPlayCount(TypedDict):
    ruleset: str
    matches: int
    decisions: int
    agreed: int


def _fair_play(conn: Connection, player_id: int) -> list[FairPlayCount]:
    """The player's ranked decisions counted for the fair-play signal, and how many agreed with
    the expert's review, per ruleset."""
    t = db.fairplay_tallies.c
    return [{"ruleset": r, "matches": int(n), "decisions": int(d or 0), "agreed": int(a or 0)}
            for r, n, d, a in conn.execute(
                sa.select(t.ruleset, sa.func.count(), sa.func.sum(t.decisions),
                          sa.func.sum(t.agreed))
                .where(t.player_id == player_id).group_by(t.ruleset).order_by(t.ruleset))]


# More kinds of a player's data, each read by its function into the export.
EXPORT_SECTIONS: dict[str, Callable[[Connection, int], Any]] = {
    "friends": friend_links_of,
    "chat_lines": _chat_lines,
    "reports_made": _reports_made,
    "sanctions": _sanctions,
    "api_tokens": tokens_listed,
    "abandon_ladder": _abandon_ladder,
    "fair_play": _fair_play,
}


def renamed(value: Any, old: str, new: str) -> Any:
    """`value` (parsed JSON) with every string equal to `old` replaced by `new`."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: renamed(v, old, new) for k, v in value.items()}
    return value


def _renamed_text(text: str | None, old: str, new: str) -> str | None:
    if not text:
        return text
    try:
        parsed = json.loads(text)
    except ValueError:
        return text
    again = renamed(parsed, old, new)
    return text if again == parsed else json.dumps(again, ensure_ascii=False,
                                                   separators=(",", ":"))


class SessionLine(TypedDict):
    """One of a player's open sign-ins, named by the start of its token's digest."""

    id: str
    created_at: float
    expires_at: float
    current: bool  # the asker's own


class MatchLine(TypedDict):
    """A match the player sat at, as their data export lists it (its record by address)."""

    id: str
    mode: Mode
    ruleset: str
    status: TableStatus
    seat: int
    players: list[str | None]
    created_at: float
    finished_at: float | None
    score: list[int] | None
    result: MatchResult | None
    private: bool
    rating_before: float | None
    rating_after: float | None
    record: str


def _sessions(conn: Connection, player_id: int, current: str | None) -> list[SessionLine]:
    s = db.sessions.c
    rows = conn.execute(sa.select(s.token_hash, s.created_at, s.expires_at)
                        .where(s.player_id == player_id).where(s.expires_at > time.time())
                        .order_by(s.created_at.desc())).all()
    mine = token_hash(current) if current else None
    return [{"id": r.token_hash[:SESSION_ID_CHARS], "created_at": r.created_at,
             "expires_at": r.expires_at, "current": r.token_hash == mine} for r in rows]


def _matches_of(conn: Connection, player_id: int) -> list[MatchLine]:
    m, pt = db.matches.c, db.participants.c
    rows = conn.execute(
        sa.select(m.id, m.mode, m.ruleset, m.status, m.seats, m.created_at, m.finished_at,
                  m.score, m.result, m.private, pt.seat, pt.rating_before, pt.rating_after)
        .join(db.participants, pt.match_id == m.id).where(pt.player_id == player_id)
        .order_by(m.created_at)).mappings()
    return [{
        "id": r["id"], "mode": r["mode"], "ruleset": r["ruleset"], "status": r["status"],
        "seat": r["seat"], "players": [(s or {}).get("name") for s in r["seats"]],
        "created_at": r["created_at"], "finished_at": r["finished_at"], "score": r["score"],
        "result": r["result"], "private": bool(r["private"]),
        "rating_before": r["rating_before"], "rating_after": r["rating_after"],
        "record": f"/api/matches/{r['id']}/record",
    } for r in rows]


class DataRows(Storage):
    async def player_by_id(self, player_id: int) -> PlayerRow | None:
        def fn(conn: Connection) -> PlayerRow | None:
            row = conn.execute(sa.select(db.players).where(db.players.c.id == player_id)
                               ).mappings().first()
            return cast(PlayerRow, dict(row)) if row else None

        return await self.run_side(fn)

    async def export_player(self, player_id: int, current: str | None) -> dict[str, Any] | None:
        """Everything kept about the player, as JSON; None if there is no such player. A
        free-form document: its sections grow with what the server keeps (`EXPORT_SECTIONS`)."""

        def fn(conn: Connection) -> dict[str, Any] | None:
            p = conn.execute(sa.select(db.players).where(db.players.c.id == player_id)
                             ).mappings().first()
            if p is None:
                return None
            r, d, k = db.ratings.c, db.devices.c, db.player_marks.c
            e = db.tournament_entries.c
            entries = [
                {"tournament": row.tournament_id, "entrant": row.name,
                 "registered_at": row.created_at}
                for row in conn.execute(sa.select(e.tournament_id, e.name, e.players,
                                                  e.created_at))
                if any(x.get("id") == player_id for x in row.players)
            ]
            return {
                "format": "carroca-data/1",
                "exported_at": time.time(),
                "profile": {"id": p["id"], "name": p["name"], "kind": p["kind"],
                            "created_at": p["created_at"],
                            "password": "guardada só como hash argon2"
                            if p["password_hash"] else None},
                "ratings": [
                    {"family": x.family, "mu": x.mu, "sigma": x.sigma, "rating": x.ordinal,
                     "games": x.games, "wins": x.wins}
                    for x in conn.execute(sa.select(db.ratings).where(r.player_id == player_id))
                ],
                "matches": _matches_of(conn, player_id),
                "tournaments": entries,
                "sessions": _sessions(conn, player_id, current),
                "devices": [
                    {"created_at": x.created_at, "expires_at": x.expires_at}
                    for x in conn.execute(sa.select(d.created_at, d.expires_at)
                                          .where(d.player_id == player_id))
                ],
                "address_and_device_marks": [
                    {"seen_at": x.seen_at} for x in conn.execute(
                        sa.select(k.seen_at).where(k.player_id == player_id))
                ],
                **{name: read(conn, player_id) for name, read in EXPORT_SECTIONS.items()},
            }

        return await self.run_side(fn)

    async def player_sessions(self, player_id: int, current: str | None) -> list[SessionLine]:
        return await self.run_side(lambda conn: _sessions(conn, player_id, current))

    async def end_sessions(self, player_id: int, session_id: str | None,
                           keep: str | None = None) -> list[str]:
        """End the player's session named `session_id` (None: every one but `keep`'s);
        returns the ended sessions' token digests."""

        def fn(conn: Connection) -> list[str]:
            s = db.sessions.c
            query = sa.select(s.token_hash).where(s.player_id == player_id)
            hashes = [h for (h,) in conn.execute(query)
                      if (session_id is None and h != (token_hash(keep) if keep else None))
                      or (session_id is not None and len(session_id) == SESSION_ID_CHARS
                          and h.startswith(session_id))]
            if hashes:
                conn.execute(db.sessions.delete().where(s.token_hash.in_(hashes)))
            return hashes

        return await self.run_side(fn)

    async def delete_player(self, player_id: int) -> tuple[str, list[str]] | None:
        """Delete the player's account (see the module's docstring); returns the pseudonym and
        the ended sessions' digests, or None if there is no such player (deleted already)."""

        def fn(conn: Connection) -> tuple[str, list[str]] | None:
            p = db.players.c
            row = conn.execute(sa.select(p.name, p.kind).where(p.id == player_id)).first()
            if row is None or row.kind == DELETED:
                return None
            old = str(row.name)
            new = PSEUDONYM_PREFIX + secrets.token_hex(4)
            typed, folded = lookalike_keys(new)
            conn.execute(db.players.update().where(p.id == player_id).values(
                name=new, name_key=new.casefold(), name_skeleton=typed,
                name_skeleton_folded=folded, skeleton_twin=0, kind=DELETED,
                password_hash=None, guest_key_hash=None, closed_at=time.time(),
                closed_reason=None))
            s = db.sessions.c
            ended = [h for (h,) in conn.execute(sa.select(s.token_hash)
                                                .where(s.player_id == player_id))]
            for table in (db.sessions, db.devices, db.player_marks, db.ratings,
                          db.ranked_queue, db.player_roles, db.chat_lines, db.abandon_ladder,
                          db.api_tokens, db.fairplay_tallies):
                conn.execute(table.delete().where(table.c.player_id == player_id))
            _rename_reports(conn, old, new)
            forget_links(conn, [player_id])  # friends, requests and blocks, both ways
            _rename_matches(conn, player_id, old, new)
            _rename_events(conn, player_id, old, new)
            return new, ended

        return await self.run_side(fn)


def _rename_reports(conn: Connection, old: str, new: str) -> None:
    """Reports whose captured context (chat lines, the names then) names the player."""
    r = db.reports.c
    for rid, context in conn.execute(sa.select(r.id, r.context)):
        again = renamed(context, old, new)
        if again != context:
            conn.execute(db.reports.update().where(r.id == rid).values(context=again))


def _rename_matches(conn: Connection, player_id: int, old: str, new: str) -> None:
    """Every match that seated the player: its seats, record and analysis name the pseudonym."""
    m, pt = db.matches.c, db.participants.c
    rows = conn.execute(
        sa.select(m.id, m.seats, m.record, m.analysis, m.result, m.score)
        .where(sa.or_(m.id.in_(sa.select(pt.match_id).where(pt.player_id == player_id)),
                      m.host_id == player_id, m.status != "finished"))).mappings()
    for r in rows:
        seats = r["seats"] or []
        if not any(isinstance(s, dict) and s.get("player") == player_id for s in seats):
            continue
        changes = {
            "seats": [dict(s, name=new) if isinstance(s, dict) and s.get("player") == player_id
                      else s for s in seats],
            "record": _renamed_text(r["record"], old, new),
            "analysis": _renamed_text(r["analysis"], old, new),
            "result": renamed(r["result"], old, new),
        }
        conn.execute(db.matches.update().where(m.id == r["id"]).values(**changes))


def _rename_events(conn: Connection, player_id: int, old: str, new: str) -> None:
    """Every event the player entered: its entries, record and log name the pseudonym."""
    e = db.tournament_entries.c
    touched: set[str] = set()
    for row in conn.execute(sa.select(e.tournament_id, e.entrant, e.name, e.players)).all():
        if not any(x.get("id") == player_id for x in row.players):
            continue
        touched.add(row.tournament_id)
        conn.execute(db.tournament_entries.update()
                     .where(e.tournament_id == row.tournament_id)
                     .where(e.entrant == row.entrant)
                     .values(name=row.name.replace(old, new),
                             players=renamed(row.players, old, new)))
    for tid in touched:
        t, log = db.tournaments.c, db.tournament_log.c
        record = conn.execute(sa.select(t.record).where(t.id == tid)).scalar()
        conn.execute(db.tournaments.update().where(t.id == tid)
                     .values(record=_renamed_text(record, old, new)))
        for seq, entry in conn.execute(sa.select(log.seq, log.entry)
                                       .where(log.tournament_id == tid)).all():
            conn.execute(db.tournament_log.update().where(log.tournament_id == tid)
                         .where(log.seq == seq).values(entry=renamed(entry, old, new)))
