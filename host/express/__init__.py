"""Express, the rummy-style train-building card game (Darwin Bromley, Mayfair 1990; 2024).

``cards`` reads the deck data, ``trains`` the car-order rules and train scores, ``scoring`` scores
a table, ``moves`` names what a player can do, ``game`` holds the rules of a hand (its
Turntables and Derailments through ``host.turn_order``), ``referee`` judges table observations
and ``bots`` plays seeded demo games; the app's descriptor is ``host.tables.express``. Rulings:
``docs/express.md``.
"""
