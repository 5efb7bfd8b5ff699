"""Train Line Chicago Edition: seat all your pawns on the train first.

``tiles`` reads the train tiles (data) and joins two into the layout, ``cards`` reads the number
and action cards, ``moves`` names what a player can do, ``game`` holds the rules, ``observer``
referees camera observations, ``referee`` referees a record's actions and ``bots`` plays seeded
demos; the app's descriptor is ``host.tables.trainline``. Rulings: ``docs/trainline.md``.
"""
