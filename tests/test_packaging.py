"""The wheel ships exactly the packages of the source tree (an editable install would hide
a package missing from the list)."""

from __future__ import annotations

from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_list_matches_the_tree():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = set()
    for top, path in cfg["package-dir"].items():
        for init in (ROOT / path).rglob("__init__.py"):
            found.add(".".join((top, *init.parent.relative_to(ROOT / path).parts)))
    listed = set(cfg["packages"])
    assert found - listed == set(), "missing from pyproject.toml's packages"
    assert listed - found == set(), "listed in pyproject.toml but not in the tree"
