"""The compiled kernels live in the user's cache folder, per package version
and machine, never inside the installed package."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from advisor._version import __version__
from advisor.kernels import _where

ROOT = Path(__file__).resolve().parents[1]

_CALL = "from advisor.kernels.rng import splitmix64; print(splitmix64(7))"


def _clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "CAMELUP_CACHE_DIR", "XDG_CACHE_HOME", "PYTHONPATH")}
    env.update(extra)
    return env


def test_the_cache_folder_is_keyed_by_version_and_machine(monkeypatch, tmp_path):
    for name in ("NUMBA_CACHE_DIR", "CAMELUP_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    tag = f"{__version__}-{_where.machine_tag()}"
    assert _where.cache_root() == tmp_path / "xdg" / "camelup-advisor" / tag
    assert str(sys.version_info[0]) in _where.machine_tag()
    # a NUMBA_CACHE_DIR the user set is respected ...
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    assert _where.cache_root() == tmp_path / "numba" / "camelup-advisor" / tag
    # ... and CAMELUP_CACHE_DIR names the folder outright
    monkeypatch.setenv("CAMELUP_CACHE_DIR", str(tmp_path / "mine"))
    assert _where.cache_root() == tmp_path / "mine" / tag
    assert str(tmp_path / "mine" / tag) in _where.describe()


def test_a_read_only_installed_package_gets_no_cache_files_and_still_caches(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(ROOT / "advisor", site / "advisor",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc"))
    before = sorted(p.relative_to(site) for p in site.rglob("*"))
    for path in [site, *site.rglob("*")]:
        mode = path.stat().st_mode
        path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        cache = tmp_path / "cache"
        env = _clean_env(PYTHONPATH=str(site), CAMELUP_CACHE_DIR=str(cache), PYTHONDONTWRITEBYTECODE="1")
        for _ in range(2):  # the second run loads what the first wrote
            proc = subprocess.run([sys.executable, "-c", _CALL], capture_output=True, text=True, env=env,
                                  cwd=tmp_path, timeout=600)
            assert proc.returncode == 0, proc.stderr
        after = sorted(p.relative_to(site) for p in site.rglob("*"))
        assert after == before  # nothing written into the package: no __pycache__, no numba index
        written = [p.relative_to(cache) for p in cache.rglob("*.nbi")]
        assert written and all(p.parts[0] == f"{__version__}-{_where.machine_tag()}" for p in written)
        assert any(p.name.startswith("rng.splitmix64") for p in written)
    finally:
        for path in [site, *site.rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IWUSR)


def test_warmup_help_says_where_the_kernels_are_kept(tmp_path):
    env = _clean_env(PYTHONPATH=str(ROOT), CAMELUP_CACHE_DIR=str(tmp_path / "kernels"))
    proc = subprocess.run([sys.executable, "-m", "advisor.cli", "warmup", "--help"], capture_output=True,
                          text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = "".join(proc.stdout.split())  # the help wraps long paths
    assert str(tmp_path / "kernels" / f"{__version__}-{_where.machine_tag()}") in text
    assert "CAMELUP_CACHE_DIR" in text


def test_camelup_help_mentions_camel_up_cards():
    proc = subprocess.run([sys.executable, "-m", "advisor.cli", "--help"], capture_output=True, text=True,
                          env=_clean_env(PYTHONPATH=str(ROOT)), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Camel Up Cards" in " ".join(proc.stdout.split())
