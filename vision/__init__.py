"""Frames in, observations out: OpenCV and numpy only (and engine.table for the vocabulary)."""
