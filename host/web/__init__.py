"""The web view: the table as Conductor sees it, the game, the log and the controls, live."""
