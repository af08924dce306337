"""The demo's simulated table lets the players use the screen: after a touch or a key it waits
(Home stays home, a half-typed question is not cancelled by the next move), and its notice
goes away by itself."""
import random

from assistant.commands.demo import NOTICE_S, USER_PAUSE_S, DemoTable
from assistant.session import Session
from assistant.store import IN_MEMORY, Store


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def table(clock):
    session = Session(Store(IN_MEMORY), advice=False)
    session.notify("Demo: a simulated table plays by itself")
    demo = DemoTable(session, random.Random(1), ["excape"], clock=clock)
    demo.step()
    return demo, session


def test_a_touch_pauses_the_table():
    clock = Clock()
    demo, session = table(clock)
    demo.step()
    assert demo.played == 1
    demo.touched()
    clock.now += USER_PAUSE_S - 1
    moves = session.view.moves
    demo.step()
    assert session.view.moves == moves and demo.played == 1
    clock.now += 2
    demo.step()
    assert session.view.moves == moves + 1


def test_home_stays_home_while_the_players_use_it():
    clock = Clock()
    demo, session = table(clock)
    demo.touched()  # the players touch Home
    session.leave()
    clock.now += 1
    assert demo.step().screen == "home"
    clock.now += USER_PAUSE_S
    assert demo.step().screen == "game" and demo.games_started == 2


def test_the_notice_goes_away_by_itself():
    clock = Clock()
    demo, session = table(clock)
    assert session.view.notices
    clock.now = NOTICE_S - 1
    demo.step()
    assert session.view.notices
    clock.now = NOTICE_S + 1
    demo.step()
    assert session.view.notices == ()
