"""`GET /metrics`: the node's figures for Prometheus, to the allowed only (`metrics.Access`).

The live figures are read here, from the objects the app made (tables, sockets, store, bots,
events, the cluster's lease), only when scraped: nothing of this runs on a move's path."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from prometheus_client.core import Metric

from carroca.server import metrics
from carroca.server.metrics import counter, gauge, tally

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def scrape(request: Request) -> Response:
    access: metrics.Access = request.app.state.metrics_access
    host = request.client.host if request.client is not None else None
    if not access.allows(host, request.headers.get("authorization")):
        raise HTTPException(404)  # the answer of any unknown address: it confirms nothing
    return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE)


def node_figures(state: Any) -> Iterator[Metric]:
    """Every figure read at scrape time from the app's state (`app.state`)."""
    tables = state.tables
    yield gauge("carroca_sockets", "Open WebSockets on this node.", state.sessions.total())
    yield gauge("carroca_players_online", "Players with at least one socket open on this node.",
                len(state.sessions.players()))
    yield gauge("carroca_tables", "Tables run by this node, by mode, ruleset and status.",
                labels=tally((t.mode, t.ruleset.name, t.status) for t in tables),
                names=("mode", "ruleset", "status"))
    store = state.store
    yield counter("carroca_moves_stored", "Moves stored (people's and bots').",
                  store.moves_written)
    yield counter("carroca_commits", "Transactions that stored moves.", store.commits)
    yield counter("carroca_storage_outages", "Times the database stopped answering.",
                  store.outage.outages)
    if not store.postgres and store.engine.url.database not in (None, "", ":memory:"):
        # SQLite's disk: a full one stops every commit (PostgreSQL's is its own exporter's).
        usage = shutil.disk_usage(Path(store.engine.url.database).resolve().parent)
        yield gauge("carroca_database_disk_free_bytes", "Free space where the SQLite database "
                    "lives.", usage.free)
        yield gauge("carroca_database_disk_size_bytes", "Size of the disk where the SQLite "
                    "database lives.", usage.total)
    bots = state.hub.bots
    yield gauge("carroca_bot_jobs_queued", "Bot jobs waiting for a worker.", len(bots.queue))
    yield gauge("carroca_bot_jobs_running", "Bot jobs a worker is thinking about.",
                bots.backend.busy())
    yield gauge("carroca_bot_workers", "Bot workers there now (processes alive, or workers "
                "heard from lately).", bots.backend.alive())
    yield gauge("carroca_bot_capacity", "Bot workers this node schedules for.", bots.workers)
    yield counter("carroca_bot_decisions", "Bot decisions by source (worker, inline, forced, "
                  "fallback:<why>).", labels={(k,): float(v) for k, v in bots.outcomes.items()},
                  names=("source",))
    yield counter("carroca_bot_fallbacks", "Safe moves played for a bot, by level and why.",
                  labels={k: float(v) for k, v in bots.fallbacks.items()},
                  names=("level", "why"))
    yield gauge("carroca_tournaments", "Events held by this node, by status.",
                labels=tally((str(e.row.get("status", "")),)
                             for e in state.tournaments.events.values()),
                names=("status",))
    cluster = state.cluster
    if cluster is not None:
        yield gauge("carroca_node_leased", "1 while this node's lease lets it run matches.",
                    1.0 if cluster.leased else 0.0)
        yield counter("carroca_node_matches_given_up", "Matches this node stopped running "
                      "(lease lost or fenced).", cluster.given_up)
