"""`table-assistant watch GAME SOURCE`: a recording's dice and cards through the live loop, headless.

The frames (a video file, or a folder of images read in name order) go through what the game's
camera reads (``vision.live.GameWatcher``): the stillness gate and the dice reader
(``vision.live.TableWatcher``; on a card game's mat, in its dice zone), and the play mat's cards
(``vision.live_cards.CardWatcher``, the game's deck enrolled by `calibrate cards`): Hilo's cards,
Hold Up's dice and cards (its dice alone without its deck). Each settled reading is judged against
the game (``assistant.camera_policy``): applied when sure, offered when not, or a contradiction.
Each event names its best explanation: one action line, or the actions it chains joined by "; "
(a re-roll the camera cannot see and its outcome, ``again; roll X 5``; on Excape's mat, a roll
placed on a rung and the next roll seen at once, ``place 3; roll 1 2``; a Hilo turn, ``draw; card
red 7; place r1c2``). Without --truth the applied events make the match printed; offers are not
applied (nobody touches the screen).

With --truth MATCH.json the true match is played instead. The actions the camera cannot see
(decisions, sheets written, a HILO line kept) are taken from the truth as soon as they are next.
What it should see is cut into steps (``camera_steps``: each roll, and once the frames show a mat
whose zones it tells apart, each placement on Excape's ladder; for cards, what happens between
two still tables; both, in the order they happen, for Hold Up). Each camera event is matched with
the first of the truth's next ``MISSED_IN_A_ROW + 1`` steps that it names, with the steps after it
that its chain covers too (judged in the position that step began in; a later step only by a move
that leaves the table as read): the steps before it
were missed, and the players would have entered them by touch. That step is then played whatever
the camera said, so that one misread does not derail the rest. An event that names none of them (a
stray or knocked die, a misread that the next reading puts right) is judged against the next step
but plays nothing. The report adds the counts:
``auto_right``, ``auto_wrong``, ``confirm_right`` (offered first, not applied), ``missed`` (rolls
with no right event) and ``contradictions``, and the median latency from the first still frame of a
settled table to its event.
"""
from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any, Sequence

from assistant import settings as settings_mod
from assistant.camera_policy import (AUTO, CONTRADICTION, OFFER, SURE_FIT, CameraEvent, DiceJudge, camera_sees,
                                     card_steps, judge_cards, seat_dice_colours)
from engine import registry
from engine.match import Match
from vision.capture import CaptureError, FrameSource, ImageFolderSource, VideoFileSource
from vision.card_model import CardModel, EnrolmentError
from vision.dice_colours import Palette
from vision.cards import CardReader
from vision.live import GameWatcher, Observation, TableWatcher
from vision.live_cards import CardObservation, CardWatcher
from vision.stillness import StillnessGate

KINDS = {AUTO: "auto", OFFER: "offered", CONTRADICTION: "contradiction"}  # event kinds as reported
MISSED_IN_A_ROW = 3  # steps the camera may miss before its next event is still matched with the truth


def add_parser(sub) -> None:
    parser = sub.add_parser("watch", help="play a recording's dice and cards through the live loop, headless, and measure it")
    parser.add_argument("game", help=f"the game: {', '.join(registry.game_ids())}")
    parser.add_argument("source", help="a video file, or a folder of frames (read in name order)")
    parser.add_argument("--players", type=int, metavar="N",
                        help="players (default: as many as in --truth, else the game's fewest but at least 2)")
    parser.add_argument("--set", dest="watch_settings", metavar="KEY=VALUE", action="append", default=[],
                        help="override one setting for this run, e.g. --set camera.auto_apply=0.95 (repeatable)")
    parser.add_argument("--fps", type=float, default=15.0, help="frames per second of the recording (default 15)")
    parser.add_argument("--truth", metavar="MATCH.json", help="the match really played: judge the camera against it")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args, settings) -> int:
    from assistant.cli import UsageError

    if args.fps <= 0:
        raise UsageError(f"--fps must be above 0, not {args.fps}")
    settings = with_overrides(args, settings)
    game_class = registry.game_class(args.game)
    truth = Match.load(args.truth) if args.truth else None
    if truth is not None and truth.game.id != game_class.id:
        raise ValueError(f"{args.truth} is a {truth.game.id} match, not {game_class.id}")
    if truth is not None and args.players not in (None, truth.game.num_players):
        raise UsageError(f"{args.truth} has {truth.game.num_players} players, not {args.players}")
    if truth is not None:
        match = Match(truth.game, truth.players)
    else:
        players = args.players or max(game_class.min_players, 2)
        options = settings.values.get("games", {}).get(game_class.id, {})
        match = Match(registry.make_game(game_class.id, players, options), [f"P{n + 1}" for n in range(players)])
    source = ImageFolderSource(args.source) if Path(args.source).is_dir() else VideoFileSource(args.source)
    try:
        source.open()
        watcher = game_watcher(settings, game_class)
        play = Play(match, truth, settings["camera.auto_apply"], watcher.reads, dice_colours(settings, match))
        frames = watch(source, watcher, play)
    except CaptureError as exc:  # said on one line, with its fix
        raise OSError("; ".join(f"{a.source}: {a.problem}" + (f" ({a.fix})" if a.fix else "")
                                for a in exc.attempts)) from None
    finally:
        source.close()
    report = play.report(frames, args.fps)
    print(json.dumps(report, ensure_ascii=False) if args.json else summary(report, game_class.title))
    return 0


def game_watcher(settings, game_class) -> "GameWatcher":
    """What the camera reads of ``game_class``'s table: its dice, and its cards where its deck is
    enrolled (a game that also has dice goes on without: said on stderr)."""
    reads = game_class.camera_reads
    cards = None
    if "cards" in reads:
        try:
            cards = card_watcher(settings, game_class.id)
        except EnrolmentError as exc:
            if "dice" not in reads:
                raise
            print(f"{game_class.title}: the cards are not read ({exc}; `table-assistant calibrate cards --game "
                  f"{game_class.id}` enrols the deck), only the dice", file=sys.stderr)
    dice = TableWatcher.from_settings(settings.section("vision.dice"), settings.section("vision.stillness"),
                                      settings_mod.state_dir(settings["app.state_dir"]), game_class.printed_dice) \
        if "dice" in reads else None
    # on the game's mat the dice are read in its dice zones (Excape's rungs and roll area, Hold Up's
    # dice zone); without one in view, anywhere
    return GameWatcher(dice, cards, game_mats(game_class.id))


def game_mats(game: str) -> list:
    """The shipped mats of ``game`` (vision.mat.MatLayout), for each number of players."""
    from assistant.commands.print_mat import all_mat_layouts

    return [layout for layout in all_mat_layouts() if layout.game == game]


def card_watcher(settings, game: str) -> CardWatcher:
    """The live card reader of ``game``'s mats, with the game's deck enrolled under the state folder."""
    from assistant.commands.calibrate_cards import enrolment_path, game_cards, reader_params

    reader = CardReader(CardModel.load(enrolment_path(settings, game)), reader_params(settings))
    return CardWatcher(reader, game_mats(game), StillnessGate.from_settings(settings.section("vision.stillness")),
                       cards=game_cards(settings, game))


def with_overrides(args, settings) -> settings_mod.Settings:
    """The settings again with this command's --set on top of the global ones."""
    from assistant.cli import UsageError

    if not args.watch_settings:
        return settings
    overrides = {}
    for item in [*args.set, *args.watch_settings]:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--set expects KEY=VALUE, got {item!r}")
        overrides[key.strip()] = value
    try:
        return settings_mod.load(args.config, overrides)
    except settings_mod.ConfigError as exc:
        raise UsageError(str(exc)) from None


def watch(source: FrameSource, watcher: GameWatcher, play: "Play") -> int:
    """Feed every frame of the open ``source`` to ``watcher`` and its observations to ``play``;
    the number of frames."""
    index = 0
    while (image := source.grab()) is not None:
        for observation in watcher.feed(index, image):
            play.observe(observation)
        index += 1
    if not index:
        raise ValueError(f"{source.name}: no frames")
    return index


class Kept:
    """Takes the observations as they come, and only keeps them."""

    def __init__(self):
        self.observations: list[Observation] = []

    def observe(self, observation: Observation) -> None:
        self.observations.append(observation)


def watch_folder(folder: str | Path, watcher: GameWatcher) -> tuple[int, list[Observation | CardObservation]]:
    """The number of frames in the image ``folder`` and the observations ``watcher`` makes of them."""
    source, kept = ImageFolderSource(str(folder)), Kept()
    source.open()
    try:
        return watch(source, watcher, kept), kept.observations
    finally:
        source.close()


class Play:
    """The match as the camera plays it, alone or beside the truth, with its events and counts."""

    def __init__(self, match: Match, truth: Match | None, auto_apply: float, reads: tuple[str, ...] | None = None,
                 seat_colours: Sequence[str] = ()):
        self.match = match
        self.auto_apply = auto_apply
        self.events: list[tuple[Observation | CardObservation, CameraEvent]] = []
        self.verdicts: list[str] = []  # for each event judged against the truth: auto_right, auto_wrong, ...
        self.truth = truth.history if truth is not None else None
        # what the camera should see of the truth (``reads``: what it watches, by default all the game's
        # camera reads): (first, end) ranges of its actions, and the state before
        states = truth.states() if truth is not None else ()
        self.seen = ([(first, end, states[first]) for first, end in camera_steps(truth, reads)]
                     if truth is not None else [])
        self.seen_in_truth = len(self.seen)
        self._truth, self._reads = truth, reads
        self._dice = DiceJudge(seat_colours)
        self._play_to(self.seen[0][0] if self.seen else len(self.truth or ()))

    def _on_a_mat(self) -> None:
        """The camera tells the mat's dice zones apart (the mat is found before the first reading):
        the truth's decisions that move dice into one (Excape's placements) are camera steps too."""
        reads = self._reads if self._reads is not None else self._truth.game.camera_reads
        self._reads = (*reads, "zones")
        states = self._truth.states()
        self.seen = [(first, end, states[first]) for first, end in camera_steps(self._truth, self._reads)]
        self.seen_in_truth = len(self.seen)

    def _play_to(self, index: int) -> None:
        """Play the truth up to (not including) its action ``index``."""
        while len(self.match.history) < index:
            self.match.push(self.truth[len(self.match.history)])

    def observe(self, observation: Observation | CardObservation) -> None:
        dice = isinstance(observation, Observation)
        if self._truth is not None and dice and observation.zones and "zones" not in (self._reads or ()):
            self._on_a_mat()
        stayed = self._dice.stayed(observation) if dice else 0
        event = self._judge(self.match.state, observation, stayed)
        if dice and (event is None or event.kind != CONTRADICTION):
            self._dice.agreed(observation)
        if event is None:
            return
        if self.truth is None:
            self.events.append((observation, event))
            if event.kind == AUTO:
                for action in event.candidates[0].actions:
                    self.match.push(action)
            return
        ahead = [step for step in self.seen if step[0] >= len(self.match.history)][:MISSED_IN_A_ROW + 1]
        for number, (first, _, state) in enumerate(ahead):
            named = event if number == 0 else self._judge(state, observation, stayed)
            if named is None:
                continue
            # the event may name this step, or it and the next ones together (a placement and
            # the next roll seen at once); a later step is named only by a move that leaves the
            # table as read: one that explains it with cards misread is no sign that the steps
            # before were missed
            for last in range(number, len(ahead)):
                done = self.truth[first:ahead[last][1]]
                if any(done in c.chains for c in named.candidates if number == 0 or c.fit >= SURE_FIT):
                    if dice:
                        self._dice.agreed(observation)
                    self._play_to(first)
                    self.events.append((observation, named))
                    self.verdicts += [verdict(named, done)] * (last - number + 1)
                    later = [step[0] for step in self.seen if step[0] >= ahead[last][1]]
                    self._play_to(later[0] if later else len(self.truth))
                    return
        self.events.append((observation, event))  # names none of the next steps: judged, nothing played
        if ahead:
            self.verdicts.append(verdict(event, self.truth[ahead[0][0]:ahead[0][1]]))

    def _judge(self, state, observation: Observation | CardObservation, stayed: int) -> CameraEvent | None:
        if isinstance(observation, CardObservation):
            return judge_cards(state, observation.view, self.auto_apply)
        return self._dice.judge(state, observation, self.auto_apply, stayed)

    def report(self, frames: int, fps: float) -> dict[str, Any]:
        if self.truth is not None:
            self._play_to(len(self.truth))  # the rolls no event named were entered by touch
        report: dict[str, Any] = {"frames": frames, "actions": self.match.lines(),
                                  "events": [event_json(o, e) for o, e in self.events]}
        if self.truth is not None:
            right = self.verdicts.count("auto_right") + self.verdicts.count("confirm_right")
            latencies = [(o.frame - o.still_since) / fps for o, _ in self.events]
            report.update(camera_actions=self.seen_in_truth,
                          auto_right=self.verdicts.count("auto_right"),
                          auto_wrong=self.verdicts.count("auto_wrong"),
                          confirm_right=self.verdicts.count("confirm_right"),
                          missed=self.seen_in_truth - right,
                          contradictions=sum(e.kind == CONTRADICTION for _, e in self.events),
                          latency_s_median=round(statistics.median(latencies), 3) if latencies else None)
        return report


def dice_colours(settings, match: Match) -> tuple[str, ...]:
    """The colour of each seat's dice in ``match`` (its players' colours), where the game's dice
    are the seats' and the dice reader (``vision.dice.palette``) names them all; else ()."""
    return seat_dice_colours(match.game, [player.colour for player in match.players],
                             Palette.parse(settings["vision.dice.palette"]).names)


def camera_steps(match: Match, reads: tuple[str, ...] | None = None) -> list[tuple[int, int]]:
    """What the camera should see of ``match`` (reading ``reads``, by default all the game's
    camera reads): (first, end) ranges of its actions, each a roll (with "zones" in ``reads``, the
    dice on a mat whose zones are told apart: also each decision that moves dice into one, as
    Excape's placements), and for cards what happens between two still tables, in the order they
    happen."""
    states, history = match.states(), match.history
    reads = match.game.camera_reads if reads is None else reads
    steps = card_steps(states, history) if "cards" in reads else []
    if "dice" in reads:
        steps += [(index, index + 1) for index, action in enumerate(history)
                  if camera_sees(states[index], action, "zones" in reads)]
    return sorted(steps)


def verdict(event: CameraEvent, done: tuple) -> str:
    """How the camera's ``event`` fares against the truth's actions ``done``."""
    first = done in event.candidates[0].chains if event.candidates else False
    if event.kind == AUTO:
        return "auto_right" if first else "auto_wrong"
    return "confirm_right" if event.kind == OFFER and first else "missed"


def event_json(observation: Observation, event: CameraEvent) -> dict[str, Any]:
    best = event.candidates[0] if event.candidates else None
    return {"frame": observation.frame, "action": str(best) if best else None,
            "share": round(best.share, 4) if best else None, "kind": KINDS[event.kind],
            "reason": str(event.reason) if event.kind == CONTRADICTION else None}


def summary(report: dict[str, Any], title: str) -> str:
    kinds = [event["kind"] for event in report["events"]]
    lines = [f"{title}: {report['frames']} frames, {len(kinds)} camera events ({kinds.count('auto')} applied, "
             f"{kinds.count('offered')} offered, {kinds.count('contradiction')} contradictions); "
             f"{len(report['actions'])} actions played."]
    lines += [f"  frame {event['frame']}: {event['reason']}" for event in report["events"] if event["reason"]]
    if "camera_actions" in report:
        latency = report["latency_s_median"]
        lines.append(f"Against the truth, {report['camera_actions']} camera actions: "
                     f"{report['auto_right']} applied right, "
                     f"{report['auto_wrong']} applied wrong, {report['confirm_right']} right but offered, "
                     f"{report['missed']} missed; median latency "
                     + ("-" if latency is None else f"{latency:.2f} s") + ".")
    return "\n".join(lines)
