"""The server's rooms and their layers: the import rule that tests/invariants/test_layers.py
holds the code to and that docs/server.md draws."""

from __future__ import annotations

#: The server's rooms (its sub-packages, and the modules directly in it), lowest layer first: a
#: module may import from its own room, its layer, or lower ones. Every module of the server is in
#: a room (`test_every_server_module_is_in_a_room`), so the rule covers all of them.
SERVER_LAYERS: tuple[frozenset[str], ...] = (
    # what every room reads, passes, answers and counts
    frozenset({"errors", "records", "settings", "metrics", "logs"}),
    frozenset({"edge", "storage", "realtime"}),  # guards, the database, the messages both ways
    frozenset({"players"}),  # accounts, sessions, ratings
    frozenset({"tables"}),  # live tables, the hub, the lobby, the bot budget, reviews
    frozenset({"cluster"}),  # this node among others
    frozenset({"tournaments", "moderation"}),  # events; reports and sanctions
    frozenset({"routes"}),  # HTTP routes per area and a player's WebSocket
    frozenset({"app", "preflight", "__init__"}),  # wiring, and the checks before a start
)
