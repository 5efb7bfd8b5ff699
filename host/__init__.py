"""Conductor's host app: game engines, referees, board link, journal, command line and web view."""
