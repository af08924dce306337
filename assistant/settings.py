"""Layered configuration: packaged defaults, system file, user file, environment, command line.

Every valid key is in the packaged ``config/default.toml``; its value there also fixes the
key's type. A later layer may only change existing keys, with a value of the same type.
"""
from __future__ import annotations

import difflib
import os
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

SYSTEM_FILE = Path("/etc/table-assistant/config.toml")
ENV_PREFIX = "TABLE_ASSISTANT__"  # TABLE_ASSISTANT__APP__LANGUAGE=fr sets app.language


class ConfigError(ValueError):
    """A configuration layer is unreadable or holds an unknown key or a wrong type."""


def user_file(env: Mapping[str, str] = os.environ) -> Path:
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "table-assistant" / "config.toml"


def state_dir(configured: str, env: Mapping[str, str] = os.environ) -> Path:
    """Where games, players and calibration are kept: the ``app.state_dir`` setting, empty
    meaning ``$XDG_STATE_HOME/table-assistant``."""
    if configured:
        return Path(configured)
    return Path(env.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "table-assistant"


def default_text() -> str:
    return resources.files("assistant.defaults").joinpath("default.toml").read_text("utf-8")


@dataclass
class Settings:
    """The effective configuration and, for every key, the layer it came from."""

    values: dict[str, Any]
    sources: dict[str, str] = field(default_factory=dict)

    def __getitem__(self, dotted: str) -> Any:
        node: Any = self.values
        for part in dotted.split("."):
            node = node[part]
        return node

    def section(self, dotted: str) -> dict[str, Any]:
        """A copy of one table, e.g. ``settings.section("vision.dice")``."""
        return dict(self[dotted])

    def flat(self) -> dict[str, Any]:
        return dict(_flatten(self.values))


def load(
    cli_file: str | Path | None = None,
    overrides: Mapping[str, str] | None = None,
    env: Mapping[str, str] = os.environ,
    system_file: Path = SYSTEM_FILE,
    user_path: Path | None = None,
) -> Settings:
    """Build the effective settings; raise ConfigError naming the file and key on bad input."""
    defaults = tomllib.loads(default_text())
    settings = Settings(values=defaults, sources={k: "default" for k, _ in _flatten(defaults)})
    for path in (system_file, user_path or user_file(env)):
        if path.is_file():
            _merge(settings, _read_file(path), str(path))
    for dotted, raw in _env_overrides(env).items():
        _merge(settings, _nest(dotted, _coerce(settings, dotted, raw, "environment")), "environment")
    if cli_file is not None:
        path = Path(cli_file)
        if not path.is_file():
            raise ConfigError(f"{path}: no such configuration file")
        _merge(settings, _read_file(path), str(path))
    for dotted, raw in (overrides or {}).items():
        _merge(settings, _nest(dotted, _coerce(settings, dotted, raw, "command line")), "command line")
    return settings


def _read_file(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc


def _env_overrides(env: Mapping[str, str]) -> dict[str, str]:
    return {
        name[len(ENV_PREFIX):].lower().replace("__", "."): value
        for name, value in env.items()
        if name.startswith(ENV_PREFIX)
    }


def _coerce(settings: Settings, dotted: str, raw: str, origin: str) -> Any:
    """Read a text value (environment, --set) as the type of the default it replaces."""
    expected = _lookup_default(settings, dotted, origin)
    if isinstance(expected, str):
        return raw
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        raise ConfigError(
            f"{origin}: {dotted}: expected {_type_name(expected)}, got {raw!r}"
        ) from None


def _lookup_default(settings: Settings, dotted: str, origin: str) -> Any:
    node: Any = settings.values
    walked: list[str] = []
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            raise ConfigError(_unknown(origin, walked, part, node))
        walked.append(part)
        node = node[part]
    return node


def _merge(settings: Settings, layer: Mapping[str, Any], origin: str, prefix: str = "") -> None:
    node = settings.values
    for part in filter(None, prefix.split(".")):
        node = node[part]
    for key, value in layer.items():
        dotted = f"{prefix}{key}"
        if key not in node:
            raise ConfigError(_unknown(origin, prefix.split(".")[:-1], key, node))
        current = node[key]
        if isinstance(current, dict):
            if not isinstance(value, dict):
                raise ConfigError(f"{origin}: {dotted}: expected a table of settings, got {value!r}")
            _merge(settings, value, origin, dotted + ".")
            continue
        if not _same_type(current, value):
            raise ConfigError(
                f"{origin}: {dotted}: expected {_type_name(current)}, got {value!r}"
            )
        node[key] = float(value) if isinstance(current, float) else value
        settings.sources[dotted] = origin


def _unknown(origin: str, walked: list[str], key: str, node: Any) -> str:
    where = ".".join([*walked, key]) if walked else key
    choices = list(node) if isinstance(node, dict) else []
    near = difflib.get_close_matches(key, choices, n=1)
    hint = f" (did you mean {'.'.join([*walked, near[0]])!r}?)" if near else ""
    return f"{origin}: {where}: unknown setting{hint}"


def _same_type(current: Any, value: Any) -> bool:
    if isinstance(current, bool) or isinstance(value, bool):
        return isinstance(current, bool) and isinstance(value, bool)
    if isinstance(current, float):
        return isinstance(value, (int, float))
    if isinstance(current, list):
        return isinstance(value, list) and all(
            _same_type(current[0], v) for v in value
        ) if current else isinstance(value, list)
    return type(current) is type(value)


def _type_name(value: Any) -> str:
    if isinstance(value, list):
        return f"a list of {_type_name(value[0])}" if value else "a list"
    return {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}.get(
        type(value), type(value).__name__
    )


def _nest(dotted: str, value: Any) -> dict[str, Any]:
    *parents, last = dotted.split(".")
    out: dict[str, Any] = {last: value}
    for part in reversed(parents):
        out = {part: out}
    return out


def _flatten(node: Mapping[str, Any], prefix: str = ""):
    for key, value in node.items():
        if isinstance(value, dict):
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value
