"""Shared by the benchmarks of recordings watched through the live loop in process."""
from __future__ import annotations

import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Callable

from assistant.camera_policy import AUTO, CONTRADICTION, OFFER
from assistant.commands.watch import Play, watch
from vision.capture import ImageFolderSource
from vision.live import GameWatcher

FPS = 15.0  # the recordings'
COUNTS = ("camera_actions", "auto_right", "auto_wrong", "confirm_right", "missed", "contradictions")


def watched(frames: Path, watcher: GameWatcher, play: Play) -> tuple[dict, float]:
    """``play``'s report of the image folder ``frames`` watched by ``watcher``, and the ms per frame."""
    source = ImageFolderSource(str(frames))
    source.open()
    start = time.perf_counter()
    try:
        count = watch(source, watcher, play)
    finally:
        source.close()
    return play.report(count, FPS), (time.perf_counter() - start) * 1000 / count


def notes(seed: int, play: Play, skip: Callable[[int], bool] = lambda frame: False) -> list[str]:
    """Each event of ``play`` not applied right (but those at frames ``skip`` says), with what the camera said."""
    found = []
    for (observation, event), verdict in zip(play.events, play.verdicts):
        if verdict != "auto_right" and not skip(observation.frame):
            best = f"{event.candidates[0]} ({event.candidates[0].share:.3f})" if event.candidates else ""
            found.append(f"seed {seed} frame {observation.frame}: {verdict}, {event.kind} {best}{event.reason}")
    return found


def swaps_said(log: dict, play: Play, totals: Counter) -> list[float]:
    """Count in ``totals`` the swaps planted in a recording (``log``) and those ``play`` said as
    contradictions while they lay; how soon each was said (s)."""
    delays = []
    for swap in (p for p in log["planted"] if p["kind"] == "swap"):
        said = [o.frame for o, e in play.events if e.kind == CONTRADICTION and swap["still"] <= o.frame < swap["until"]]
        totals["swaps"] += 1
        totals["swaps_said"] += bool(said)
        delays += [(said[0] - swap["still"]) / FPS] if said else []
    return delays


def swap_line(what: str, totals: Counter, delays: list[float]) -> str:
    return (f"  {what} swapped: said as contradictions {totals['swaps_said']}/{totals['swaps']}"
            + (f", after median {statistics.median(delays):.2f} s, longest {max(delays):.2f} s" if delays else ""))


def offs_seen(log: dict, play: Play, totals: Counter) -> None:
    """Count in ``totals`` the cards pushed half off their place in a recording (``log``), and
    those while which ``play`` said a contradiction, offered a move, applied one (no move was
    made) or stayed silent (the card still read at its place)."""
    for off in (p for p in log["planted"] if p["kind"] == "off"):
        kinds = {e.kind for o, e in play.events if off["still"] <= o.frame < off["until"]}
        totals["offs"] += 1
        totals["offs_said"] += CONTRADICTION in kinds
        totals["offs_offered"] += OFFER in kinds
        totals["offs_applied"] += AUTO in kinds
        totals["offs_silent"] += not kinds


def off_line(totals: Counter) -> str:
    return (f"  a card pushed half off its place: {totals['offs']} times; said {totals['offs_said']}, "
            f"offered {totals['offs_offered']}, applied {totals['offs_applied']}, silent {totals['offs_silent']}")


def during_planted(log: dict) -> Callable[[int], bool]:
    """Whether a frame shows a swap or a card off its place planted in a recording (``log``)."""
    planted = [(p["still"], p["until"]) for p in log["planted"] if p["kind"] in ("swap", "off")]
    return lambda frame: any(a <= frame < b for a, b in planted)


def line(report: dict) -> str:
    return ", ".join(f"{key} {report[key]}" for key in COUNTS)


def summary(totals: Counter, latencies: list, frame_ms: list) -> str:
    """The counts in all, the share applied right, the median latency and the ms per frame."""
    latencies = [latency for latency in latencies if latency is not None]
    return (line(totals) + f"; auto_right {100 * totals['auto_right'] / max(totals['camera_actions'], 1):.1f} %; "
            f"latency median {statistics.median(latencies) if latencies else float('nan'):.2f} s; "
            f"{statistics.mean(frame_ms):.1f} ms a frame")
