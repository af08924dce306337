"""Hold Up 4D6: the three rows of gem cards, the dice with the consequence of keeping them, each
player's GV faces and pile, and the final scoring breakdown."""
from __future__ import annotations

from kivy.app import App
from kivy.properties import (BooleanProperty, ColorProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.layout import Layout

from assistant.screens import palette
from assistant.screens.cards import CardPicker
from assistant.screens.dice import DicePicker
from assistant.screens.game import GameScreen
from assistant.screens.text import signed
from assistant.screens.widgets import Table, fit_children
from assistant.views import Choice, ViewState
from engine.holdup import BoardRow, Draw, Flip, HoldUpBoard, Keep, Place, Reroll, Roll, Steal
from engine.text import tr

FACES = tuple(str(face) for face in range(1, 7))


class GemCard(Label):
    """A gem card: its stone's colour, its value, the stone's name in small."""

    stone = StringProperty("")
    rgba = ColorProperty(palette.UNKNOWN)
    mark = StringProperty("")  # "capture": keeping the dice takes it; "short": its row is too short


class FanLayout(Layout):
    """Cards side by side, ``gap`` apart; overlapping when they do not fit, each still showing
    its left part (where its value is), the last one whole."""

    card_width = NumericProperty(44)
    gap = NumericProperty(3)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        for name in ("card_width", "gap", "pos", "size", "children"):
            self.fbind(name, self._trigger_layout)

    def do_layout(self, *_):
        cards = list(reversed(self.children))  # the first added (the row's first card) leftmost
        step = self.card_width + self.gap
        if len(cards) > 1 and (len(cards) - 1) * step + self.card_width > self.width:
            step = max(1.0, (self.width - self.card_width) / (len(cards) - 1))
        for index, card in enumerate(cards):
            card.size = (self.card_width, self.height)
            card.pos = (self.x + index * step, self.y)


class GemRow(BoxLayout):
    number = StringProperty("")
    short = BooleanProperty(False)

    def show(self, row: BoardRow) -> None:
        self.short = row.short
        for widget, gem, mark in zip(fit_children(self.ids.cards, len(row.cards), GemCard), row.cards, row.marks):
            rgba = palette.stone(gem.stone)
            widget.text, widget.stone, widget.rgba, widget.color, widget.mark = \
                str(gem.value), App.get_running_app().t(gem.stone), rgba, palette.ink_on(rgba), mark


class PlayerRow(BoxLayout):
    name = StringProperty("")
    rgba = ColorProperty(palette.UNKNOWN)
    ink = ColorProperty(palette.TEXT)
    active = BooleanProperty(False)
    gv = ListProperty(["V", "V", "V"])
    pile = StringProperty("")
    score = StringProperty("")


class HoldUpBoardWidget(BoxLayout):
    screen = ObjectProperty(None)
    dice = ListProperty([])
    dice_text = StringProperty("")
    pile_text = StringProperty("")
    consequence = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        for number in range(HoldUpBoard.ROWS, 0, -1):  # the top row (3) first, as the table sees them
            self.ids.rows.add_widget(GemRow(number=str(number)))

    def update(self, view: ViewState) -> None:
        app = App.get_running_app()
        board: HoldUpBoard = view.board
        for row in self.ids.rows.children:
            row.show(board.rows[int(row.number) - 1])
        self.dice = [str(face) for face in board.dice]
        self.dice_text = app.tr("roll {roll} of {most}", roll=board.rolls, most=HoldUpBoard.MAX_ROLLS) if board.dice else ""
        self.pile_text = app.tr("Draw pile: {count} cards", count=board.draw_pile)
        self.consequence = self.screen.t(board.consequence) if board.consequence else ""
        self.ids.players.data = [
            {"name": seat.name, "rgba": palette.colour(seat.colour), "ink": palette.ink(seat.colour),
             "active": player.active, "gv": list(player.gv),
             "pile": app.tr("pile {count}, top {top}", count=len(player.pile),
                            top=f"{app.t(player.pile[-1].stone)} {player.pile[-1].value}")
             if player.pile else app.tr("pile empty"), "score": str(player.score.total)}
            for seat, player in zip(view.seats, board.players)]


class HoldUpPicker(BoxLayout):
    """Dice at a roll, gem cards at a draw: the picker the moment needs."""

    screen = ObjectProperty(None)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dice = DicePicker(screen=self.screen)
        self.cards = CardPicker(screen=self.screen, kind_cols=2)

    def update(self, view: ViewState) -> None:
        board: HoldUpBoard = view.board
        wanted = self.dice if board.phase == "roll" else self.cards
        if wanted.parent is not self:
            self.clear_widgets()
            self.add_widget(wanted)
        app = App.get_running_app()
        if board.phase == "roll":
            self.dice.title = app.tr("The {count} dice {name} rolled", count=board.to_roll,
                                     name=view.seats[board.seat].name)
            self.dice.configure([("", FACES, "")] * board.to_roll, lambda faces: Roll(tuple(int(f) for f in faces)))
        else:
            left = {(action.stone, action.value) for action, _ in view.chance}
            stones = sorted({gem.stone for gem in board.gems})
            kinds = [(stone, app.t(stone), palette.stone(stone), palette.ink_on(palette.stone(stone)),
                      any(s == stone for s, _ in left)) for stone in stones]

            def values(stone: str):
                if not stone:
                    return [(value, False) for value in sorted({gem.value for gem in board.gems})]
                return [(gem.value, (gem.stone, gem.value) in left) for gem in board.gems if gem.stone == stone]

            self.cards.configure(kinds, values, Draw)
        wanted.update(view)


class HoldUpScreen(GameScreen):
    board_class = HoldUpBoardWidget
    picker_class = HoldUpPicker

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.side_width = 310  # a die's six faces side by side, 48 px each
        self.final_table = Table()

    def update(self, view: ViewState) -> None:
        super().update(view)
        if self.over:
            app = App.get_running_app()
            if not self.ids.final_extra.children:
                self.ids.final_extra.add_widget(self.final_table)
            self.final_table.font_size = 17 * app.scale
            self.final_table.totals_row = False
            self.final_table.rows_data = final_rows(app, view)

    def turn(self, view: ViewState):
        board: HoldUpBoard = view.board
        name = view.seats[board.seat].name
        phase = board.phase
        if phase == "deal":
            return tr("Deal the opening rows: card {number} of {total}", number=board.dealt + 1,
                      total=HoldUpBoard.DEAL)
        if phase == "roll":
            return tr("{name} rolls (roll {roll} of {most})", name=name, roll=board.rolls + 1,
                      most=HoldUpBoard.MAX_ROLLS)
        if phase == "decide":
            return tr("{name}: keep the dice or roll again", name=name)
        if phase == "flip":
            return tr("{name} flips GV cards for the 4s", name=name)
        if phase == "draw":
            return tr("{name}: turn over the top card of the draw pile", name=name)
        if phase == "place":
            return tr("{name} puts the {card} at the end of a row", name=name, card=str(board.held))
        if phase == "steal":
            return tr("{name} has G G G: take another player's top card", name=name)
        return view.turn

    def label(self, action):
        if isinstance(action, Keep):
            return tr("Keep the dice")
        if isinstance(action, Reroll):
            return tr("Roll {faces} again", faces=" ".join(map(str, action.faces))) if action.faces \
                else tr("Roll all four again")
        if isinstance(action, Flip):
            return tr("Flip GV card {cards}", cards=" + ".join(map(str, action.cards)))
        if isinstance(action, Place):
            return tr("Put it in row {row}", row=action.row)
        if isinstance(action, Steal):
            return tr("Take {name}'s top card", name=self.view.seats[action.victim].name)
        if isinstance(action, Roll):
            return tr("rolled {faces}", faces=" ".join(map(str, action.faces)))
        if isinstance(action, Draw):
            return tr("turned over {stone} {value}", stone=action.stone, value=action.value)
        return str(action)

    def advice_line(self, choice: Choice):
        if not choice.advice:
            return ""
        return tr("{points} points for you", points=signed(choice.value))


def final_rows(app, view: ViewState) -> list[list[str]]:
    """Each player's final score, part by part."""
    rows = [["", app.tr("cards"), "VVV", app.tr("sets"), app.tr("last card"), app.tr("total")]]
    for seat, player in zip(view.seats, view.board.players):
        score = player.score
        rows.append([seat.name, str(score.cards), str(score.vvv), str(score.sets), str(score.last_card),
                     str(score.total)])
    return rows


SCREEN = HoldUpScreen
