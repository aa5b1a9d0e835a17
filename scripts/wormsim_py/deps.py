"""What the Python entry points need: checked before they import or touch anything.

A `python3` earlier on PATH than Debian's (pyenv, conda, a venv) does not see the
Debian packages. Each script calls require() first, so such an interpreter stops
with one line naming what is missing and how to install it, instead of a traceback
half-way through (after a sweep has created its folder, say).

Also: the one way every script finds the wormsim binary (wormsim_binary()).

Standard library only, and importable by any Python 3 (this check has to run first).
"""

import importlib.util
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REQUIREMENTS = os.path.join("scripts", "requirements.txt")
MIN_PYTHON = (3, 9)

# import name -> (name on PyPI, Debian 12 package): requirements.txt lists the same packages
PACKAGES = {
    "yaml": ("PyYAML", "python3-yaml"),
    "numpy": ("numpy", "python3-numpy"),
    "pandas": ("pandas", "python3-pandas"),
    "matplotlib": ("matplotlib", "python3-matplotlib"),
    "seaborn": ("seaborn", "python3-seaborn"),
    "tqdm": ("tqdm", "python3-tqdm"),
    "dask": ("dask", "python3-dask"),
    "distributed": ("distributed", "python3-distributed"),
    "cloudpickle": ("cloudpickle", "python3-cloudpickle"),
}


def missing(modules):
    """The modules of `modules` that this interpreter cannot import."""
    out = []
    for m in modules:
        try:
            found = importlib.util.find_spec(m) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            out.append(m)
    return out


def message(script, absent):
    """The one-line error for the modules `absent`."""
    names = ", ".join(f"'{m}'" + (f" ({PACKAGES[m][0]})" if m in PACKAGES and PACKAGES[m][0] != m else "")
                      for m in absent)
    debs = " ".join(PACKAGES[m][1] if m in PACKAGES else f"python3-{m}" for m in absent)
    what, it = ("package", "it") if len(absent) == 1 else ("packages", "them")
    return (f"error: {script} needs the Python {what} {names}, which {sys.executable} "
            f"(Python {sys.version_info[0]}.{sys.version_info[1]}) cannot import; install {it} with: "
            f"sudo apt-get install {debs}   (or pip install -r {REQUIREMENTS} in a venv)")


def require(script, modules, exit_code=1):
    """Exit with one line on stderr unless this interpreter has Python >= 3.9 and `modules`."""
    if sys.version_info[:2] < MIN_PYTHON:
        print(f"error: {script} needs Python {MIN_PYTHON[0]}.{MIN_PYTHON[1]} or newer; "
              f"{sys.executable} is {sys.version.split()[0]} (run it with /usr/bin/python3)", file=sys.stderr)
        sys.exit(exit_code)
    absent = missing(modules)
    if absent:
        print(message(script, absent), file=sys.stderr)
        sys.exit(exit_code)


def wormsim_binary():
    """The wormsim binary: $WORMSIM_BIN, else $WORMSIM_BUILD_DIR/wormsim, else build/wormsim
    in the repository (docs/index.md, "The wormsim binary")."""
    env = os.environ.get("WORMSIM_BIN")
    if env:
        return env
    build = os.environ.get("WORMSIM_BUILD_DIR") or os.path.join(REPO, "build")
    return os.path.join(build, "wormsim")
