"""No module uses another module's private names or writes another object's private attributes:
a helper two modules need is public, in one place."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("assistant", "engine", "vision", "hardware", "bench")


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def is_project(module: str | None, level: int, folder: Path) -> bool:
    """Whether an import names a project module: one of FOLDERS, a relative import, or a module
    beside the file (how the bench scripts import each other)."""
    if level:
        return True
    top = (module or "").split(".")[0]
    return top in FOLDERS or (folder / f"{top}.py").exists() or (folder / top / "__init__.py").exists()


def root_name(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def changed(target: ast.expr):
    """(owner, attribute) for each attribute an assignment or ``del`` of ``target`` changes,
    including those reached through to change what they hold (``a._b[k] = v`` changes a._b)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from changed(element)
    elif isinstance(target, (ast.Starred, ast.Subscript)):
        yield from changed(target.value)
    elif isinstance(target, ast.Attribute):
        yield target.value, target.attr
        yield from changed(target.value)


def written(tree: ast.AST):
    """(node, owner, attribute) for every attribute a statement assigns or deletes, or that
    setattr or delattr names by a string."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr")
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
            yield node, node.args[0], node.args[1].value
            continue
        else:
            continue
        for target in targets:
            for owner, attr in changed(target):
                yield node, owner, attr


def problems(source: str, path: Path) -> list[tuple[int, str]]:
    """(line, what) for each use of another module's private name in ``source``."""
    tree, folder = ast.parse(source), path.parent
    found, imported = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if is_project(alias.name, 0, folder):
                    imported.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__" \
                and is_project(node.module, node.level, folder):
            for alias in node.names:
                imported.add(alias.asname or alias.name)
                if is_private(alias.name):
                    found.append((node.lineno, f"imports {alias.name} from {'.' * node.level}{node.module or ''}"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr) and root_name(node.value) in imported:
            found.append((node.lineno, f"uses {ast.unparse(node)}"))
    for node, owner, attr in written(tree):
        if is_private(attr) and not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
            found.append((node.lineno, f"writes {ast.unparse(owner)}.{attr}"))
    return sorted(set(found))


def test_no_module_uses_another_modules_private_names():
    found = [f"{path.relative_to(ROOT)}:{line}: {what}"
             for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.py"))
             for line, what in problems(path.read_text("utf-8"), path)]
    assert not found, "private names used across modules:\n" + "\n".join(found)


def test_the_check_reports_each_kind_of_use():
    source = "\n".join([
        "from __future__ import annotations",
        "from vision.dice import DiceReader, _run",      # 2: a private name imported
        "import engine.hilo.words as words",
        "import numpy as np",
        "words._awaited(None)",                           # 5: read through an imported module
        "np._private_numpy_thing",
        "state._cache = {}",                              # 7: another object's attribute written
        "self._own = cls._also_own = 1",
        "x.__dict__ = {}",
        "DiceReader._closer_look",                        # 10: through a name imported from one
        "setattr(state, '_cache', {})",                   # 11
        "d[key._read] = self._own[k] = 1",
        "state._cache['k'] = 1",                          # 13: another object's private dict changed
    ])
    assert [line for line, _ in problems(source, ROOT / "engine" / "planted.py")] == [2, 5, 7, 10, 11, 13]
