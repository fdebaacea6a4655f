"""The import graph of explorer/, loaders/ and queries/ as Python runs it, read from the sources with `ast`.

Stricter than grimp (and so import-linter), which sees only static imports:
- every import statement counts, at module level or inside a function (a run-time import);
- `from P import name` reads the package P's namespace (its facade, P/__init__.py), so it is an
  import of P as well as of P.name when that is a module; `import P.m` names the module only;
- `importlib.import_module(...)` is an import of what it can load: a literal, every submodule of the
  package for f"{__name__}.{x}", or every module path in the module-level table its argument is read
  from (`for name in BUILTIN_GAMES: import_module(name)`, `_LAZY[name]`); an argument it cannot
  resolve fails the build with the file and line, so no loaded module is missed silently;
- imports inside a module's own `__getattr__` (PEP 562, a lazy name such as `explorer.open`) run
  when such a name is read, not when the module is imported: they are imports of every module that
  reads a name from it which is not one of its submodules (`from explorer import open`, `import explorer`),
  and not of the module itself. (`from explorer import implicit` finds the submodule: Python asks
  `__getattr__`, which refuses a name it does not know, and imports `explorer.implicit`.)

`cycles(graph)` are its strongly connected groups of two or more modules; `describe` prints each
with one shortest loop through it, the import kind of each arrow named.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

PACKAGES = ("explorer", "loaders", "queries")


def modules_of(root: Path, packages=PACKAGES) -> dict[str, Path]:
    """Module name -> its file, for every .py file of the packages (a package is its __init__.py)."""
    found = {}
    for package in packages:
        for file in sorted((root / package).rglob("*.py")):
            if "__pycache__" in file.parts:
                continue
            parts = file.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = file
    return found


def _ours(name: str | None, modules) -> str | None:
    """`name`, or the nearest enclosing module of ours (`a.b.attr` -> `a.b`); None for another package."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _string_tables(tree: ast.Module) -> dict[str, list[str]]:
    """Module-level names bound to a tuple or list of strings, or a dict whose values are strings."""
    tables = {}
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        value = getattr(node, "value", None)
        items = (value.elts if isinstance(value, (ast.Tuple, ast.List)) else
                 value.values if isinstance(value, ast.Dict) else None)
        if items and all(isinstance(i, ast.Constant) and isinstance(i.value, str) for i in items):
            tables.update((t.id, [i.value for i in items]) for t in targets if isinstance(t, ast.Name))
    return tables


@dataclass
class _Module:
    name: str
    file: Path
    is_package: bool
    edges: dict[str, str] = field(default_factory=dict)       # imported module -> how ("import", "from", "importlib")
    lazy: dict[str, str] = field(default_factory=dict)        # what its __getattr__ imports
    reads: list[tuple[str, bool]] = field(default_factory=list)  # (module read from, reads a non-module name)


def _scan(name: str, file: Path, modules) -> _Module:
    tree = ast.parse(file.read_text(), str(file))
    module = _Module(name, file, file.name == "__init__.py")
    here = name.split(".") if module.is_package else name.split(".")[:-1]
    tables = _string_tables(tree)
    getattr_nodes = {id(n) for top in tree.body if isinstance(top, ast.FunctionDef) and top.name == "__getattr__"
                     for n in ast.walk(top)}
    loops = [n for n in ast.walk(tree) if isinstance(n, ast.For)]

    def add(target: str | None, kind: str, node) -> None:
        target = _ours(target, modules)
        if target and target != name:
            (module.lazy if id(node) in getattr_nodes else module.edges).setdefault(target, kind)

    def loaded(call: ast.Call) -> list[str]:
        arg = call.args[0] if call.args else None
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return [arg.value]
        if (isinstance(arg, ast.JoinedStr) and len(arg.values) > 1 and isinstance(arg.values[0], ast.FormattedValue)
                and isinstance(arg.values[0].value, ast.Name) and arg.values[0].value.id == "__name__"
                and isinstance(arg.values[1], ast.Constant) and str(arg.values[1].value).startswith(".")):
            package = name if module.is_package else name.rpartition(".")[0]
            return [m for m in modules if m.rpartition(".")[0] == package]
        used = {n.id for n in ast.walk(arg) if isinstance(n, ast.Name)} if arg is not None else set()
        for loop in loops:  # for NAME in TABLE: import_module(NAME)
            if (isinstance(loop.target, ast.Name) and loop.target.id in used and isinstance(loop.iter, ast.Name)
                    and loop.iter.id in tables and any(n is call for n in ast.walk(loop))):
                return tables[loop.iter.id]
        read = [s for n in sorted(used) if n in tables for s in tables[n]]  # TABLE[name]
        if read:
            return read
        raise ValueError(f"{file}:{call.lineno}: importlib.import_module({ast.unparse(arg) if arg else ''}) loads "
                         "modules this graph cannot name: give it a literal or a module-level table of module paths")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, "import", node)
                # `import P.m` binds P, `import P.m as m` binds P.m: any name of it may be read
                module.reads.append((alias.name if alias.asname else alias.name.partition(".")[0], True))
        elif isinstance(node, ast.ImportFrom):
            source = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else [])) if node.level else node.module
            add(source, "from", node)  # the package's facade is run and read, even for a submodule's name
            reads_name = False
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    add(f"{source}.{alias.name}", "from", node)
                else:
                    reads_name = True
            module.reads.append((source, reads_name))
        elif isinstance(node, ast.Call):
            func = node.func
            if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) == "import_module":
                for target in loaded(node):
                    add(target, "importlib", node)
    return module


def import_graph(root: Path, packages=PACKAGES) -> nx.DiGraph:
    """Modules as nodes, an arrow A -> B when running A imports B; each arrow's `kind` says how."""
    modules = modules_of(root, packages)
    scanned = {name: _scan(name, file, modules) for name, file in modules.items()}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for module in scanned.values():
        graph.add_edges_from((module.name, target, {"kind": kind}) for target, kind in module.edges.items())
        for source, reads_name in module.reads:
            lazy = scanned[source].lazy if source in scanned and reads_name else {}
            graph.add_edges_from((module.name, target, {"kind": f"lazy name of {source}"})
                                 for target in lazy if target != module.name)
    return graph


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    """The groups of modules that import each other, each sorted, largest first."""
    groups = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    return sorted(groups, key=lambda c: (-len(c), c))


def describe(graph: nx.DiGraph, group: list[str]) -> str:
    """One group on a line, then one shortest loop through its first module, each arrow with its kind."""
    sub = graph.subgraph(group)
    start = group[0]
    back = min((nx.shortest_path(sub, target, start) for target in sub.successors(start)), key=len)
    loop = [start, *back]
    arrows = " ".join(f"{a} -[{graph.edges[a, b]['kind']}]->" for a, b in zip(loop, loop[1:])) + f" {start}"
    return f"{len(group)} modules: {' '.join(group)}\n    e.g. {arrows}"
