"""What moderation reads and writes: chat lines, reports, sanctions, the audit log and the
abandonment ladder. Each function takes a connection in a transaction (`Store.run_side`)."""

from __future__ import annotations

import time
from typing import Any, NotRequired, TypedDict, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from carroca.server.moderation.agreement import Signal
from carroca.server.records import Mode
from carroca.server.storage import db

#: Report reasons: code → what the player picked.
REASONS = {
    "chat": "ofensa no chat",
    "nome": "nome ofensivo",
    "abandono": "abandono",
    "trapaca": "trapaça ou conluio",
    "outro": "outro",
}
RECEIVED, ANALYSED = "recebida", "analisada"
#: Sanctions that end at a time (`until`); the others are a warning, a rename or a closing.
TIMED = ("chat_mute", "ranked_ban", "queue_ban")


class ContextLine(TypedDict):
    """A chat line around a reported moment (a report's context)."""

    seat: int
    player_id: int
    name: str
    text: str
    shown: str
    at: float


class ChatLine(ContextLine):
    """A chat line as kept (`chat_lines`): what the player typed, what the others were shown."""

    match_id: str


class SeatName(TypedDict):
    seat: int
    name: str | None
    player: int | None


class ReportContext(TypedDict):
    """What a report keeps of the moment it was made: the names, and at a match its seats and
    the chat around the reported line."""

    reported_name: str
    reporter_name: str
    line_at: float | None
    mode: NotRequired[Mode]
    names: NotRequired[list[SeatName]]
    chat: NotRequired[list[ContextLine]]


class OwnReport(TypedDict):
    """A report as its reporter sees it: whom, why, its state; never its context."""

    id: int
    reported: str
    reason: str
    status: str
    match_id: str | None
    created_at: float
    updated_at: float
    reason_text: str
    match: str | None


class Named(TypedDict):
    id: int
    name: str


class QueueGroup(TypedDict):
    """The open reports on one player, for moderators: their ids, and how many per reason."""

    player: Named
    oldest_at: float
    reports: list[int]
    reasons: dict[str, int]


class ReportRow(TypedDict):
    """A row of `reports`, with the names of who reported and who was reported."""

    id: int
    reporter_id: int
    reported_id: int
    reason: str
    comment: str | None
    match_id: str | None
    context: ReportContext
    status: str
    outcome: str | None
    count: int
    created_at: float
    updated_at: float
    reporter: str | None
    reported: str | None
    reason_text: str


class SanctionRow(TypedDict):
    """A row of `sanctions`."""

    id: int
    player_id: int
    kind: str  # warn | chat_mute | ranked_ban | queue_ban | rename | close
    reason: str
    by_id: int | None
    report_id: int | None
    created_at: float
    until: float | None
    lifted_at: float | None
    lifted_by: int | None


class LogLine(TypedDict):
    """A line of the audit log, with the names of who acted and on whom."""

    id: int
    at: float
    action: str
    reason: str
    report_id: int | None
    sanction_id: int | None
    actor: str | None
    target: str | None


class RatingChange(TypedDict):
    match: str
    mode: Mode
    ruleset: str
    finished_at: float | None
    rating_before: float | None
    rating_after: float | None


class History(TypedDict):
    """What a moderator weighs of a player."""

    reports_received: dict[str, int]
    linked_accounts: list[str]  # seen at one of its addresses or devices
    matches: int
    abandons: int
    abandon_rate: float
    ladder_step: int
    sanctions: list[SanctionRow]
    rating_changes: list[RatingChange]
    fair_play: list[Signal]  # agreement with the expert per ruleset, against the population


def _insert(conn: Connection, table: sa.Table, **values: Any) -> int:
    key = conn.execute(table.insert().values(**values)).inserted_primary_key
    assert key is not None  # an insert's
    return int(key[0])


# ---------------------------------------------------------------------- chat lines

def add_chat_lines(conn: Connection, lines: list[ChatLine]) -> None:
    if lines:
        conn.execute(db.chat_lines.insert(), lines)


def chat_around(conn: Connection, match_id: str, at: float | None = None,
                before: int = 20, after: int = 5) -> list[ContextLine]:
    """The match's chat lines up to `at` (None: the last ones), and a few after it."""
    c = db.chat_lines.c
    cols = (c.seat, c.player_id, c.name, c.text, c.shown, c.at)
    upto = at if at is not None else time.time()
    early = conn.execute(sa.select(*cols).where(c.match_id == match_id, c.at <= upto)
                         .order_by(c.at.desc(), c.id.desc()).limit(before)).mappings().all()
    late = conn.execute(sa.select(*cols).where(c.match_id == match_id, c.at > upto)
                        .order_by(c.at, c.id).limit(after)).mappings().all() if at else []
    return [cast(ContextLine, dict(r)) for r in reversed(early)] + \
        [cast(ContextLine, dict(r)) for r in late]


# ---------------------------------------------------------------------- reports

def name_of(conn: Connection, player_id: int) -> str | None:
    found = conn.execute(sa.select(db.players.c.name)
                         .where(db.players.c.id == player_id)).scalar()
    return None if found is None else str(found)


def recent_reports(conn: Connection, reporter_id: int, since: float) -> int:
    """Reports a player made since then, a merged duplicate counting as one more."""
    r = db.reports.c
    return int(conn.execute(sa.select(sa.func.sum(r.count)).where(
        r.reporter_id == reporter_id, r.updated_at > since)).scalar() or 0)


def merge_or_add_report(conn: Connection, reporter_id: int, reported_id: int, reason: str,
                        comment: str | None, match_id: str | None,
                        context: ReportContext) -> tuple[int, bool]:
    """A new report, or the same reporter's open one on the same player, match and reason
    with this one merged into it (its count raised, a new comment added). (id, merged)."""
    r = db.reports.c
    now = time.time()
    same = conn.execute(sa.select(r.id, r.comment).where(
        r.reporter_id == reporter_id, r.reported_id == reported_id, r.reason == reason,
        r.status == RECEIVED,
        r.match_id.is_(None) if match_id is None else r.match_id == match_id)).first()
    if same is not None:
        joined = same.comment
        if comment and comment != same.comment:
            joined = f"{same.comment}\n{comment}" if same.comment else comment
        conn.execute(db.reports.update().where(r.id == same.id).values(
            count=r.count + 1, updated_at=now, comment=(joined or None) and joined[-500:]))
        return int(same.id), True
    made = _insert(conn, db.reports, reporter_id=reporter_id, reported_id=reported_id,
                   reason=reason, comment=comment, match_id=match_id, context=context,
                   status=RECEIVED, created_at=now, updated_at=now)
    return made, False


def reports_by(conn: Connection, reporter_id: int, limit: int = 50) -> list[OwnReport]:
    """A reporter's own reports, newest first: whom, why, their state; never the context."""
    r, p = db.reports.c, db.players.c
    rows = conn.execute(
        sa.select(r.id, p.name.label("reported"), r.reason, r.status, r.match_id,
                  r.created_at, r.updated_at)
        .join(db.players, p.id == r.reported_id).where(r.reporter_id == reporter_id)
        .order_by(r.id.desc()).limit(limit)).mappings()
    return [cast(OwnReport, {**dict(x), "reason_text": REASONS.get(x["reason"], x["reason"]),
                             "match": x["match_id"]}) for x in rows]


def queue(conn: Connection, limit: int = 100) -> list[QueueGroup]:
    """Open reports grouped by the reported player, the group whose oldest report is oldest
    first."""
    r, p = db.reports.c, db.players.c
    rows = conn.execute(
        sa.select(r.id, r.reported_id, p.name, r.reason, r.created_at, r.count)
        .join(db.players, p.id == r.reported_id).where(r.status == RECEIVED)
        .order_by(r.created_at, r.id)).mappings().all()
    groups: dict[int, QueueGroup] = {}
    for x in rows:
        g = groups.setdefault(x["reported_id"], {
            "player": {"id": x["reported_id"], "name": x["name"]}, "oldest_at": x["created_at"],
            "reports": [], "reasons": {}})
        g["reports"].append(x["id"])
        g["reasons"][x["reason"]] = g["reasons"].get(x["reason"], 0) + x["count"]
    return list(groups.values())[:limit]


def report(conn: Connection, report_id: int) -> ReportRow | None:
    r = db.reports.c
    row = conn.execute(sa.select(db.reports).where(r.id == report_id)).mappings().first()
    if row is None:
        return None
    out = dict(row)
    out["reporter"] = name_of(conn, row["reporter_id"])
    out["reported"] = name_of(conn, row["reported_id"])
    out["reason_text"] = REASONS.get(row["reason"], row["reason"])
    return cast(ReportRow, out)


def close_reports(conn: Connection, reported_id: int, outcome: str) -> list[int]:
    """Every open report on the player is analysed now, with the action taken."""
    r = db.reports.c
    ids = [int(i) for i in conn.execute(sa.select(r.id).where(
        r.reported_id == reported_id, r.status == RECEIVED)).scalars()]
    if ids:
        conn.execute(db.reports.update().where(r.id.in_(ids)).values(
            status=ANALYSED, outcome=outcome, updated_at=time.time()))
    return ids


# ---------------------------------------------------------------------- sanctions and the log

def add_sanction(conn: Connection, player_id: int, kind: str, reason: str,
                 by_id: int | None, until: float | None,
                 report_id: int | None = None) -> int:
    return _insert(conn, db.sanctions, player_id=player_id, kind=kind, reason=reason[:300],
                   by_id=by_id, report_id=report_id, created_at=time.time(), until=until)


def in_force(now: float) -> Any:
    s = db.sanctions.c
    return sa.and_(s.lifted_at.is_(None), sa.or_(s.until.is_(None), s.until > now))


def sanctions_of(conn: Connection, player_id: int, active_only: bool = False
                 ) -> list[SanctionRow]:
    s = db.sanctions.c
    query = sa.select(db.sanctions).where(s.player_id == player_id)
    if active_only:
        query = query.where(in_force(time.time()))
    return [cast(SanctionRow, dict(x))
            for x in conn.execute(query.order_by(s.id.desc()).limit(100)).mappings()]


def sanction(conn: Connection, sanction_id: int) -> SanctionRow | None:
    row = conn.execute(sa.select(db.sanctions).where(db.sanctions.c.id == sanction_id)
                       ).mappings().first()
    return cast(SanctionRow, dict(row)) if row else None


def lift(conn: Connection, sanction_id: int, by_id: int | None) -> bool:
    s = db.sanctions.c
    done = conn.execute(db.sanctions.update().where(s.id == sanction_id, s.lifted_at.is_(None))
                        .values(lifted_at=time.time(), lifted_by=by_id))
    return bool(done.rowcount)


def active_timed(conn: Connection, kinds: tuple[str, ...]) -> dict[int, dict[str, float]]:
    """Player → kind → until, for the timed sanctions of `kinds` in force now (the latest end
    when several overlap)."""
    s = db.sanctions.c
    out: dict[int, dict[str, float]] = {}
    for pid, kind, until in conn.execute(sa.select(s.player_id, s.kind, s.until).where(
            s.kind.in_(kinds), in_force(time.time()), s.until.is_not(None))):
        mine = out.setdefault(int(pid), {})
        mine[kind] = max(mine.get(kind, 0.0), float(until))
    return out


def write_log(conn: Connection, actor_id: int | None, action: str, target_id: int | None,
              reason: str, report_id: int | None = None,
              sanction_id: int | None = None) -> int:
    return _insert(conn, db.moderation_log, actor_id=actor_id, at=time.time(), action=action,
                   target_id=target_id, report_id=report_id, sanction_id=sanction_id,
                   reason=reason[:300])


def read_log(conn: Connection, limit: int = 100, before: int | None = None
             ) -> list[LogLine]:
    """The audit log, newest first, with the names of who acted and on whom."""
    g = db.moderation_log.c
    actor, target = db.players.alias("actor"), db.players.alias("target")
    query = (sa.select(g.id, g.at, g.action, g.reason, g.report_id, g.sanction_id,
                       actor.c.name.label("actor"), target.c.name.label("target"))
             .select_from(db.moderation_log.outerjoin(actor, actor.c.id == g.actor_id)
                          .outerjoin(target, target.c.id == g.target_id))
             .order_by(g.id.desc()).limit(limit))
    if before is not None:
        query = query.where(g.id < before)
    return [cast(LogLine, dict(x)) for x in conn.execute(query).mappings()]


# ---------------------------------------------------------------------- a player's history

def history(conn: Connection, player_id: int, fair_play: list[Signal]) -> History:
    """What a moderator weighs: reports received (by reason), abandonments against matches
    played, sanctions, the last rating changes, the accounts seen at the same address or device
    (`player_marks`), and the fair-play signal (`fair_play`, read by `FairPlay.signals`)."""
    r, pt, m = db.reports.c, db.participants.c, db.matches.c
    received = {str(k): int(n) for k, n in conn.execute(
        sa.select(r.reason, sa.func.sum(r.count)).where(r.reported_id == player_id)
        .group_by(r.reason))}
    played = int(conn.execute(sa.select(sa.func.count()).where(
        pt.player_id == player_id)).scalar() or 0)
    ladder = conn.execute(sa.select(db.abandon_ladder).where(
        db.abandon_ladder.c.player_id == player_id)).mappings().first()
    abandons = int(ladder["abandons"]) if ladder else 0
    changes = [cast(RatingChange, dict(x)) for x in conn.execute(
        sa.select(m.id.label("match"), m.mode, m.ruleset, m.finished_at, pt.rating_before,
                  pt.rating_after)
        .join(db.matches, m.id == pt.match_id)
        .where(pt.player_id == player_id, pt.rating_after.is_not(None))
        .order_by(m.finished_at.desc()).limit(20)).mappings()]
    pm, p = db.player_marks.c, db.players.c
    linked = sorted(str(n) for n in conn.execute(
        sa.select(p.name).distinct().join(db.player_marks, pm.player_id == p.id)
        .where(pm.mark.in_(sa.select(pm.mark).where(pm.player_id == player_id)),
               pm.player_id != player_id).limit(20)).scalars())
    return {
        "reports_received": received,
        "linked_accounts": linked,  # seen at one of its addresses or devices
        "matches": played,
        "abandons": abandons,
        "abandon_rate": round(abandons / played, 3) if played else 0.0,
        "ladder_step": int(ladder["step"]) if ladder else 0,
        "sanctions": sanctions_of(conn, player_id),
        "rating_changes": changes,
        "fair_play": fair_play,
    }


# ---------------------------------------------------------------------- the abandonment ladder

def ladder_step(conn: Connection, player_id: int, abandoned: bool, reset_after: int
                ) -> int | None:
    """Count a finished match of the player's: an abandonment climbs the ladder (returns the
    step reached, from 1); `reset_after` clean matches in a row bring it back to 0 (None)."""
    a = db.abandon_ladder.c
    row = conn.execute(sa.select(db.abandon_ladder).where(a.player_id == player_id)
                       ).mappings().first()
    step, clean, total = (row["step"], row["clean"], row["abandons"]) if row else (0, 0, 0)
    if abandoned:
        step, clean, total = step + 1, 0, total + 1
    else:
        clean += 1
        if clean >= reset_after:
            step, clean = 0, 0
    values = {"step": step, "clean": clean, "abandons": total, "updated_at": time.time()}
    if row is None:
        conn.execute(db.abandon_ladder.insert().values(player_id=player_id, **values))
    else:
        conn.execute(db.abandon_ladder.update().where(a.player_id == player_id).values(**values))
    return step if abandoned else None
