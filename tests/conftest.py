import sys
from pathlib import Path

# tests import the slow reference as `naive`
sys.path.insert(0, str(Path(__file__).resolve().parent))


import pytest  # noqa: E402


@pytest.fixture
def every_thread(monkeypatch):
    """Every parallel kernel call on every thread, however small (calls are
    otherwise sized by their work, see advisor/kernels/_jit.py): for tests
    that results do not depend on the thread count."""
    from advisor.kernels import _jit

    monkeypatch.setattr(_jit, "THREAD_SECONDS", 0.0)
