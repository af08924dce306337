"""A Hilo position as JSON, and the checks that refuse an inconsistent one (naming the field).

Grids and card lists are written as the rules write them (engine.hilo.positions): "R7 ?? B3 / ...".
"""
from __future__ import annotations

from typing import Any, Mapping

from engine.core import InvalidStateError, field_of, require
from engine.hilo import grid as g
from engine.hilo import phases as ph
from engine.hilo.cards import DECK_SIZE, GAP, HIDDEN
from engine.hilo.grid import GRID_CARDS
from engine.hilo.positions import cards_text, grid_text, read_cards, read_grid
from engine.hilo.scoring import game_over


def state_to_dict(state) -> dict[str, Any]:
    palette = state.game.palette
    return {
        "round": state.round_no,
        "totals": list(state.totals),
        "rounds": [{"scores": list(scores), "trigger": trigger} for scores, trigger in state.rounds],
        "phase": state.phase,
        "player": state.player,
        "grids": [grid_text(grid, palette) for grid in state.grids],
        "discard": cards_text(state.discard, palette),
        "draw_pile": {"unseen": state.fresh, "reshuffled": cards_text(state.recycled, palette)},
        "drawn": None if state.drawn is None else palette.code(state.drawn),
        "pending": None if state.pending is None else dict(zip(("seat", "row", "col"), state.pending)),
        "trigger": state.trigger,
        "last_turns": state.last_turns,
        "declined": list(state.declined),
        "final": state.final,
    }


def copy_dict(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of a ``state_to_dict`` result sharing nothing mutable with it (faster than deepcopy)."""
    pending = data["pending"]
    return {**data, "totals": list(data["totals"]),
            "rounds": [dict(r, scores=list(r["scores"])) for r in data["rounds"]],
            "grids": list(data["grids"]), "draw_pile": dict(data["draw_pile"]),
            "pending": None if pending is None else dict(pending), "declined": list(data["declined"])}


def fields_from_dict(game, data: Mapping[str, Any]) -> dict[str, Any]:
    """The HiloState keyword arguments for ``data``; InvalidStateError naming the bad field."""
    require(isinstance(data, Mapping), "state", "expected an object")
    n = game.num_players
    reader = _CardReader(game.palette)

    round_no = field_of(data, "round", int)
    require(round_no >= 1, "round", "rounds count from 1")
    totals = _ints(data, "totals", n)
    rounds = []
    for i, entry in enumerate(field_of(data, "rounds", list)):
        where = f"rounds[{i}]"
        require(isinstance(entry, Mapping), where, "expected an object with scores and trigger")
        scores = _ints(entry, "scores", n, where)
        trigger = _nested(entry, "trigger", int, where)
        require(0 <= trigger < n, f"{where}.trigger", f"no seat {trigger} among {n} players")
        rounds.append((tuple(scores), trigger))
    require(totals == [sum(s[seat] for s, _ in rounds) for seat in range(n)], "totals",
            "must be the sums of the scores of the finished rounds")

    phase = field_of(data, "phase", str)
    require(phase in ph.ALL, "phase", f"unknown phase {phase!r} (one of {', '.join(ph.ALL)})")
    finished = round_no if phase == ph.OVER else round_no - 1
    require(len(rounds) == finished, "rounds", f"expected {finished} finished rounds in round {round_no}")
    require((phase == ph.OVER) == (bool(rounds) and game_over(totals)), "phase",
            "the game is over exactly when a running total has reached 100 after a round")
    player = field_of(data, "player", int)
    require(0 <= player < n, "player", f"no seat {player} among {n} players")

    raw_grids = field_of(data, "grids", list)
    require(len(raw_grids) == n, "grids", f"expected {n} grids, got {len(raw_grids)}")
    grids = tuple(reader.grid(raw, f"grids[{seat}]") for seat, raw in enumerate(raw_grids))
    discard = reader.cards(field_of(data, "discard", str), "discard")
    pile = field_of(data, "draw_pile", dict)
    fresh = _nested(pile, "unseen", int, "draw_pile")
    recycled = reader.cards(_nested(pile, "reshuffled", str, "draw_pile"), "draw_pile.reshuffled")
    require(fresh >= 0, "draw_pile.unseen", "cannot be negative")
    require(not (fresh and recycled), "draw_pile",
            "the discards are reshuffled only into an empty pile, so it cannot hold both")
    drawn = None
    if data.get("drawn") is not None:
        hand = reader.cards(field_of(data, "drawn", str), "drawn")
        require(len(hand) == 1, "drawn", f"expected one card, got {data['drawn']!r}")
        drawn = hand[0]
    hidden = sum(g.hidden_count(grid) for grid in grids)
    in_flight = 1 if phase == ph.SWAP_REVEAL else 0  # the face-down card swapped out, being turned up
    require(hidden + in_flight + fresh + len(reader.seen) == DECK_SIZE, "draw_pile.unseen",
            f"{hidden} face-down + {in_flight} being turned up + {fresh} unseen in the pile + "
            f"{len(reader.seen)} seen cards must make the {DECK_SIZE} cards of the deck")

    require(phase != ph.DRAW or fresh + len(recycled) > 0, "draw_pile", "a card is being drawn from an empty pile")
    pending = _pending(data.get("pending"), phase, grids, player)
    trigger, last_turns = data.get("trigger"), data.get("last_turns")
    require((trigger is None) == (last_turns is None), "last_turns", "is set exactly when a player ended the round")
    if trigger is not None:
        require(isinstance(trigger, int) and 0 <= trigger < n, "trigger", f"no seat {trigger!r} among {n} players")
        require(isinstance(last_turns, int) and 0 <= last_turns < n, "last_turns", f"0 to {n - 1}, got {last_turns!r}")
    declined = tuple(_ints(data, "declined", n))
    require(all(d >= 0 for d in declined), "declined", "counts cannot be negative")
    final = field_of(data, "final", bool)

    _check_phase(phase, grids, discard, drawn, trigger, last_turns, final, player, fresh, n)
    return dict(round_no=round_no, totals=totals, rounds=rounds, phase=phase, player=player, grids=grids,
                discard=discard, fresh=fresh, recycled=recycled, drawn=drawn, pending=pending,
                trigger=trigger, last_turns=last_turns, declined=declined, final=final)


def _check_phase(phase, grids, discard, drawn, trigger, last_turns, final, player, fresh, n) -> None:
    """What each step of the round requires of the position."""
    require((drawn is not None) == (phase == ph.DRAWN), "drawn", f"a drawn card exists exactly in phase {ph.DRAWN}")
    require(not final or phase in (ph.HILO, ph.SLIDE), "final", "only the HILO decisions of the final reveal are final")
    setup = phase in (ph.START, ph.SETUP, ph.SETUP_REVEAL, ph.TIE)
    for seat, grid in enumerate(grids):
        where = f"grids[{seat}]"
        if setup:
            require(g.shape(grid) == (3, 3), where, "every grid is 3x3 until the first turn")
            require(g.face_up_count(grid) <= 2, where, "at most two cards are turned up before the first turn")
        gaps = sum(row.count(GAP) for row in grid)
        if phase == ph.SLIDE and seat == player:
            require(gaps == 3 and g.shape(grid) == (3, 3) and (
                all(grid[i][i] == GAP for i in range(3)) or all(grid[i][2 - i] == GAP for i in range(3))),
                where, "after removing a diagonal the three cells of that diagonal are empty")
        else:
            require(gaps == 0, where, "only the diagonal just removed may leave empty cells")
    if phase == ph.START:
        require(not discard and fresh == DECK_SIZE - GRID_CARDS * n and not any(
            g.face_up_count(grid) for grid in grids), "phase", "a round starts with every card dealt face down")
    elif phase not in (ph.SWAP_REVEAL, ph.OVER):
        require(bool(discard), "discard", "the discard pile is empty only before the round starts")
    if phase == ph.TIE:
        sums = [g.known_sum(grid) for grid in grids]
        require(all(g.face_up_count(grid) == 2 for grid in grids) and sums.count(max(sums)) > 1,
                "phase", "the table is asked for the youngest only when players are tied for the highest sum")
    if phase == ph.SETUP:
        require(any(g.face_up_count(grid) < 2 for grid in grids), "phase", "every player has revealed two cards")
    if phase == ph.HILO:
        require(bool(g.hilo_lines(grids[player])), "phase", f"player {player} has no HILO to decide about")
    if phase in (ph.TURN, ph.DRAWN, ph.DRAW):
        require(bool(grids[player]), f"grids[{player}]", "the player on turn has no card left")
    if phase == ph.FINAL_REVEAL or final:
        require(trigger is not None and last_turns == 0, "trigger", "the final reveal comes after the last turns")
    elif phase in (ph.TURN, ph.DRAW, ph.DRAWN, ph.SWAP_REVEAL, ph.FLIP_REVEAL, ph.HILO, ph.SLIDE):
        require(trigger is None or last_turns >= 1, "last_turns", "a turn after the last one")
    else:
        require(trigger is None, "trigger", f"no one has ended the round in phase {phase}")


def _pending(raw, phase, grids, player):
    if phase not in ph.REVEALS:
        require(raw is None, "pending", "a card is turned up only at a reveal")
        return None
    require(isinstance(raw, Mapping), "pending", f"phase {phase} needs the seat, row and col being turned up")
    seat = _nested(raw, "seat", int, "pending")
    row, col = _nested(raw, "row", int, "pending"), _nested(raw, "col", int, "pending")
    require(0 <= seat < len(grids), "pending.seat", f"no seat {seat}")
    rows, cols = g.shape(grids[seat])
    require(0 <= row < rows and 0 <= col < cols, "pending", f"no cell at row {row}, col {col} of seat {seat}")
    cell = grids[seat][row][col]
    if phase == ph.SWAP_REVEAL:
        require(seat == player and cell >= 0, "pending", "the swapped-in card lies face up where the face-down one was")
    else:
        require(cell == HIDDEN, "pending", "the card being turned up must still be face down")
        require(phase != ph.FLIP_REVEAL or seat == player, "pending.seat", "only the player on turn flips")
    return seat, row, col


def _nested(data: Mapping[str, Any], name: str, kind: type, parent: str) -> Any:
    """``field_of`` for a field inside ``parent``, named with its path ("draw_pile.unseen")."""
    try:
        return field_of(data, name, kind)
    except InvalidStateError as exc:
        raise InvalidStateError(f"{parent}.{exc}") from None


def _ints(data: Mapping[str, Any], name: str, n: int, where: str = "") -> list[int]:
    label = f"{where}.{name}" if where else name
    values = data.get(name)
    require(isinstance(values, list) and len(values) == n
            and all(isinstance(v, int) and not isinstance(v, bool) for v in values),
            label, f"expected {n} whole numbers, got {values!r}")
    return values


class _CardReader:
    """Reads grids and card lists, refusing a card that appears twice."""

    def __init__(self, palette):
        self.palette = palette
        self.seen: dict[int, str] = {}

    def grid(self, text: Any, where: str) -> g.Grid:
        try:
            grid = read_grid(text, self.palette)
        except ValueError as exc:
            raise InvalidStateError(f"{where}: {exc}") from None
        for r, c, cell in g.cells(grid):
            if cell >= 0:
                self._once(cell, f"{where} row {r + 1} column {c + 1}")
        return grid

    def cards(self, text: str, where: str) -> tuple[int, ...]:
        try:
            cards = read_cards(text, self.palette)
        except ValueError as exc:
            raise InvalidStateError(f"{where}: {exc}") from None
        for card in cards:
            self._once(card, where)
        return cards

    def _once(self, card: int, where: str) -> None:
        require(card not in self.seen, where,
                f"{self.palette.code(card)} is also in {self.seen.get(card)}: every card exists once")
        self.seen[card] = where
