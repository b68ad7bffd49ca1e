"""Sphinx configuration of the camelup-advisor documentation.

Build (offline, warnings as errors)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The notebooks of ``notebooks/`` are executed during the build (cached under
``docs/_build/.jupyter_cache``: a notebook runs again only when its code
changed). ``CAMELUP_DOCS_EXECUTE=off`` renders them without running them
(the docs test does, to stay quick); ``force`` runs every one.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
# the notebooks' kernels import the package of this checkout, not another installed copy
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE.parent), os.environ.get("PYTHONPATH")]))
# ... and show a matplotlib Figure left as a cell's value as a picture (docs/_ipython)
os.environ["IPYTHONDIR"] = str(HERE / "_ipython")
sys.path.insert(0, str(HERE / "_ext"))

from advisor import __version__  # noqa: E402

project = "camelup-advisor"
author = "the camelup-advisor authors"
copyright = "2026, the camelup-advisor authors"
release = __version__
version = __version__

extensions = [
    "myst_nb",                 # MyST Markdown and executed notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "camelup_docs",            # the CLI and OpenAPI pages, generated at build time
]

exclude_patterns = ["_build", "_ipython", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints", "notebooks/data"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"

myst_enable_extensions = ["colon_fence", "deflist", "attrs_inline"]
myst_heading_anchors = 4

nb_execution_mode = os.environ.get("CAMELUP_DOCS_EXECUTE", "cache")
nb_execution_timeout = 600
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_cache_path = str(HERE / "_build" / ".jupyter_cache")
nb_merge_streams = True

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": False}
add_module_names = False

html_theme = "pydata_sphinx_theme"
html_title = f"camelup-advisor {__version__}"
html_static_path = ["_static"]
html_show_sourcelink = False
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_sidebars = {"index": []}
