"""The authoritative game server: rooms one concept each, imported downward only.

- `settings`, `errors`: what every room reads (settings) and answers with (named errors).
- `edge`: limits and guards that hold before a request reaches a route.
- `storage`: the database: schema, migrations, the writer thread, the rows of each area.
- `realtime`: the messages both ways (client messages, server frames) and the channels
  that carry them.
- `players`: accounts, guests, sessions and ratings.
- `tables`: live tables, the lobby that seats players at them, their bots' budget.
- `cluster`: this node among others: leases, owners, calls and fan-out over Redis.
- `tournaments`: events run on the server by the pure `carroca.tournament` director.
- `routes`: HTTP routes per area and the WebSocket connection of a player.
- `app`, `preflight`: the ASGI application wired together, and the checks before it starts.

docs/server.md draws the rooms and their edges; tests/invariants/test_layers.py holds them.
"""
