"""`table-assistant demo [--game G]`: the app on a simulated table, no camera needed.

Simulated players take the advice (usually the best move, sometimes another legal one) and the
dice and cards come from a seeded ``random.Random``, one step at a readable pace. The dice are
thrown on a filmed table (``vision.synth.live_table``) whose frames go through the kiosk's own
camera path, so the camera plays every roll it reads for sure and offers the others; the players
only do what the camera cannot see (decisions, cards), touch an offered roll that is right,
enter by touch a roll the camera did not read in time, and undo a roll it got wrong. Excape's
printed dice are enrolled from photos of the table first, as a club does. Nothing is saved: the
demo keeps its records (and the enrolled faces) in memory and a temporary folder. ``--text``
plays in the terminal instead; ``--no-camera`` rolls the dice without filming them.
"""
from __future__ import annotations

import multiprocessing
import queue
import random
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from assistant.commands.run import Devices, add_window_arguments, make_app, new_session, stop_on_sigterm
from assistant.reconcile import rolled_faces
from assistant.session import Session
from assistant.views import ViewState
from assistant.store import IN_MEMORY, Store
from engine import registry
from engine.core import Action, State
from engine.match import Player
from engine.text import Text, tr

if TYPE_CHECKING:
    from vision.synth.live_table import LiveTable

NAMES = ("Ana", "Ben", "Chloé", "Dev", "Emma", "Farid")
COLOURS = ("red", "blue", "yellow", "green", "purple", "orange")
BEST_MOVE_ODDS = 0.8  # how often a simulated player takes the advised best move
PAUSE_STEPS = 4       # steps the final ranking stays up before the next game
USER_PAUSE_S = 20.0   # after a touch or a key the simulated table waits: someone is using the screen
NOTICE_S = 10.0       # how long the demo's notice stays up
CAMERA_WAIT_S = 6.0   # a roll the camera has neither played nor offered by then is entered by touch
CAMERA_POLL_S = 0.05  # the terminal demo's pace while the camera reads a roll


def add_parser(sub) -> None:
    parser = sub.add_parser("demo", help="play a simulated table: see the app work without a camera")
    parser.add_argument("--game", choices=registry.game_ids(), help="only this game (default: each in turn)")
    parser.add_argument("--players", type=int,
                        help="number of simulated players (default: 3, within the game's limits)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the simulated dice, cards and players")
    parser.add_argument("--step", type=float, help="seconds between two moves (default: setting ui.demo_step_s)")
    parser.add_argument("--text", action="store_true", help="play in the terminal, without a window")
    parser.add_argument("--moves", type=int, help="stop after this many moves (default: no end; --text: one game)")
    parser.add_argument("--no-camera", dest="camera", action="store_false",
                        help="roll the dice without filming them for the camera")
    add_window_arguments(parser)
    parser.set_defaults(run=run)


class DemoTable:
    """Drives a session like a table of players would: one move (or one die, one card) per step."""

    def __init__(self, session: Session, rng: random.Random, games: Sequence[str], players: int | None = None,
                 clock: Callable[[], float] = time.monotonic, camera: LiveTable | None = None):
        self.session = session
        self.rng = rng
        self.games = tuple(games)
        self.players = players
        self.camera = camera  # the filmed table the dice are thrown on (None: rolled by touch)
        self.thrown: tuple[Action, State, float] | None = None  # the move filmed to see, in, since
        self.filmed = Counter()  # how each filmed move was played: "camera", "offer", "touch", "undone"
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
        if self.thrown is not None:
            return self._follow_camera(view, now)
        state = self.session.position
        action = self._pick(view, state)
        if self.camera is not None and self.camera.films(view.game_id, state, action):
            self.camera.film(state, action, state.apply(action))
            self.thrown = (action, state, now)
            return view
        self.played += 1
        return self.session.play(action)

    def _follow_camera(self, view: ViewState, now: float) -> ViewState:
        """After a throw: what the camera made of it, put right as players would."""
        move, thrown_in, since = self.thrown
        if self.session.position is not thrown_in:
            self.thrown = None
            if view.message is None or not view.message.camera:  # played on the screen meanwhile
                return view
            self.played += 1  # the camera played what it read
            if same_move(view.last, move):
                self.filmed["camera"] += 1
                return view
            self.filmed["undone"] += 1  # a misread played: Undo, then the move by touch
            self.session.undo()  # all the camera played together
            return self.session.play(move)
        offered = next((s for s in view.suggestions if same_move(s.actions[-1], move)), None)
        if offered is not None or now - since > CAMERA_WAIT_S:
            self.thrown = None
            self.played += 1
            self.filmed["offer" if offered is not None else "touch"] += 1
            return self.session.accept(offered) if offered is not None else self.session.play(move)
        return view

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
        self.thrown = None
        if self.camera is not None:
            self.camera.new_game(game_id)
        cls = registry.game_class(game_id)
        count = min(max(self.players or 3, cls.min_players), cls.max_players)
        seats = [Player(NAMES[i % len(NAMES)], COLOURS[i % len(COLOURS)]) for i in range(count)]
        return self.session.new_match(game_id, seats, {})


def same_move(line: Action | str, move: Action) -> bool:
    """Whether ``line`` is ``move``: for a roll, its faces in any order (the rules treat them alike)."""
    faces = rolled_faces(line)
    if faces is None:
        return str(line) == str(move)
    return sorted(faces) == sorted(rolled_faces(move) or ())


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
    with tempfile.TemporaryDirectory(prefix="table-assistant-demo-") as folder:
        camera, devices = None, None
        if args.camera:
            from vision.synth.live_table import LiveTable

            settings = camera_settings(settings, folder)
            enrol_the_table(args.seed, games, settings)
            camera = LiveTable(args.seed)
            devices = Devices(settings)
        table = DemoTable(session, random.Random(args.seed), games, args.players, camera=camera)
        try:
            if args.text:
                return play_in_terminal(table, step, args.moves, settings["app.language"], devices)
            return play_on_screen(args, settings, table, step, devices)
        finally:
            if devices is not None:
                devices.close()


def camera_settings(settings, folder: str):
    """The settings for filming the simulated table: its own state folder (the enrolled dice, no
    empty table learnt for a real camera), each game's dice read as they are printed."""
    return settings.with_values({"app.state_dir": folder, "camera.source": "synthetic", "camera.rotate": 0,
                                 "vision.dice.faces": "game", "watchdog.enabled": False}, "demo")


def enrol_the_table(seed: int, games: Sequence[str], settings) -> None:
    """Enrol what the simulated table of ``seed`` shows, as a club does before it plays: the
    printed dice of the first of ``games`` that has them and, with Hilo among them, the deck (the
    kiosk reads a Hilo mat's cards). Each in a process of its own, side by side: enrolling a deck
    takes a hundred MB for a few seconds, which a kiosk that enrolled its deck the day before does
    not hold, and glibc would keep most of it in the demo's heap."""
    from assistant.commands.calibrate_cards import enrol_synthetic_deck
    from vision.synth.live_table import printed_games

    printed = [game for game in games if game in printed_games()]
    jobs = [(enrol_printed_dice, seed, printed[0], settings)] if printed else []
    if "hilo" in games:
        jobs.append((enrol_synthetic_deck, settings))
    if not jobs:
        return
    context = multiprocessing.get_context("spawn")  # a child that starts clean: none of the demo's memory, no threads
    with ProcessPoolExecutor(max_workers=len(jobs), mp_context=context) as pool:
        for running in [pool.submit(*job) for job in jobs]:
            running.result()


def enrol_printed_dice(seed: int, game_id: str, settings) -> None:
    """Enrol the printed dice of ``game_id`` from photos of the dice of the simulated table of
    ``seed`` (as `calibrate dice-faces` does from a club's photos), into app.state_dir."""
    from vision.dice import DiceReader
    from vision.synth.live_table import LiveTable

    game = registry.game_class(game_id)
    pips = DiceReader.from_settings({**settings.section("vision.dice"), "faces": "pips"})  # finds the dice
    enrolled = pips.enrol_faces({face: [image] for face, image in
                                 LiveTable(seed).enrolment_images(game.id, game.max_players).items()})
    enrolled.save(Path(settings["app.state_dir"]) / settings["vision.dice.faces_file"])


def play_on_screen(args, settings, table: DemoTable, step: float, devices: Devices | None) -> int:
    session = table.session
    session.notify(tr("Demo: a simulated table plays by itself; nothing is saved. Touch works as usual."))
    table.step()
    camera = {} if devices is None else {"camera_feed": devices.feed, "learn_empty_table": devices.learn_empty_table,
                                         "read_sheet": devices.read_sheet}
    app = make_app(args, settings, session, every=[(max(step, 0.02), lambda: _step_until(table, args.moves, app))],
                   **camera)
    app.bind(on_start=lambda _: _watch_touches(table))
    if devices is not None:
        devices.start_camera(session, app, table.camera.render)
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


class TerminalLoop:
    """What the camera's threads hand over to the UI thread, run by the terminal demo's loop."""

    def __init__(self, session: Session):
        self.session = session
        self._posted: queue.SimpleQueue[Callable[[], object]] = queue.SimpleQueue()

    def post(self, call: Callable[[], object]) -> None:
        self._posted.put(call)

    def post_notice(self, text, about: str = "") -> None:
        self._posted.put(lambda: self.session.notify(text, about))

    def run_posted(self) -> None:
        while True:
            try:
                self._posted.get_nowait()()
            except queue.Empty:
                return


def play_in_terminal(table: DemoTable, step: float, moves: int | None, language: str,
                     devices: Devices | None = None) -> int:
    from assistant.i18n import translate

    loop = TerminalLoop(table.session)
    if devices is not None:
        devices.start_camera(table.session, loop, table.camera.render)
    view, said = table.step(), None
    while True:
        if view.message is not said:
            said = view.message
            print(translate(view.message.text, language) if view.message else "", flush=True)
        finished = view.outcome is not None and moves is None and table.thrown is None
        if finished or (moves is not None and table.played >= moves):
            if finished:
                print(translate(view.turn, language))
            print(describe(table.session))
            if table.filmed:  # some moves were filmed
                print(translate(camera_summary(table.filmed), language))
            return 0
        time.sleep(step if table.thrown is None else max(step, CAMERA_POLL_S))
        loop.run_posted()
        view = table.step()


def camera_summary(filmed: Counter) -> Text:
    return tr("Moves filmed, played by the camera by itself: {camera}; offered and touched: {offer}; entered by "
              "touch: {touch}; undone: {undone}.", camera=filmed["camera"], offer=filmed["offer"],
              touch=filmed["touch"], undone=filmed["undone"])


def describe(session: Session) -> str:
    """The position in words (the scores for a game that has no words for it)."""
    view = session.view
    try:
        return session.position.describe(view.names)
    except NotImplementedError:
        return ", ".join(f"{seat.name} {seat.score:g}" for seat in view.seats)

