"""Rollecate: the engine (pure rules), the discard advisor, the scorer and the table referee.

The public entry points are ``host.rollecate.state.GameState`` (a whole game, move by move),
``host.rollecate.referee.Referee`` (a real table, observation by observation) and
``host.rollecate.scoring.score_table`` (an end-of-game table). See ``docs/rollecate.md``.
"""
