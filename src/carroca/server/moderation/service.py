"""Moderation as the server runs it: reports made with their context, moderators' actions and
their audit log, sanctions enforced (a muted player's chat, a banned player's queue), the word
filter on chat, the abandonment ladder (a listener of every table's end) and the fair-play
signal in a reported player's history (`fairplay`).

Timed sanctions are kept in memory for the chat's path (a chat line is checked without a
database round trip) and read again every few seconds, so a moderator's action on any node is
in force everywhere within that time, and at once on the node that took it."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Coroutine
from datetime import datetime, timedelta, timezone
from functools import partial
from typing import TYPE_CHECKING, Any, TypedDict

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from carroca.server import records
from carroca.server.errors import MatchNotFound
from carroca.server.moderation import rows
from carroca.server.moderation.errors import (
    BadAction,
    BadReport,
    ChatMuted,
    ModeratorTarget,
    NoSuchReport,
    NoSuchSanction,
    Sanctioned,
    TooManyReports,
)
from carroca.server.moderation.fairplay import FairPlay
from carroca.server.players.words import word_list
from carroca.server.realtime import protocol, wire
from carroca.server.realtime.fanout import Fanout, player_channel
from carroca.server.settings import Settings
from carroca.server.storage import admin, db
from carroca.server.storage.names import lookalike_keys
from carroca.server.storage.store import poll
from carroca.server.tables.chat import clean_text


class Reported(TypedDict):
    """A report made: its id, its state, whether it joined the reporter's open one."""

    id: int
    status: str
    merged: bool


class ReportView(rows.ReportRow):
    """A report as a moderator reads it: with the player's history and their other open
    reports (a report at a match: `ReportAtMatch`)."""

    history: rows.History
    others: list[rows.QueueGroup]


class ReportAtMatch(ReportView):
    replay: str  # the match's replay page


class Acted(TypedDict):
    """A moderator's decision done: on whom, the sanction written, the reports closed."""

    player: int
    sanction: int | None
    reports: list[int]


class ActAnswer(Acted):
    until: float | None


class Lifted(TypedDict):
    id: int
    lifted: bool


class SanctionNotice(TypedDict):
    """A sanction in force, as its player is told it."""

    id: int
    kind: str
    until: float | None
    at: float
    reason: str
    text: str


if TYPE_CHECKING:
    from carroca.server.players.accounts import Accounts
    from carroca.server.storage.store import Store
    from carroca.server.tables.table import Table

BRASILIA = timezone(timedelta(hours=-3), "Brasília")  # no daylight saving since 2019
LIVE = ("waiting", "playing")
ACTIONS = ("dismiss", "warn", "mute", "ranked_ban", "rename", "close")
KIND_OF = {"warn": "warn", "mute": "chat_mute", "ranked_ban": "ranked_ban",
           "rename": "rename", "close": "close"}
NOTICE_DAYS = 7.0  # a warning or a rename is shown to the player this long
MAX_DAYS = 365
CHAT_KINDS = ("chat_mute",)
QUEUE_KINDS = ("chat_mute", "ranked_ban", "queue_ban")
#: The matches on the abandonment ladder: a friends' table only with another person at it (one
#: person with bots is practice: leaving it keeps nobody waiting), never a bots' match.
LADDER_MODES = ("casual", "ranked", "friends", "tournament")


def when(at: float) -> str:
    """A moment as players read it: "08/12 às 14:05" (Brasília time)."""
    return datetime.fromtimestamp(at, BRASILIA).strftime("%d/%m às %H:%M")


def notice_text(kind: str, until: float | None, reason: str) -> str:
    """What the sanctioned player reads, in pt-BR."""
    end = f" até {when(until)}" if until is not None else ""
    text = {
        "warn": "Você recebeu uma advertência da moderação",
        "chat_mute": f"Seu chat está suspenso{end}",
        "ranked_ban": f"Você está suspenso das partidas ranqueadas{end}",
        "queue_ban": f"Por abandonar partidas, você não pode entrar na fila{end}",
        "rename": "Seu apelido foi trocado pela moderação",
        "close": "Sua conta foi encerrada pela moderação",
    }.get(kind, "Sanção da moderação")
    return f"{text}. Motivo: {reason}" if reason else f"{text}."


class Moderation:
    """Reports, sanctions and their enforcement on this node."""

    def __init__(self, store: Store, settings: Settings, fanout: Fanout,
                 accounts: Accounts | None = None, fairplay: FairPlay | None = None) -> None:
        self._store, self._settings, self._fanout = store, settings, fanout
        self._accounts = accounts
        self.fairplay = fairplay
        self.words = word_list(settings.chat_filter_file)
        self._timed: dict[int, dict[str, float]] = {}
        self._lines: list[rows.ChatLine] = []
        self._writing: asyncio.Task[None] | None = None
        self._hits: dict[int, deque[float]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.ladder = [float(m) * 60 for m in settings.abandon_ban_minutes.split(",")
                       if m.strip()]

    # ------------------------------------------------------------------ upkeep

    async def run(self) -> None:
        await poll(self._settings.operator_poll_seconds, self.refresh)

    async def refresh(self) -> None:
        """Read the timed sanctions in force again (those of every node's moderators)."""
        self._timed = await self._store.run_side(
            lambda conn: rows.active_timed(conn, QUEUE_KINDS), track=False)

    async def settle(self) -> None:
        """Every table's end heard so far counted (the ladder, the fair play's due matches) and
        every sanction of the server's own written: a clean stop waits for them."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _until(self, player_id: int, kind: str) -> float | None:
        until = self._timed.get(player_id, {}).get(kind)
        return until if until is not None and until > time.time() else None

    def _hold(self, player_id: int, kind: str, until: float) -> None:
        mine = self._timed.setdefault(player_id, {})
        mine[kind] = max(mine.get(kind, 0.0), until)

    # ------------------------------------------------------------------ chat

    def chat_gate(self, player_id: int, text: str) -> tuple[str | None, str]:
        """Before a chat line goes out: (an error frame when the player is muted, the text
        others are shown: the filter's words masked). Repeated hits mute the player a while."""
        until = self._until(player_id, "chat_mute")
        if until is not None:
            return protocol.refusal(ChatMuted(when(until))), text
        if not self._settings.chat_filter:
            return None, text
        shown, hits = self.words.mask(text)
        if hits:
            self._count_hits(player_id)
        return None, shown

    def _count_hits(self, player_id: int) -> None:
        settings = self._settings
        now = time.time()
        window = settings.chat_filter_window_minutes * 60
        times = self._hits.setdefault(player_id, deque())
        while times and now - times[0] > window:
            times.popleft()
        times.append(now)
        if len(times) < settings.chat_filter_hits:
            return
        times.clear()
        until = now + settings.chat_filter_mute_minutes * 60
        self._hold(player_id, "chat_mute", until)
        reason = "palavras ofensivas repetidas no chat"
        self._spawn(self._sanction_alone(player_id, "chat_mute", until, reason, "auto_mute"))

    async def _sanction_alone(self, player_id: int, kind: str, until: float, reason: str,
                              action: str) -> None:
        """A sanction of the server's own (no moderator), logged like a moderator's."""
        def fn(conn: Connection) -> None:
            sid = rows.add_sanction(conn, player_id, kind, reason, None, until)
            rows.write_log(conn, None, action, player_id, reason, sanction_id=sid)

        await self._store.run_side(fn)
        self._tell(player_id, kind, until, reason)

    def keep_line(self, match_id: str, seat: int, player: records.Player, text: str,
                  shown: str) -> None:
        """Keep a published chat line, off the moves' path: lines are written together, a
        batch at a time, by a task of their own."""
        fold = " ".join(clean_text(text).split())[:400]
        self._lines.append({"match_id": match_id, "seat": seat, "player_id": player["id"],
                            "name": player["name"], "text": fold,
                            "shown": " ".join(clean_text(shown).split())[:400],
                            "at": time.time()})
        if self._writing is None:
            self._writing = asyncio.get_running_loop().create_task(self._write_lines())

    async def _write_lines(self) -> None:
        try:
            while self._lines:
                batch, self._lines = self._lines, []
                with contextlib.suppress(Exception):  # an outage: those lines are lost
                    await self._store.run_side(partial(rows.add_chat_lines, lines=batch))
        finally:
            self._writing = None

    async def flush(self) -> None:
        """Every chat line kept so far is stored (a report's context reads them)."""
        while self._writing is not None:
            await asyncio.shield(self._writing)

    # ------------------------------------------------------------------ queues

    def check_queue(self, player_id: int, mode: str) -> None:
        """`Sanctioned` when the player may not queue for `mode` (ranked or casual) now."""
        kinds = ("ranked_ban", "queue_ban") if mode == "ranked" else ("queue_ban",)
        for kind in kinds:
            until = self._until(player_id, kind)
            if until is not None:
                raise Sanctioned(message=notice_text(kind, until, "").rstrip("."))

    # ------------------------------------------------------------------ abandonment

    def table_finished(self, table: Table) -> None:
        """A finished match on the ladder (`LADDER_MODES`) climbs the ladder of the player who
        abandoned it and counts as clean for the others; a ranked one's decisions are due for
        the fair-play signal."""
        match = table.match
        if match is None or match.result is None:
            return
        bots_ladder = any(s is not None and s.get("bot_account") for s in table.seats)
        if table.mode == "ranked" and self.fairplay is not None and not bots_ladder:
            self._spawn(self.fairplay.ended(table.id))  # people's decisions only
        people = table.humans()
        if table.mode not in LADDER_MODES or (table.mode == "friends" and len(people) < 2):
            return
        quitter = None
        if match.result.reason == "abandon" and match.history:
            quitter = match.history[-1].end.seat
            if quitter in table.resigned:  # the Bot API's resignation: a loss, not a desertion
                quitter = None
        for seat, pid in people:
            self._spawn(self.count_match(pid, seat == quitter, table.id))

    def table_expired(self, table: Table) -> None:
        """A tournament's table closed unplayed at its show-up time: each player of a side none
        of whose players came abandoned it (the others played nothing: not counted)."""
        if table.mode != "tournament" or not table.absent:
            return
        for seat, pid in table.humans():
            if seat % 2 in table.absent:
                self._spawn(self.count_match(pid, True, table.id))

    async def count_match(self, player_id: int, abandoned: bool, match_id: str) -> None:
        """One finished match of the player's on the ladder: an abandonment bans them from the
        queues for the next step's time; clean matches in a row bring it back to the start."""
        settings = self._settings

        def fn(conn: Connection) -> tuple[int | None, float | None]:
            step = rows.ladder_step(conn, player_id, abandoned, settings.abandon_reset_matches)
            if step is None or not self.ladder:
                return step, None
            until = time.time() + self.ladder[min(step, len(self.ladder)) - 1]
            reason = f"abandono de partida ({step}º seguido sem partidas limpas entre eles)"
            sid = rows.add_sanction(conn, player_id, "queue_ban", reason, None, until)
            rows.write_log(conn, None, "queue_ban", player_id, reason, sanction_id=sid)
            return step, until

        with contextlib.suppress(Exception):  # an outage: this end is not counted
            _, until = await self._store.run_side(fn)
            if until is not None:
                self._hold(player_id, "queue_ban", until)
                self._tell(player_id, "queue_ban", until, "abandono de partida", match_id)

    # ------------------------------------------------------------------ reports

    async def report(self, reporter: records.Player, reported: str, reason: str,
                     comment: str | None, match_id: str | None, line_at: float | None
                     ) -> Reported:
        """A player's report, with its context taken now; merged into the same reporter's
        open one on the same player, match and reason."""
        if reason not in rows.REASONS:
            raise BadReport(message="Escolha um motivo da lista.")
        comment = " ".join(clean_text(comment or "").split())[:500] or None
        await self.flush()
        settings = self._settings

        def fn(conn: Connection) -> tuple[int, bool]:
            p = db.players.c
            target = conn.execute(sa.select(p.id, p.name).where(
                p.name_key == reported.strip().casefold())).first()
            if target is None:
                raise BadReport(message="Jogador não encontrado.")
            if target.id == reporter["id"]:
                raise BadReport(message="Você não pode denunciar a si mesmo.")
            if rows.recent_reports(conn, reporter["id"], time.time() - 3600) >= \
                    settings.reports_per_hour:
                raise TooManyReports
            context: rows.ReportContext = {"reported_name": target.name,
                                           "reporter_name": reporter["name"],
                                           "line_at": line_at}
            if match_id is not None:
                m = db.matches.c
                row = conn.execute(sa.select(m.seats, m.private, m.status, m.mode)
                                   .where(m.id == match_id)).first()
                seats: list[records.Seat | None] = row.seats if row else []
                ids = {pid for pid in map(records.seated_player, seats) if pid is not None}
                if row is None or (row.private and row.status not in LIVE
                                   and reporter["id"] not in ids):
                    raise MatchNotFound
                if target.id not in ids:
                    raise BadReport(message="Esse jogador não jogou nesta partida.")
                context["mode"] = row.mode
                context["names"] = [{"seat": i, "name": s["name"] if s else None,
                                     "player": records.seated_player(s)}
                                    for i, s in enumerate(seats)]
                context["chat"] = rows.chat_around(conn, match_id, line_at)
            return rows.merge_or_add_report(conn, reporter["id"], target.id, reason, comment,
                                            match_id, context)

        report_id, merged = await self._store.run_side(fn)
        return {"id": report_id, "status": rows.RECEIVED, "merged": merged}

    async def reports_by(self, player_id: int) -> list[rows.OwnReport]:
        return await self._store.run_side(lambda conn: rows.reports_by(conn, player_id))

    # ------------------------------------------------------------------ moderators

    async def is_moderator(self, player_id: int) -> bool:
        roles = await self._store.run_side(lambda conn: admin.roles_of(conn, player_id))
        return "moderator" in roles

    async def queue(self) -> list[rows.QueueGroup]:
        return await self._store.run_side(rows.queue)

    async def report_view(self, report_id: int) -> ReportView:
        def fn(conn: Connection) -> ReportView | None:
            found = rows.report(conn, report_id)
            if found is None:
                return None
            pid = int(found["reported_id"])
            fair = self.fairplay.signals(conn, pid) if self.fairplay is not None else []
            return {**found, "history": rows.history(conn, pid, fair),
                    "others": [r for r in rows.queue(conn)
                               if r["player"]["id"] == found["reported_id"]]}

        found = await self._store.run_side(fn)
        if found is None:
            raise NoSuchReport
        if self.fairplay is not None:  # their ranked matches are reviewed first from now on
            self.fairplay.want(int(found["reported_id"]))
        if found["match_id"]:
            return ReportAtMatch({**found, "replay": f"/replay.html?id={found['match_id']}"})
        return found

    async def act(self, moderator: records.Player, report_id: int, action: str,
                  reason: str, days: float | None) -> ActAnswer:
        """A moderator's decision on a report's player: every open report on them is
        analysed, the sanction (if any) written, and the action logged, in one transaction."""
        reason = " ".join(reason.split())
        if action not in ACTIONS:
            raise BadAction(message="Ação desconhecida.")
        if not reason:
            raise BadAction(message="Diga o motivo da decisão.")
        timed = action in ("mute", "ranked_ban")
        if timed and (days is None or not 0 < days <= MAX_DAYS):
            raise BadAction(message=f"Diga por quantos dias (de 1 a {MAX_DAYS}).")
        now = time.time()
        kind = KIND_OF.get(action)
        until = now + days * 86400 if timed and days is not None else \
            now + NOTICE_DAYS * 86400 if kind in ("warn", "rename") else None

        def fn(conn: Connection) -> Acted:
            found = rows.report(conn, report_id)
            if found is None:
                raise NoSuchReport
            target = int(found["reported_id"])
            if target == moderator["id"] or "moderator" in admin.roles_of(conn, target):
                raise ModeratorTarget
            sid = None
            if kind is not None:
                sid = rows.add_sanction(conn, target, kind, reason, moderator["id"], until,
                                        report_id)
            if action == "rename":
                rename(conn, target)
            elif action == "close":
                close(conn, target, reason)
            closed = rows.close_reports(conn, target, action)
            rows.write_log(conn, moderator["id"], action, target, reason, report_id, sid)
            return {"player": target, "sanction": sid, "reports": closed}

        done = await self._store.run_side(fn)
        target = done["player"]
        if kind is not None:
            if kind in QUEUE_KINDS and until is not None:
                self._hold(target, kind, until)
            self._tell(target, kind, until, reason)
        if action in ("rename", "close") and self._accounts is not None:
            self._accounts.drop_cached({target})
        return {**done, "until": until}

    async def lift(self, moderator: records.Player, sanction_id: int, reason: str
                   ) -> Lifted:
        reason = " ".join(reason.split())
        if not reason:
            raise BadAction(message="Diga o motivo de encerrar a sanção.")

        def fn(conn: Connection) -> rows.SanctionRow:
            found = rows.sanction(conn, sanction_id)
            if found is None or found["lifted_at"] is not None:
                raise NoSuchSanction
            target = int(found["player_id"])
            if target == moderator["id"] or "moderator" in admin.roles_of(conn, target):
                raise ModeratorTarget
            rows.lift(conn, sanction_id, moderator["id"])
            if found["kind"] == "close":
                conn.execute(db.players.update().where(db.players.c.id == target)
                             .values(closed_at=None, closed_reason=None))
            rows.write_log(conn, moderator["id"], "lift", target, reason,
                           found["report_id"], sanction_id)
            return found

        found = await self._store.run_side(fn)
        await self.refresh()  # the lifted one is out of force here at once
        self._fanout.publish(player_channel(int(found["player_id"])), wire.frame(wire.Notice(
            match="", code="sanction_lifted", message="Uma sanção sua foi encerrada.")))
        return {"id": sanction_id, "lifted": True}

    async def audit(self, before: int | None = None) -> list[rows.LogLine]:
        return await self._store.run_side(lambda conn: rows.read_log(conn, 100, before))

    # ------------------------------------------------------------------ the player's side

    async def notices(self, player_id: int) -> list[SanctionNotice]:
        """The sanctions in force on the player, as they are shown to them."""
        found = await self._store.run_side(
            lambda conn: rows.sanctions_of(conn, player_id, active_only=True))
        return [{"id": s["id"], "kind": s["kind"], "until": s["until"],
                 "at": s["created_at"], "reason": s["reason"],
                 "text": notice_text(s["kind"], s["until"] if s["kind"] in rows.TIMED
                                     else None, s["reason"])}
                for s in found]

    def _tell(self, player_id: int, kind: str, until: float | None, reason: str,
              match_id: str = "") -> None:
        """The player's open pages hear of it at once (the lobby and the table)."""
        text = notice_text(kind, until if kind in rows.TIMED else None, reason)
        self._fanout.publish(player_channel(player_id), wire.frame(wire.Notice(
            match=match_id, code="sanction", message=text)))


def rename(conn: Connection, player_id: int) -> str:
    """A forced rename: the player is "Jogador<id>" from now on (free by construction: a
    player's own id; a taken one gets a letter more)."""
    p = db.players.c
    name = f"Jogador{player_id}"
    while conn.execute(sa.select(p.id).where(p.name_key == name.casefold(),
                                             p.id != player_id)).first() is not None:
        name += "x"
    typed, folded = lookalike_keys(name)
    conn.execute(db.players.update().where(p.id == player_id).values(
        name=name, name_key=name.casefold(), name_skeleton=typed,
        name_skeleton_folded=folded))
    return name


def close(conn: Connection, player_id: int, reason: str) -> None:
    """Close the account as `carroca admin close` does: no sign-in, its sessions gone (its
    sockets end within seconds, `players.closing`)."""
    conn.execute(db.players.update().where(db.players.c.id == player_id)
                 .values(closed_at=time.time(), closed_reason=reason[:200]))
    conn.execute(db.sessions.delete().where(db.sessions.c.player_id == player_id))
    conn.execute(db.devices.delete().where(db.devices.c.player_id == player_id))
