"""Every screen as a new user sees it, in English and French, at 800x480 and 1280x800: no text
that does not fit its widget, no widgets overlapping or outside the window, no touch target
under 48 px (tests/layout_check.py). Each one's screenshots go to test-artifacts/screenshots/
with a gallery page, gallery.html, that opens in a browser."""
import html
import random
from pathlib import Path

import pytest

from assistant.session import Session
from assistant.store import IN_MEMORY, Store
from engine.holdup import Place as HoldUpPlace
from engine.match import Player
from layout_check import findings

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
SIZES = ((800, 480), (1280, 800))
NAMES = ("Ana", "Ben", "Chloé", "Dev", "Emma", "Farid", "Gaëlle", "Hugo", "Inès", "Jules", "Karim", "Léa")


@pytest.fixture
def session(ui):
    session = ui.use(Session(Store(IN_MEMORY)))
    yield session
    ui.app.set_language("en")
    session.close_screen()
    session.leave()
    ui.resize(800, 480)


def check_all(ui, shows):
    """Findings of each screen of ``shows`` (its name -> a function that shows it), in both
    languages and sizes; their screenshots, named. Each language and each size is set once for
    all of them: a resize costs two seconds here, and a language builds every screen again."""
    from kivy.core.window import Window

    found = []
    for language, sizes in (("en", SIZES), ("fr", SIZES[::-1])):
        ui.app.set_language(language)
        for width, height in sizes:
            if tuple(Window.size) != (width, height):
                ui.resize(width, height)
            for name, show in shows.items():
                show()
                found += [f"{name} {language} {width}x{height}: {line}" for line in dict.fromkeys(findings(ui))]
                ui.shot(f"gallery-{name}-{language}-{width}x{height}")
    ui.app.set_language("en")
    return found


def reach(session, game, players, reached, seed=1, pick=None, limit=3000, options=None):
    """A new match of ``game`` (with ``options``) played with seeded moves (``pick(state, rng)``
    or random ones) until ``reached(view)``, on a session of the same store that no screen
    shows and that gives no advice (each move shown and advised costs more than the rest of
    the test): its id and its last move."""
    behind = Session(session.store, advice=False)
    behind.new_match(game, [Player(name) for name in NAMES[:players]], options)
    rng = random.Random(seed)
    for _ in range(limit):
        view = behind.view
        if reached(view):
            break
        assert view.outcome is None, f"{game}: the game ended first"
        state = behind.position
        action = (state.sample_chance(rng) if state.is_chance_node() else
                  (pick(state, rng) if pick else None) or rng.choice(state.legal_actions()))
        behind.play(action)
    else:
        raise AssertionError(f"{game}: not reached")
    return view.match_id, (behind.match.history[-1] if behind.match.history else None)


def shown(ui, session, match_id, last):
    """A function that shows the stored match ``match_id``, its ``last`` move taken back and
    played again so that its screen says it, as it did when played."""
    def show():
        session.resume(match_id)
        if last is not None:
            session.undo()
            session.play(last)
        ui.wait(lambda: not session.view.advice_pending, timeout=60)  # findings() lays it out
    return show


def over(view):
    return view.outcome is not None


def test_home_screens(ui, session):
    store = session.store
    for name, colour in zip(NAMES[:8], ("red", "blue", "yellow", "green", "purple", "orange", "pink", "lime")):
        store.save_player(name, colour)
    first = Session(store)
    first.new_match("excape", ["Ana", "Ben", "Chloé"])
    first.play("roll 4 6")
    session.leave()

    def at_home(section, game=None):
        """Shows the home screen's ``section``, with three players seated for ``game``."""
        def show():
            session.close_screen()
            home = ui.screen
            home.show(section)
            if game is not None:
                home.pick_game(game)
                for player in list(home.seated):
                    home.toggle_player(player.name)
                for name in NAMES[:3]:
                    home.toggle_player(name)
        return show

    shows = {f"home-{game}": at_home("new", game) for game in ("hilo", "excape", "holdup", "splitter")}
    shows |= {"home-resume": at_home("resume"), "home-results": at_home("results"),
              "settings": lambda: session.open_screen("settings"), "deck": lambda: session.open_screen("deck")}
    found = check_all(ui, shows)
    assert not found, "\n".join(found)


# Each game's states, with (players) and options if not the defaults.
GAMES = {
    "hilo": [
        ("setup", 2, lambda v: True),
        ("turn", 2, lambda v: v.board.phase == "turn"),
        ("drawn", 3, lambda v: v.board.phase == "drawn"),
        ("four-players-drawn", 4, lambda v: v.board.phase == "drawn"),
        ("six-players-setup", 6, lambda v: True),
        ("six-players-turn", 6, lambda v: v.board.phase == "turn"),
        ("round-summary", 2, lambda v: len(v.board.rounds) == 1),
        ("six-players-round-summary", 6, lambda v: len(v.board.rounds) == 1),
        ("over", 2, over),
        ("six-players-over", 6, over),
    ],
    "excape": [
        ("rolloff", 3, lambda v: True),
        ("decide", 3, lambda v: v.board.phase == "decide"),
        ("six-players", 6, lambda v: v.board.phase == "decide" and sum(p > 0 for p in v.board.pawns) >= 3),
        ("over", 3, over),
    ],
    "holdup": [
        ("deal", 3, lambda v: True),
        ("roll", 3, lambda v: v.board.phase == "roll"),
        ("decide", 3, lambda v: v.board.phase == "decide"),
        ("long-row", 3, lambda v: max(len(r.cards) for r in v.board.rows) >= 17),
        ("over", 3, over),
    ],
    "splitter": [
        ("roll", 2, lambda v: True),
        ("write", 2, lambda v: v.board.roll is not None),
        ("twelve-players", 12, lambda v: v.board.roll is not None and v.board.turn >= 3),
        ("over", 2, over),
        ("twelve-players-over", 12, over),
        ("paper-roll", 3, lambda v: v.board.turn == 5, {"paper": True}),
        ("paper-enter", 12, lambda v: v.board.waiting and v.board.turn == 22, {"paper": True}),
    ],
}


def long_rows(state, rng):
    """Hold Up moves that put every drawn card in row 2."""
    return next((a for a in state.legal_actions() if isinstance(a, HoldUpPlace) and a.row == 2), None)


@pytest.mark.parametrize("game", list(GAMES))
def test_game_screens(ui, session, game):
    shows = {f"{game}-{name}": shown(ui, session, *reach(session, game, players, reached, options=options[0] if options
                                                         else None, pick=long_rows if game == "holdup" else None))
             for name, players, reached, *options in GAMES[game]}
    found = check_all(ui, shows)
    assert not found, "\n".join(found)


def test_gallery_page():
    """An HTML page of every screenshot saved so far (run after the screens above)."""
    shots = sorted(ARTIFACTS.glob("*.png"))
    items = "\n".join(f'<figure><img src="{html.escape(p.name)}" loading="lazy"><figcaption>{html.escape(p.stem)}'
                      f'</figcaption></figure>' for p in shots)
    page = ("<!doctype html><meta charset='utf-8'><title>Table Assistant screens</title><style>"
            "body{background:#222;color:#eee;font:14px sans-serif}figure{display:inline-block;margin:8px}"
            "img{max-width:640px;border:1px solid #555}</style>\n" + items)
    (ARTIFACTS / "gallery.html").write_text(page, "utf-8")
    assert shots
