"""Limits and guards that hold before a request reaches a route: connection caps, rate
limits, security headers, cross-site checks."""
