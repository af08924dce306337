"""Hidden cards, card counting, the reshuffled draw pile, and advice checked by brute force."""
import random
from collections import Counter
from fractions import Fraction
import json

import pytest

from engine.core import Advice
from engine.match import Match
from engine.testing import check_game
from engine.hilo import Draw, Flip, HiloGame, Seen, Take, advise, count_cards
from engine.hilo import phases as ph
from engine.hilo.cards import DECK
from engine.hilo.positions import position

GAME = HiloGame(2)
CODE = GAME.palette.code


def play(state, *lines, game=GAME):
    for line in lines:
        state = state.apply(game.parse_action(line))
    return state


# --- counting while the pile is the dealt one -----------------------------------------------------

OPENING = ["card blue 3", "reveal p1 r1c1", "card red 7", "reveal p1 r1c2", "card red 2",
           "reveal p2 r2c2", "card green 9", "reveal p2 r1c3", "card yellow 11", "youngest p2"]
SEEN = ["B3", "R7", "R2", "G9", "Y11"]


def _value(code):
    return int(code[1:])


def test_an_unseen_card_is_any_card_not_seen_with_exact_probabilities():
    match = Match(GAME, ["Ana", "Ben"])
    for line in OPENING[:-1]:
        match.push(line)
    count = count_cards(match.state)
    unseen = 104 - len(SEEN)
    assert len(count.face_down.cards) == unseen
    assert count.face_down.colours()["red"] == Fraction(13 - 2, unseen)
    assert count.face_down.colours()["pink"] == Fraction(13, unseen)
    assert count.face_down.values()[11] == Fraction(8 - 1, unseen)
    assert count.face_down.probability(colour="red", value=7) == 0
    assert count.face_down.mean() == Fraction(520 - sum(map(_value, SEEN)), unseen)
    assert count.next_draw.cards == count.face_down.cards  # the dealt pile is as unknown as the grids
    positions = count.expected_positions(0)
    assert len(positions) == 7 and set(positions.values()) == {count.face_down.mean()}
    assert count.expected_score(0) == 7 + 2 + 7 * count.face_down.mean()
    json.dumps(count.to_dict())


def test_every_reveal_is_drawn_from_the_unseen_cards():
    state = GAME.new_initial_state()
    assert {p for _, p in state.chance_outcomes()} == {Fraction(1, 104)}
    state = play(state, *OPENING[:3])
    outcomes = dict(play(state, "reveal p1 r3c3").chance_outcomes())
    assert len(outcomes) == 102 and Seen("red", 7) not in outcomes and Seen("blue", 3) not in outcomes


# --- the reshuffled draw pile ---------------------------------------------------------------------

ANA = "R1 ?? B3 / R4 G5 R6 / K7 G8 B9"
BEN = "B1 Y2 Y3 / ?? B5 B6 / B7 ?? O9"
HIDDEN = ("G0", "G1", "G3")  # the face-down cards are the only cards nobody has seen


def _empty_pile(game=GAME, top="G2"):
    on_grids = set((ANA + " " + BEN).replace("/", " ").split()) - {"??"}
    rest = [CODE(c) for c in DECK if CODE(c) not in on_grids | set(HIDDEN) | {top}]
    random.Random(1).shuffle(rest)  # discarded in the order of play
    return position(game, [ANA, BEN], " ".join(rest + [top]), player=1)


def test_an_empty_pile_is_made_of_the_discards_but_the_top_one():
    state = _empty_pile()
    assert state.draw_pile_size() == 0 and len(state.discard) == 86
    drawing = play(state, "draw")
    outcomes = dict(drawing.chance_outcomes())
    assert len(outcomes) == 85 and set(outcomes.values()) == {Fraction(1, 85)}
    assert Seen("green", 2) not in outcomes and [CODE(c) for c in drawing.discard] == ["G2"]
    assert drawing.explain_illegal(Seen("green", 0)) == (
        "the draw pile was made from the discards and the green 0 was not among them")
    flipping = play(drawing, "card blue 10", "flip r2c1")
    assert dict(flipping.chance_outcomes()) == {Seen("green", v): Fraction(1, 3) for v in (0, 1, 3)}


def test_after_a_reshuffle_the_face_down_cards_are_known_as_a_set():
    count = count_cards(_empty_pile())
    assert sorted(count.face_down.names()) == ["green 0", "green 1", "green 3"]
    assert count.face_down.colours()["green"] == 1 and count.face_down.mean() == Fraction(4, 3)
    assert count.face_down.values()[3] == Fraction(1, 3) and count.face_down.values()[2] == 0
    assert len(count.next_draw.cards) == 85  # what the draw would reshuffle


def test_without_reshuffling_an_empty_pile_cannot_be_drawn_from():
    state = _empty_pile(HiloGame(2, {"reshuffle_discards": False}))
    assert Draw() not in state.legal_actions() and not count_cards(state).next_draw.cards
    assert state.explain_illegal(Draw()) == (
        "the draw pile is empty and the discards are not reshuffled at this table: take the discard")


class _FromEmptyPile(HiloGame):
    def new_initial_state(self):
        return _empty_pile(self)


def test_games_from_a_reshuffled_pile_pass_the_invariant_suite():
    summary = check_game(_FromEmptyPile(2), games=3, seed=5, apply_limit=2)
    assert summary.games == 3 and summary.illegal_probes > 0


# --- advice, checked against a brute-force expectation over the engine's own moves -------------

def _after_turn(state, mover):
    """Expected score of ``mover`` once the turn is over: chance averaged, the mover's choices at best."""
    if state.phase in (ph.DRAW, ph.SWAP_REVEAL, ph.FLIP_REVEAL):
        return sum(p * _after_turn(state.apply(a), mover) for a, p in state.chance_outcomes())
    if state.phase in ph.MOVER_PHASES and state.current_player() == mover:
        return min(_after_turn(state.apply(a), mover) for a in state.legal_actions())
    return count_cards(state).expected_score(mover)


def _check_against_brute_force(state, actions=None):
    mover = state.current_player()
    before = count_cards(state).expected_score(mover)
    advice = advise(state)
    assert [a.action for a in advice] == sorted(state.legal_actions(), key=lambda a: (
        -next(x.value for x in advice if x.action == a), a.sort_key()))
    for item in advice:
        if actions is None or type(item.action) in actions:
            assert item.value == before - _after_turn(state.apply(item.action), mover), item.action
    return advice


def test_advice_on_every_action_of_a_turn_after_a_reshuffle_is_exact():
    advice = _check_against_brute_force(play(_empty_pile(), "take r2c1", "card green 0"))
    assert all(isinstance(a, Advice) and isinstance(a.value, Fraction) for a in advice)


def test_advice_after_drawing_with_hilo_chances_is_exact():
    drawn = play(_empty_pile(), "take r2c1", "card green 1", "draw", "card yellow 5")  # Ana holds the Y5
    advice = {str(a.action): a for a in _check_against_brute_force(drawn)}
    # the last face-down card is the green 0 or 3: turning it up completes column 2 (G5 G8) for sure
    assert advice["flip r1c2"].text.endswith("Chance of a HILO: 100.0%.")
    assert advice["flip r1c2"].value == (43 + Fraction(0 + 3, 2)) - 30


def test_flip_advice_on_the_dealt_pile_is_exact():
    state = position(GAME, ["G1 ?? ?? / G2 ?? ?? / ?? ?? ??", "?? ?? ?? / ?? ?? ?? / ?? ?? ??"], "B3",
                     phase="drawn", drawn="K11")
    advice = {str(a.action): a for a in _check_against_brute_force(state, actions=(Flip,))}
    chance = Fraction(13 - 2, 104 - 4)  # a green card at r3c1 completes column 1
    assert f"Chance of a HILO: {float(chance * 100):.1f}%." in advice["flip r3c1"].text
    assert advice["flip r3c1"].value > advice["flip r3c2"].value == 0


def test_take_advice_counts_the_card_it_replaces_and_the_hilo_it_completes():
    state = position(GAME, ["G1 G2 ?? / R9 ?? ?? / ?? ?? ??", "?? ?? ?? / ?? ?? ?? / ?? ?? ??"], "B1 G3")
    mean = count_cards(state).face_down.mean()
    advice = {str(a.action): a for a in advise(state)}
    assert advice["take r2c1"].value == 9 - 3
    assert advice["take r2c2"].value == mean - 3
    assert advice["take r1c3"].value == mean - 3 + (1 + 2 + 3)
    assert advice["take r1c3"].text.endswith("This completes a HILO: remove row 1.")
    assert advise(state)[0].action == Take(0, 2)


def test_advice_at_the_table_choices_and_none_at_chance():
    state = play(GAME.new_initial_state(), "card blue 3")
    assert {a.value for a in advise(state)} == {0} and len(advise(state)) == 18
    assert advise(GAME.new_initial_state()) == []
    tie = play(state, "reveal p1 r1c1", "card red 7", "reveal p1 r1c2", "card red 2",
               "reveal p2 r1c1", "card green 4", "reveal p2 r1c2", "card green 5")
    assert [(str(a.action), a.value) for a in advise(tie)] == [("youngest p1", 0), ("youngest p2", 0)]
    assert advise(tie)[1].text.startswith("player 2 is the youngest and starts")
    assert advise(play(tie, "youngest p1", "draw")) == []  # a chance outcome: nobody to advise


@pytest.mark.parametrize("line, words", [
    ("remove diag", "remove the HILO in the diagonal from the top left"),
    ("keep", "keep the HILO (do not remove it): your expected round score stays at"),
])
def test_advice_at_a_hilo(line, words):
    state = position(GAME, ["Y4 B4 R2 / G7 Y1 ?? / O3 P5 Y6", "?? ?? ?? / ?? ?? ?? / ?? ?? ??"], "B3",
                     phase="hilo")
    advice = {str(a.action): a for a in advise(state)}
    assert advice[line].text.startswith(words)
    assert advice["remove diag"].value == 4 + 1 + 6
    slide = advise(state.apply(GAME.parse_action("remove diag")))
    assert {str(a.action) for a in slide} == {"slide vertical", "slide horizontal"}
    assert Counter(a.value for a in slide) == Counter({0: 2})
