"""The consequence of a choice in plain words, shown before the player commits."""
from __future__ import annotations

from functools import reduce
from typing import Iterable

from engine.core import Action, IllegalActionError
from engine.holdup.actions import Flip, Keep, Place, Reroll, Roll, Steal
from engine.holdup.deck import Gem
from engine.holdup.rules import GV_CARDS, MAX_ROLLS, flip_gv, plan_keep
from engine.text import Text, tr


def preview(state, action: Action) -> Text:
    """What ``action`` would do now, e.g. "keep: you capture ruby 7, emerald 3; the two 4s flip
    two different GV cards of your choice; one card will be added to a row of your choice".
    IllegalActionError (with the reason) for an action that is not legal now."""
    if not state.is_legal(action):
        raise IllegalActionError(action, state.explain_illegal(action))
    if isinstance(action, Keep):
        return tr("keep: {consequences}", consequences=join(keep_consequences(state, state.dice)))
    if isinstance(action, Reroll):
        if not action.faces:
            return tr("roll all four dice again (roll {roll} of {most})", roll=state.rolls + 1, most=MAX_ROLLS)
        kept = list(state.dice)
        for face in action.faces:
            kept.remove(face)
        return tr("roll {faces} again and keep {kept} (roll {roll} of {most})", faces=_faces(action.faces),
                  kept=_faces(kept), roll=state.rolls + 1, most=MAX_ROLLS)
    if isinstance(action, Flip):
        return tr("flip GV {cards}: {effect}", cards=_faces(action.cards),
                  effect=gv_effect(flip_gv(state.gv[state.seat], action.cards)))
    if isinstance(action, Place):
        placed = tr("{card} goes to the right end of row {row}", card=str(state.held), row=action.row)
        if state.draw_total() == 0 and state.last_card_by is None:
            return join([placed, tr("it is the last card of the draw pile: -10 points for you")])
        return placed
    if isinstance(action, Steal):
        return tr("you take {card} from the top of player {player}'s pile",
                  card=str(state.piles[action.victim][-1]), player=action.victim + 1)
    if isinstance(action, Roll):
        return tr("the dice show {faces}", faces=_faces(action.faces))
    return tr("{card} is drawn", card=str(Gem(action.stone, action.value)))


def keep_consequences(state, dice: tuple[int, ...]) -> list[Text]:
    """What keeping ``dice`` does for the player to move, one sentence per kind of die."""
    plan = plan_keep(state.rows, dice)
    parts = []
    if plan.short_row:
        parts.append(_short_row(plan.short_row, len(state.rows[plan.short_row - 1]), plan.aimed_at(plan.short_row)))
    elif plan.captured:
        parts.append(tr("you capture {cards}", cards=cards_text(plan.captured)))
    if plan.fours:
        parts.append(_fours(state, plan.fours, resolved=not plan.short_row))
    if plan.fives:
        parts.extend(_fives(state, plan.fives))
    return parts


def _short_row(row: int, cards: int, aimed: int) -> Text:
    if cards == 0 and aimed == 1:
        return tr("row {row} is empty but a die shows {row}: you capture nothing anywhere", row=row)
    if cards == 0:
        return tr("row {row} is empty but {dice} dice show {row}: you capture nothing anywhere", row=row, dice=aimed)
    if cards == 1:
        return tr("row {row} has only 1 card but {dice} dice show {row}: you capture nothing anywhere",
                  row=row, dice=aimed)
    return tr("row {row} has only {cards} cards but {dice} dice show {row}: you capture nothing anywhere",
              row=row, cards=cards, dice=aimed)


def _fours(state, fours: int, resolved: bool) -> Text:
    if not resolved:
        return tr("the 4 is not resolved") if fours == 1 else tr("the 4s are not resolved")
    if fours == 1:
        return tr("the 4 flips one GV card of your choice")
    if fours == 2:
        return tr("the two 4s flip two different GV cards of your choice")
    if fours == 3:
        return tr("the three 4s flip all three GV cards: {effect}",
                  effect=gv_effect(flip_gv(state.gv[state.seat], tuple(range(1, GV_CARDS + 1)))))
    pile = state.piles[state.seat]
    if not pile:
        return tr("four 4s: your pile is empty, so nothing is lost")
    if state.game.options.lost_card == "draw_pile" and state.draw_total():
        return tr("four 4s: {card}, the top of your pile, goes back into the draw pile", card=str(pile[-1]))
    return tr("four 4s: you lose {card}, the top of your pile", card=str(pile[-1]))


def _fives(state, fives: int) -> list[Text]:
    available = state.draw_total()
    added = min(fives, available)
    if not added:
        return [tr("the draw pile is empty, so the 5s and 6s add nothing")]
    parts = [tr("one card will be added to a row of your choice") if added == 1
             else tr("{count} cards will be added to rows of your choice", count=added)]
    if added < fives:
        parts.append(tr("only {count} of them are left in the draw pile", count=added))
    if state.last_card_by is None and available <= fives:
        parts.append(tr("you will place the last card of the draw pile: -10 points"))
    return parts


def gv_effect(faces: str) -> Text:
    """What a set of GV faces is worth at the end."""
    shown = " ".join(faces)
    if faces == "V" * GV_CARDS:
        return tr("your GV cards show {faces}: +10 points at the end", faces=shown)
    if faces == "G" * GV_CARDS:
        return tr("your GV cards show {faces}: at the end you take the top card of another player's pile",
                  faces=shown)
    return tr("your GV cards show {faces}: no bonus", faces=shown)


def cards_text(cards: Iterable[Gem]) -> str:
    return ", ".join(map(str, cards))


def join(parts: list[Text]) -> Text:
    """Sentences joined with "; ", staying translatable part by part."""
    return reduce(lambda first, then: tr("{first}; {then}", first=first, then=then), parts)


def _faces(faces: Iterable[int]) -> str:
    return " ".join(map(str, faces))
