"""The engine's layout rule, read from the source with ``ast`` (docs/architecture.md "Layout"):
arrows run one way. The engine imports no shell; a shared-rule module imports no role package;
no import is written inside a function to dodge a loop; the engine's modules form no import cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import meloch.engine

ENGINE = Path(meloch.engine.__file__).parent
SHELLS = ("meloch.cli", "meloch.sim", "meloch.agents", "meloch.scenario", "meloch.server", "meloch.rl", "meloch.web")
ROLES = ("meloch.engine.scythe", "meloch.engine.expeditions")
ABOVE_ROLES = {"meloch.engine"}
"""The package's own ``__init__`` imports the role packages so that they register."""


def _name(path: Path) -> str:
    rel = path.relative_to(ENGINE.parent.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_name(p): p for p in sorted(ENGINE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(path: Path) -> list[tuple[str, int, bool]]:
    """(imported module, line, written inside a function) for every import outside TYPE_CHECKING."""
    out: list[tuple[str, int, bool]] = []
    mod = _name(path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(sub, in_function)
                continue
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                out.extend((a.name, child.lineno, in_function) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - child.level + 1]
                                    + ([base] if base else []))
                for a in child.names:
                    sub = f"{base}.{a.name}"
                    out.append((sub if sub in MODULES else base, child.lineno, in_function))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return out


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_the_module_list_is_read() -> None:
    assert "meloch.engine.flow" in MODULES and "meloch.engine.scythe.turn" in MODULES
    assert "meloch.engine.expeditions" in MODULES


def test_no_engine_module_imports_a_shell() -> None:
    bad = [f"{m}:{line} imports {target}" for m, p in MODULES.items()
           for target, line, _ in _imports(p) if _under(target, SHELLS)]
    assert bad == []


def test_no_shared_rule_module_imports_a_role_package() -> None:
    bad = [f"{m}:{line} imports {target}" for m, p in MODULES.items()
           if not _under(m, ROLES) and m not in ABOVE_ROLES
           for target, line, _ in _imports(p) if _under(target, ROLES)]
    assert bad == []


def test_no_import_inside_a_function() -> None:
    bad = [f"{m}:{line} imports {target}" for m, p in MODULES.items()
           for target, line, inner in _imports(p) if inner]
    assert bad == []


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` as a path, or [] (iterative depth-first search)."""
    state: dict[str, int] = {}
    for start in sorted(graph):
        if start in state:
            continue
        stack: list[tuple[str, list[str]]] = [(start, sorted(graph[start]))]
        path = [start]
        state[start] = 1
        while stack:
            node, todo = stack[-1]
            if not todo:
                stack.pop()
                path.pop()
                state[node] = 2
                continue
            nxt = todo.pop(0)
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append((nxt, sorted(graph[nxt])))
    return []


def _graph() -> dict[str, set[str]]:
    """Module-level imports between engine modules. A package's ``__init__`` importing its own
    submodules to register them is not an edge back from those submodules."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for m, p in MODULES.items():
        for target, _, _ in _imports(p):
            if target in MODULES and target != m:
                graph[m].add(target)
    # "from meloch.engine.scythe import abilities" names the submodule, not the package's __init__
    for m in graph:
        graph[m] = {t for t in graph[m] if not (t in (*ROLES, "meloch.engine") and m.startswith(t + "."))}
    return graph


def test_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_engine_modules() -> None:
    assert _cycle(_graph()) == []


def test_the_role_packages_do_not_import_each_other() -> None:
    bad = [f"{m}:{line} imports {target}" for m, p in MODULES.items()
           for role in ROLES if _under(m, role)
           for target, line, _ in _imports(p) if _under(target, ROLES) and not _under(target, role)]
    assert bad == []


def test_every_frame_kind_has_a_handler_and_every_handler_a_kind() -> None:
    from meloch.engine import flow
    from meloch.engine.frames import FrameKind

    assert set(flow.HANDLERS) == {k.value for k in FrameKind}
    assert all(isinstance(h.kind, FrameKind) and h.kind == k for k, h in flow.HANDLERS.items())


def test_no_bare_frame_kind_string_in_the_engine() -> None:
    """Frames are pushed (``Frame(kind=...)``) and compared by ``FrameKind`` member, never by a bare string
    (other records, such as ``Known(kind="peek")``, have kinds of their own)."""
    from meloch.engine.frames import FrameKind

    kinds = {k.value for k in FrameKind}
    bad = []
    for m, p in MODULES.items():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Frame":
                bad += [f"{m}:{k.value.lineno} kind={k.value.value!r}" for k in node.keywords
                        if k.arg == "kind" and isinstance(k.value, ast.Constant) and k.value.value in kinds]
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) and node.left.attr == "kind":
                bad += [f"{m}:{c.lineno} .kind == {c.value!r}" for c in node.comparators
                        if isinstance(c, ast.Constant) and c.value in kinds]
    assert bad == []
