"""A settled reading -> applied, offered, a contradiction with its reason, or no event."""
import pytest

from assistant.camera_policy import (AUTO, CONTRADICTION, OFFER, DiceJudge, camera_sees, judge, seat_dice_colours,
                                     why_unexplained)
from assistant.i18n import translate, with_names
from engine import registry
from engine.match import Match
from engine.table import EXCAPE_FACES
from vision.dice import DieReading
from vision.live import Observation


def sure(face, p=0.999, others=("1", "2", "3", "4", "5", "6")):
    rest = [f for f in others if f != face]
    return {face: p, **{f: (1 - p) / len(rest) for f in rest}}


def lettered(face):
    return sure(face, 0.999, EXCAPE_FACES)


def match(game, players, lines=()):
    played = Match(registry.make_game(game, players), [f"P{n}" for n in range(1, players + 1)])
    for line in lines:
        played.push(line)
    return played


SPLITTER = match("splitter", 2).state
EXCAPE_DECIDING = match("excape", 3, ["roll 7 6", "roll 4 6", "roll 2 1", "roll 4 3"]).state


def test_a_sure_reading_is_applied_and_a_doubtful_one_offered_with_the_next_best():
    event = judge(SPLITTER, [sure("5"), sure("3")], auto_apply=0.98)
    assert event.kind == AUTO and [str(c) for c in event.candidates] == ["roll 3 5"]
    doubtful = judge(SPLITTER, [sure("5", 0.8), sure("3")], auto_apply=0.98)
    assert doubtful.kind == OFFER and [str(c) for c in doubtful.candidates][0] == "roll 3 5"
    assert len(doubtful.candidates) == 2 and doubtful.candidates[0].share > doubtful.candidates[1].share
    never = judge(SPLITTER, [sure("5"), sure("3")], auto_apply=1.01)
    assert never.kind == OFFER


def test_a_re_roll_the_camera_cannot_see_comes_with_the_dice_it_explains():
    event = judge(EXCAPE_DECIDING, [lettered("X"), lettered("5")], auto_apply=0.98)
    assert event.kind == AUTO and str(event.candidates[0]) == "again; roll X 5"


def test_nothing_new_is_no_event():
    writing = match("splitter", 2, ["roll 3 5"]).state
    assert judge(writing, [sure("3"), sure("5")], 0.98) is None
    assert judge(writing, [sure("3")], 0.98) is None  # one die picked up


@pytest.mark.parametrize("state, seen, reason", [
    (SPLITTER, [sure("5"), sure("3"), sure("1")], "3 dice on the table, Splitter rolls 2"),
    (SPLITTER, [sure("5")], "one die on the table, Splitter rolls 2"),
    # the engine's own reasons: a roll before the sheets are written, a roll before deciding
    (match("splitter", 2, ["roll 3 5"]).state, [sure("2"), sure("4")],
     "the dice already show 3 and 5: every player writes them before the next roll"),
    (EXCAPE_DECIDING, [lettered(f) for f in "4351"],
     "player 1 has rolled 43 and must first choose: roll again or place it on the ladder"),
    # die A shows 1 2 3 4 7 X and die B 1 2 3 5 6 X (read for sure: else the likeliest rolls are offered)
    (match("excape", 3).state, [{"4": 1.0}, {"7": 1.0}],
     "no roll of Excape shows 4 and 7"),
    (match("excape", 3, ["roll 7 6"]).state, [lettered(f) for f in "76531"],
     "5 dice on the table: 2 were there, and Excape rolls 2"),
])
def test_a_reading_nothing_legal_explains_is_a_contradiction_in_the_players_words(state, seen, reason):
    event = judge(state, seen, 0.98)
    assert event.kind == CONTRADICTION and event.candidates == ()
    assert str(event.reason) == reason


def test_the_reasons_are_translated():
    event = judge(SPLITTER, [sure("5")], 0.98)
    assert translate(event.reason, "fr") == "un dé sur la table, et on lance 2 dés à Splitter"


def test_a_roll_seen_with_a_stray_die_is_played_once_the_stray_is_taken_away_though_its_dice_lay_still():
    def read(*dice):  # (face, x) of each die: a pip die read surely where it lies
        return Observation(0, 0, tuple(DieReading(float(x), 90.0, ((float(x), 90.0), (30.0, 30.0), 0.0), sure(face),
                                                  0.99, "white") for face, x in dice))

    rolled = match("splitter", 2, ["roll 3 5"])
    judge_dice = DiceJudge()
    assert judge_dice(rolled.state, read(("3", 60), ("5", 150)), 0.98) is None  # the roll played: nothing new
    written = match("splitter", 2, ["roll 3 5", "P1 writes 3 at (2,1) and 5 at (5,1)",
                                    "P2 writes 3 at (2,1) and 5 at (5,1)"]).state
    assert judge_dice(written, read(("2", 80), ("6", 200), ("4", 300)), 0.98).kind == CONTRADICTION  # a stray 4
    taken_away = judge_dice(written, read(("2", 80), ("6", 200)), 0.98)
    assert taken_away.kind == AUTO and str(taken_away.candidates[0]) == "roll 2 6"


def test_the_dice_camera_sees_rolls_only():
    writing = match("splitter", 2, ["roll 3 5"]).state
    assert camera_sees(SPLITTER, SPLITTER.legal_actions()[0])
    assert not camera_sees(writing, writing.legal_actions()[0])  # a sheet written
    again, place = EXCAPE_DECIDING.legal_actions()[:2]
    assert not camera_sees(EXCAPE_DECIDING, again) and not camera_sees(EXCAPE_DECIDING, place)
    dealing = match("holdup", 3).state
    assert not camera_sees(dealing, dealing.legal_actions()[0])  # a card drawn


def test_a_die_knocked_beside_one_that_lay_still_is_no_roll_and_is_said():
    writing = match("splitter", 2, ["roll 3 5", "P1 writes 3 at (2,1) and 5 at (5,1)", "P2 writes 3 at (2,1) and 5 at (5,1)"]).state
    assert judge(writing, [sure("3"), sure("6")], 0.98).kind == AUTO  # both dice thrown: the next roll
    knocked = judge(writing, [sure("3"), sure("6")], 0.98, stayed=1)
    assert knocked.kind == CONTRADICTION and not knocked.candidates
    assert translate(knocked.reason, "en") == \
        "one die moved and one die lay still, but Splitter throws 2: was a die knocked?"
    # dice that lie on the table through a roll stay: Excape's ladder
    ladder = match("excape", 3, ["roll 7 6", "roll 4 6", "roll 2 1", "roll 2 5", "place 5"]).state
    seen = [lettered("2"), lettered("5"), lettered("1"), lettered("6")]
    assert [str(c) for c in judge(ladder, seen, 0.98, stayed=2).candidates] == ["roll 1 6"]
    assert judge(ladder, seen, 0.98, stayed=3).kind == CONTRADICTION


def test_a_sure_share_is_not_applied_when_its_table_needs_places_read_otherwise():
    from assistant.camera_policy import SURE_FIT, decide
    from assistant.reconcile import Explanation

    roll = SPLITTER.legal_actions()[0]
    fits = [Explanation(((roll,),), 0.99, fit) for fit in (1.0, SURE_FIT, SURE_FIT / 2)]
    assert [decide([best], 0.98, lambda: "").kind for best in fits] == [AUTO, AUTO, OFFER]


def test_on_the_excape_mat_a_placement_is_applied_and_a_refused_rung_said_with_the_rules_reason():
    seen = [lettered("4"), lettered("3")]
    event = judge(EXCAPE_DECIDING, seen, 0.98, zones=["ladder.3", "ladder.3"])
    assert event.kind == AUTO and str(event.candidates[0]) == "place 3"
    assert judge(EXCAPE_DECIDING, seen, 0.98) is None  # off a mat the dice only moved: entered by touch
    # a die lying off rung 3 (between the zones): place 3 is the likeliest by far, but only offered
    off = judge(EXCAPE_DECIDING, seen, 0.98, zones=["ladder.3", None])
    assert off.kind == OFFER and str(off.candidates[0]) == "place 3" and off.candidates[0].share > 0.9
    # P2 rolls 22 and lays it on rung 3, which P1's 43 holds
    taken = match("excape", 3, ["roll 7 6", "roll 4 6", "roll 2 1", "roll 4 3", "place 3", "roll 2 2"]).state
    event = judge(taken, [*seen, lettered("2"), lettered("2")], 0.98, zones=["ladder.3"] * 4)
    assert event.kind == CONTRADICTION
    assert translate(event.reason, "en") == "rung 3 holds player 1's 43: choose an empty rung or rung 0"


def test_on_a_mat_too_few_dice_in_its_zones_may_lie_off_them_and_that_is_said():
    start = match("excape", 3).state
    off_a_mat = judge(start, [lettered("4")], 0.98)
    assert translate(off_a_mat.reason, "en") == "one die on the table, Excape rolls 2"
    on_a_mat = judge(start, [lettered("4")], 0.98, zones=["roll"])
    assert on_a_mat.kind == CONTRADICTION
    assert translate(on_a_mat.reason, "en") == \
        "one die on the table, Excape rolls 2: is a die off the mat, or outside its dice zones?"
    assert translate(on_a_mat.reason, "fr").endswith("un dé est-il hors du tapis, ou hors de ses zones de dés ?")


def test_the_camera_sees_a_placement_only_where_it_tells_the_mat_zones_apart():
    place = EXCAPE_DECIDING.game.parse_action("place 3")
    assert camera_sees(EXCAPE_DECIDING, place, zones=True) and not camera_sees(EXCAPE_DECIDING, place)
    again = EXCAPE_DECIDING.game.parse_action("again")
    assert not camera_sees(EXCAPE_DECIDING, again, zones=True)  # the dice are picked up: nothing lies anywhere new


def test_on_the_mat_dice_a_placement_knocked_off_left_on_the_ladder_are_said_then_it_is_applied():
    # P1's 43 waits on rung 5; P2's 61 on rung 3 knocks it off (a lower value on a higher rung)
    state = match("excape", 3, ["roll 7 6", "roll 4 6", "roll 2 1", "roll 4 3", "place 5", "roll 6 1"]).state
    left = judge(state, [lettered(f) for f in "4361"], 0.98, zones=["ladder.5", "ladder.5", "ladder.3", "ladder.3"])
    assert left.kind == CONTRADICTION
    assert translate(left.reason, "en") == \
        "the dice on rung 5 are knocked off by this placement: give them back to their owner"
    given_back = judge(state, [lettered("6"), lettered("1")], 0.98, zones=["ladder.3", "ladder.3"])
    assert given_back.kind == AUTO and str(given_back.candidates[0]) == "place 3"
    # the placement alone explains the dice, if none had lain still: no roll to have knocked a die of
    assert translate(why_unexplained(state, [lettered("6"), lettered("1")], 1, ["ladder.3", "ladder.3"]), "en") \
        == "2 dice on the table: 2 were there, and Excape rolls 2: is a die off the mat, or outside its dice zones?"


SEATS = ("red", "blue", "yellow")  # Excape: each seat's dice are of its player's colour


def test_a_die_of_no_players_colour_beside_the_roll_is_said_by_its_colour():
    rolloff = match("excape", 3).state
    event = judge(rolloff, [lettered("4"), lettered("5"), lettered("2")], 0.98, colours=("red", "red", "green"),
                  seat_colours=SEATS)
    assert event.kind == CONTRADICTION and not event.candidates
    assert translate(event.reason, "en") == \
        "a die of colour green is on the table, and no player has that colour: take it away"
    assert translate(event.reason, "fr") == \
        "un dé de couleur verte est sur la table, et aucun joueur n'a cette couleur : retirez-le"
    # a die of the roll named a colour nobody plays is one of the roll's all the same, its colour misread
    misnamed = judge(rolloff, [lettered("4"), lettered("5")], 0.98, colours=("red", "white"), seat_colours=SEATS)
    assert misnamed.kind == AUTO and str(misnamed.candidates[0]) == "roll 4 5"
    # and where the others are wrong too, the rules' reason is said, not the odd colour
    wrong_too = judge(rolloff, [{"4": 1.0}, {"7": 1.0}, lettered("2")], 0.98, colours=("red", "red", "green"),
                      seat_colours=SEATS)
    assert wrong_too.kind == CONTRADICTION and "green" not in translate(wrong_too.reason, "en")


def test_another_players_dice_rolled_out_of_turn_are_said_and_not_applied():
    rolloff = match("excape", 3).state  # player 1 (red) rolls first
    dice = [lettered("4"), lettered("5")]
    own = judge(rolloff, dice, 0.98, colours=("red", "red"), seat_colours=SEATS)
    assert own.kind == AUTO and str(own.candidates[0]) == "roll 4 5"
    blind = judge(rolloff, dice, 0.98, colours=("blue", "blue"))  # colours unused: faces only
    assert blind.kind == AUTO
    theirs = judge(rolloff, dice, 0.98, colours=("blue", "blue"), seat_colours=SEATS)
    assert theirs.kind == CONTRADICTION and not theirs.candidates
    assert translate(with_names(theirs.reason, ["Ana", "Ben", "Chloé"]), "en") == \
        "Ben's dice (blue) were rolled, and it is Ana's turn"
    # the deciding player's re-roll with their own dice is no contradiction
    assert judge(EXCAPE_DECIDING, [lettered("X"), lettered("5")], 0.98, colours=("red", "red"),
                 seat_colours=SEATS).kind == AUTO


def test_the_judge_of_a_match_reads_the_colours_of_its_observations():
    def read(*dice):  # (face, colour, x) of each Excape die
        return Observation(0, 0, tuple(DieReading(float(x), 90.0, ((float(x), 90.0), (30.0, 30.0), 0.0), lettered(face),
                                                  0.99, colour) for face, colour, x in dice))

    rolloff = match("excape", 3).state
    assert DiceJudge(SEATS)(rolloff, read(("4", "yellow", 60), ("5", "yellow", 150)), 0.98).kind == CONTRADICTION
    assert DiceJudge()(rolloff, read(("4", "yellow", 60), ("5", "yellow", 150)), 0.98).kind == AUTO


def test_colours_tell_the_seats_dice_apart_only_where_they_are_the_seats_and_the_reader_names_them_all():
    palette = ("white", "black", "red", "blue", "yellow", "green")
    excape, splitter = registry.make_game("excape", 3), registry.make_game("splitter", 3)
    assert seat_dice_colours(excape, SEATS, palette) == SEATS
    assert seat_dice_colours(excape, ("red", "blue", "pink"), palette) == ()  # pink: the reader cannot name it
    assert seat_dice_colours(excape, ("red", "red", "blue"), palette) == ()  # two seats alike
    assert seat_dice_colours(excape, ("red", "", "blue"), palette) == ()  # a player without a colour
    assert seat_dice_colours(splitter, SEATS, palette) == ()  # everyone's dice
    assert seat_dice_colours(excape, SEATS[:2], palette) == ()  # the seats of another match


def test_dice_out_of_turn_are_told_apart_by_colour_from_lying_dice_of_the_same_faces():
    six = ("red", "blue", "yellow", "green", "purple", "orange")
    rolloff = match("excape", 6, ["roll 3 3"]).state  # the first player's 3 and 3 lie; the second rolls
    seen = [lettered("2"), lettered("3"), lettered("3"), lettered("3")]
    event = judge(rolloff, seen, 0.98, colours=("orange", "orange", "red", "red"), seat_colours=six)
    assert event.kind == CONTRADICTION
    assert translate(with_names(event.reason, ["A", "B", "C", "D", "E", "F"]), "en") == \
        "F's dice (orange) were rolled, and it is B's turn"
