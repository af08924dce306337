"""Seeded synthetic table scenes for tests, benchmarks and the demo (dice.py, cards.py)."""
