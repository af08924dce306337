"""The camera's view: the live frame with each die's box, face and sureness, each card's outline,
value and sureness on a play mat, the stillness, the frame rates and the reader's time per read.
A tap on a die's box, then on the face it shows, corrects a misread die (where each seat's dice are
of its colour, the die's colour is shown and can be corrected too): the corrected reading is
judged as the camera's own readings are and handed to the session (applied, offered or said).
The frame comes from the app's ``camera_feed``, polled with the clock: the camera's threads never
touch the widgets.
"""
from __future__ import annotations

from dataclasses import replace

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import (BooleanProperty, ColorProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from assistant.camera_feed import MOVING, SETTLED, STILL, corrected
from assistant.camera_policy import judge
from assistant.screens import palette, screen_name
from assistant.screens.game import SuggestionButton  # noqa: F401  (the kv's rows of offers)
from assistant.screens.widgets import HidesTouches, TouchButton, fit_children
from assistant.views import GAME, ViewState
from engine.table import FACE_DOWN
from engine.text import tr

POLL_S = 0.2


class CameraScreen(Screen):
    status_text = StringProperty("")
    note_text = StringProperty("")  # instead of the frame: no camera, or not yet, or lost
    cards_only = BooleanProperty(False)  # cards are read, no dice
    picking = NumericProperty(-1)  # the die whose face the players are choosing
    pick_text = StringProperty("")
    face_rows = ListProperty([])
    # the choices' grid: more than three rows of them (a die's faces and the seats' colours) fit
    # at 800x480 only four across and 48 px high
    choice_cols = NumericProperty(3)
    choice_px = NumericProperty(56)
    suggestion_rows = ListProperty([])
    view = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._poll = None
        self._shown = None  # the feed's snapshot on screen
        self._read: tuple = ()  # the dice of that snapshot ...
        self.dice: tuple = ()  # ... as shown, with the players' corrections
        self._zones: tuple = ()  # on a mat, the zone each lies in

    # --- from the session ------------------------------------------------------------------------

    def update(self, view: ViewState) -> None:
        self.view = view
        game = self._game_screen()
        app = App.get_running_app()
        self.suggestion_rows = [
            {"text": app.tr("{move} ({percent}%)", move=", ".join(game.t(game.label(a)) for a in c.actions),
                            percent=round(c.share * 100)), "index": i, "screen": self}
            for i, c in enumerate(view.suggestions)] if game is not None else []

    def word_message(self, view: ViewState) -> str:
        game = self._game_screen()
        return game.word_message(view) if game is not None else App.get_running_app().t(view.message.text)

    def _game_screen(self):
        """The screen of the game under this one, which words its moves (None at home)."""
        manager, view = App.get_running_app().root, self.view
        name = screen_name(GAME, view.game_id) if view is not None and view.game_id else ""
        return manager.get_screen(name) if name and manager.has_screen(name) else None

    # --- from the camera ---------------------------------------------------------------------------

    def on_enter(self, *_):
        self.poll()
        self._poll = Clock.schedule_interval(lambda dt: self.poll(), POLL_S)

    def on_leave(self, *_):
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        self.cancel()

    def poll(self) -> None:
        """Show the feed's newest snapshot (the dice stay as they are while a die is being corrected)."""
        app = App.get_running_app()
        feed = app.camera_feed
        if feed is None:
            self.note_text = app.tr("Camera off (camera.source = \"none\"): enter dice and cards by touch.")
            return
        snapshot = feed.snapshot
        if snapshot is self._shown:
            return
        self._shown = snapshot
        picture = self.ids.picture
        picture.show(snapshot.image, snapshot.size)
        picture.dim = snapshot.lost
        if snapshot.dice is not self._read and self.picking < 0:
            self._read = self.dice = snapshot.dice
            self._zones = snapshot.zones
            picture.place(self.dice)
        picture.place_cards(snapshot.cards)
        self.cards_only = bool(snapshot.cards) and not snapshot.dice
        if snapshot.image is None:
            self.note_text = app.tr("No camera found: enter dice and cards by touch. "
                                    "`table-assistant doctor` says what is missing.") if snapshot.lost \
                else app.tr("Waiting for the camera...")
        else:
            self.note_text = app.tr("Camera lost: enter dice and cards by touch.") if snapshot.lost else ""
        self.status_text = app.tr("{stillness} · camera {fps} fps · reader {loop} fps, {ms} ms a read",
                                  stillness=self._stillness(snapshot.stillness), fps=round(snapshot.fps),
                                  loop=round(snapshot.loop_fps), ms=round(snapshot.read_ms))

    @staticmethod
    def _stillness(stillness: str) -> str:
        app = App.get_running_app()
        return {MOVING: app.tr("table moving"), STILL: app.tr("table still: reading"),
                SETTLED: app.tr("table settled")}.get(stillness, app.tr("dice not read"))

    # --- intents ---------------------------------------------------------------------------------

    def pick(self, index: int) -> None:
        """A tap on die ``index``'s box: ask what it shows (and, where each seat's dice are of its
        colour, offer the seats' colours too)."""
        app = App.get_running_app()
        die = self.dice[index]
        self.picking = index
        self._ask(die)
        self.face_rows = [{"text": face, "face": face, "colour": "", "screen": self} for face in die.faces] + \
            [{"text": app.tr(colour), "face": "", "colour": colour, "screen": self}
             for colour in seat_colours()]
        many = len(self.face_rows) > 9
        self.choice_cols, self.choice_px = (4, 48) if many else (3, 56)
        self.ids.picture.place(self.dice, selected=index)

    def _ask(self, die) -> None:
        app = App.get_running_app()
        percent = round(100 * die.faces[die.face])
        self.pick_text = app.tr("This die reads {face} ({percent}%), colour {colour}. What does it show?",
                                face=die.face, percent=percent, colour=app.tr(die.colour or "not read")) \
            if seat_colours() else \
            app.tr("This die reads {face} ({percent}%). What does it show?", face=die.face, percent=percent)

    def choose_colour(self, colour: str) -> None:
        """The colour the picked die is (whose it is); its face is still to choose."""
        dice = list(self.dice)
        dice[self.picking] = replace(dice[self.picking], colour=colour)
        self.dice = tuple(dice)
        self._ask(self.dice[self.picking])
        self.ids.picture.place(self.dice, selected=self.picking)

    def choose_face(self, face: str) -> None:
        """The face the picked die shows: the dice with it are judged and handed to the session."""
        app = App.get_running_app()
        dice = list(self.dice)
        dice[self.picking] = corrected(dice[self.picking], face)
        self.dice = tuple(dice)
        self.cancel()
        state = app.session.position
        event = None if state is None or state.is_terminal() else judge(
            state, [die.faces for die in self.dice], app.camera_feed.auto_apply, zones=self._zones,
            colours=tuple(die.colour for die in self.dice), seat_colours=app.camera_feed.seat_colours)
        if event is None:
            app.session.tell(tr("Nothing new in the corrected dice."))
        else:
            app.session.camera(state, event)

    def cancel(self) -> None:
        self.picking = -1
        self.pick_text = ""
        self.face_rows = []
        self.ids.picture.place(self.dice)

    def back(self) -> None:
        App.get_running_app().session.close_screen()


class CameraPicture(Widget):
    """The frame, as large as fits, an outline over each card and a box over each die (frame
    pixels mapped to the widget)."""

    screen = ObjectProperty(None, allownone=True)
    texture = ObjectProperty(None, allownone=True)
    dim = BooleanProperty(False)  # the camera is lost: its last frame is shown dimmed
    picture_pos = ListProperty([0, 0])
    picture_size = ListProperty([0, 0])

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._image = None
        self._frame = (0, 0)
        self._dice: tuple = ()
        self._cards: tuple = ()
        self._selected = -1
        self._card_layer, self._dice_layer = Widget(), Widget()  # the dice drawn and touched over the cards
        self.add_widget(self._card_layer)
        self.add_widget(self._dice_layer)
        self.bind(pos=self._layout, size=self._layout, texture=self._layout)

    def show(self, image, frame_size) -> None:
        """``image``: RGB, top row first (the feed's small frame); ``frame_size``: the camera's."""
        if image is self._image:
            return
        self._image, self._frame = image, tuple(frame_size)
        if image is None:
            self.texture = None
            return
        height, width = image.shape[:2]
        texture = self.texture
        if texture is None or texture.size != (width, height):
            texture = Texture.create(size=(width, height), colorfmt="rgb")
            texture.flip_vertical()  # the image's first row is its top
        texture.blit_buffer(image.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.texture = texture
        self.canvas.ask_update()

    def place(self, dice: tuple, selected: int = -1) -> None:
        self._dice, self._selected = dice, selected
        self._layout()

    def place_cards(self, cards: tuple) -> None:
        """``cards``: assistant.camera_feed.SeenCard's."""
        if cards is not self._cards:
            self._cards = cards
            self._layout()

    def _layout(self, *_) -> None:
        if self.texture is not None and self.width > 0 and self.height > 0:
            tw, th = self.texture.size
            scale = min(self.width / tw, self.height / th)
            self.picture_size = [tw * scale, th * scale]
            self.picture_pos = [self.x + (self.width - tw * scale) / 2, self.y + (self.height - th * scale) / 2]
        shown = self.texture is not None and self._frame[0] > 0
        boxes = fit_children(self._dice_layer, len(self._dice) if shown else 0, DieBox)
        outlines = fit_children(self._card_layer, len(self._cards) if shown else 0, CardOutline)
        if not shown:
            return
        app = App.get_running_app()
        k = self.picture_size[0] / self._frame[0]
        left, top = self.picture_pos[0], self.picture_pos[1] + self.picture_size[1]

        def on_screen(points) -> list[tuple[float, float]]:
            return [(left + x * k, top - y * k) for x, y in points.tolist()]

        for outline, card in zip(outlines, self._cards):
            corners = on_screen(card.corners)
            outline.corners = [c for corner in corners for c in corner]
            outline.center = (sum(x for x, _ in corners) / 4, sum(y for _, y in corners) / 4)
            # the value alone (a card is narrow on a small screen; its colour shows in the frame)
            value = app.tr("back") if card.label == FACE_DOWN else card.label.split(" ", 1)[-1]
            outline.text = f"{value}\n{round(100 * card.sure)}%"
            outline.rgba = _sureness_colour(card.sure)
        least = 48 * app.scale
        seats = seat_colours()
        for index, (box, die) in enumerate(zip(boxes, self._dice)):
            corners = on_screen(die.corners())
            box.corners = [c for corner in corners for c in corner]
            xs, ys = [x for x, _ in corners], [y for _, y in corners]
            box.label_y = max(ys)
            side = max(least, max(xs) - min(xs), max(ys) - min(ys))
            box.size = (side, side)
            box.center = (left + die.x * k, top - die.y * k)
            sure = die.faces[die.face]
            # whose die it is, where each seat's dice are of its colour
            colour = f" {app.tr(die.colour)}" if die.colour and seats else ""
            box.text = f"{die.face}{colour} {round(100 * sure)}%"
            box.rgba = palette.EXPLAIN if index == self._selected else _sureness_colour(sure)
            box.index, box.screen = index, self.screen


def seat_colours() -> tuple[str, ...]:
    """The colour of each seat's dice, where the game's dice are the seats' (else none)."""
    feed = App.get_running_app().camera_feed
    return feed.seat_colours if feed is not None else ()


def _sureness_colour(sure: float) -> tuple:
    return palette.GOOD if sure >= 0.9 else palette.ACCENT if sure >= 0.6 else palette.BAD


class CardOutline(Widget):
    """A card read on the play mat: its outline, and its value (or back) and sureness in its middle."""

    corners = ListProperty([])
    text = StringProperty("")
    rgba = ColorProperty(palette.GOOD)


class DieBox(HidesTouches, ButtonBehavior, Widget):
    """A die read: its box, and its face and sureness above it; a tap corrects it. The touch
    target is at least 48 px (scaled), larger than most dice seen."""

    corners = ListProperty([])
    label_y = NumericProperty(0)  # the top of the die's box, where its label sits
    text = StringProperty("")
    rgba = ColorProperty(palette.GOOD)
    index = NumericProperty(0)
    screen = ObjectProperty(None, allownone=True)

    def on_release(self):
        self.screen.pick(self.index)


class FaceChoice(TouchButton):
    """A face the picked die may show, or (``colour``) a colour it may be."""

    face = StringProperty("")
    colour = StringProperty("")
    screen = ObjectProperty(None, allownone=True)

    def on_release(self):
        if self.colour:
            self.screen.choose_colour(self.colour)
        else:
            self.screen.choose_face(self.face)


SCREEN = CameraScreen
