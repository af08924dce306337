"""The dice reader for the game on the table: with ``vision.dice.faces = "game"``, Excape's
printed dice are read against the faces enrolled by ``calibrate dice-faces`` and the other games'
pips by the pip networks. Each reader is built once, when a game first needs it, and a reader
that cannot be built is said once, not on every frame.
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

from vision.dice import DiceReader, DiceReaderError
from vision.dice_background import TableBackground


class DiceReaders:
    def __init__(self, section: Mapping, state_dir: str | Path):
        self.section = dict(section)
        self.state_dir = state_dir
        self._readers: dict[bool, DiceReader] = {}
        self._failed: dict[bool, str] = {}
        self._background: TableBackground | None = None

    def reader(self, printed: bool) -> DiceReader:
        """The reader for dice with ``printed`` faces or pips; DiceReaderError (also for a model
        or faces file that cannot be read) saying why there is none, raised again each time."""
        if printed in self._failed:
            raise DiceReaderError(self._failed[printed])
        if printed not in self._readers:
            try:
                reader = DiceReader.from_settings(self.section, self.state_dir, printed=printed)
            except (DiceReaderError, OSError, ValueError) as exc:
                self._failed[printed] = str(exc)
                raise DiceReaderError(str(exc)) from None
            if self._readers:  # the empty table was loaded, or learnt since, by the first one
                reader.background = self._background
            self._background = reader.background
            self._readers[printed] = reader
        return self._readers[printed]

    @property
    def background(self) -> TableBackground | None:
        """The empty table learnt for this camera (None when none is)."""
        return self._background

    @background.setter
    def background(self, background: TableBackground) -> None:
        self._background = background
        for reader in self._readers.values():
            reader.background = background
