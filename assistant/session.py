"""The session: owns the match being played, takes intents, persists, and publishes a view-state.

Touch, buttons and the serial panel all reach the game through a ``Session`` method. Every
accepted action is written to the store *before* the view-state changes, so what a screen shows
has always been saved. The view-state is an immutable ``ViewState`` (``assistant.views``);
listeners get each new one. Call a session from one thread (the app's main loop): background
devices hand their intents over. Advice runs on an ``AdviceWorker`` when the app gives one.
"""
from __future__ import annotations

import errno
import logging
import sqlite3
from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

from assistant.advice_worker import AdviceWorker
from assistant.camera_policy import AUTO, OFFER, CameraEvent
from assistant.reconcile import Explanation
from assistant.store import MatchRecord, Store, StoreError
from assistant.views import ERROR, EXPLAIN, GAME, HOME, INFO, Message, ViewState, game_view, played
from engine import registry
from engine.core import CHANCE, TERMINAL, Action, Advice, Game, RulesError, State
from engine.match import Match, MatchFileError, Player
from engine.text import Text, tr

log = logging.getLogger(__name__)

# Colours given, in this order, to players who come to the table without one (palette names).
SEAT_COLOURS = ("red", "blue", "yellow", "green", "purple", "orange", "pink", "lime")


Listener = Callable[[ViewState], None]


class Session:
    def __init__(self, store: Store, *, advice: bool = True, history_size: int = 20,
                 games: Callable[[str], type[Game]] = registry.game_class,
                 game_ids: Callable[[], tuple[str, ...]] = registry.game_ids):
        self.store = store
        self.advice_enabled = advice
        self.history_size = history_size
        self._games = games
        self._game_ids = game_ids
        self._listeners: list[Listener] = []
        self._match: Match | None = None
        self._match_id: int | None = None
        # the history span (start, end) of the last actions played together (what the camera saw
        # happen, a sheet entered at once): Undo takes them back together while they are the last
        self._together: tuple[int, int] | None = None
        self._worker: AdviceWorker | None = None  # None: advice is computed before each view
        self._notices: list[tuple[str, Text | str]] = [("records", store.notice)] if store.notice else []
        self._view = self._home_view(0, None)

    def use_worker(self, worker: "AdviceWorker | None") -> None:
        """Compute advice in the background (the app: its UI thread must not wait for it)."""
        self._worker = worker

    # --- reading -------------------------------------------------------------------------------

    @property
    def view(self) -> ViewState:
        return self._view

    @property
    def match(self) -> Match | None:
        return self._match

    @property
    def position(self) -> State | None:
        """The game's position now (immutable: the camera's thread may read it), None at home."""
        match = self._match
        return None if match is None else match.state

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(view)`` after every change; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    # --- setting up ----------------------------------------------------------------------------

    def new_match(self, game_id: str, players: Sequence[Player | str],
                  options: Mapping[str, Any] | None = None) -> ViewState:
        """Start a match; bad options or player counts are refused with a message, nothing stored."""
        players = with_colours(tuple(p if isinstance(p, Player) else Player(p) for p in players))
        try:
            names = [p.name.strip() for p in players]
            if any(not n for n in names):
                raise RulesError(tr("every player needs a name"))
            if len(set(n.casefold() for n in names)) != len(names):
                raise RulesError(tr("two players have the same name"))
            game = self._games(game_id)(len(players), dict(options or {}))
            match = Match(game, players)
        except RulesError as exc:
            return self._say(exc.args[0] if exc.args else str(exc), ERROR)
        match_id = self._write(lambda: self.store.start_match(game.id, game.options_dict(), players))
        if match_id is None:
            return self._view
        return self._enter(match, match_id, Message(tr("{title}: a new game begins", title=game.title)))

    def resume(self, match_id: int | None = None) -> ViewState:
        """Reopen a stored match exactly where it was (the latest unfinished one by default)."""
        try:
            if match_id is None:
                unfinished = self.store.unfinished()
                if not unfinished:
                    return self._say(tr("there is no unfinished game to resume"), INFO)
                match_id = unfinished[0].id
            record = self.store.load_match(match_id)
            match = replay(record, self._games)
        except (StoreError, MatchFileError) as exc:
            return self._say(tr("that game cannot be reopened: {reason}", reason=str(exc)), ERROR)
        return self._enter(match, record.id, Message(
            tr("game resumed at move {moves}", moves=len(record.lines))))

    def leave(self) -> ViewState:
        """Back to the home screen; an unfinished match stays stored and can be resumed."""
        self._match = self._match_id = None
        return self._publish(self._home_view(self._view.revision + 1, None))

    def abandon(self, match_id: int | None = None) -> ViewState:
        """Give up a match (the current one by default): it leaves the list of games to resume."""
        match_id = self._match_id if match_id is None else match_id
        if match_id is not None and self._write(lambda: self.store.abandon_match(match_id)) is None:
            return self._view
        if match_id == self._match_id:
            return self.leave()
        return self._refresh(None)

    def save_player(self, name: str, colour: str = "") -> ViewState:
        player = self._write(lambda: self.store.save_player(name, colour))
        if player is None:
            return self._view
        return self._refresh(Message(tr("{name} is saved", name=player.name)))

    def open_screen(self, kind: str) -> ViewState:
        """Show another kind of screen (settings, camera, ...) over the game or home; ``close_screen``
        comes back."""
        return self._publish(replace(self._view, revision=self._view.revision + 1, screen=kind))

    def close_screen(self) -> ViewState:
        if self._match is None:
            return self._publish(self._home_view(self._view.revision + 1, None))
        return self._publish(replace(self._view, revision=self._view.revision + 1, screen=GAME))

    # --- playing -------------------------------------------------------------------------------

    def play(self, action: Action | str) -> ViewState:
        """Apply a legal action (persisted first); an illegal one leaves the game and explains why."""
        if self._match is None:
            return self._say(tr("no game is being played"), ERROR)
        match = self._match
        try:
            if isinstance(action, str):
                action = match.game.parse_action(action)
            after = match.state.apply(action)
        except RulesError as exc:
            return self._say(getattr(exc, "reason", None) or str(exc), ERROR)
        seq = len(match.history) + 1
        outcome = after.outcome() if after.is_terminal() else None
        if self._write(lambda: self.store.append_action(self._match_id, seq, str(action), outcome)) is None:
            return self._view
        message = played(match, action)
        match.push(action)
        return self._game_changed(message)

    def play_all(self, actions: Sequence[Action]) -> ViewState:
        """Play ``actions`` in order, each persisted first, if the rules allow them all (a sheet
        entered at once); otherwise none, and the first refused is said with its reason."""
        if self._match is None:
            return self._say(tr("no game is being played"), ERROR)
        state = self._match.state
        for action in actions:
            reason = state.explain_illegal(action)
            if reason:
                return self._say(tr("{action} is not allowed: {reason}", action=str(action), reason=reason), ERROR)
            state = state.apply(action)
        view, start = self._view, len(self._match.history)
        for action in actions:
            view = self.play(action)
            if view.message is None or view.message.kind == ERROR:  # not written: the rest waits
                break
        if len(self._match.history) - start > 1:
            self._together = (start, len(self._match.history))
        return view

    def why_not(self, action: Action | str) -> ViewState:
        """The engine's reason an action is not allowed now (or that it is allowed)."""
        if self._match is None:
            return self._say(tr("no game is being played"), ERROR)
        try:
            if isinstance(action, str):
                action = self._match.game.parse_action(action)
        except RulesError as exc:
            return self._say(str(exc), ERROR)
        reason = self._match.state.explain_illegal(action)
        if not reason:
            return self._say(tr("{action} is allowed now", action=str(action)), EXPLAIN)
        return self._say(tr("{action} is not allowed: {reason}", action=str(action), reason=reason), EXPLAIN)

    def undo(self) -> ViewState:
        """Take back the last action; the last actions played together (what the camera saw
        happen, a sheet entered at once), when they are the last, all of them: one touch puts a
        misread right. Redo brings them back one by one."""
        match = self._match
        if match is None or not match.can_undo():
            return self._say(tr("nothing to undo: the match is at its start"), INFO)
        together = self._together
        first = together[0] if together is not None and together[1] == len(match.history) else len(match.history) - 1
        self._together = None
        undone = []
        while len(match.history) > first:
            seq = len(match.history)
            if self._write(lambda seq=seq: self.store.remove_last_action(self._match_id, seq)) is None:
                break
            undone.insert(0, str(match.undo()))
        if not undone:
            return self._view
        return self._game_changed(Message(tr("undone: {action}", action="; ".join(undone))))

    def redo(self) -> ViewState:
        match = self._match
        if match is None or not match.can_redo():
            return self._say(tr("nothing to redo"), INFO)
        action = match.redo()  # the view still shows the old state until the store has it
        if self._write(lambda: self.store.append_action(
                self._match_id, len(match.history), str(action), match.state.outcome())) is None:
            match.undo()
            return self._view
        return self._game_changed(Message(tr("redone: {action}", action=str(action))))

    def move_cursor(self, step: int) -> ViewState:
        """Move the highlight through the legal actions (buttons without a touchscreen)."""
        count = len(self._view.choices)
        if not count:
            return self._view
        return self._publish(replace(self._view, revision=self._view.revision + 1,
                                     cursor=(self._view.cursor + step) % count))

    def confirm(self) -> ViewState:
        """Accept what the camera offers first, else play the highlighted action."""
        if self._view.suggestions:
            return self.accept(self._view.suggestions[0])
        if not self._view.choices:
            return self._view
        return self.play(self._view.choices[self._view.cursor].action)

    def handle_intent(self, intent: Any) -> ViewState:
        """An intent from a button or the serial panel, by its name (enum member or text)."""
        name = str(getattr(intent, "name", intent)).upper()
        handler = _INTENTS.get(name)
        if handler is None:
            log.warning("intent %r is not handled here", intent)
            return self._view
        return handler(self)

    def camera(self, state: State, event: CameraEvent) -> ViewState:
        """What the camera concluded from a settled reading of ``state`` (``camera_policy.judge``):
        a sure explanation is played at once and announced (Undo takes it back), a doubtful one
        offered with the next best (a touch or the confirm button accepts it), a contradiction said
        with its reason. Ignored if the game has moved on since that frame."""
        if self._match is None or self._match.state is not state:
            return self._view
        if event.kind == AUTO:
            return self.accept(event.candidates[0], by_camera=True)
        if event.kind == OFFER:
            return self._publish(replace(self._view, revision=self._view.revision + 1,
                                         suggestions=event.candidates))
        log.warning("camera: %s", event.reason)
        return self._say(tr("Camera: {reason}", reason=event.reason), ERROR)

    def accept(self, explanation: Explanation, by_camera: bool = False) -> ViewState:
        """Play what the camera saw happen: the actions of ``explanation``, in order (a re-roll
        decision, then its roll)."""
        view = self.play_all(explanation.actions)
        if not by_camera or view.message is None or view.message.kind == ERROR:
            return view
        message = view.message
        return self._publish(replace(view, revision=view.revision + 1, message=replace(
            message, text=tr("Camera: {move}", move=message.text), camera=True)))

    # --- notices ---------------------------------------------------------------------------------

    def notify(self, text: Text | str, about: str = "") -> ViewState:
        """A standing notice (a missing camera, a moved-aside database) shown until dismissed. A
        notice ``about`` a device replaces the one before about it ("camera back" retires "camera
        lost")."""
        if (about, text) in self._notices:
            return self._view
        log.warning("%s", text)
        if about:
            self._notices = [(a, t) for a, t in self._notices if a != about]
        self._notices.append((about, text))
        return self._publish(replace(self._view, revision=self._view.revision + 1, notices=self._notice_texts()))

    def _notice_texts(self) -> tuple[Text | str, ...]:
        return tuple(text for _, text in self._notices)

    def dismiss_notices(self) -> ViewState:
        self._notices.clear()
        return self._publish(replace(self._view, revision=self._view.revision + 1, notices=()))

    def tell(self, text: Text | str, kind: str = INFO) -> ViewState:
        """Show a message from a screen (e.g. what a touch cannot mean now)."""
        return self._say(text, kind)

    # --- internals -------------------------------------------------------------------------------

    def _write(self, operation: Callable[[], Any]) -> Any:
        """Run a store operation; on failure say so (the view stays as it was) and return None."""
        try:
            result = operation()
        except (StoreError, sqlite3.Error, OSError) as exc:
            log.error("records not written: %s", exc)
            self._say(tr("not saved, so not applied: {reason}", reason=_why_not_written(exc)), ERROR)
            return None
        return True if result is None else result

    def _enter(self, match: Match, match_id: int, message: Message) -> ViewState:
        self._match, self._match_id, self._together = match, match_id, None
        return self._publish(self._game_view(self._view.revision + 1, message))

    def _game_changed(self, message: Message | None) -> ViewState:
        """The game moved on; a screen of another kind open over it (settings) stays open."""
        view = self._game_view(self._view.revision + 1, message)
        return self._publish(view if self._view.screen == HOME else replace(view, screen=self._view.screen))

    def _refresh(self, message: Message | None) -> ViewState:
        if self._match is None:
            return self._publish(self._home_view(self._view.revision + 1, message))
        return self._publish(replace(self._view, revision=self._view.revision + 1, message=message))

    def _say(self, text: Text | str, kind: str) -> ViewState:
        return self._publish(replace(self._view, revision=self._view.revision + 1, message=Message(text, kind)))

    def _publish(self, view: ViewState) -> ViewState:
        self._view = view
        for listener in tuple(self._listeners):
            listener(view)
        return view

    def playable_games(self) -> tuple[str, ...]:
        """The games whose engine loads (one missing or broken engine does not hide the others)."""
        found = []
        for game_id in self._game_ids():
            try:
                self._games(game_id)
            except (ImportError, AttributeError) as exc:
                log.warning("game %s is not available: %s", game_id, exc)
                continue
            found.append(game_id)
        return tuple(found)

    def _home_view(self, revision: int, message: Message | None) -> ViewState:
        return ViewState(
            revision=revision, screen=HOME, games=self.playable_games(), unfinished=self.store.unfinished(),
            results=self.store.results(self.history_size), known_players=self.store.players(),
            message=message, notices=self._notice_texts())

    def _game_view(self, revision: int, message: Message | None) -> ViewState:
        match = self._match
        assert match is not None
        worked_out = self._work_out(match.game, match.state)
        advice, analysis = worked_out if worked_out is not None else (None, None)
        return game_view(match, self._match_id, revision, message, self._notice_texts(), advice, analysis)

    def _work_out(self, game: Game, state: State) -> tuple[list[Advice], Any] | None:
        """The advice and the analysis for ``state``; None while the worker works them out (a
        new view follows)."""
        advise = (self.advice_enabled and game.offers_advice()
                  and state.current_player() not in (TERMINAL, CHANCE))
        if not advise and not game.offers_analysis():
            return [], None

        def job() -> tuple[list[Advice], Any]:
            return (game.advise(state) if advise else []), game.analyse(state)

        if self._worker is None:
            try:
                return job()
            except Exception:  # an advisor bug must not stop the game: the moves stay listed
                log.exception("advice failed")
                return [], None
        self._worker.submit(job, lambda done: self._worked_out(state, *done))
        return None

    def _worked_out(self, state: State, advice: list[Advice], analysis: Any) -> None:
        """The worker's results, back on the session's thread: shown if the game is still there."""
        if self._match is None or self._match.state is not state:
            return
        self._publish(self._game_view_with(advice, analysis))

    def _game_view_with(self, advice: list[Advice], analysis: Any) -> ViewState:
        view = self._view
        return replace(game_view(self._match, self._match_id, view.revision + 1, view.message, self._notice_texts(),
                                 advice, analysis), cursor=view.cursor, suggestions=view.suggestions,
                       screen=view.screen)


def with_colours(players: tuple[Player, ...]) -> tuple[Player, ...]:
    """Each player without a colour gets the first of SEAT_COLOURS nobody at the table has."""
    free = [c for c in SEAT_COLOURS if c not in {p.colour for p in players}]
    return tuple(p if p.colour else Player(p.name, free.pop(0) if free else "") for p in players)


def replay(record: MatchRecord, games: Callable[[str], type[Game]] = registry.game_class) -> Match:
    """Rebuild a stored match by replaying its actions through the rules (MatchFileError if not)."""
    return Match.replay(record.game, record.options, record.players, record.lines, f"game {record.id}", games)


# By the names of hardware.intents.Intent (buttons and the serial panel).
_INTENTS: dict[str, Callable[[Session], ViewState]] = {
    "CONFIRM": Session.confirm,
    "UNDO": Session.undo,
    "NEXT": lambda s: s.move_cursor(1),
    "DOWN": lambda s: s.move_cursor(1),
    "UP": lambda s: s.move_cursor(-1),
    "MENU": Session.leave,
}


def _why_not_written(exc: Exception) -> Text | str:
    """What the players can do about a write that failed: the disk full, read-only or failing is
    said in their words; anything else as the records said it."""
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    number = getattr(exc, "errno", None)
    if code == sqlite3.SQLITE_FULL or number == errno.ENOSPC:
        return tr("the disk is full: make room on it")
    if code == sqlite3.SQLITE_READONLY or number == errno.EROFS:
        return tr("the disk has become read-only: restart the kiosk, and if it stays so, check the memory card")
    if code == sqlite3.SQLITE_IOERR or number == errno.EIO:
        return tr("the disk could not be written (input/output error): check the memory card")
    return str(exc)
