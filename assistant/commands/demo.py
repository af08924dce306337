"""`table-assistant demo [--game G]`: the app on a simulated table, no camera needed.

Simulated players take the advice (usually the best move, sometimes another legal one) and the
dice and cards come from a seeded ``random.Random``, one step at a readable pace. Nothing is
saved: the demo keeps its records in memory. ``--text`` plays in the terminal instead.
"""
from __future__ import annotations

import random
import time
from typing import Callable, Sequence

from assistant.commands.run import add_window_arguments, make_app, new_session, stop_on_sigterm
from assistant.session import Session
from assistant.views import ViewState
from assistant.store import IN_MEMORY, Store
from engine import registry
from engine.match import Player
from engine.text import tr

NAMES = ("Ana", "Ben", "Chloé", "Dev", "Emma", "Farid")
COLOURS = ("red", "blue", "yellow", "green", "purple", "orange")
BEST_MOVE_ODDS = 0.8  # how often a simulated player takes the advised best move
PAUSE_STEPS = 4       # steps the final ranking stays up before the next game
USER_PAUSE_S = 20.0   # after a touch or a key the simulated table waits: someone is using the screen
NOTICE_S = 10.0       # how long the demo's notice stays up


def add_parser(sub) -> None:
    parser = sub.add_parser("demo", help="play a simulated table: see the app work without a camera")
    parser.add_argument("--game", choices=registry.game_ids(), help="only this game (default: each in turn)")
    parser.add_argument("--players", type=int,
                        help="number of simulated players (default: 3, within the game's limits)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the simulated dice, cards and players")
    parser.add_argument("--step", type=float, help="seconds between two moves (default: setting ui.demo_step_s)")
    parser.add_argument("--text", action="store_true", help="play in the terminal, without a window")
    parser.add_argument("--moves", type=int, help="stop after this many moves (default: no end; --text: one game)")
    add_window_arguments(parser)
    parser.set_defaults(run=run)


class DemoTable:
    """Drives a session like a table of players would: one move (or one die, one card) per step."""

    def __init__(self, session: Session, rng: random.Random, games: Sequence[str], players: int | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.session = session
        self.rng = rng
        self.games = tuple(games)
        self.players = players
        self.played = 0
        self.games_started = 0
        self._pause = 0
        self._clock = clock
        self._touched = -USER_PAUSE_S
        self._notice_until = clock() + NOTICE_S

    def touched(self, *_) -> bool:
        """A touch or a key on the screen: the table waits (False: the touch goes on to the screen)."""
        self._touched = self._clock()
        return False

    def step(self) -> ViewState:
        view = self.session.view
        now = self._clock()
        if view.notices and now > self._notice_until:
            view = self.session.dismiss_notices()
        if now - self._touched < USER_PAUSE_S:  # a question half typed, Home just touched: not now
            return view
        if view.screen != "game":
            return self._start_next()
        if view.outcome is not None:
            self._pause += 1
            return self._start_next() if self._pause > PAUSE_STEPS else view
        self.played += 1
        return self.session.play(self._pick(view, self.session.position))

    def _pick(self, view: ViewState, state):
        if state.is_chance_node():
            return state.sample_chance(self.rng)
        if view.choices[0].advice and self.rng.random() < BEST_MOVE_ODDS:
            return view.choices[0].action
        return self.rng.choice(view.choices).action

    def _start_next(self) -> ViewState:
        self._pause = 0
        game_id = self.games[self.games_started % len(self.games)]
        self.games_started += 1
        cls = registry.game_class(game_id)
        count = min(max(self.players or 3, cls.min_players), cls.max_players)
        seats = [Player(NAMES[i % len(NAMES)], COLOURS[i % len(COLOURS)]) for i in range(count)]
        return self.session.new_match(game_id, seats, {})


def run(args, settings) -> int:
    from assistant.cli import UsageError

    if args.players is not None and args.players < 1:
        raise UsageError(f"--players must be at least 1, got {args.players}")
    step = settings["ui.demo_step_s"] if args.step is None else args.step
    if step < 0:
        raise UsageError(f"--step must be 0 or more seconds, got {step}")
    session = new_session(Store(IN_MEMORY), settings)
    games = [args.game] if args.game else list(session.playable_games())
    if not games:
        raise UsageError("no game engine could be loaded")
    table = DemoTable(session, random.Random(args.seed), games, args.players)
    if args.text:
        return play_in_terminal(table, step, args.moves, settings["app.language"])
    session.notify(tr("Demo: a simulated table plays by itself; nothing is saved. Touch works as usual."))
    table.step()
    app = make_app(args, settings, session, every=[(max(step, 0.02), lambda: _step_until(table, args.moves, app))])
    app.bind(on_start=lambda _: _watch_touches(table))
    stop_on_sigterm(app)
    app.run()
    return 0


def _watch_touches(table: DemoTable) -> None:
    from kivy.core.window import Window  # open by now

    Window.bind(on_touch_down=table.touched, on_key_down=table.touched)


def _step_until(table: DemoTable, moves: int | None, app) -> None:
    if moves is not None and table.played >= moves:
        app.stop()
        return
    table.step()


def play_in_terminal(table: DemoTable, step: float, moves: int | None, language: str) -> int:
    from assistant.i18n import translate

    view = table.step()
    while True:
        print(translate(view.message.text, language) if view.message else "", flush=True)
        if view.outcome is not None and moves is None:
            print(translate(view.turn, language))
            print(describe(table.session))
            return 0
        if moves is not None and table.played >= moves:
            print(describe(table.session))
            return 0
        time.sleep(step)
        view = table.step()


def describe(session: Session) -> str:
    """The position in words (the scores for a game that has no words for it)."""
    view = session.view
    try:
        return session.position.describe(view.names)
    except NotImplementedError:
        return ", ".join(f"{seat.name} {seat.score:g}" for seat in view.seats)

