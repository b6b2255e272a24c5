"""A scripted WebSocket player for the protocol tests: plays its legal moves until the end."""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import WebSocketTestSession


def send(ws: WebSocketTestSession, kind: str, data: dict[str, Any] | None = None) -> None:
    ws.send_text(json.dumps({"type": kind, "data": data or {}}))


def play_until_over(
    ws: WebSocketTestSession, match_id: str, pick: int = 0, max_frames: int = 20000
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Join, then answer every turn with the `pick`-th legal action; returns the last state and
    every frame received."""
    send(ws, "join", {"match": match_id})
    frames: list[dict[str, Any]] = []
    move_id = 0
    sent_for = -1
    for _ in range(max_frames):
        frame = ws.receive_json()
        frames.append(frame)
        if frame["type"] == "error":
            raise AssertionError(frame)
        if frame["type"] != "state":
            continue
        state = frame["data"]
        if state["status"] == "finished":
            return state, frames
        view = state["view"]
        if view and view["legal"] and view["turn"] == state["seat"] and \
                state["version"] != sent_for:
            sent_for = state["version"]
            legal = view["legal"]
            send(ws, "move", {"id": move_id, "action": legal[min(pick, len(legal) - 1)]})
            move_id += 1
    raise AssertionError("the match did not end")
