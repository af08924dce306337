"""What a physical control asks the application to do."""
from __future__ import annotations

from enum import Enum


class Intent(str, Enum):
    """One request from a button (GPIO or serial panel), independent of its wiring."""

    CONFIRM = "confirm"
    UNDO = "undo"
    NEXT = "next"
    MENU = "menu"
    UP = "up"
    DOWN = "down"

    @classmethod
    def parse(cls, name: str) -> "Intent":
        """The intent called ``name`` (case-insensitive); ValueError listing the choices."""
        try:
            return cls(name.strip().lower())
        except ValueError:
            choices = ", ".join(i.value for i in cls)
            raise ValueError(f"unknown intent {name!r}; choose one of {choices}") from None

    def __str__(self) -> str:
        return self.value
