"""Where clients come in: the HTTP routes of each area and a player's WebSocket."""
