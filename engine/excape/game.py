"""The Excape game: its options, the initial position, and positions read back from files."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from engine.core import Advice, Game, OptionError, field_of, require
from engine.excape import ladder
from engine.excape.actions import Place, parse_action
from engine.excape.dice import Roll
from engine.excape.state import DECIDE, OVER, PHASES, ROLL, ROLLOFF, Bust, ExcapeState, RollOff

MAX_TRACK_LENGTH = 100


@dataclass(frozen=True)
class ExcapeOptions:
    track_length: int = 21  # steps from START to the exit
    double_x_variant: bool = False  # a first-roll X-X clears the ladder; only an X-X moves it
    # House rule: a combination may not go above a rung 1-5 holding a higher value (rung 0, where
    # any number of combinations wait, does not count).
    must_beat_lower_rungs: bool = False

    def __post_init__(self):
        if not 1 <= self.track_length <= MAX_TRACK_LENGTH:
            raise OptionError(f"excape: track_length must be 1 to {MAX_TRACK_LENGTH}, got {self.track_length}")


class ExcapeGame(Game):
    id = "excape"
    title = "Excape"
    min_players = 3
    max_players = 6
    Options = ExcapeOptions
    # Re-rolls are unlimited, so no game is bounded for sure; this is far beyond any random game
    # seen (bench/excape.py prints the longest one it plays on the longest track).
    max_game_length = 200_000
    camera_actions = (Roll, Place)
    printed_dice = True  # 1-7 and X
    seat_dice = True  # "the die's colour identifies its owner"

    def advise(self, state: ExcapeState) -> list[Advice]:
        from engine.excape.risk import advise
        return advise(state)

    def analyse(self, state: ExcapeState):
        """The exact risk figures for the player deciding (None at any other time)."""
        from engine.excape.risk import risk
        return risk(state) if state.phase == DECIDE else None

    def new_initial_state(self) -> ExcapeState:
        seats = tuple(range(self.num_players))
        return ExcapeState(self, phase=ROLLOFF, seat=0, pawns=[0] * self.num_players,
                           placed=[None] * self.num_players, rolloff=RollOff(seats, ()))

    def parse_action(self, text: str):
        return parse_action(text)

    def state_from_dict(self, data: Mapping[str, Any]) -> ExcapeState:
        n, exit_ = self.num_players, self.options.track_length
        phase = field_of(data, "phase", str)
        require(phase in PHASES, "phase", f"one of {', '.join(PHASES)}, got {phase!r}")
        seat = field_of(data, "seat", int)
        require(0 <= seat < n, "seat", f"a seat from 0 to {n - 1}, got {seat}")
        pawns = field_of(data, "pawns", list)
        require(len(pawns) == n and all(_is_int(p) and 0 <= p <= exit_ for p in pawns), "pawns",
                f"{n} spaces from 0 (START) to {exit_} (the exit), got {pawns!r}")
        placed = _read_ladder(field_of(data, "ladder", list), n)
        rolls = field_of(data, "rolls", int)
        require(rolls >= 0, "rolls", f"a count of rolls, got {rolls}")
        roll = _nullable(data, "roll", lambda value: _read_roll(value, "roll"))
        rolloff = _nullable(data, "rolloff", lambda value: _read_rolloff(value, n))
        bust = _nullable(data, "bust", lambda value: _read_bust(value, n))

        at_exit = [s for s, p in enumerate(pawns) if p == exit_]
        require(len(at_exit) <= 1, "pawns", "the game ends when the first pawn reaches the exit: only one can be there")
        require((phase == OVER) == bool(at_exit), "phase", "the game is over exactly when a pawn is at the exit")
        require(placed[seat] is None, "ladder", f"seat {seat} is playing, so their dice are in hand, not on the ladder")
        require((phase == ROLLOFF) == (rolloff is not None), "rolloff", "present exactly in the roll-off phase")
        require(bust is None or (phase == ROLL and rolls == 0), "bust", "only at the start of the next player's turn")
        if phase == ROLLOFF:
            require(all(p == 0 for p in pawns), "pawns", "every pawn is at START during the roll-off")
            require(all(p is None for p in placed), "ladder", "the ladder is empty during the roll-off")
            require(rolls == 0 and roll is None, "roll", "no turn has started during the roll-off")
            require(seat == rolloff.group[len(rolloff.rolls)], "seat",
                    f"the next to roll in the roll-off is seat {rolloff.group[len(rolloff.rolls)]}")
        elif phase == ROLL:
            require(roll is None, "roll", "no roll is showing before the player rolls")
        elif phase == DECIDE:
            require(roll is not None and rolls >= 1, "roll", "the player deciding has a roll showing")
            require(rolls == 1 or roll.x_count == 0, "roll", "an X after the first roll ends the turn")
        else:
            require(seat == at_exit[0], "seat", f"once over, the winner's seat ({at_exit[0]})")
            require(roll is None or (roll.double_move > 0 and rolls >= 1), "roll",
                    "a game over mid-turn was won by a double 1-1, 2-2 or 3-3")
            require(roll is not None or rolls == 0, "rolls", "a game won by the advance ends before any roll")
        if bust is not None:
            require(bust.seat == (seat - 1) % n, "bust", f"the previous player is seat {(seat - 1) % n}")
            require(placed[bust.seat] is None, "bust", "a player whose turn ended on an X has no dice on the ladder")
        return ExcapeState(self, phase=phase, seat=seat, pawns=pawns, placed=placed, rolls=rolls,
                           roll=roll, rolloff=rolloff, bust=bust)


def _nullable(data: Mapping[str, Any], name: str, read):
    """``data[name]`` read by ``read``, or None when it is null; the key itself must be there."""
    require(name in data, name, "missing")
    return None if data[name] is None else read(data[name])


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_roll(value: Any, field: str) -> Roll:
    require(isinstance(value, list) and len(value) == 2 and all(isinstance(f, str) for f in value), field,
            f"two faces [die A, die B], got {value!r}")
    roll = Roll(*value)
    problem = roll.problem()
    require(not problem, field, str(problem))
    return roll


def _read_ladder(entries: list, n: int) -> list[ladder.Placement | None]:
    require(len(entries) == n, "ladder", f"one entry per seat ({n}), got {len(entries)}")
    placed: list[ladder.Placement | None] = []
    for seat, entry in enumerate(entries):
        where = f"ladder[{seat}]"
        if entry is None:
            placed.append(None)
            continue
        require(isinstance(entry, dict), where, f"null or {{\"rung\": R, \"dice\": [A, B]}}, got {entry!r}")
        rung = field_of(entry, "rung", int)
        require(rung in ladder.RUNGS, f"{where}.rung", f"a rung from 0 to 5, got {rung}")
        require(rung == 0 or ladder.occupant(placed, rung) is None, f"{where}.rung",
                f"rung {rung} holds one combination and seat {ladder.occupant(placed, rung)} is already there")
        placed.append(ladder.Placement(rung, _read_roll(entry.get("dice"), f"{where}.dice")))
    return placed


def _read_rolloff(value: Any, n: int) -> RollOff:
    require(isinstance(value, dict), "rolloff", f"null or {{\"group\": [...], \"rolls\": [...]}}, got {value!r}")
    group = field_of(value, "group", list)
    require(2 <= len(group) <= n and all(_is_int(s) and 0 <= s < n for s in group) and group == sorted(set(group)),
            "rolloff.group", f"two or more seats from 0 to {n - 1} in order, got {group!r}")
    rolls = field_of(value, "rolls", list)
    require(len(rolls) < len(group), "rolloff.rolls", "fewer rolls than players in the round")
    read = tuple(_read_roll(r, f"rolloff.rolls[{i}]") for i, r in enumerate(rolls))
    return RollOff(tuple(group), read)


def _read_bust(value: Any, n: int) -> Bust:
    require(isinstance(value, dict), "bust", f"null or {{\"seat\", \"dice\", \"roll_number\"}}, got {value!r}")
    seat = field_of(value, "seat", int)
    require(0 <= seat < n, "bust.seat", f"a seat from 0 to {n - 1}, got {seat}")
    roll = _read_roll(value.get("dice"), "bust.dice")
    require(roll.x_count > 0, "bust.dice", "a turn ends only on a roll showing X")
    number = field_of(value, "roll_number", int)
    require(number >= 2, "bust.roll_number", "the first roll never ends the turn")
    return Bust(seat, roll, number)
