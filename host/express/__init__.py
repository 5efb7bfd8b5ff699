"""Express, the rummy-style train-building card game (Darwin Bromley, Mayfair 1990; 2024).

``cards`` reads the deck data, ``moves`` names what a player can do, ``scoring`` scores a table,
``game`` holds the rules of a hand, ``bots`` plays seeded demo games and ``commands`` is the
command-line adapter. See ``docs/express.md`` for the rulings the rulebook leaves open.
"""
