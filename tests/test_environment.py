"""environment.yml (conda users' environment) against pyproject.toml, the source of truth:
every requirement of the package is in it, and every package both name has one range."""

from __future__ import annotations

import tomllib

import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from paths import REPO

# conda-forge's names for what PyPI calls otherwise
CONDA_NAMES = {"matplotlib-base": "matplotlib"}


def environment() -> dict[str, SpecifierSet]:
    """environment.yml's packages (conda's and pip's), by PyPI name: their ranges."""
    spec = yaml.safe_load((REPO / "environment.yml").read_text(encoding="utf-8"))
    entries: list[str] = []
    for dep in spec["dependencies"]:
        entries += dep["pip"] if isinstance(dep, dict) else [dep]
    found = {}
    for entry in entries:
        if entry.startswith("-e ") or entry in ("pip", "ruff", "snakefmt"):
            continue  # the project itself; tools listed here without a range
        req = Requirement(entry)
        name = CONDA_NAMES.get(req.name, req.name)
        if name != "python":
            found[canonicalize_name(name)] = req.specifier
    return found


def pyproject() -> tuple[dict[str, SpecifierSet], dict[str, SpecifierSet]]:
    """pyproject.toml's requirements (name: range): the package's own, and its extras'."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    base = {canonicalize_name(r.name): r.specifier
            for r in map(Requirement, project["dependencies"])}  # fmt: skip
    extras = {canonicalize_name(r.name): r.specifier
              for lines in project["optional-dependencies"].values()
              for r in map(Requirement, lines)}  # fmt: skip
    return base, extras


def test_environment_yml_holds_every_requirement_with_pyprojects_range():
    env = environment()
    base, extras = pyproject()
    missing = sorted(set(base) - set(env))
    assert not missing, f"environment.yml lacks {missing} (pyproject.toml requires them)"
    known = {**extras, **base}
    differ = {name: (str(spec), str(known[name]))
              for name, spec in env.items() if name in known and spec != known[name]}  # fmt: skip
    assert not differ, f"environment.yml's range against pyproject.toml's: {differ}"
    unknown = sorted(set(env) - set(known))
    assert not unknown, f"environment.yml names packages pyproject.toml does not: {unknown}"
