"""Live play: each table and its match, clock and bots; the hub that runs them; the
lobby that seats players; the bot budget; post-game reviews."""
