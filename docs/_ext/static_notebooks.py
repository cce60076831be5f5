"""Reading the notebooks for a static site (``nb_custom_formats`` in ``docs/conf.py``).

The notebooks' players and controls are ipywidgets: they need a running kernel, so a page can
only show them dead. Each such output keeps a line of plain text saying so, which the site
shows instead (``nb_mime_priority_overrides``); the saved widget state, up to a few hundred
kilobytes a notebook that nothing on the page would use, is dropped when the notebook is read.
The file itself is not changed.
"""

import nbformat


def read(text):
    nb = nbformat.reads(text, as_version=4)
    nb.metadata.pop("widgets", None)
    return nb
