"""The database schema (SQLAlchemy Core) and the engine set-up for SQLite and PostgreSQL.

Tables are Core objects, not ORM classes: the server writes small rows at a high rate and reads
them back in bulk, and Core keeps that path short. Alembic migrations (`migrations/`) create and
evolve the schema; `migrate` runs them at start.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from carroca.server.storage.names import KEY_MAX

if TYPE_CHECKING:
    from alembic.config import Config

metadata = sa.MetaData()

players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(24), nullable=False),
    # casefolded: may be longer than the name ("ß" folds to "ss")
    sa.Column("name_key", sa.String(64), nullable=False, unique=True),
    sa.Column("kind", sa.String(10), nullable=False),  # guest | account | bot | deleted
    sa.Column("password_hash", sa.String(200)),
    sa.Column("created_at", sa.Float, nullable=False),
    # sha256 of a guest's secret key (kept by their browser): signs the same guest in again
    sa.Column("guest_key_hash", sa.String(64)),
    # The look-alike keys (`names.lookalike_keys`: the confusable skeleton of the name, and of
    # its case fold), each one player's. A player older than that rule whose name looks like an
    # earlier player's holds their own id in `skeleton_twin` (everyone else 0): both keep it.
    sa.Column("name_skeleton", sa.String(KEY_MAX), nullable=False),
    sa.Column("name_skeleton_folded", sa.String(KEY_MAX), nullable=False),
    sa.Column("skeleton_twin", sa.Integer, nullable=False, server_default="0"),
    # Closed by an operator (`carroca admin close`): no sign-in, no session (0013).
    sa.Column("closed_at", sa.Float),
    sa.Column("closed_reason", sa.String(200)),
    sa.Index("ix_players_name_skeleton", "name_skeleton", "skeleton_twin", unique=True),
    sa.Index("ix_players_name_skeleton_folded", "name_skeleton_folded", "skeleton_twin",
             unique=True),
)


def _tokens(name: str) -> sa.Table:
    """A table of cookies given to players, each kept by its sha256 until it expires."""
    return sa.Table(
        name,
        metadata,
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False,
                  index=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )


sessions = _tokens("sessions")
# A browser that signed in to an account gets a device cookie; its sha256 is kept here, so a
# known device may still try when the account's failed-login limit is reached (OWASP's "device
# cookies": an attacker cannot lock the owner out).
devices = _tokens("devices")

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("mode", sa.String(10), nullable=False),  # casual | ranked | friends | bots
    sa.Column("ruleset", sa.String(20), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),  # per seat: {"player": id, "name"} | {"bot"}
    sa.Column("status", sa.String(10), nullable=False, index=True),  # waiting|playing|finished
    sa.Column("turn_seconds", sa.Float, nullable=False),
    sa.Column("bot_level", sa.String(10), nullable=False),
    sa.Column("invite", sa.String(16), unique=True),
    sa.Column("host_id", sa.Integer, sa.ForeignKey("players.id")),
    sa.Column("server_seed", sa.String(64), nullable=False),
    sa.Column("commitment", sa.String(64), nullable=False),
    sa.Column("client_seeds", sa.JSON, nullable=False),  # per seat, None until fixed
    sa.Column("client_seed", sa.String(400)),  # the joined seed, fixed before the first deal
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("started_at", sa.Float),
    sa.Column("finished_at", sa.Float),
    sa.Column("score", sa.JSON),
    sa.Column("result", sa.JSON),
    sa.Column("record", sa.Text),  # the full record (record.md), written at the end
    sa.Column("analysis", sa.Text),  # carroca-analysis/1 JSON, produced on request
    # Several nodes: the node (incarnation) running the match, and its fencing epoch, raised
    # at every takeover; a move or an update is stored only under the epoch its writer holds.
    sa.Column("owner", sa.String(40), index=True),
    sa.Column("epoch", sa.Integer, nullable=False, server_default="0"),
    # A friends' match is its players' only (record, replay, review, the public lists) until
    # its host makes it public; every other match is public.
    sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
    # A tournament's table: when its players must have come (whichever node runs it keeps it),
    # and the teams (0, 1) none of whose players came, when it closed unplayed for that.
    sa.Column("show_up_by", sa.Float),
    sa.Column("absent", sa.JSON),
    # Ended by an operator (`carroca admin end`), unfinished: why, as the players are told.
    sa.Column("ended_reason", sa.String(200)),
)

# A cluster's nodes, one row per process start: a node is alive while `lease_until` (the
# database's clock, epoch seconds) is in the future; it renews the lease every second or so.
nodes = sa.Table(
    "nodes",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("lease_until", sa.Float, nullable=False, index=True),
)

# Players waiting for a ranked match, shared by every node (taken with SKIP LOCKED).
ranked_queue = sa.Table(
    "ranked_queue",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("ruleset", sa.String(20), nullable=False, index=True),
    sa.Column("name", sa.String(24), nullable=False),
    sa.Column("seed", sa.String(200)),
    sa.Column("queued_at", sa.Float, nullable=False),
)

moves = sa.Table(
    "moves",
    metadata,
    sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),  # 0, 1, 2, … within the match
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(24), nullable=False),  # `str(Action)` or "abandon"
    sa.Column("auto", sa.Boolean, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("client_id", sa.Integer),  # the `id` of the player's `move` frame
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("family", sa.String(10), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("ordinal", sa.Float, nullable=False, index=True),
)

participants = sa.Table(
    "participants",
    metadata,
    sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("rating_before", sa.Float),
    sa.Column("rating_after", sa.Float),
    # What the player did in the match, for their profile (`players.stats`, 0023): null until
    # counted (matches stored before 0023 are counted by the node's upkeep, a few at a time).
    sa.Column("won", sa.Boolean),
    sa.Column("batidas", sa.Integer),
    sa.Column("galos", sa.Integer),
    sa.Column("capicus", sa.Integer),
)


# Tournaments (docs/tournaments.md): one row per event. `record` is the event record
# (carroca-event/1) as it stands, written after every change, without the seed while the event
# runs; the seed is kept apart in `seed` and revealed in the record at the end. A restart
# rebuilds a running event from the two (`carroca.tournament.replay`).
tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("format", sa.String(10), nullable=False),  # swiss | knockout | arena
    sa.Column("ruleset", sa.String(20), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),  # the ruleset's, resolved
    sa.Column("spec", sa.JSON, nullable=False),  # EventSpec.to_dict()
    # upcoming | running | finished | cancelled (fewer than two entrants at the start)
    sa.Column("status", sa.String(10), nullable=False, index=True),
    sa.Column("creator", sa.Integer, sa.ForeignKey("players.id")),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("starts_at", sa.Float, nullable=False),
    sa.Column("started_at", sa.Float),
    sa.Column("finished_at", sa.Float),
    sa.Column("turn_seconds", sa.Float, nullable=False),
    sa.Column("bots", sa.String(10)),  # a bot level filling the free places at the start
    sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("invite", sa.String(16), unique=True),  # a private event's registration code
    sa.Column("seed", sa.String(64), nullable=False),  # the event seed, secret until the end
    sa.Column("commitment", sa.String(64), nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    # Several nodes: the node running the event, and its fencing epoch, raised at every
    # takeover; the event's rows are written only under the epoch their writer holds (0011).
    sa.Column("owner", sa.String(40), index=True),
    sa.Column("epoch", sa.Integer, nullable=False, server_default="0"),
    # A recurring event (0012): its schedule entry and slot (`<date>T<HH:MM> <zone>`), one
    # event a slot whichever node makes it; a cancelled event's reason, in pt-BR; whether a
    # newcomer (a guest without finished matches) made it: theirs are few at a time.
    sa.Column("schedule_key", sa.String(40)),
    sa.Column("slot", sa.String(40)),
    sa.Column("note", sa.String(300)),
    sa.Column("by_newcomer", sa.Boolean, nullable=False, server_default=sa.false()),
    # Bot accounts (the Bot API) may enter: the creator's choice (0022).
    sa.Column("bot_accounts", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("ux_tournaments_schedule_slot", "schedule_key", "slot", unique=True),
)

# Who registered: an entrant is one player, or a dupla (two players; `partner_invite` while the
# second has not come yet). `players` holds [{"id", "name"}] in seat order within the side.
tournament_entries = sa.Table(
    "tournament_entries",
    metadata,
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"),
              primary_key=True),
    sa.Column("entrant", sa.String(60), primary_key=True),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("players", sa.JSON, nullable=False),
    sa.Column("partner_invite", sa.String(16), unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

# Each game of an event and the match that plays it (its table), by the director's key.
tournament_games = sa.Table(
    "tournament_games",
    metadata,
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"),
              primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("table_no", sa.Integer, primary_key=True),
    sa.Column("game", sa.Integer, primary_key=True),
    sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), nullable=False,
              unique=True),
)

# An event's log entries written after its stored record, by their place in the director's log
# (`seq`, from 0): an arena's waves append theirs instead of writing the whole record again; a
# rebuild replays the record, then the entries past its own log.
tournament_log = sa.Table(
    "tournament_log",
    metadata,
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"),
              primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("entry", sa.JSON, nullable=False),
)


# Roles an operator grants (`carroca admin role add NAME moderator`).
player_roles = sa.Table(
    "player_roles",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("role", sa.String(20), primary_key=True),
    sa.Column("granted_at", sa.Float, nullable=False),
)

# A message of the operator's, shown in the lobby and at tables while it lasts.
announcements = sa.Table(
    "announcements",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("text", sa.String(280), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float),
)

# Tables ended by an operator, in order: each node closes those it runs (`tables.ending`).
table_ends = sa.Table(
    "table_ends",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), nullable=False),
    sa.Column("reason", sa.String(200), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


# What ties accounts to one person for the ranked queue: a digest of an address they came from,
# or of a device cookie their browser held, with when it was last seen (kept `MARK_DAYS`).
player_marks = sa.Table(
    "player_marks",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("mark", sa.String(64), primary_key=True),
    sa.Column("seen_at", sa.Float, nullable=False),
    sa.Index("ix_player_marks_mark", "mark"),
)

# Friends (0018), one row per direction: `player_id` and `other_id` are both "friend" (two rows,
# so a player's friends are one indexed read), or `player_id` "requested" `other_id` (pending),
# or `player_id` "blocked" `other_id`. A request from someone its addressee blocked is kept (its
# sender sees it pending, as any other) but never shown to the addressee: blocking is silent.
friend_links = sa.Table(
    "friend_links",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("other_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("state", sa.String(10), nullable=False),  # friend | requested | blocked
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_friend_links_other_id", "other_id", "state"),
)

# Personal API tokens (0020): a program acts for its player with one (the Bot API). Only the
# token's SHA-256 is kept; `scopes` is space-separated; a revoked token stays listed, refused.
api_tokens = sa.Table(
    "api_tokens",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("label", sa.String(40), nullable=False),
    sa.Column("scopes", sa.String(200), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("used_at", sa.Float),
    sa.Column("revoked_at", sa.Float),
    sa.Index("ix_api_tokens_player_id", "player_id"),
)

# Moderation (docs/moderation.md). Chat lines as written (a report's context reads them), kept
# with the text others were shown when the filter masked a word.
chat_lines = sa.Table(
    "chat_lines",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("match_id", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("name", sa.String(24), nullable=False),
    sa.Column("text", sa.String(400), nullable=False),
    sa.Column("shown", sa.String(400), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_chat_lines_match_at", "match_id", "at"),
)

# A player's report of another: `count` duplicates merged into it (same reporter, reported,
# match and reason); `context` captured when it was made (chat lines, the players' names).
reports = sa.Table(
    "reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reporter_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False,
              index=True),
    sa.Column("reported_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False,
              index=True),
    sa.Column("reason", sa.String(20), nullable=False),
    sa.Column("comment", sa.String(500)),
    sa.Column("match_id", sa.String(16)),
    sa.Column("context", sa.JSON, nullable=False),
    sa.Column("status", sa.String(10), nullable=False, index=True),  # recebida | analisada
    sa.Column("outcome", sa.String(20)),  # the action that closed it (dismiss, mute, …)
    sa.Column("count", sa.Integer, nullable=False, server_default="1"),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)

# Sanctions, by a moderator (`by_id`) or by the server itself (None: the filter, the
# abandonment ladder); in force from `created_at` until `until` (None: no end) unless lifted.
sanctions = sa.Table(
    "sanctions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False,
              index=True),
    # warn | chat_mute | ranked_ban | queue_ban | rename | close
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("reason", sa.String(300), nullable=False),
    sa.Column("by_id", sa.Integer, sa.ForeignKey("players.id")),
    sa.Column("report_id", sa.Integer, sa.ForeignKey("reports.id")),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("until", sa.Float),
    sa.Column("lifted_at", sa.Float),
    sa.Column("lifted_by", sa.Integer, sa.ForeignKey("players.id")),
)

# What moderators (and the server's automatic sanctions) did: who, when, what, why.
moderation_log = sa.Table(
    "moderation_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("actor_id", sa.Integer, sa.ForeignKey("players.id")),
    sa.Column("at", sa.Float, nullable=False, index=True),
    sa.Column("action", sa.String(20), nullable=False),
    sa.Column("target_id", sa.Integer, sa.ForeignKey("players.id")),
    sa.Column("report_id", sa.Integer),
    sa.Column("sanction_id", sa.Integer),
    sa.Column("reason", sa.String(300), nullable=False),
)

# The abandonment ladder of each player: the step reached and the clean matches since.
abandon_ladder = sa.Table(
    "abandon_ladder",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("step", sa.Integer, nullable=False),
    sa.Column("clean", sa.Integer, nullable=False),
    sa.Column("abandons", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)

# The fair-play signal (moderation/agreement.py): the ranked matches whose decisions are still to
# be counted (from their stored review; one nobody asked for is asked for in the background,
# `claimed_at` by a node, `attempts` times), and each player's decisions counted per match.
fairplay_due = sa.Table(
    "fairplay_due",
    metadata,
    sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("finished_at", sa.Float, nullable=False, index=True),
    sa.Column("claimed_at", sa.Float),
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
)
fairplay_tallies = sa.Table(
    "fairplay_tallies",
    metadata,
    sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True,
              index=True),
    sa.Column("ruleset", sa.String(20), nullable=False),
    sa.Column("decisions", sa.Integer, nullable=False),  # with two or more legal actions
    sa.Column("agreed", sa.Integer, nullable=False),  # the expert's choice played
)


def normalize_url(url: str) -> str:
    """Plain `postgresql://` URLs use psycopg 3, the driver the project installs."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def make_engine(url: str) -> Engine:
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            # WAL with synchronous=NORMAL: a committed transaction survives a crash of the
            # process (what the server must guarantee); only a power cut may lose the last ones.
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.close()

        return engine
    return sa.create_engine(url, pool_size=5, max_overflow=5, pool_pre_ping=True)


MIGRATION_LOCK = 0x6361_7272  # a PostgreSQL advisory lock key ("carr")


def alembic_config(url: str) -> Config:
    """Alembic's settings for the database at `url` (the scripts in `migrations/`)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return cfg


def migrate(url: str) -> None:
    """Bring the schema to the newest migration (Alembic `upgrade head`)."""
    from alembic import command

    cfg = alembic_config(url)
    if not normalize_url(url).startswith("postgresql"):
        command.upgrade(cfg, "head")
        return
    # Nodes of a cluster start together: one migrates while the others wait on a lock.
    engine = sa.create_engine(normalize_url(url), poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            try:
                command.upgrade(cfg, "head")
            finally:
                conn.execute(sa.text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
    finally:
        engine.dispose()
