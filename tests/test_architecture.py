"""The layering ``docs/architecture.md`` describes, checked on the code itself: what each
layer imports (every import statement, those inside functions too), that views write no
model, that templates format no number themselves, and that every path the document
cites exists (a ``path::name`` citation: the name is in that file). And the apps: each
imports only the apps before it (:data:`APP_ORDER`), no module takes part in an import
cycle, no import is written inside a function (but :data:`FUNCTION_IMPORTS`), and every
module is in exactly one layer (:data:`LAYERS`)."""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("assessments", "contacts", "calendar_review", "notices", "audit", "reviewer", "demo", "api")
ENGINE = "assessments.esd"
REPORTS = ("assessments.reports", "contacts.reports")
#: Calls that write a model row, by method name.
WRITES = {"save", "delete", "create", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}
#: A queryset's ``update`` is a write too (and skips the history); ``dict.update`` is not.
QUERYSET_STARTS = {"objects", "filter", "exclude", "all", "select_for_update"}
#: Template filters that format a number outside ``assessments/numbers.py``.
NUMBER_FILTERS = re.compile(r"\|\s*(floatformat|intcomma|intword)\b|\{%\s*load\b[^%]*\bhumanize\b")


@cache
def modules() -> dict[str, Path]:
    """Every Python module of the application (migrations aside), by dotted name."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


@cache
def tree(name: str) -> ast.Module:
    return ast.parse(modules()[name].read_text(encoding="utf-8"))


def package_of(name: str) -> list[str]:
    """The package a module's relative imports start from (a package's own ``__init__``: itself)."""
    return name.split(".") if modules()[name].name == "__init__.py" else name.split(".")[:-1]


def named(node: ast.Import | ast.ImportFrom, package: list[str]) -> list[str]:
    """The dotted names one import statement names: each module, and each ``module.name`` of
    a ``from`` import, relative imports resolved."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = package[:len(package) - node.level + 1]
        module = ".".join(base + ([node.module] if node.module else []))
    else:
        module = node.module or ""
    return [module] + [f"{module}.{alias.name}" for alias in node.names]


@cache
def imports(name: str) -> frozenset[str]:
    """The dotted names a module imports, by every import statement (those inside
    functions and under ``TYPE_CHECKING`` too)."""
    package = package_of(name)
    return frozenset(n for node, _, _ in statements(tree(name)) for n in named(node, package))


def statements(module: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, str | None, bool]]:
    """Each import statement of a module, with the function it is written in (its qualified
    name; None at module level) and whether it is under ``if TYPE_CHECKING:``."""

    def walk(node: ast.AST, function: str | None, scope: str, typing_only: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, function, typing_only
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qualified = f"{scope}.{child.name}" if scope else child.name
                inner = qualified if not isinstance(child, ast.ClassDef) else function
                yield from walk(child, inner, qualified, typing_only)
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for part in child.body:
                    yield from walk(ast.Module(body=[part], type_ignores=[]), function, scope, True)
                for part in child.orelse:
                    yield from walk(ast.Module(body=[part], type_ignores=[]), function, scope, typing_only)
            else:
                yield from walk(child, function, scope, typing_only)

    yield from walk(module, None, "", False)


def within(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def is_view(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return last in ("views", "wizards") or last.startswith("views_") or within(name, ["api.routes"])


def is_urlconf(name: str) -> bool:
    return name.rsplit(".", 1)[-1] == "urls"


def layer(*lasts: str) -> list[str]:
    """The modules (or packages, with their modules) named ``lasts``, outside the engine and
    the views (the API's ``api.routes.review`` is a view)."""
    return [m for m in modules() if not within(m, [ENGINE]) and not is_view(m)
            and any(part in lasts for part in m.split(".")[1:])]


VIEWS = [m for m in modules() if is_view(m)]
URLCONFS = [m for m in modules() if is_urlconf(m)]


def test_the_walk_finds_each_layer():
    assert {"assessments.views", "assessments.wizards", "contacts.views", "notices.views"} <= set(VIEWS)
    assert {"assessments.esd.registry", "assessments.esd.cvd.scenario", "assessments.reports.context",
            "assessments.services", "assessments.selectors", "assessments.forms.scenarios"} <= set(modules())
    assert "assessments.views" in imports("assessments.urls")  # a relative import, resolved


def test_the_engine_imports_the_standard_library_and_itself_only():
    found = [f"{m}: {i}" for m in modules() if within(m, [ENGINE]) for i in imports(m)
             if not within(i, [ENGINE]) and i.split(".")[0] not in sys.stdlib_module_names]
    assert not found, found


def test_models_permissions_roles_and_limits_import_no_higher_layer():
    higher = [m for m in modules() if is_view(m) or is_urlconf(m) or within(m, REPORTS)] + layer(
        "services", "selectors", "presentation", "basis_text", "forms", "workflow")
    lower = layer("models", "permissions", "roles", "limits")
    found = [f"{m}: {i}" for m in lower for i in imports(m) if within(i, higher)]
    assert lower and not found, found


def test_services_selectors_and_forms_import_no_view_url_conf_or_report():
    higher = VIEWS + URLCONFS + list(REPORTS)
    middle = [m for m in layer("services", "selectors", "presentation", "basis_text", "forms", "workflow", "review",
                               "timeline", "comparison", "case_links", "transfer") if not within(m, REPORTS)]
    found = [f"{m}: {i}" for m in middle for i in imports(m) if within(i, higher)]
    assert middle and not found, found


def test_reports_import_no_view():
    reports = [m for m in modules() if within(m, REPORTS)]
    found = [f"{m}: {i}" for m in reports for i in imports(m) if within(i, VIEWS + URLCONFS)]
    assert reports and not found, found


def test_only_url_confs_and_views_import_a_view():
    found = [f"{m}: {i}" for m in modules() if not (is_view(m) or is_urlconf(m))
             for i in imports(m) if within(i, VIEWS)]
    assert not found, found


def _writes(source: str, where: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method, receiver = node.func.attr, node.func.value
        if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Attribute):
            receiver_name = receiver.func.attr
        else:
            receiver_name = receiver.attr if isinstance(receiver, ast.Attribute) else ""
        if method in WRITES or (method == "update" and receiver_name in QUERYSET_STARTS):
            found.append(f"{where}:{node.lineno}: .{method}(")
    return found


def test_views_write_no_model():
    found = [w for m in VIEWS for w in _writes(modules()[m].read_text(encoding="utf-8"), m)]
    assert not found, found


def test_the_write_check_sees_each_kind_of_write():
    view = ("def edit(request, pk):\n    scenario = Scenario.objects.get(pk=pk)\n    scenario.save()\n"
            "    Scenario.objects.create(title='x')\n    Scenario.objects.filter(pk=pk).update(title='y')\n"
            "    context = {}\n    context.update(scenario=scenario)\n")
    assert [w.split(": ")[1] for w in _writes(view, "view")] == [".save(", ".create(", ".update("]


def test_templates_format_no_number_themselves():
    found = [f"{p.relative_to(ROOT)}: {match.group(0)}" for p in (ROOT / "templates").rglob("*.html")
             for match in NUMBER_FILTERS.finditer(p.read_text(encoding="utf-8"))]
    assert not found, found


CITED = re.compile(r"`([^`\s]+)`")
PATHLIKE = re.compile(r"/|\.(py|md|html|js|css|txt|toml|ini)$")


def declares(path: Path, name: str) -> bool:
    """``path`` declares ``name`` (``a.b`` for a member of ``a``): a def, a class or an assignment
    at any depth, not an import of it from elsewhere (a fact cited where it is declared)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return re.search(rf"\b{re.escape(name)}\b", text) is not None
    last = name.split(".")[-1]
    declared = rf"^\s*(?:async\s+)?(?:def|class)\s+{re.escape(last)}\b|^\s*{re.escape(last)}\s*(?::[^=\n]*)?="
    return re.search(declared, text, re.M) is not None


def test_every_path_the_architecture_cites_exists():
    text = DOC.read_text(encoding="utf-8")
    cited = [c for c in CITED.findall(text) if PATHLIKE.search(c.split("::")[0]) and "<" not in c]
    missing = []
    for citation in cited:
        path, _, name = citation.partition("::")
        target = ROOT / path.rstrip("/")
        matches = sorted(ROOT.glob(path)) if "*" in path else ([target] if target.exists() else [])
        named = not name or any(declares(m, name) for m in matches)
        if not (matches and named):
            missing.append(citation)
    assert len(cited) > 30 and not missing, missing


# The apps, in the order they build on each other ----------------------------------------------

#: Each tier imports only the tiers before it and itself (docs/architecture.md, "The apps"). A
#: module is in the tier of its longest entry: ``reviewer.urls`` is the project's,
#: ``reviewer.http`` (and any new ``reviewer`` module, until placed) a shared helper's.
APP_ORDER: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("reviewer's shared helpers", ("reviewer", "reviewer.http", "reviewer.admin_records", "reviewer.log",
                                   "reviewer.postgres", "reviewer.report_storage", "reviewer.middleware")),
    ("assessments", ("assessments",)),
    ("audit", ("audit",)),
    ("signin", ("signin",)),
    ("calendar_review", ("calendar_review",)),
    ("portfolio", ("portfolio",)),
    ("notices", ("notices",)),
    ("contacts", ("contacts",)),
    ("demo", ("demo",)),
    ("api", ("api",)),
    ("the project", ("reviewer.settings", "reviewer.settings_test", "reviewer.urls", "reviewer.wsgi",
                     "reviewer.asgi", "reviewer.health")),
)


def tier(name: str) -> int:
    """The place in :data:`APP_ORDER` of a module of the project."""
    entries = [(len(entry), place) for place, (_, entries) in enumerate(APP_ORDER) for entry in entries
               if within(name, [entry])]
    return max(entries)[1]


def resolve(dotted: str, known: Iterable[str]) -> str | None:
    """The module of the project a dotted name names (``a.b.name``: ``a.b``), or None."""
    known = set(known)
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in known:
            return ".".join(parts[:end])
    return None


def order_violations(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a later tier by an earlier one."""
    return sorted(f"{m} ({APP_ORDER[tier(m)][0]}) imports {t} ({APP_ORDER[tier(t)][0]})"
                  for m, targets in graph.items() for t in targets if tier(t) > tier(m))


def every_import() -> dict[str, set[str]]:
    """Module -> the project's modules it imports, by any import statement."""
    return {m: {t for i in imports(m) if (t := resolve(i, modules())) and t != m} for m in modules()}


def test_each_app_imports_only_the_apps_before_it():
    found = order_violations(every_import())
    assert not found, found


def test_the_order_check_sees_an_earlier_app_importing_a_later_one():
    assert order_violations({"assessments.workflow": {"notices.services"}, "notices.services": {"assessments.workflow"},
                             "reviewer.http": {"reviewer.settings"}, "reviewer.urls": {"api.urls"}}) == [
        "assessments.workflow (assessments) imports notices.services (notices)",
        "reviewer.http (reviewer's shared helpers) imports reviewer.settings (the project)",
    ]


# Import cycles ---------------------------------------------------------------------------------


def runtime_edges(name: str, module: ast.Module, package: list[str], known: Iterable[str]) -> set[str]:
    """The project's modules a module imports when it is imported: its module-level imports
    (not those inside functions nor under ``TYPE_CHECKING``). ``from a import b`` imports
    ``a.b`` when it is a module, else ``a``."""
    known = set(known)
    out = set()
    for node, function, typing_only in statements(module):
        if function is not None or typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            base, *members = named(node, package)
            targets = [m if m in known else base for m in members]
        else:
            targets = named(node, package)
        out.update(t for n in targets if (t := resolve(n, known)) and t != name)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(found)


def test_no_module_takes_part_in_an_import_cycle():
    graph = {m: runtime_edges(m, tree(m), package_of(m), modules()) for m in modules()}
    found = cycles(graph)
    assert not found, found


def test_the_cycle_check_sees_a_cycle_and_only_a_runtime_one():
    sources = {
        "a.one": "from a import two\n",
        "a.two": "from .three import x\n",
        "a.three": "from a.one import y\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from a import four\n",
        "a.four": "def f():\n    from a import three\n",
    }
    known = set(sources) | {"a"}
    graph = {m: runtime_edges(m, ast.parse(text), m.split(".")[:-1], known) for m, text in sources.items()}
    assert graph["a.three"] == {"a.one"} and graph["a.four"] == set()
    assert cycles(graph) == [["a.one", "a.three", "a.two"]]


# Imports inside functions ----------------------------------------------------------------------

READY = ("Django imports apps.py while it builds the app registry, before any model may be imported; the "
         "modules that import models (receivers, roles, the sealer) are imported in AppConfig.ready(), as "
         "Django's documentation asks (Applications: AppConfig.ready)")
#: The imports that must be written inside a function, each with its reason.
FUNCTION_IMPORTS = {
    "assessments.apps.AssessmentsConfig.ready": READY,
    "audit.apps.AuditConfig.ready": READY,
    "calendar_review.apps.CalendarReviewConfig.ready": READY,
    "contacts.apps.ContactsConfig.ready": READY,
    "notices.apps.NoticesConfig.ready": READY,
    "signin.apps.SigninConfig.ready": READY,
    # WeasyPrint loads Pango and its fonts when imported (about 0.5 s): every manage.py command
    # (the engine's `esd` too) imports the renderer through the sealer AppConfig.ready()
    # connects, and only a report being drawn needs WeasyPrint.
    "assessments.reports.render._font_config": "WeasyPrint is imported when a PDF is drawn, not at start-up: "
                                               "loading Pango costs every command about 0.5 s",
    "assessments.reports.render.html_to_pdf": "WeasyPrint is imported when a PDF is drawn, not at start-up: "
                                              "loading Pango costs every command about 0.5 s",
}


def function_imports(name: str, module: ast.Module) -> list[str]:
    """The import statements written inside a function, but the allowed ones."""
    return [f"{name}.{function}:{node.lineno}: {ast.unparse(node)}" for node, function, _ in statements(module)
            if function is not None and f"{name}.{function}" not in FUNCTION_IMPORTS]


def test_no_import_is_written_inside_a_function():
    found = [f for m in modules() for f in function_imports(m, tree(m))]
    assert not found, found


def test_the_function_import_check_sees_one_and_allows_ready():
    module = ast.parse("import os\n\nclass NoticesConfig:\n    def ready(self):\n        from . import receivers\n\n"
                       "class Later:\n    def go(self):\n        if True:\n            import json\n")
    assert function_imports("notices.apps", module) == ["notices.apps.Later.go:10: import json"]
    assert all(reason for reason in FUNCTION_IMPORTS.values())


# Every module in one layer ---------------------------------------------------------------------

#: The layers of docs/architecture.md, each module's by name (``*``: one part of a dotted
#: name; a trailing ``.**``: the package and every module under it).
LAYERS: dict[str, tuple[str, ...]] = {
    "engine": ("assessments.esd.**",),
    "models, permissions, roles, limits": (
        "*.models", "assessments.models.**", "*.permissions", "*.roles", "assessments.limits", "assessments.numbers",
        "assessments.case_numbers", "calendar_review.due", "contacts.local_time", "audit.client",
    ),
    "services, selectors, presentation, forms": (
        "*.services", "*.selectors", "*.forms", "assessments.forms.**", "assessments.workflow", "assessments.review",
        "assessments.timeline", "assessments.comparison", "assessments.case_links", "assessments.case_list",
        "assessments.presentation", "assessments.basis_text", "assessments.stored_text", "assessments.engine_results",
        "assessments.exposure_limits", "assessments.exposure_rating", "assessments.input_rules",
        "assessments.irer_status", "assessments.sensitivity_view", "assessments.site_data", "assessments.trace",
        "assessments.band_tasks", "assessments.due_dates", "assessments.impact", "assessments.engine_marks",
        "assessments.engine_refresh", "assessments.impact_engines", "assessments.departures",
        "assessments.impact_runs", "assessments.transfer.**",
        "contacts.transfer",
        "notices.recipients", "audit.sessions", "audit.lockout", "api.core", "api.auth", "api.errors",
        "api.idempotency", "api.tokens", "portfolio.rework", "portfolio.ledger", "portfolio.charts",
        "portfolio.figures", "signin.config", "signin.oidc", "signin.accounts", "signin.piv", "signin.backends",
    ),
    "reports": ("assessments.reports.**", "contacts.reports"),
    "views, URL confs": ("*.views", "assessments.views_*", "assessments.wizards", "*.urls", "api.routes.**",
                         "reviewer.health", "signin.middleware"),
    "admin": ("*.admin", "reviewer.admin_records"),
    "management commands": ("*.management.**",),
    "template tags, context processors": ("*.templatetags.**", "*.context_processors"),
    "apps, receivers, events": ("assessments", "audit", "calendar_review", "contacts", "notices", "demo", "api",
                                "portfolio", "signin", "signin.checks",
                                "*.apps", "*.receivers", "assessments.events"),
    "the project: settings, middleware, helpers": (
        "reviewer", "reviewer.settings", "reviewer.settings_test", "reviewer.wsgi", "reviewer.asgi",
        "reviewer.middleware", "reviewer.log", "reviewer.postgres", "reviewer.report_storage", "reviewer.http",
    ),
}


@cache
def _pattern(pattern: str) -> re.Pattern[str]:
    parts = pattern.split(".")
    below = parts[-1] == "**"
    body = r"\.".join(re.escape(part).replace(r"\*", "[^.]+") for part in (parts[:-1] if below else parts))
    return re.compile(body + (r"(\..+)?" if below else ""))


def layers_of(name: str) -> list[str]:
    return [layer for layer, patterns in LAYERS.items() if any(_pattern(p).fullmatch(name) for p in patterns)]


def layer_problems(names: Iterable[str]) -> list[str]:
    """Each module in no layer, or in more than one."""
    found = []
    for name in sorted(names):
        placed = layers_of(name)
        if len(placed) != 1:
            found.append(f"{name}: {' and '.join(placed) if placed else 'in no layer'}")
    return found


def test_every_module_is_in_exactly_one_layer():
    found = layer_problems(modules())
    assert not found, found


def test_the_layer_check_names_a_module_in_no_layer():
    assert layers_of("assessments.esd.cvd.scenario") == ["engine"]
    assert layers_of("api.management.commands.api_token") == ["management commands"]
    assert layer_problems(["contacts.views", "assessments.stray", "assessments.esd"]) == [
        "assessments.stray: in no layer"]
