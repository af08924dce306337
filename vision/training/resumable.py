"""What the card trainings share to be stopped and started again: data made once and kept, and
a checkpoint of the model, its optimiser and its learning-rate schedule. Needs PyTorch."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Callable

import numpy as np
import torch


def kept_arrays(cache: Path, make: Callable[[], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The arrays kept in ``cache``, or those ``make()`` gives, then kept there (written whole
    or not at all)."""
    if cache.exists():
        with np.load(cache) as data:
            return dict(data)
    data = make()
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez(cache.with_suffix(".tmp.npz"), **data)
    cache.with_suffix(".tmp.npz").rename(cache)
    return data


def optimiser_and_schedule(model: torch.nn.Module, lr: float, steps: int):
    """AdamW, and a learning rate that warms up over 100 steps, then decays (cosine) to nothing
    at the last step."""
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda k: min(1.0, (k + 1) / 100)
                                                 * 0.5 * (1 + math.cos(math.pi * min(k, steps) / steps)))
    return optimiser, schedule


def resume(checkpoint: Path, model, optimiser, schedule) -> int:
    """The step the checkpoint was written at, its state loaded; 0 when there is none."""
    if not checkpoint.exists():
        return 0
    state = torch.load(checkpoint, weights_only=False)
    model.load_state_dict(state["model"])
    optimiser.load_state_dict(state["optimiser"])
    schedule.load_state_dict(state["schedule"])
    print(f"resumed at step {state['step']}", flush=True)
    return state["step"]


def save(checkpoint: Path, model, optimiser, schedule, step: int) -> None:
    torch.save({"model": model.state_dict(), "optimiser": optimiser.state_dict(),
                "schedule": schedule.state_dict(), "step": step}, checkpoint.with_suffix(".tmp"))
    checkpoint.with_suffix(".tmp").rename(checkpoint)
