"""Tournaments on the server: events created by players and run by the pure
`carroca.tournament` director; entries, pages, and ownership in a cluster."""
