"""What a Hold Up 4D6 position looks like: for the camera, for `replay --json`, and for a person."""
from __future__ import annotations

from typing import Any, Sequence

from engine.holdup.rules import DICE, MAX_ROLLS, OPENING_PER_ROW, ROWS
from engine.table import EMPTY, FACE_DOWN
from engine.text import tr


def table_view(state) -> dict[str, Any]:
    """Rows left to right (row 1 = bottom first), the dice on the table, the draw pile, the card
    waiting for its row, and each player's GV faces and pile top, in engine.table's words."""
    return {
        "rows": [[str(gem) for gem in cards] for cards in state.rows],
        "dice": [str(face) for face in state.dice],
        "draw_pile": FACE_DOWN if state.draw_total() else EMPTY,
        "held": str(state.held) if state.held is not None else EMPTY,
        "players": [
            {"gv": [f"gv {face}" for face in faces], "pile_top": str(pile[-1]) if pile else EMPTY}
            for faces, pile in zip(state.gv, state.piles)
        ],
    }


def summary(state) -> dict[str, Any]:
    """Whose turn, the rows, and each player's score breakdown (JSON-ready)."""
    scores = state.scores()
    in_turn = state.phase not in ("deal", "over")
    return {
        "phase": state.phase,
        "turn": state.turn,
        "turn_of": state.seat if in_turn else None,
        "rolls": state.rolls,
        "dice": list(state.dice),
        "rows": [[str(gem) for gem in cards] for cards in state.rows],
        "draw_pile": state.draw_total(),
        "removed": [str(gem) for gem in state.removed],
        "last_card_by": state.last_card_by,
        "steals": [{"thief": thief, "victim": victim, "card": str(gem)} for thief, victim, gem in state.steals],
        "scores": [
            {"seat": seat, "gv": state.gv[seat], "pile": [str(gem) for gem in reversed(state.piles[seat])],
             **score}
            for seat, score in enumerate(scores)
        ],
        "totals": [score["total"] for score in scores],
        "winners": list(state.outcome().winners) if state.is_terminal() else [],
    }


def describe(state, names: Sequence[str]) -> str:
    lines = [_headline(state, names)]
    for row in range(ROWS, 0, -1):  # top row first, as the players see the table
        cards = state.rows[row - 1]
        lines.append(tr("row {row}: {cards}", row=row, cards=", ".join(map(str, cards)) or "-"))
    lines.append(tr("draw pile: {count} cards", count=state.draw_total()))
    for seat, score in enumerate(state.scores()):
        pile = state.piles[seat]
        lines.append(tr("{name}: {total} points (cards {cards}, VVV {vvv}, sets {sets}, last card {last_card});"
                        " GV {gv}; pile top {top}",
                        name=names[seat], total=score["total"], cards=score["cards"], vvv=score["vvv"],
                        sets=score["sets"], last_card=score["last_card"], gv=" ".join(state.gv[seat]),
                        top=str(pile[-1]) if pile else "-"))
    for thief, victim, gem in state.steals:
        lines.append(tr("{thief} (G G G) took {card} from {victim}", thief=names[thief], card=str(gem),
                        victim=names[victim]))
    return "\n".join(lines)


def _headline(state, names: Sequence[str]) -> str:
    name = names[state.seat]
    if state.phase == "deal":
        dealt = sum(len(cards) for cards in state.rows)
        return tr("dealing the opening rows: {dealt} of {total} cards", dealt=dealt, total=ROWS * OPENING_PER_ROW)
    if state.phase == "over":
        winners = state.outcome().winners
        return tr("game over after {turns} turns: {names} won with {points} points", turns=state.turn,
                  names=", ".join(names[seat] for seat in winners), points=state.scores()[winners[0]]["total"])
    if state.phase == "roll":
        return tr("turn {turn}: {name} rolls {count} dice (roll {roll} of {most})", turn=state.turn, name=name,
                  count=DICE - len(state.dice), roll=state.rolls + 1, most=MAX_ROLLS)
    if state.phase == "decide":
        return tr("turn {turn}: {name} rolled {dice} (roll {roll} of {most}): keep or roll again", turn=state.turn,
                  name=name, dice=" ".join(map(str, state.dice)), roll=state.rolls, most=MAX_ROLLS)
    if state.phase == "flip":
        return tr("turn {turn}: {name} chooses {count} GV cards to flip", turn=state.turn, name=name,
                  count=state.dice.count(4))
    if state.phase == "draw":
        return tr("turn {turn}: {name} draws a card for a 5 or 6 ({count} to place)", turn=state.turn, name=name,
                  count=state.to_place)
    if state.phase == "place":
        return tr("turn {turn}: {name} places {card} at the end of a row", turn=state.turn, name=name,
                  card=str(state.held))
    return tr("end of the game: {name} (G G G) chooses whose top card to take", name=name)
