"""Each game's ``TableGame`` descriptor: the glue between a game's engine and referee and the app
(camera zones, inputs, demo, words). Game folders never import the app; these modules do."""
