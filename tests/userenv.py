"""The environment a user's command runs in, built from the test environment in seconds.

`make run` gives users a virtual environment holding what `pip install -e .` installs:
the project and the closure of its requirements, without the dev extra (pytest, the
SLURM plugin, pygments, the optional extras). A README command tested in the test
environment can pass there and fail for users (`make report` once did: the report needs
pygments, which only the dev extra brought). :func:`user_env` builds that environment:
a new virtual environment whose site-packages holds exactly the distributions of
``learnability[extras]``'s requirement closure, each linked from the running environment
(same versions, no download), and a console script for each of their entry points. A
package outside the closure is not importable there, as on a user's machine.
"""

from __future__ import annotations

import fcntl
import importlib.metadata as md
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name


def _distributions() -> dict[str, md.Distribution]:
    found: dict[str, md.Distribution] = {}
    for dist in md.distributions():
        found.setdefault(canonicalize_name(dist.metadata["Name"]), dist)  # first on sys.path
    return found


def requirement_closure(extras: tuple[str, ...] = ()) -> dict[str, md.Distribution]:
    """The installed distributions that ``make run`` leaves in a new virtual environment:
    pip and setuptools (a Python 3.11 venv's own; the Makefile upgrades pip), and what
    ``pip install -e '.[extras]'`` installs: the project's requirements (those of the
    extras too), and theirs, markers evaluated for this interpreter."""
    dists = _distributions()
    chosen: dict[str, set[str]] = {}
    todo: list[tuple[str, set[str]]] = [("learnability", set(extras))]
    todo += [(name, set()) for name in ("pip", "setuptools") if name in dists]
    while todo:
        name, wanted = todo.pop()
        key = canonicalize_name(name)
        if key in chosen and wanted <= chosen[key]:
            continue
        chosen[key] = chosen.get(key, set()) | wanted
        if key not in dists:
            raise RuntimeError(f"{name} is required but not installed in {sys.prefix}")
        for line in dists[key].requires or []:
            req = Requirement(line)
            envs = [{"extra": e} for e in sorted(chosen[key])] + [{"extra": ""}]
            if req.marker is None or any(req.marker.evaluate(env) for env in envs):
                todo.append((req.name, set(req.extras)))
    return {key: dists[key] for key in chosen}


def _site(dist: md.Distribution) -> Path:
    return Path(dist.locate_file("")).resolve()


def _link_tree(dists: dict[str, md.Distribution], site: Path) -> None:
    """Link every top-level entry of the chosen distributions into ``site``; an entry that
    a distribution outside the closure shares (a namespace folder, ``__pycache__``) is
    made a real folder holding links to the chosen distributions' files only."""
    owners: dict[str, set[str]] = defaultdict(set)
    for key, dist in _distributions().items():
        for f in dist.files or []:
            if f.parts and f.parts[0] != "..":
                owners[f.parts[0]].add(key)
    chosen = set(dists)
    for dist in dists.values():
        root = _site(dist)
        for f in dist.files or []:
            if not f.parts or f.parts[0] == "..":
                continue  # scripts: written from the entry points below
            top = f.parts[0]
            source = root / f
            if owners[top] <= chosen:
                target, source = site / top, root / top
            else:
                target = site / f
            if target.exists() or target.is_symlink() or not source.exists():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(source)


SCRIPT = """#!{python}
import sys
from {module} import {head}
sys.exit({call}())
"""


def _console_scripts(dists: dict[str, md.Distribution], bin_dir: Path) -> None:
    for dist in dists.values():
        for ep in dist.entry_points:
            if ep.group != "console_scripts":
                continue
            head = ep.attr.split(".")[0]
            path = bin_dir / ep.name
            path.write_text(
                SCRIPT.format(python=bin_dir / "python", module=ep.module, head=head, call=ep.attr)
            )
            path.chmod(0o755)


def build_user_env(dest: Path, extras: tuple[str, ...] = ()) -> Path:
    """A virtual environment at ``dest`` with what ``pip install -e '.[extras]'`` gives
    (see the module docstring); returns ``dest``. Also marks it installed for the
    Makefile (``.installed``), so that ``make VENV=dest report`` runs in it."""
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(dest)], check=True)
    where = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    found = subprocess.run(
        [str(dest / "bin" / "python"), "-c", where], check=True, capture_output=True, text=True
    )
    site = Path(found.stdout.strip())
    dists = requirement_closure(extras)
    _link_tree(dists, site)
    _console_scripts(dists, dest / "bin")
    (dest / ".installed").touch()
    return dest


ROOT: Path | None = None  # set by conftest for the session


def user_env(extras: tuple[str, ...] = (), root: Path | None = None) -> Path:
    """The user environment for ``extras`` under ``root`` (the session's folder), built
    once however many test processes ask for it (a lock file serialises pytest-xdist's
    workers)."""
    root = root or ROOT
    if root is None:
        raise RuntimeError("userenv.ROOT is set by tests/conftest.py's session fixture")
    name = "user-env" + "".join(f"-{e}" for e in sorted(extras))
    dest = root / name
    root.mkdir(parents=True, exist_ok=True)
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (dest / ".installed").exists():
            build_user_env(dest, tuple(sorted(extras)))
    return dest


def python(extras: tuple[str, ...] = ()) -> str:
    """The interpreter of the user environment for ``extras``."""
    return str(user_env(extras) / "bin" / "python")


def env_vars(venv: Path) -> dict[str, str]:
    """os.environ as a shell in ``venv`` would have it: its bin first on PATH, and no
    PYTHONPATH or VIRTUAL_ENV of the test environment leaking in."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    return env
