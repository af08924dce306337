"""Layered configuration: packaged defaults, system file, user file, environment, command line.

Every valid key is in the packaged ``config/default.toml``; its value there also fixes the
key's type. A later layer may only change existing keys, with a value of the same type.
``Settings.keep`` writes the settings screen's changes to the user file.
"""
from __future__ import annotations

import copy
import difflib
import json
import os
import re
import tempfile
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
    user_path: Path | None = None  # where ``keep`` writes
    overridden: set[str] = field(default_factory=set)  # keys a layer after the user file sets

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

    def with_values(self, changes: Mapping[str, Any], origin: str) -> "Settings":
        """A copy with ``changes`` (dotted key -> value of the key's type) set, for this run only;
        ``origin`` names who set them. ConfigError for an unknown key or a value of another type."""
        changed = Settings(values=copy.deepcopy(self.values), sources=dict(self.sources), user_path=self.user_path,
                        overridden=self.overridden | set(changes))
        for dotted, value in changes.items():
            _merge(changed, _nest(dotted, value), origin)
        return changed

    def keep(self, changes: Mapping[str, Any]) -> list[str]:
        """Set ``changes`` (dotted key -> value) here and in the user file, for the next starts
        (see ``write_user_file``); returns those of its keys that a later layer (the environment,
        --config, --set) will set again at the next start. ConfigError when they cannot be kept."""
        if self.user_path is None:
            raise ConfigError("no user file to keep settings in")
        write_user_file(self.user_path, changes)
        for dotted, value in changes.items():
            _merge(self, _nest(dotted, value), str(self.user_path))
        return [dotted for dotted in changes if dotted in self.overridden]


def load(
    cli_file: str | Path | None = None,
    overrides: Mapping[str, str] | None = None,
    env: Mapping[str, str] = os.environ,
    system_file: Path = SYSTEM_FILE,
    user_path: Path | None = None,
) -> Settings:
    """Build the effective settings; raise ConfigError naming the file and key on bad input."""
    defaults = tomllib.loads(default_text())
    settings = Settings(values=defaults, sources={k: "default" for k, _ in _flatten(defaults)},
                        user_path=user_path or user_file(env))
    for path in (system_file, settings.user_path):
        if path.is_file():
            _merge(settings, _read_file(path), str(path))
    below = dict(settings.sources)
    for dotted, raw in _env_overrides(env).items():
        variable = f"environment variable {ENV_PREFIX}{dotted.upper().replace('.', '__')}"
        _merge(settings, _nest(dotted, _coerce(settings, dotted, raw, variable)), "environment")
    if cli_file is not None:
        path = Path(cli_file)
        if not path.is_file():
            raise ConfigError(f"{path}: no such configuration file")
        _merge(settings, _read_file(path), str(path))
    for dotted, raw in (overrides or {}).items():
        _merge(settings, _nest(dotted, _coerce(settings, dotted, raw, "command line")), "command line")
    settings.overridden = {k for k, origin in settings.sources.items() if origin != below[k]}
    return settings


def _read_file(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from exc
    except ValueError as exc:  # TOMLDecodeError, or an integer past Python's 4,300 digits
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc


def write_user_file(path: Path, changes: Mapping[str, Any]) -> None:
    """Set ``changes`` (dotted key -> value, each a known key with a value of its type) in the
    TOML file at ``path``, made with its folder if missing. Its other keys stay, and so do its
    comments unless its shape is beyond a line edit (inline tables, dotted keys, values over
    several lines): then it is written out again, comments dropped. The new text goes to a
    temporary file beside it, flushed to the disk and renamed over it, so a power cut leaves the
    old file or the new one. ConfigError naming the file when it cannot be read or written."""
    reference = Settings(values=tomllib.loads(default_text()))
    typed = {}
    for dotted, value in changes.items():
        default = _lookup_default(reference, dotted, str(path))
        if isinstance(default, dict):
            raise ConfigError(f"{path}: {dotted}: a table of settings, not one setting")
        if not _same_type(default, value):
            raise ConfigError(f"{path}: {dotted}: expected {_type_name(default)}, got {value!r}")
        typed[dotted] = float(value) if isinstance(default, float) else value
    path = Path(os.path.realpath(path))  # a link to the file stays a link
    try:
        text = path.read_text("utf-8") if path.exists() else ""
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from exc
    except ValueError as exc:
        raise ConfigError(f"{path}: not valid TOML, so not changed: {exc}") from exc
    wanted = copy.deepcopy(data)
    for dotted, value in typed.items():
        *tables, key = dotted.split(".")
        node = wanted
        for table in tables:
            node = node.setdefault(table, {})
        node[key] = value
    for dotted, value in typed.items():
        text = _set_line(text, dotted, value)
    try:
        edited = tomllib.loads(text) == wanted
    except ValueError:
        edited = False
    _replace(path, text if edited else _dump(wanted).lstrip("\n"))


def _replace(path: Path, text: str) -> None:
    """Write ``path`` atomically: a temporary file beside it, fsynced, renamed over it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fchmod(out.fileno(), mode)
                os.fsync(out.fileno())
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
        folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(folder)  # the rename itself survives a power cut
        finally:
            os.close(folder)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be written: {exc.strerror or exc}") from exc


_HEADER = re.compile(r"\s*\[([^\[\]]+)\]\s*(#.*)?$")
_KEY = re.compile(r"(\s*)([A-Za-z0-9_-]+)(\s*=\s*)(.*)$")


def _set_line(text: str, dotted: str, value: Any) -> str:
    """``text`` with ``dotted`` (every setting is in a table) set to ``value``: its line's value
    replaced (its comment kept), else a line added at the end of its table, else the table added
    at the end."""
    *tables, key = dotted.split(".")
    lines = text.splitlines()
    table: list[str] = []
    last_line = None  # the last line of the wanted table that is not blank
    for number, line in enumerate(lines):
        header = _HEADER.match(line)
        if header:
            table = [part.strip().strip('"') for part in header.group(1).split(".")]
            if table == tables:
                last_line = number
            continue
        if table != tables:
            continue
        if line.strip():
            last_line = number
        found = _KEY.match(line)
        if found and found.group(2) == key:
            indent, name, equals, rest = found.groups()
            lines[number] = f"{indent}{name}{equals}{_value(value)}{_comment(rest)}"
            return "\n".join(lines) + "\n"
    if last_line is None:
        if lines and lines[-1].strip():
            lines.append("")
        lines += [f"[{'.'.join(tables)}]", f"{key} = {_value(value)}"]
    else:
        lines.insert(last_line + 1, f"{key} = {_value(value)}")
    return "\n".join(lines) + "\n"


def _comment(rest: str) -> str:
    """The comment after a one-line value (``rest`` is the line after its ``=``), with the space before it."""
    for at in (i for i, char in enumerate(rest) if char == "#"):
        try:
            tomllib.loads(f"v = {rest[:at]}")
        except ValueError:
            continue
        return rest[len(rest[:at].rstrip()):]
    return ""


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return repr(value)


def _dump(data: Mapping[str, Any], prefix: str = "") -> str:
    """``data`` as TOML: its keys, then each of its tables."""
    lines = [f"{key} = {_value(value)}" for key, value in data.items() if not isinstance(value, dict)]
    out = "\n".join(lines) + "\n" if lines else ""
    for key, value in data.items():
        if isinstance(value, dict):
            out += f"\n[{prefix}{key}]\n" + _dump(value, f"{prefix}{key}.")
    return out


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
    except ValueError:
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
