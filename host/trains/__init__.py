"""The Game of Trains (Brain Games, 2015): engine, referee and demo."""
