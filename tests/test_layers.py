"""The layers point one way: clients -> orchestrator (over HTTP and websockets only)
-> playoff_formats, and a command loads only what it needs."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def _imports(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` and the top-level packages it imports."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
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
