"""Express, the rummy-style train-building card game (Darwin Bromley, Mayfair 1990; 2024).

``cards`` reads the deck data, ``trains`` the car-order rules and train scores, ``scoring`` scores
a table, ``moves`` names what a player can do, ``turn_order`` keeps Turntables and Derailments,
``game`` holds the rules of a hand, ``referee`` judges table observations and ``bots`` plays
seeded demo games; the app's descriptor is ``host.tables.express``. Rulings: ``docs/express.md``.
"""
