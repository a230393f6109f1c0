"""The layers point one way: clients -> orchestrator (over HTTP and websockets only)
-> playoff_formats, and a command loads only what it needs."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def _imports(package: str, depth: int = 1) -> dict[str, set[str]]:
    """Each module of ``package`` and the packages it imports, named by their first
    ``depth`` parts (``orchestrator.core`` at depth 2)."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(".".join(alias.name.split(".")[:depth]) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(".".join(node.module.split(".")[:depth]))
        found[str(path.relative_to(ROOT))] = names
    return found


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("playoff_formats", {"orchestrator", "clients", "fastapi", "uvicorn", "apscheduler",
                             "asyncio", "sqlite3", "socket", "websockets"}),
        ("orchestrator", {"clients"}),
        ("clients", {"orchestrator"}),
    ],
)
def test_no_layer_imports_what_is_above_it(package: str, forbidden: set[str]) -> None:
    wrong = {
        module: sorted(names & forbidden)
        for module, names in _imports(package).items()
        if names & forbidden
    }
    assert wrong == {}


def test_the_rules_commands_do_not_load_the_service() -> None:
    """`playoff standings` has no business loading the web service."""
    probe = (
        "import sys, orchestrator.cli.main; "
        "print(sorted(m for m in ('fastapi', 'uvicorn', 'apscheduler', 'starlette', "
        "'orchestrator.core.service', 'orchestrator.app') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [
        # The core decides and logs; what runs around it, and the doors, come after it.
        ("orchestrator/core", {"orchestrator.runtime", "orchestrator.api", "orchestrator.cli",
                               "orchestrator.app", "orchestrator.settings"}),
        ("orchestrator/runtime", {"orchestrator.api", "orchestrator.cli", "orchestrator.app"}),
        # The log knows nothing of what is logged in it.
        ("orchestrator/store", {"orchestrator.core", "orchestrator.runtime", "orchestrator.api",
                                "orchestrator.cli", "orchestrator.app", "orchestrator.views",
                                "orchestrator.settings", "playoff_formats"}),
        ("orchestrator/api", {"orchestrator.cli"}),
        # Printouts are made from the views, for the API and the command line alike.
        ("orchestrator/printing", {"orchestrator.runtime", "orchestrator.api",
                                   "orchestrator.cli", "orchestrator.app", "orchestrator.store"}),
        ("orchestrator/views", {"orchestrator.printing"}),
    ],
)
def test_each_layer_of_the_service_imports_only_those_below_it(
    layer: str, forbidden: set[str]
) -> None:
    wrong = {
        module: sorted(names & forbidden)
        for module, names in _imports(layer, depth=2).items()
        if names & forbidden
    }
    assert wrong == {}


TOP_OF_THE_SERVICE = {
    "__init__.py", "app.py", "settings.py",
    "api", "cli", "core", "data", "printing", "runtime", "store", "views",
}
"""The app factory and its settings beside the layers: a new module goes in one."""


def test_the_service_holds_its_layers_and_no_loose_modules() -> None:
    found = {
        path.name for path in (ROOT / "orchestrator").iterdir()
        if path.suffix == ".py" or (path / "__init__.py").is_file()
    }
    assert found == TOP_OF_THE_SERVICE


MAX_MODULE_LINES = 1000


@pytest.mark.parametrize("package", ["orchestrator", "playoff_formats"])
def test_no_module_is_over_a_thousand_lines(package: str) -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / package).rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


# ------------------------------------------------------------------ the tests' own layout

TESTS = ROOT / "tests"
TEST_LAYERS = {
    # the folder: the helpers its tests may not use (a server, a browser)
    "rules": {"tests.support.server", "tests.support.workers", "tests.support.browser"},
    "service": {"tests.support.server", "tests.support.workers", "tests.support.browser"},
    "cli": {"tests.support.browser"},
    "api": {"tests.support.browser"},
    "runtime": {"tests.support.browser"},
    "pages": set(),
}


def _test_imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_every_test_lives_in_the_folder_of_its_layer() -> None:
    misplaced = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("test_*.py")
        if path.parent.name not in TEST_LAYERS and path.parent != TESTS
    ]
    assert misplaced == []
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == ["test_layers.py"]


def test_helpers_live_apart_from_the_tests() -> None:
    """A helper shared by tests is in ``tests/support``, never in another test module."""
    helpers_among_tests = [
        str(path.relative_to(TESTS))
        for layer in TEST_LAYERS
        for path in (TESTS / layer).glob("*.py")
        if not path.name.startswith("test_") and path.name != "__init__.py"
    ]
    assert helpers_among_tests == []
    importing_tests = {
        str(path.relative_to(TESTS)): sorted(
            name for name in _test_imports(path) if ".test_" in name or name.startswith("bench")
        )
        for path in TESTS.rglob("*.py")
    }
    assert {path: names for path, names in importing_tests.items() if names} == {}


def test_a_layer_tests_with_the_parts_it_needs_and_no_more() -> None:
    """The rules and the service in process start no server; only the pages a browser."""
    wrong = {}
    for layer, forbidden in TEST_LAYERS.items():
        for path in (TESTS / layer).glob("test_*.py"):
            used = {name for name in _test_imports(path) if name in forbidden}
            if used:
                wrong[f"{layer}/{path.name}"] = sorted(used)
    assert wrong == {}
