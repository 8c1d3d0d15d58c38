"""The layering ``docs/architecture.md`` describes, checked on the code itself: what each
layer imports (every import statement, those inside functions too), that views write no
model, that templates format no number themselves, and that every path the document
cites exists (a ``path::name`` citation: the name is in that file)."""

from __future__ import annotations

import ast
import re
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("assessments", "contacts", "calendar_review", "notices", "audit", "reviewer")
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
def imports(name: str) -> frozenset[str]:
    """The dotted names a module imports: each module, and each ``module.name`` of a
    ``from`` import, relative imports resolved."""
    path = modules()[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.add(module)
            out.update(f"{module}.{alias.name}" for alias in node.names)
    return frozenset(out)


def within(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def is_view(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return last in ("views", "wizards") or last.startswith("views_")


def is_urlconf(name: str) -> bool:
    return name.rsplit(".", 1)[-1] == "urls"


def layer(*lasts: str) -> list[str]:
    """The modules (or packages, with their modules) named ``lasts``, outside the engine."""
    return [m for m in modules() if not within(m, [ENGINE])
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
