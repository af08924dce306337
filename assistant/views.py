"""What the screens show: the immutable view-state the session publishes, and how it is built.

A screen reads only a ``ViewState``: the seats, the choices, the messages and, for a game, the
view model its package exports (``board``, cheap, with every view; ``analysis``, worked out off
the UI thread beside the advice). Screens never see an engine state.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Sequence

from assistant.reconcile import Explanation
from assistant.store import MatchSummary, Result
from engine.core import CHANCE, SIMULTANEOUS, TERMINAL, Action, Advice, Outcome, State
from engine.match import Match, Player
from engine.text import Text, tr

INFO, ERROR, EXPLAIN = "info", "error", "explain"  # message kinds
HOME, GAME = "home", "game"  # the screen kinds the session itself opens; any other kind may be shown


@dataclass(frozen=True)
class Seat:
    name: str
    colour: str
    score: float
    to_play: bool


@dataclass(frozen=True)
class Choice:
    """A legal action offered to the players, with the advice for it when there is some."""

    action: Action
    notation: str
    seat: int                      # who takes it (CHANCE for outcomes)
    advice: Text | str = ""
    value: float | Fraction | None = None
    best: bool = False


@dataclass(frozen=True)
class Message:
    """A line for the players. After a move, ``action`` and ``seat`` (who made it, CHANCE for
    the table) let a screen word the move its own way; ``camera``: the camera saw it and applied it."""

    text: Text | str
    kind: str = INFO
    action: Action | None = None
    seat: int = CHANCE
    camera: bool = False


@dataclass(frozen=True)
class ViewState:
    """Everything a screen shows. ``screen`` names the kind of screen ("home", "game", or any
    other a screen module provides); game fields are empty away from a game."""

    revision: int
    screen: str
    games: tuple[str, ...] = ()
    unfinished: tuple[MatchSummary, ...] = ()
    results: tuple[Result, ...] = ()
    known_players: tuple[Player, ...] = ()
    match_id: int | None = None
    game_id: str = ""
    title: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[Seat, ...] = ()
    board: Any = None              # the game's view model of the position (its package exports it)
    analysis: Any = None           # the game's slower figures; None until worked out
    description: Text | str = ""   # the position in words, for a game without a screen of its own
    to_play: int = TERMINAL
    turn: Text | str = ""
    choices: tuple[Choice, ...] = ()
    advice_pending: bool = False   # the advice is being worked out; a view with it follows
    chance: tuple[tuple[Action, Fraction], ...] = ()
    suggestions: tuple[Explanation, ...] = ()  # what the camera read, for the players to confirm
    cursor: int = 0
    moves: int = 0
    last: str = ""
    can_undo: bool = False
    can_redo: bool = False
    outcome: Outcome | None = None
    message: Message | None = None
    notices: tuple[Text | str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)


def game_view(match: Match, match_id: int | None, revision: int, message: Message | None,
              notices: Sequence[Text | str], advice: list[Advice] | None, analysis: Any) -> ViewState:
    """The view of ``match`` now; ``advice`` None while it is being worked out."""
    state = match.state
    to_play = state.current_player()
    scores = state.returns()
    seats = tuple(Seat(p.name, p.colour, scores[i], _seat_acts(state, to_play, i))
                  for i, p in enumerate(match.players))
    board = state.board()
    return ViewState(
        revision=revision, screen=GAME, match_id=match_id,
        game_id=match.game.id, title=match.game.title, options=match.game.options_dict(),
        seats=seats, board=board, analysis=analysis,
        description=_description(state, match) if board is None else "",
        to_play=to_play, turn=turn_text(state, to_play, [p.name for p in match.players]),
        choices=choices(state, to_play, advice or []), advice_pending=advice is None,
        chance=state.chance_outcomes(),
        moves=len(match.history), last=str(match.history[-1]) if match.history else "",
        can_undo=match.can_undo(), can_redo=match.can_redo(), outcome=state.outcome(),
        message=message, notices=tuple(notices))


def _description(state: State, match: Match) -> Text | str:
    try:
        return state.describe([p.name for p in match.players])
    except NotImplementedError:
        return ""


def choices(state: State, to_play: int, advice: Sequence[Advice]) -> tuple[Choice, ...]:
    """The legal actions, the advised ones first in the advice's order, the best ones marked."""
    if to_play == TERMINAL:
        return ()
    legal = state.legal_actions()
    advice = [a for a in advice if a.action in legal]
    advised = {a.action for a in advice}
    best = advice[0].value if advice else None
    ordered = [Choice(a.action, str(a.action), state.acting_player(a.action), a.text, a.value,
                      a.value == best) for a in advice]
    ordered += [Choice(a, str(a), state.acting_player(a)) for a in legal if a not in advised]
    return tuple(ordered)


def turn_text(state: State, to_play: int, names: Sequence[str]) -> Text:
    if to_play == TERMINAL:
        winners = state.outcome().winners
        if len(winners) == 1:
            return tr("Game over: {name} wins", name=names[winners[0]])
        return tr("Game over: {names} share the win", names=", ".join(names[w] for w in winners))
    if to_play == CHANCE:
        return tr("Waiting for the dice or cards")
    if to_play == SIMULTANEOUS:
        return tr("Everyone plays now")
    return tr("{name} to play", name=names[to_play])


def played(match: Match, action: Action) -> Message:
    """Who did what, for the message line (made before the action is applied)."""
    seat = match.state.acting_player(action)
    if 0 <= seat < len(match.players):
        text = tr("{name}: {action}", name=match.players[seat].name, action=str(action))
    else:
        text = tr("table: {action}", action=str(action))
    return Message(text, INFO, action, seat)


def _seat_acts(state: State, to_play: int, seat: int) -> bool:
    if to_play == SIMULTANEOUS:
        return any(state.acting_player(a) == seat for a in state.legal_actions())
    return to_play == seat
