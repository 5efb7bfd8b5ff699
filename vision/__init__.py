"""Conductor's webcam card recognizer: from a camera frame to an observation of the table."""
