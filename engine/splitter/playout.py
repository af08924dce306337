"""Fast solo simulation of a Splitter sheet, for the advisor's playouts and the benchmark.

A sheet in simulation is plain lists: ``values`` by position, ``masks[n]`` (the positions holding
n, as bits) and ``empty`` (the empty mirrored pairs). A policy picks, for one roll, which empty
pair to fill and which number goes left. Group values are read from bit masks, so judging a
placement costs a few int operations (see ``pads`` for the numbering).
"""
from __future__ import annotations

import random
from typing import Callable, Sequence

from engine.splitter.pads import POSITIONS, Pad, adjacent
from engine.splitter.scoring import component, hearts_bonus, mask_score, number_masks

# policy(values, masks, empty, die1, die2, rng) -> (index into empty, left number, right number)
Policy = Callable[[list, list, list, int, int, random.Random], tuple[int, int, int]]


class Sim:
    """A sheet being filled in simulation (copied with ``copy``; changed in place by ``write``)."""

    __slots__ = ("pad", "values", "masks", "empty")

    def __init__(self, pad: Pad, values: Sequence[int]):
        self.pad = pad
        self.values = list(values)
        self.masks = number_masks(values)
        self.empty = [pair for pair in pad.pairs if not values[pair[0]]]

    def copy(self) -> "Sim":
        other = Sim.__new__(Sim)
        other.pad, other.values, other.masks, other.empty = self.pad, self.values[:], self.masks[:], self.empty[:]
        return other

    def write(self, index: int, left_number: int, right_number: int) -> None:
        left, right = self.empty[index]
        self.empty[index] = self.empty[-1]
        self.empty.pop()
        self.values[left], self.values[right] = left_number, right_number
        self.masks[left_number] |= 1 << left
        self.masks[right_number] |= 1 << right

    def score(self) -> int:
        return mask_score(self.masks, self.pad) + hearts_bonus(self.values, self.pad)

    def play(self, rolls: Sequence[tuple[int, int]], policy: Policy, rng: random.Random) -> int:
        """Fill the sheet with ``rolls`` using ``policy``; the final score."""
        for die1, die2 in rolls:
            self.write(*policy(self.values, self.masks, self.empty, die1, die2, rng))
        return self.score()


def random_rolls(rng: random.Random, turns: int) -> list[tuple[int, int]]:
    return [(int(rng.random() * 6) + 1, int(rng.random() * 6) + 1) for _ in range(turns)]


class Judge:
    """Values placements by the change they make to a sheet's worth.

    A group of n with exactly n cells is worth its points (doubled on a star), with more it is
    worth nothing, with s < n cells it is worth ``partial`` * n * (s / n)², so that growing a
    group pays more the nearer it gets to n (the greedy judge, with ``partial`` 0, values
    only points scored now). Each filled heart (pad B) is worth ``hearts_partial`` of the bonus
    while the filled ones agree.
    """

    def __init__(self, pad: Pad, partial: float = 0.0, hearts_partial: float = 0.0):
        self.pad = pad
        self.neighbours = pad.neighbour_masks
        self.star_mask = pad.star_mask
        self.hearts = pad.hearts
        self.heart_mask = sum(1 << h for h in pad.hearts)
        self.hearts_partial = hearts_partial
        # worth[number][size][star]
        self.worth = [[(0.0, 0.0)] * 45] + [
            [(0.0, 0.0)] + [self._worth(number, size, partial) for size in range(1, 45)]
            for number in range(1, 7)]
        # lone_gain[number][pos]: writing number at pos next to no other number
        self.lone_gain = [[0.0] * POSITIONS] + [
            [self.worth[number][1][pad.star_mask >> pos & 1] for pos in range(POSITIONS)] for number in range(1, 7)]

    @staticmethod
    def _worth(number: int, size: int, partial: float) -> tuple[float, float]:
        if size == number:
            return float(number), 2.0 * number
        if size > number:
            return 0.0, 0.0
        value = partial * size * size / number
        return value, 2.0 * value

    def gain(self, mask: int, pos: int, number: int) -> float:
        """How much writing ``number`` at ``pos`` changes the worth of the groups of ``number``."""
        touching = self.neighbours[pos] & mask
        worth = self.worth[number]
        if not touching:
            return worth[1][self.star_mask >> pos & 1]
        stars = self.star_mask
        before = 0.0
        while touching:
            group = component(touching & -touching, mask)
            before += worth[group.bit_count()][1 if group & stars else 0]
            touching &= ~group
        group = component(1 << pos, mask | 1 << pos)
        return worth[group.bit_count()][1 if group & stars else 0] - before

    def hearts_gain(self, values, pos: int, number: int) -> float:
        """The change in the hearts' worth when ``number`` is written in heart cell ``pos``."""
        before = self._hearts_worth([values[h] for h in self.hearts])
        return self._hearts_worth([number if h == pos else values[h] for h in self.hearts]) - before

    def _hearts_worth(self, numbers) -> float:
        filled = [n for n in numbers if n]
        if len(set(filled)) > 1:
            return 0.0
        if len(filled) == len(numbers):
            return 5.0
        return 5.0 * self.hearts_partial * len(filled)

    def placement_gain(self, values, masks, left: int, right: int, left_number: int, right_number: int) -> float:
        """The change in worth from writing ``left_number`` at ``left`` and ``right_number`` at ``right``."""
        gain = self.gain(masks[left_number], left, left_number)
        mask = masks[right_number] | (1 << left if left_number == right_number else 0)
        gain += self.gain(mask, right, right_number)
        if self.heart_mask >> left & 1 or self.heart_mask >> right & 1:
            for pos, number in ((left, left_number), (right, right_number)):
                if self.heart_mask >> pos & 1:
                    gain += self.hearts_gain(values, pos, number)
        return gain

    def best(self, values, masks, empty, die1, die2, rng):
        """The placement of the roll with the largest gain (ties broken at random)."""
        # Writing n next to no other n is worth the same anywhere (but on a star), so only the
        # cells touching an n are judged one by one; a pair is judged as a whole only where its
        # two cells may meet (same numbers) or hold a heart.
        filled = masks[1] | masks[2] | masks[3] | masks[4] | masks[5] | masks[6]
        open_cells = self.pad.cell_mask & ~filled
        first = self._cell_gains(masks, open_cells, die1)
        exact = self.placement_gain
        if die1 == die2:  # the pair's cells meet in the middle, or may touch the same group
            touching, hearts = adjacent(masks[die1]), self.heart_mask
            gains = [exact(values, masks, left, right, die1, die1)
                     if right - left == 1 or touching >> left & touching >> right & 1
                     or (hearts >> left | hearts >> right) & 1
                     else first[left] + first[right] for left, right in empty]
            top = max(gains)
            picks = [i for i, gain in enumerate(gains) if gain == top]
            return picks[int(rng.random() * len(picks))], die1, die2
        second = self._cell_gains(masks, open_cells, die2)
        straight = [first[left] + second[right] for left, right in empty]
        crossed = [second[left] + first[right] for left, right in empty]
        hearts = self.heart_mask
        if hearts:  # two different numbers meet only at the hearts (one at most in a pair)
            for i, (left, right) in enumerate(empty):
                if hearts >> left & 1:
                    straight[i] += self.hearts_gain(values, left, die1)
                    crossed[i] += self.hearts_gain(values, left, die2)
                elif hearts >> right & 1:
                    straight[i] += self.hearts_gain(values, right, die2)
                    crossed[i] += self.hearts_gain(values, right, die1)
        top = max(max(straight), max(crossed))
        picks = ([(i, die1, die2) for i, gain in enumerate(straight) if gain == top]
                 + [(i, die2, die1) for i, gain in enumerate(crossed) if gain == top])
        return picks[int(rng.random() * len(picks))]

    def _cell_gains(self, masks, open_cells: int, number: int) -> list[float]:
        """By position: the gain of writing ``number`` there (valid for the open cells)."""
        gains = self.lone_gain[number][:]
        mask = masks[number]
        near = open_cells & adjacent(mask)
        if not near:
            return gains
        worth, stars = self.worth[number], self.star_mask
        groups = []  # the groups touching an open cell: (cells, size, star, worth now)
        rest = mask & adjacent(near)
        while rest:
            group = component(rest & -rest, mask)
            rest &= ~group
            size, star = group.bit_count(), 1 if group & stars else 0
            groups.append((group, size, star, worth[size][star]))
        neighbours = self.neighbours
        while near:
            low = near & -near
            near ^= low
            pos = low.bit_length() - 1
            touching, size, star, before = neighbours[pos], 1, stars >> pos & 1, 0.0
            for group, group_size, group_star, group_worth in groups:
                if group & touching:
                    size += group_size
                    star |= group_star
                    before += group_worth
            gains[pos] = worth[size][star] - before
        return gains
