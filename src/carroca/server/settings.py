"""Server settings: defaults, then `CARROCA_*` environment variables, then command-line flags.

Rate limits are written in the notation of the `limits` library: "10/10 minutes", "5 per hour".
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from typing import Any

DEFAULT_DATABASE = "sqlite:///carroca.db"


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    database: str = DEFAULT_DATABASE
    turn_seconds: float = 20.0  # the turn clock of tables with humans
    choice_seconds: float = 15.0  # the cinco-carroças window; its default is "points"
    bot_delay_ms: int = 800  # a bot's pause before acting (0: bots-only matches at full speed)
    casual_wait_seconds: float = 10.0  # empty seats of a casual table get bots after this
    autoplay_bot: str = "medium"  # plays for a player whose time ran out
    session_days: float = 30.0  # an account's sign-in
    guest_session_days: float = 7.0  # a guest's sign-in
    guest_unplayed_hours: float = 24.0  # a guest who never finished a match is then removed
    secure_cookies: bool = False  # set behind HTTPS
    chat_per_10s: int = 5
    finished_keep_seconds: float = 120.0  # a finished table stays live this long for its players
    # Between two hands, for the hand's summary: no clock runs and no bot moves (0: none).
    hand_pause_seconds: float = 5.0
    # Moves arriving sooner than this after the last batch wait for it, so one commit serves
    # several: the CPU of a commit (its thread hand-offs above all) is most of a move's under
    # load; a lone move goes at once.
    commit_gap_ms: float = 10.0

    # ---------------------------------------------------------------- several nodes
    redis: str = ""  # redis://host:port/0: run as one node of a cluster (PostgreSQL required)
    node: str = ""  # this node's name in logs and the nodes table (default: host:port)
    lease_seconds: float = 5.0  # a node that has not renewed its lease this long is dead
    lease_renew_seconds: float = 1.0  # how often a node renews its lease
    takeover_seconds: float = 1.0  # how often a node looks for matches of dead nodes
    call_timeout: float = 3.0  # a move or join forwarded to the match's owner node

    # ---------------------------------------------------------------- monitoring
    log_format: str = "text"  # "json": one object a line (carroca.server.logs)
    metrics: bool = True  # /metrics (Prometheus) and its counters; false: neither
    # Who may read /metrics without a token: addresses or networks, comma-separated (the
    # client's address as the server sees it, after trusted proxies' X-Forwarded-For).
    metrics_allow: str = "127.0.0.0/8,::1"
    metrics_token: str = ""  # also readable from anywhere with "Authorization: Bearer <token>"

    # ---------------------------------------------------------------- requests and connections
    allowed_origins: str = ""  # more origins allowed to open the WebSocket, comma-separated
    forwarded_allow_ips: str = ""  # proxies trusted for X-Forwarded-For (comma-separated)
    max_body_bytes: int = 64 * 1024  # larger request bodies get 413
    header_timeout: float = 10.0  # seconds to send a request's headers
    body_timeout: float = 20.0  # seconds between two parts of a request body
    keep_alive_seconds: float = 5.0  # an idle HTTP connection is closed after this
    max_connections_per_ip: int = 100  # open TCP connections (HTTP and WebSocket); 0: no cap
    max_sockets_per_session: int = 6  # open WebSockets of one sign-in
    socket_frames_per_second: float = 10.0  # frames a client may send, on average (0: any)
    socket_frame_burst: int = 40  # ... and at once
    # permessage-deflate: "message" (each message alone: no memory kept per socket), "context"
    # (the window carried between messages: smaller frames, ~48 KiB more per socket), "off"
    ws_compression: str = "message"

    # ---------------------------------------------------------------- rate limits (429)
    limit_login_ip: str = "10/10 minutes"  # failed logins from one address
    limit_login_account: str = "50/10 minutes"  # failed logins to one account, any address
    limit_password_ip: str = "30/10 minutes"  # password checks from one address, right or wrong
    limit_guest_ip: str = "10/minute"  # guest sign-ups from one address
    # New guests and accounts, from every address together (on every node: the windows are
    # shared in Redis): a flood from rotating addresses waits, signing in again never does.
    limit_signups: str = "60/10 seconds"
    limit_register_ip: str = "5/hour"  # accounts created from one address
    limit_tables_player: str = "30/10 minutes"  # friends' tables and bots-only matches created
    limit_reviews_ip: str = "10/10 minutes"  # post-game reviews started from one address
    limit_tournaments_player: str = "10/hour"  # tournaments created by one player
    # registrations and withdrawals of one player, in any event (each one stores the event)
    limit_tournament_entries_player: str = "30/10 minutes"
    # friend requests sent by one player (blocks and answers to requests do not count)
    limit_friend_requests_player: str = "30/hour"
    max_friends: int = 500  # friends a player may have
    limit_challenges_player: str = "6/minute"  # challenges sent by one player
    limit_profiles_ip: str = "120/minute"  # profile pages read from one address
    challenge_seconds: float = 60.0  # a challenge not answered by then expires
    # The Bot API (docs/bots.md): live tokens a player may hold, calls a token may make (a
    # burst, refilled at a rate: a bot moves a few times a second at most), streams it may hold
    # open (one for its events, one for each game it plays), and how often an open stream says
    # it is alive (an empty line).
    max_api_tokens: int = 10
    api_calls_per_second: float = 10.0
    api_call_burst: int = 50
    api_streams_per_token: int = 8
    api_keepalive_seconds: float = 10.0
    presence_seconds: float = 3.0  # a player's presence is told at most once in this time
    hash_queue: int = 4  # password checks waiting for a hashing slot; more get 429
    # Argon2id's cost for a new password's hash: passes, memory (KiB) and lanes; the default is
    # RFC 9106's second recommended option (argon2-cffi's own), about 0.25 CPU-s a hash. A
    # stored hash keeps the cost it was made with, and a check pays that one. Lower costs only
    # where nobody's password is at stake (the tests: a hash costs 30 times less).
    password_time_cost: int = 3
    password_memory_kib: int = 65536
    password_parallelism: int = 4

    # ---------------------------------------------------------------- tables
    max_bot_matches: int = 200  # bots-only matches in play at once, all players together
    max_bot_matches_per_player: int = 2
    bot_workers: int = 0  # processes that think for every bot, at low priority (0: one a core)
    bot_streams: bool = False  # with redis: bot jobs go to Redis Streams (`carroca bots` workers)
    bot_deadline_seconds: float = 2.0  # a bot's move not thought out by then: the safe move
    bot_floor_ms: int = 40  # the least a searching bot thinks when the workers are behind
    bot_tables_per_worker: int = 0  # live tables with searching bots per worker (0: from delay)
    bot_tables_per_address: int = 0  # ... created from one address (0: a quarter of capacity)
    max_waiting_tables_per_player: int = 3  # friends' tables waiting for players
    waiting_table_minutes: float = 30.0  # a friends' table still waiting then is closed
    purge_seconds: float = 60.0  # how often expired tables, guests and sessions are cleaned
    # How often a node reads what `carroca admin` wrote: closed accounts, ended tables, the
    # announcement.
    operator_poll_seconds: float = 2.0
    ranked_requires_account: bool = True
    # An abandoned ranked match is rated only past all three (players/ratings.py): the abandoning
    # side's own moves, hands played to their end, and the leader's share of the goal then.
    ranked_min_moves: int = 6
    ranked_min_hands: int = 2
    ranked_min_share: float = 0.5
    # The ranked queue keeps accounts seen at one address apart (off: when every player seems
    # to come from one address, e.g. behind a proxy missing from FORWARDED_ALLOW_IPS).
    ranked_address_marks: bool = True

    # ---------------------------------------------------------------- moderation
    chat_filter: bool = True  # mask the offensive-word list's words in chat (docs/moderation.md)
    chat_filter_file: str = ""  # the operator's own word list (empty: the built-in pt-BR one)
    chat_filter_hits: int = 3  # masked lines of a player within the window: chat muted …
    chat_filter_window_minutes: float = 10.0
    chat_filter_mute_minutes: float = 30.0  # … this long
    # Queue bans (casual and ranked) for the 1st, 2nd, 3rd, 4th and later abandonments in a row
    abandon_ban_minutes: str = "15,60,180,1440"
    abandon_reset_matches: int = 3  # clean matches in a row that bring the ladder back to 0
    reports_per_hour: int = 10  # reports one player may make in an hour
    # The fair-play signal: ranked matches nobody asked to review are reviewed in the
    # background (one at a time per node, one started every `fairplay_seconds` at most); a
    # player with `fairplay_min_decisions` in a ruleset is compared with the others who have as
    # many (`fairplay_min_players` of them at least), flagged `fairplay_z` standard deviations
    # above their agreement with the expert. Shown to moderators only, never acted on.
    fairplay_reviews: bool = True
    fairplay_seconds: float = 30.0
    fairplay_min_decisions: int = 100
    fairplay_min_players: int = 20
    fairplay_z: float = 3.0

    # ---------------------------------------------------------------- tournaments
    # A tournament's table waits this long for its players; a side none of whose players came
    # then loses by forfeit (once started, the turn clock and abandonment rules apply).
    tournament_show_up_seconds: float = 60.0
    tournament_bots: bool = False  # an event may ask for bots to fill its free places
    max_upcoming_tournaments_per_player: int = 3  # events created and not started yet
    max_tournament_capacity: int = 256  # the most places an event may have
    # Newcomers: guests with fewer finished matches than this (accounts never are). They
    # take at most a share of a public event's places (never fewer than the floor), and their
    # upcoming public events are few, server-wide; private events are theirs to make.
    tournament_guest_matches: int = 1
    tournament_newcomer_share: float = 0.25
    tournament_newcomer_floor: int = 16
    max_newcomer_tournaments: int = 10
    tournament_schedule: str = ""  # a TOML file of recurring events (docs/tournaments.md)
    tournament_schedule_seconds: float = 60.0  # how often the schedule's next slots are made

    def workers(self) -> int:
        """Bot worker processes: as set, else one per core."""
        return self.bot_workers if self.bot_workers > 0 else max(1, os.cpu_count() or 1)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: Any) -> Settings:
        env = dict(os.environ if env is None else env)
        values: dict[str, Any] = {}  # each setting by name, converted to its own type
        for f in fields(cls):
            raw = env.get(f"CARROCA_{f.name.upper()}")
            if raw is None:
                continue
            kind = type(getattr(cls(), f.name))
            if kind is bool:
                values[f.name] = raw.strip().lower() in ("1", "true", "yes", "on")
            else:
                values[f.name] = kind(raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return replace(cls(), **values)
