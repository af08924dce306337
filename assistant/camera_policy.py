"""What the kiosk does with a settled reading of the dice or cards: apply it, offer it, or say it cannot be.

``judge`` ranks what may explain the reading (``assistant.reconcile.explain``, and for the cards
``judge_cards`` with the game's own module: ``assistant.reconcile_cards`` for Hilo's,
``assistant.reconcile_holdup`` for Hold Up's): the best is applied when its share reaches
``camera.auto_apply`` ("auto"), else the best two are offered for the players to confirm
("offer"); a reading that changed but that nothing the rules allow explains is a
"contradiction", with the reason in the players' words (the engine's own where it has one). A
reading that shows nothing new is no event. Where each seat's dice are of its player's colour
(Excape's), another seat's dice rolled out of turn are said, and so is a die of no player's colour
where the dice without it are explained.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Collection, Mapping, Sequence

from assistant.reconcile import (MIN_SHARE, Colours, Explanation, Reading, Zones, chains, explain, faces_read,
                                 moved_dice, moves_dice, new_dice, nothing_new, rolled_faces, roll_line, unmatched,
                                 zoned_dice)
from assistant import reconcile_cards, reconcile_holdup
from assistant.reconcile_cards import CardView
from engine.core import Action, Game, ParseError, State
from engine.text import Text, listing, tr

if TYPE_CHECKING:  # the session judges what the camera saw without loading the vision modules
    from vision.live import Observation

AUTO, OFFER, CONTRADICTION = "auto", "offer", "contradiction"
# Nothing is applied that needs a place read otherwise than the reader thinks 100 times likelier:
# a share is only relative to the other legal explanations (two grid cards swapped were applied
# as a card drawn and placed, with two other places misread, at 0.98).
SURE_FIT = 0.01
# Each card game's id -> the module that explains its cards seen: seats_in_play, nothing_new,
# explain and why_unexplained for its own card view, and still_steps for the truth.
CARD_READERS = {"hilo": reconcile_cards, "holdup": reconcile_holdup}


@dataclass(frozen=True)
class CameraEvent:
    kind: str  # AUTO, OFFER or CONTRADICTION
    candidates: tuple[Explanation, ...]  # the one applied, the best two offered, none
    reason: Text | str = ""  # why the reading cannot be, for a contradiction


def judge(state: State, seen: Reading, auto_apply: float, stayed: int = 0, zones: Zones = (), colours: Colours = (),
          seat_colours: Sequence[str] = ()) -> CameraEvent | None:
    """The event for the dice ``seen`` (face -> probability for each die read) in ``state``, of
    which ``stayed`` lay still since the last table the game agreed with (see ``DiceJudge``); on a
    mat, each in its ``zones``; where each seat's dice are of its colour (``seat_colours``, see
    ``seat_dice_colours``), each of its ``colours`` (see ``assistant.reconcile``)."""
    if nothing_new(state, seen, zones):
        return None
    # a colour no seat plays: a die of no player's, or one of theirs misnamed (taken as any colour)
    foreign = {die: colour for die, colour in enumerate(colours) if colour and colour not in seat_colours} \
        if seat_colours else {}
    colours = tuple(colour if colour in seat_colours else "" for colour in colours) if seat_colours else ()
    explained = explain(state, seen, stayed, zones, colours, seat_colours)
    # dice that nothing explains, or no move lays where they lie (only a die read off its zone, or
    # of another seat's colour, explains them): said why
    if not explained or explained[0].fit < SURE_FIT:
        problem = (_foreign_die(state, seen, zones, colours, seat_colours, foreign)
                   or misplaced_dice(state, seen, zones) or wrong_owner(state, seen, zones, colours, seat_colours))
        if problem:
            return CameraEvent(CONTRADICTION, (), problem)
    return decide(explained, auto_apply, lambda: why_unexplained(state, seen, stayed, zones))


def _foreign_die(state: State, seen: Reading, zones: Zones, colours: Colours, seat_colours: Sequence[str],
                 foreign: Mapping[int, str]) -> Text | str:
    """Where the dice read but those of a colour no player has (``foreign``: die -> its colour)
    show nothing new or what the rules allow: the first of those, by its colour, to take away ("" where
    they do not: something else is wrong)."""
    if not foreign:
        return ""
    kept = [die for die in range(len(seen)) if die not in foreign]
    rest, rest_zones = [seen[die] for die in kept], tuple(zones[die] for die in kept) if zones else ()
    rest_colours = tuple(colours[die] for die in kept) if colours else ()
    without = explain(state, rest, 0, rest_zones, rest_colours, seat_colours)
    if nothing_new(state, rest, rest_zones) or without and without[0].fit >= SURE_FIT:
        return tr("a die of colour {colour} is on the table, and no player has that colour: take it away",
                  colour=tr(next(iter(foreign.values()))))
    return ""


def seat_dice_colours(game: Game, colours: Sequence[str], known: Collection[str]) -> tuple[str, ...]:
    """The colour of each seat's dice (the players' ``colours``) where the game's dice are the
    seats' (``Game.seat_dice``) and the dice reader can tell every one apart (``known``: the colours
    it names, its palette); else (): the dice are then told apart by their faces and places only."""
    if not game.seat_dice or len(colours) != game.num_players or len(set(colours)) != len(colours) \
            or not set(colours) <= set(known):
        return ()
    return tuple(colours)


class DiceJudge:
    """Judges one table's dice observations in turn (``judge``), for a match whose seats play dice
    of ``seat_colours`` (see ``seat_dice_colours``; () where colours tell no seat's dice apart). A
    die lying untouched as the last observation the game agreed with (one judged no contradiction)
    saw it was not thrown since. An observation the game refused is no such mark: a roll seen with
    a stray die beside it is still to be played once the stray is taken away, though its dice lay
    still meanwhile."""

    def __init__(self, seat_colours: Sequence[str] = ()) -> None:
        self.seat_colours = tuple(seat_colours)
        self._agreed: tuple = ()

    def stayed(self, observation: Observation) -> int:
        """How many dice of ``observation`` lie untouched since the last one the game agreed with."""
        from vision.live import lying_still

        return lying_still(self._agreed, observation.dice)

    def agreed(self, observation: Observation) -> None:
        """The game agrees with ``observation``: the dice lying still are measured from it on."""
        self._agreed = observation.dice

    def judge(self, state: State, observation: Observation, auto_apply: float, stayed: int) -> CameraEvent | None:
        """The event for ``observation`` in ``state``, of which ``stayed`` dice lay still."""
        return judge(state, observation.faces(), auto_apply, stayed, observation.zones, observation.colours(),
                     self.seat_colours)

    def __call__(self, state: State, observation: Observation, auto_apply: float) -> CameraEvent | None:
        event = self.judge(state, observation, auto_apply, self.stayed(observation))
        if event is None or event.kind != CONTRADICTION:
            self.agreed(observation)
        return event


def judge_cards(state: State, seen: CardView, auto_apply: float) -> CameraEvent | None:
    """The event for the cards ``seen`` (the card view of the game's module in ``CARD_READERS``)
    in ``state``. Where cards lie on the mat off its places (``seen["off"]``) and nothing is sure,
    that is said rather than guesses offered: their places show no card."""
    cards = CARD_READERS[state.game.id]
    off = seen.get("off", [])
    seen = cards.seats_in_play(state, {key: value for key, value in seen.items() if key != "off"})
    if cards.nothing_new(state, seen):
        return None
    event = decide(cards.explain(state, seen), auto_apply, lambda: cards.why_unexplained(state, seen))
    if off and event.kind != AUTO:
        return CameraEvent(CONTRADICTION, (), off_the_places(off))
    return event


def off_the_places(off: Sequence[str]) -> Text:
    """Cards lying on the mat off its places (the ids of the zones they lie by), in words."""
    return tr("a card lies off its place, by {zones}: lay it in its place",
              zones=listing([zone_words(zone) for zone in dict.fromkeys(off)]))


def zone_words(zone: str) -> Text:
    """A zone of a mat by its id ("grid.1", "row.2", "gv.0", "pile.2", "ladder.3", "discard", "draw") in words."""
    kind, _, number = zone.partition(".")
    if kind == "grid":
        return tr("player {number}'s grid", number=int(number) + 1)
    if kind == "row":
        return tr("row {row}", row=int(number))
    if kind == "gv":
        return tr("player {number}'s GV cards", number=int(number) + 1)
    if kind == "pile":
        return tr("player {number}'s pile", number=int(number) + 1)
    if kind == "ladder":
        return tr("rung {rung}", rung=int(number))
    return tr("the draw pile") if kind == "draw" else tr("the discard")


def card_steps(states: Sequence[State], actions: Sequence[Action]) -> list[tuple[int, int]]:
    """What the card camera sees happen in a match (``states`` before and after each of
    ``actions``): (first, end) ranges of its actions, each up to a still table (the game's
    ``still_steps``)."""
    return CARD_READERS[states[0].game.id].still_steps(states, actions)


def decide(explained: list[Explanation], auto_apply: float, reason) -> CameraEvent:
    """Apply the best explanation when sure (its share at least ``auto_apply``, and the table it
    leaves fitting the reading: ``SURE_FIT``), offer the best two when not, or say ``reason()``."""
    if not explained:
        return CameraEvent(CONTRADICTION, (), reason())
    best = explained[0]
    if best.share >= auto_apply and best.fit >= SURE_FIT:
        return CameraEvent(AUTO, (best,))
    return CameraEvent(OFFER, tuple(e for e in explained[:2] if e is best or e.share >= MIN_SHARE))


def camera_sees(state: State, action: Action, zones: bool = False) -> bool:
    """Whether the dice camera sees ``action`` happen: a roll among the game's camera actions, and
    where it tells the mat's ``zones`` apart, a decision that moves dice into one (Excape's
    ``place 3``). Other decisions (a sheet written, Excape's ``again``) are entered by touch; the
    cards are the card camera's (``judge_cards``)."""
    if not isinstance(action, state.game.camera_actions):
        return False
    return rolled_faces(action) is not None or zones and not state.is_chance_node() and moves_dice(state, action)


def why_unexplained(state: State, seen: Reading, stayed: int = 0, zones: Zones = ()) -> Text | str:
    """Why no legal action explains the dice ``seen`` (each in its ``zones`` on a mat): too few of
    them moved for a roll, else the engine's reason for the roll the new dice seem to show, else
    what their count says, else that no roll shows them."""
    if stayed and explain(state, seen, 0, zones):
        thrown = [len(chain.rolled) for chain in chains(state, moves=bool(zones))
                  if chain.rolled and len(chain.lying) + len(chain.rolled) == len(seen)]
        if thrown:  # else what explains the dice throws none (a placement): said below
            return tr("{moved} moved and {stayed} lay still, but {game} throws {rolled}: was a die knocked?",
                      moved=dice_count(len(seen) - stayed), stayed=dice_count(stayed), game=state.game.title,
                      rolled=min(thrown))
    faces = new_dice(state, seen)
    try:
        reason = state.explain_illegal(state.game.parse_action(roll_line(faces)))
    except ParseError:  # its message names the notation, not what the players see
        return _count_problem(state, len(seen), bool(zones)) or tr("no roll of {game} shows {faces}",
                                                                    game=state.game.title, faces=listing(faces))
    return reason or _count_problem(state, len(seen), bool(zones)) or tr("no roll the rules allow now shows these dice")


def wrong_owner(state: State, seen: Reading, zones: Zones, colours: Colours, seat_colours: Sequence[str]) -> Text | str:
    """Where the dice read beyond the table's are all of one seat's colour and the roll now is
    another seat's: whose dice they are and whose turn it is ("" otherwise)."""
    if not colours:
        return ""
    thrown = {colours[die] for die in unmatched(state, seen, zones, colours, seat_colours)}
    rollers = list(dict.fromkeys(owner for chain in chains(state, moves=bool(zones))
                                 for owner in chain.owners[len(chain.lying):] if owner is not None))
    if len(thrown) != 1 or not thrown <= set(seat_colours) or not rollers or \
            thrown <= {seat_colours[seat] for seat in rollers}:
        return ""
    colour = thrown.pop()
    return tr("{owner}'s dice ({colour}) were rolled, and it is {player}'s turn",
              owner=tr("player {number}", number=seat_colours.index(colour) + 1), colour=tr(colour),
              player=tr("player {number}", number=rollers[0] + 1))


def misplaced_dice(state: State, seen: Reading, zones: Zones) -> Text | str:
    """What is wrong with where the dice were read moved to, on a mat whose zones say where they
    lie (Excape's): laid on a rung the rules refuse them (the engine's reason), or laid right but
    with dice the placement knocked off still on the ladder; "" where nothing is."""
    if not zones or state.is_chance_node():
        return ""
    return _refused_rung(state, seen, zones) or _left_on_the_ladder(state, seen, zones)


def _left_on_the_ladder(state: State, seen: Reading, zones: Zones) -> Text | str:
    """Where the dice read are a placement's table and, still where they lay, dice it knocked off
    (lower combinations on higher rungs go back to their owners): which to take away."""
    read, before = Counter(zip(faces_read(seen), zones)), Counter(zoned_dice(state.table_view()))
    for decision in state.legal_actions():
        if not moves_dice(state, decision):
            continue
        after = Counter(zoned_dice(state.apply(decision).table_view()))
        extra = read - after  # beyond the placement's table: still where they lay on the ladder?
        if extra and not after - read and not extra - before and all(
                (zone or "").startswith("ladder.") for _, zone in extra):
            return tr("the dice on {zones} are knocked off by this placement: give them back to their owner",
                      zones=listing([zone_words(zone) for zone in sorted({zone for _, zone in extra})]))
    return ""


def _refused_rung(state: State, seen: Reading, zones: Zones) -> Text | str:
    """The engine's reason against laying the dice read moved onto a rung (``place N``) now."""
    for _, zone in moved_dice(state, seen, zones):
        kind, _, rung = (zone or "").partition(".")
        if kind == "ladder":
            try:
                reason = state.explain_illegal(state.game.parse_action(f"place {rung}"))
            except ParseError:
                continue
            if reason:
                return reason
    return ""


def _count_problem(state: State, count: int, on_a_mat: bool = False) -> Text | str:
    """What is wrong with ``count`` dice on the table now ("" when a roll may leave as many). On a
    mat the camera reads only its dice zones: too few dice there may lie off them."""
    shapes = {(len(chain.lying), len(chain.rolled)) for chain in chains(state)}
    if not shapes or count in {lying + rolled for lying, rolled in shapes}:
        return ""
    lying, rolled = min(shapes)
    if lying:
        problem = tr("{seen} on the table: {lying} were there, and {game} rolls {rolled}",
                     seen=dice_count(count), lying=lying, game=state.game.title, rolled=rolled)
    else:
        problem = tr("{seen} on the table, {game} rolls {rolled}", seen=dice_count(count), game=state.game.title,
                     rolled=rolled)
    if on_a_mat and count < min(lying + rolled for lying, rolled in shapes):
        return tr("{problem}: is a die off the mat, or outside its dice zones?", problem=problem)
    return problem


def dice_count(count: int) -> Text:
    if count == 0:
        return tr("no dice")
    return tr("one die") if count == 1 else tr("{count} dice", count=count)
