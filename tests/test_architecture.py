"""The code's shape: no import cycle inside an app, no module using another module's private name.

Read from the source with ``ast`` (nothing of the project is imported; a library is, to read its
``__all__``: a name it exports is public despite its underscore). Every import counts, those inside functions
too (a function-level import is how a cycle hides), except those under ``if TYPE_CHECKING:``, which
never run.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = sorted(p.parent for p in (ROOT / "apps").glob("*/__init__.py")) + [ROOT / "baogame"]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources(package: Path) -> dict[str, Path]:
    return {
        _module_name(path): path
        for path in sorted(package.rglob("*.py"))
        if "migrations" not in path.parts and "tests" not in path.parts
    }


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node but those under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _resolve(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute name of a (possibly relative) import target."""
    if level == 0:
        return name or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


def _imports(module: str, path: Path, known: set[str]) -> Iterator[tuple[str, str | None, int]]:
    """(imported module, imported name or None, line) for every runtime import of a project module."""
    is_package = path.name == "__init__.py"
    for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, is_package, node.level, node.module)
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                if submodule in known:
                    yield submodule, None, node.lineno
                else:
                    yield target, alias.name, node.lineno


def _all_sources() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        found.update(_sources(package))
    return found


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph``, or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for successor in sorted(graph.get(node, ())):
            if state.get(successor) == 1:
                return path[path.index(successor) :] + [successor]
            if successor not in state:
                found = visit(successor)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_no_import_cycle_inside_an_app(package: Path) -> None:
    sources = _sources(package)
    known = set(sources)
    graph: dict[str, set[str]] = {}
    for module, path in sources.items():
        for target, _, _ in _imports(module, path, set(_all_sources())):
            # A module importing its own package's ``__init__`` is how Python loads any submodule.
            if target in known and target != module and not module.startswith(f"{target}."):
                graph.setdefault(module, set()).add(target)
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def _exported(module: str, name: str) -> bool:
    """Whether ``module`` (a library's) lists ``name`` in its ``__all__``: public despite its underscore
    (``asyncio._get_running_loop``, for event loops)."""
    try:
        return name in getattr(importlib.import_module(module), "__all__", ())
    except ImportError:
        return False


def test_no_module_uses_a_private_name_of_another() -> None:
    sources = _all_sources()
    known = set(sources)
    offences = []
    for module, path in sources.items():
        aliases: dict[str, str] = {}
        for target, name, line in _imports(module, path, known):
            if (
                name is not None
                and name.startswith("_")
                and not name.startswith("__")
                and target != module
                and not _exported(target, name)
            ):
                offences.append(f"{path.relative_to(ROOT)}:{line}: from {target} import {name}")
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = _resolve(module, path.name == "__init__.py", node.level, node.module)
                for alias in node.names:
                    if f"{target}.{alias.name}" in known:
                        aliases[alias.asname or alias.name] = f"{target}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in known and alias.asname:
                        aliases[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}.{node.attr}")
    assert offences == [], offences


def test_only_celery_imports_the_task_modules() -> None:
    """Tasks are sent by name (``baogame.celery.publish``), so no module of the apps imports one."""
    sources = _all_sources()
    known = set(sources)
    offences = [
        f"{path.relative_to(ROOT)}:{line}: {target}"
        for module, path in sources.items()
        for target, _, line in _imports(module, path, known)
        if target.endswith(".tasks") and target != module
    ]
    assert offences == [], offences


#: The layers, lowest first. A module may import its own layer and the layers before it, never a later
#: one: a lower app tells higher ones what happened through a signal, or calls a registry they fill in
#: their ``AppConfig.ready()``. A module belongs to the layer of its longest matching name.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("baogame.rules",),  # the pure rules (and only the standard library: see the test below)
    ("baogame",),  # settings, Celery, request headers, JSON limits: no app code
    ("apps.accounts",),
    ("apps.games",),
    ("apps.sittings",),
    ("apps.notifications",),
    ("apps.leagues",),
    ("apps.api",),
    ("apps.webhooks",),
    ("apps.push",),
    ("baogame.urls", "baogame.asgi", "baogame.wsgi", "bench"),  # the wiring and the benchmarks: above all
)

#: The ``manage.py`` commands that start a benchmark are entry points: they may import ``bench``.
BENCH_COMMANDS = ".management.commands."


def _layer(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for index, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(f"{name}.")) and (best is None or len(name) > best[0]):
                best = (len(name), index)
    return None if best is None else best[1]


def _every_import(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """(imported module, line) of every import, ``TYPE_CHECKING`` ones too: a type is knowledge as well."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            yield _resolve(module, is_package, node.level, node.module), node.lineno


def test_apps_import_only_their_own_layer_and_those_below() -> None:
    offences = []
    for module, path in _all_sources().items():
        own = _layer(module)
        for target, line in _every_import(module, path):
            theirs = _layer(target)
            if own is None or theirs is None or theirs <= own:
                continue
            if target.split(".")[0] == "bench" and BENCH_COMMANDS in f".{module}.":
                continue
            offences.append(f"{path.relative_to(ROOT)}:{line}: {module} imports {target}")
    assert offences == [], "\n".join(offences)


def test_the_layer_order_places_every_app() -> None:
    apps = {f"apps.{p.name}" for p in PACKAGES if p.parent.name == "apps"}
    placed = {name for names in LAYERS for name in names}
    assert apps <= placed, sorted(apps - placed)


def test_a_wrong_way_import_is_caught(tmp_path: Path) -> None:
    """The check itself can fail: a games module importing leagues, even inside a function, is reported."""
    wrong = tmp_path / "wrong.py"
    wrong.write_text("def f():\n    from apps.leagues.models import League\n    return League\n")
    found = [target for target, _ in _every_import("apps.games.wrong", wrong)]
    assert found == ["apps.leagues.models"]
    assert _layer("apps.leagues.models") > _layer("apps.games.wrong")  # type: ignore[operator]


def test_the_rules_import_only_the_standard_library_and_themselves() -> None:
    """``baogame/rules`` runs without Django or any installed package (the engines, their bots)."""
    rules = _sources(ROOT / "baogame" / "rules")
    offences = [
        f"{path.relative_to(ROOT)}:{line}: {target}"
        for module, path in rules.items()
        for target, line in _every_import(module, path)
        if not target.startswith("baogame.rules") and target.split(".")[0] not in sys.stdlib_module_names
    ]
    assert offences == [], offences


def test_other_apps_read_game_rows_through_the_games_selectors() -> None:
    """``Game``, ``Seat``, ``Decision`` and ``Move`` rows are the games' own: another app reads them
    through ``apps.games.selectors`` (or ``store``) and changes them through a games service."""
    offences = []
    for module, path in _all_sources().items():
        if module.startswith("apps.games") or not module.startswith("apps."):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "objects"
                and isinstance(node.value, ast.Name)
                and node.value.id in {"Decision", "Game", "Move", "Seat"}
            ):
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offences == [], offences
