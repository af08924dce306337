"""hardware/ imports nothing of the project; vision/capture.py only OpenCV and numpy."""
import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imported_packages(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"__future__"}


@pytest.mark.parametrize("path", sorted((ROOT / "hardware").glob("*.py")), ids=lambda p: p.name)
def test_hardware_modules_import_only_their_libraries(path):
    assert imported_packages(path) <= {"hardware", "gpiozero", "serial"}


def test_capture_imports_only_opencv_and_numpy():
    assert imported_packages(ROOT / "vision" / "capture.py") == {"cv2", "numpy"}
