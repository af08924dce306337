import sqlite3
import time

import pytest

from assistant.advice_worker import AdviceWorker
from assistant.session import Session
from assistant.views import ERROR, EXPLAIN
from assistant.store import Store
from assistant.camera_policy import AUTO, CONTRADICTION, OFFER, CameraEvent
from assistant.reconcile import Explanation
from engine import registry
from engine.core import CHANCE, TERMINAL, Advice
from engine.match import Player
from hardware.intents import Intent
from toy_game import Decide, Roll, ToyGame

registry.register(ToyGame)


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "records.sqlite3") as opened:
        yield opened


@pytest.fixture
def session(store):
    return Session(store)


def stored_lines(path, match_id):
    """What another reader of the database sees (a separate connection)."""
    db = sqlite3.connect(path)
    try:
        return [line for (line,) in db.execute("SELECT line FROM actions WHERE match_id = ? ORDER BY seq", (match_id,))]
    finally:
        db.close()


def test_home_view_lists_games_players_and_nothing_to_resume(session):
    view = session.view
    assert view.screen == "home" and "toy" in view.games and view.unfinished == ()


def test_new_match_shows_the_game_and_its_chance_node(session):
    view = session.new_match("toy", [Player("Ana", "red"), "Ben"])
    assert view.screen == "game" and view.game_id == "toy" and view.names == ("Ana", "Ben")
    assert view.to_play == CHANCE and len(view.chance) == 6
    assert [c.action for c in view.choices] == [Roll(f) for f in range(1, 7)]
    assert view.seats[0].colour == "red" and not view.can_undo


def test_every_view_change_is_already_in_the_database(session, store):
    session.new_match("toy", ["Ana", "Ben"])
    seen = []

    def check(view):
        seen.append((view.moves, stored_lines(store.path, view.match_id)))

    session.subscribe(check)
    for line in ["roll 4", "again", "roll 5", "bank"]:
        session.play(line)
    session.undo()
    assert [moves for moves, _ in seen] == [1, 2, 3, 4, 3]
    assert all(len(lines) == moves for moves, lines in seen)
    assert seen[-1][1] == ["roll 4", "again", "roll 5"]


def test_illegal_action_changes_nothing_and_says_why(session, store):
    session.new_match("toy", ["Ana", "Ben"])
    session.play("roll 3")
    before = session.position
    view = session.play(Roll(5))
    assert session.position == before and view.moves == 1
    assert view.message.kind == ERROR and view.message.text == "the player must decide first"
    assert stored_lines(store.path, view.match_id) == ["roll 3"]
    view = session.play("jump")
    assert view.message.kind == ERROR and "cannot read 'jump'" in view.message.text


def test_why_not_explains_without_playing(session):
    session.new_match("toy", ["Ana", "Ben"])
    view = session.why_not(Decide(False))
    assert view.message.kind == EXPLAIN and view.moves == 0
    assert view.message.text == "bank is not allowed: roll the die first"
    assert session.why_not("roll 2").message.text == "roll 2 is allowed now"


def test_undo_and_redo_persist_and_restore_states(session, store):
    session.new_match("toy", ["Ana", "Ben"])
    states = [session.position]
    for line in ["roll 6", "bank", "roll 2"]:
        session.play(line)
        states.append(session.position)
    session.undo()
    assert session.position == states[2]
    session.undo()
    assert session.position == states[1]
    assert stored_lines(store.path, session.view.match_id) == ["roll 6"]
    view = session.redo()
    assert session.position == states[2] and view.can_redo
    assert stored_lines(store.path, view.match_id) == ["roll 6", "bank"]
    view = session.play("roll 3")  # a new action forgets the undone one
    assert not view.can_redo and session.redo().message.text == "nothing to redo"


def test_undo_at_the_start_says_so(session):
    session.new_match("toy", ["Ana", "Ben"])
    assert session.undo().message.text == "nothing to undo: the match is at its start"


def test_finished_match_goes_to_results_and_undo_reopens_it(session, store):
    view = session.new_match("toy", ["Ana", "Ben"], {"goal": 5})
    for line in ["roll 6", "bank"]:
        view = session.play(line)
    assert view.to_play == TERMINAL and view.outcome.winners == (0,)
    assert view.turn == "Game over: Ana wins"
    assert [r.match_id for r in store.results()] == [view.match_id]
    session.undo()
    assert store.results() == () and [r.id for r in store.unfinished()] == [view.match_id]


def test_resume_reopens_exactly_where_the_game_was(store, tmp_path):
    first = Session(store)
    first.new_match("toy", ["Ana", "Ben"])
    for line in ["roll 4", "again", "roll 3"]:
        first.play(line)
    expected = first.position
    first.leave()
    assert [r.moves for r in first.view.unfinished] == [3]
    with Store(store.path) as again:
        resumed = Session(again)
        view = resumed.resume()
        assert resumed.position == expected and view.moves == 3 and view.names == ("Ana", "Ben")


def test_resume_of_a_log_that_no_longer_replays_is_refused_and_kept(session, store):
    match_id = store.start_match("toy", {}, [Player("Ana"), Player("Ben")])
    store.append_action(match_id, 1, "roll 9")
    view = session.resume(match_id)
    assert view.screen == "home" and view.message.kind == ERROR
    assert "action 1 'roll 9' does not replay" in view.message.text
    assert store.load_match(match_id).lines == ("roll 9",)


def test_bad_setups_are_refused_with_a_message_and_nothing_stored(session, store):
    assert "for 2 to 2 players" in session.new_match("toy", ["Ana"]).message.text
    assert session.new_match("toy", ["Ana", "ana"]).message.text == "two players have the same name"
    assert "unknown option 'gaol'" in session.new_match("toy", ["Ana", "Ben"], {"gaol": 3}).message.text
    assert "unknown game 'chess'" in session.new_match("chess", ["Ana", "Ben"]).message.text
    assert store.unfinished() == () and session.view.screen == "home"


def test_a_failed_write_leaves_the_view_unchanged(session, store):
    session.new_match("toy", ["Ana", "Ben"])
    before = session.position
    store._db.execute("CREATE TRIGGER refuse BEFORE INSERT ON actions BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    view = session.play("roll 4")
    assert session.position == before and view.moves == 0
    assert view.message.kind == ERROR and "disk full" in view.message.text


def test_button_intents_move_the_highlight_and_confirm(session):
    session.new_match("toy", ["Ana", "Ben"])
    session.handle_intent(Intent.NEXT)
    session.handle_intent("DOWN")
    session.handle_intent(Intent.UP)
    assert session.view.cursor == 1
    view = session.handle_intent(Intent.CONFIRM)
    assert view.last == "roll 2"
    assert session.handle_intent(Intent.UNDO).moves == 0
    assert session.handle_intent("NO_SUCH_BUTTON") is session.view
    assert session.handle_intent(Intent.MENU).screen == "home"


def offer(*shares):
    return tuple(Explanation(((Roll(face),),), share) for face, share in shares)


def test_the_confirm_button_accepts_what_the_camera_offers_first(session):
    session.new_match("toy", ["Ana", "Ben"])
    view = session.camera(session.position, CameraEvent(OFFER, offer((5, 0.7), (3, 0.3))))
    assert view.moves == 0 and [str(s) for s in view.suggestions] == ["roll 5", "roll 3"]
    assert session.handle_intent(Intent.CONFIRM).last == "roll 5"


def test_a_sure_reading_is_played_and_announced_a_contradiction_said_a_stale_one_ignored(session, store):
    session.new_match("toy", ["Ana", "Ben"])
    before = session.position
    view = session.camera(before, CameraEvent(AUTO, offer((4, 0.99))))
    assert view.last == "roll 4" and view.message.camera and view.message.text == "Camera: table: roll 4"
    assert store.load_match(view.match_id).lines == ("roll 4",) and view.can_undo
    assert session.camera(before, CameraEvent(AUTO, offer((6, 0.99)))).moves == 1  # the game moved on
    view = session.camera(session.position, CameraEvent(CONTRADICTION, (), "3 dice on the table, Pig rolls 1"))
    assert view.moves == 1 and view.message.kind == ERROR
    assert view.message.text == "Camera: 3 dice on the table, Pig rolls 1"


def test_one_undo_takes_back_all_the_camera_played_together_and_only_while_it_is_the_last(session, store):
    session.new_match("toy", ["Ana", "Ben"])
    session.play("roll 6")
    before = session.position
    seen = (Explanation(((Decide(True), Roll(4)),), 0.99),)  # "again", then the roll: one move seen
    view = session.camera(before, CameraEvent(AUTO, seen))
    assert view.moves == 3 and view.message.camera
    view = session.handle_intent(Intent.UNDO)  # one touch (the button, GPIO, the panel)
    assert session.position == before and view.moves == 1 and view.message.text == "undone: again; roll 4"
    assert stored_lines(store.path, view.match_id) == ["roll 6"]
    assert session.redo().moves == 2  # Redo brings them back one by one
    session.redo()
    session.play("bank")
    assert session.undo().message.text == "undone: bank"  # a later move is undone alone
    assert session.undo().message.text == "undone: roll 4"  # then the camera's move no longer is one
    assert session.accept(Explanation(((Roll(2), Decide(True)),), 0.9)).moves == 4  # an offer confirmed
    assert session.undo().message.text == "undone: roll 2; again" and session.view.moves == 2


def test_abandon_removes_the_match_from_the_resume_list(session, store):
    session.new_match("toy", ["Ana", "Ben"])
    session.play("roll 2")
    view = session.abandon()
    assert view.screen == "home" and view.unfinished == ()
    other = session.new_match("toy", ["Ana", "Ben"]).match_id
    session.leave()
    assert [r.id for r in session.view.unfinished] == [other]
    assert session.abandon(other).unfinished == ()


def test_notices_stand_until_dismissed(session):
    session.notify("no camera: enter dice and cards by touch")
    session.notify("no camera: enter dice and cards by touch")
    assert session.view.notices == ("no camera: enter dice and cards by touch",)
    session.new_match("toy", ["Ana", "Ben"])
    assert session.view.notices and not session.dismiss_notices().notices


def wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_advice_from_the_worker_arrives_in_a_later_view_and_stale_advice_is_dropped(store, monkeypatch):
    def advise(state):  # ranks "bank" first, with a sentence
        return [Advice(a, 1 if a == Decide(False) else 0, f"because {a}") for a in state.legal_actions()]

    monkeypatch.setattr(ToyGame, "advise", lambda game, state: advise(state))
    delivered = []
    session = Session(store)
    session.use_worker(AdviceWorker(delivered.append))
    session.new_match("toy", ["Ana", "Ben"])
    view = session.play("roll 4")
    assert view.advice_pending and all(not c.advice for c in view.choices)
    wait_for(lambda: delivered)
    delivered.pop()()
    view = session.view
    assert not view.advice_pending and view.choices[0].action == Decide(False)
    assert view.choices[0].advice == "because bank" and view.choices[0].best
    session.play("again")
    session.play("roll 5")
    wait_for(lambda: delivered)
    stale = delivered.pop()
    session.undo()  # the advice was for the state before this undo
    revision = session.view.revision
    stale()
    assert session.view.revision == revision


def test_players_without_a_colour_get_free_ones(session):
    view = session.new_match("toy", ["Ana", Player("Ben", "red")])
    assert [s.colour for s in view.seats] == ["blue", "red"]


def test_any_kind_of_screen_opens_over_the_game_and_closes_back_to_it(session):
    session.new_match("toy", ["Ana", "Ben"])
    session.play("roll 4")
    view = session.open_screen("settings")
    assert view.screen == "settings" and view.moves == 1 and view.game_id == "toy"
    assert session.play("again").screen == "settings"  # the game goes on behind it
    view = session.close_screen()
    assert view.screen == "game" and view.moves == 2
    session.leave()
    session.open_screen("results")
    assert session.close_screen().screen == "home"


def test_a_screen_kind_is_the_screens_module_of_that_name(monkeypatch):
    import sys
    import types

    from assistant.screens import screen_class, screen_name

    module = types.ModuleType("assistant.screens.camera")
    module.SCREEN = type("CameraScreen", (), {})
    monkeypatch.setitem(sys.modules, "assistant.screens.camera", module)
    assert screen_class("camera") is module.SCREEN and screen_name("camera") == "camera"
    assert screen_name("game", "hilo") == "game:hilo"


def test_a_notice_about_a_device_replaces_the_one_before_about_it(session):
    session.notify("Camera lost: enter dice and cards by touch.", "camera")
    session.notify("The serial panel is not connected (no device); touch entry works.", "panel")
    assert session.notify("Camera back.", "camera").notices == (
        "The serial panel is not connected (no device); touch entry works.", "Camera back.")
    lost = "Camera lost: enter dice and cards by touch."
    assert session.notify(lost, "camera").notices[-1] == lost
