"""Physical controls around the table: GPIO buttons and lights, the serial panel, the watchdog.

Adapters here only turn hardware events into intents (``hardware.intents.Intent``) delivered
through callbacks; they never touch the game or the screen. Nothing here imports the rest of
the project.
"""
