"""Sphinx configuration of puzzlelib's documentation site (``make docs``).

The API pages come from the package's docstrings (autodoc); the notebooks are rendered from
their saved outputs, never executed here; the top-level ``notebooks/`` folder is reached
through a link made at build time (``docs/notebooks``, ignored by git), so nothing is copied.
"""

import os
import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # document this checkout's package, installed or not
sys.path.insert(0, str(DOCS / "_ext"))

# The notebooks stay where they are: a relative link docs/notebooks -> ../notebooks.
_link = DOCS / "notebooks"
if not _link.is_symlink() and not _link.exists():
    try:
        os.symlink(os.path.join("..", "notebooks"), _link, target_is_directory=True)
    except FileExistsError:  # another build made it at the same moment
        pass

import puzzlelib  # noqa: E402

project = "puzzlelib"
author = "the puzzlelib authors"
copyright = "the puzzlelib authors"
release = version = puzzlelib.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
    "myst_nb",  # MyST Markdown pages and notebooks (it brings myst_parser)
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
# in notebooks/ only the numbered notebooks are pages (see notebooks.md)
exclude_patterns = ["_build", "jupyter_execute", "**/.ipynb_checkpoints", "notebooks/[!0-9]*"]

# Docstrings are reStructuredText with ``literals`` and :func:/:mod: roles; a `single` backquote
# is meant as code too, so make it a cross-reference that falls back to monospace text.
default_role = "py:obj"
# References the docstrings make to internals or to other libraries' objects stay plain text:
# they are not errors of this site.
nitpicky = False

autodoc_member_order = "bysource"
autodoc_typehints = "none"  # the docstrings say what the arguments are
autodoc_default_options = {"members": True}

# Notebooks: shown as committed (`make notebooks` saves them with their outputs).
nb_execution_mode = "off"
# Widgets need a kernel: show their plain-text line, load no widget script, keep no state.
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}
nb_custom_formats = {".ipynb": "static_notebooks.read"}
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"puzzlelib {release}"
html_static_path = []
html_show_sourcelink = False
html_copy_source = False  # the notebooks are large; the repository has them


def _quote_spaced_literals(app, what, name, obj, options, lines):
    """A literal with a space at either end (such as a separator " / " written between double
    backquotes) is not valid reStructuredText: show it quoted instead, so that such docstrings
    need no change for the site. Lines whose double backquotes do not pair up stay as they are."""
    for i, line in enumerate(lines):
        parts = line.split("``")
        if len(parts) % 2 == 0:
            continue
        for j in range(1, len(parts), 2):
            if parts[j].strip() and parts[j] != parts[j].strip():
                parts[j] = repr(parts[j])
        lines[i] = "``".join(parts)


def setup(app):
    app.connect("autodoc-process-docstring", _quote_spaced_literals)
