"""Everything the program reads at run time is declared as package data, so a built wheel has it."""
import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def declared(package: str) -> list[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    return data[package]


def test_every_config_file_ships():
    files = [p.relative_to(ROOT / "config").as_posix() for p in (ROOT / "config").rglob("*") if p.is_file()]
    assert files
    missing = [f for f in files if not any(fnmatch.fnmatch(f, g) and f.count("/") == g.count("/")
                                           for g in declared("assistant.defaults"))]
    assert not missing, f"config files not in the package data: {missing}"


def test_every_screen_layout_and_catalogue_ships():
    folder = ROOT / "assistant"
    files = [p.relative_to(folder).as_posix() for sub in ("kv", "locale") for p in (folder / sub).rglob("*")
             if p.is_file() and not p.name.endswith(".py") and "__pycache__" not in p.parts]
    missing = [f for f in files if not any(fnmatch.fnmatch(f, g) for g in declared("assistant"))]
    assert files and not missing, f"not in the package data: {missing}"
