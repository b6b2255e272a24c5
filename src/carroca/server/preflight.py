"""What `carroca serve` checks before it starts: the database and Redis can be reached with the
drivers installed, so that a wrong URL or a missing extra ends in one line that says what to do,
not in a traceback and "Application startup failed"."""

from __future__ import annotations

import importlib

from carroca.server.settings import Settings

POSTGRES_HINT = ("install the PostgreSQL driver: pip install 'carroca[postgres]' "
                 "(in a checkout: .venv/bin/pip install -e '.[postgres]', or make cluster)")
CONNECT_SECONDS = 5


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def problem(settings: Settings) -> str | None:
    """Why the server cannot start with these settings (None: it can)."""
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from carroca.server.storage.db import normalize_url

    try:
        url = make_url(normalize_url(settings.database))
    except (ArgumentError, ValueError):
        return (f"--database {settings.database!r} is not a database URL: use "
                "sqlite:///file.db or postgresql://user:password@host/database")
    shown = make_url(settings.database).render_as_string(hide_password=True)
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        return f"--database {shown}: only SQLite and PostgreSQL are supported"
    if url.get_backend_name() == "postgresql":
        try:
            importlib.import_module("psycopg")
        except ImportError:
            return f"--database {shown}: the PostgreSQL driver is missing; {POSTGRES_HINT}"
        engine = sa.create_engine(url, connect_args={"connect_timeout": CONNECT_SECONDS})
        try:
            with engine.connect():
                pass
        except Exception as exc:  # refused, unknown host, wrong password: all said in one line
            return f"cannot reach the database {shown}: {_first_line(exc)}"
        finally:
            engine.dispose()
    if (why := password_cost_problem(settings)) is not None:
        return why
    if settings.tournament_schedule:
        from carroca.server.tournaments.schedule import ScheduleError, load

        try:
            load(settings.tournament_schedule, settings)
        except ScheduleError as exc:
            return str(exc)
    if settings.redis:
        return redis_problem(settings.redis)
    return None


def password_cost_problem(settings: Settings) -> str | None:
    """Why argon2 could not hash with the password cost settings (None: it can): at least one
    pass and one lane, 8 KiB of memory a lane."""
    t, m, p = (settings.password_time_cost, settings.password_memory_kib,
               settings.password_parallelism)
    if t < 1 or p < 1 or m < 8 * p:
        return (f"the password hash's cost (CARROCA_PASSWORD_TIME_COST {t}, "
                f"CARROCA_PASSWORD_MEMORY_KIB {m}, CARROCA_PASSWORD_PARALLELISM {p}) is below "
                "argon2's least: 1 pass, 1 lane, 8 KiB of memory a lane")
    return None


def redis_shown(address: str) -> str:
    """A Redis URL without its password."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(address)
        if parts.password is None:
            return address
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return "(an unreadable URL)"


def redis_problem(address: str) -> str | None:
    try:
        redis = importlib.import_module("redis")
    except ImportError:
        return "--redis needs the Redis client, which is missing: pip install redis hiredis"
    try:
        client = redis.Redis.from_url(address, socket_connect_timeout=CONNECT_SECONDS,
                                      socket_timeout=CONNECT_SECONDS)
    except ValueError as exc:
        return f"--redis {redis_shown(address)!r} is not a Redis URL ({_first_line(exc)}): use " \
            "redis://host:6379/0"
    try:
        client.ping()
    except Exception as exc:
        return f"cannot reach Redis at {redis_shown(address)}: {_first_line(exc)}"
    finally:
        client.close()
    return None
