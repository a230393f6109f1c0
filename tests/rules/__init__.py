"""The rules (playoff_formats): standings and tiebreaks, formats and deciders, the
bracket, clocks, lots, the planner. No server, no browser."""
