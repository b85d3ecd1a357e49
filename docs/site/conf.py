"""Sphinx configuration of the static site (``make site``: ``python -m hpcmodels site``).

The site is built from a staged copy (:mod:`hpcmodels.site`): the notebooks with their
stored outputs (never executed here), the report and the docs. Everything it loads is
served from the site itself: MathJax from the sphinx-mathjax-offline bundle, no widget
JavaScript from a CDN (the explorers need a kernel: each page says how to open it live),
Furo's system fonts, the copy buttons' script and icons from sphinx-copybutton's own
static files."""

project = "hpcmodels"
author = "the hpcmodels developers"
copyright = "2026, the hpcmodels developers"
html_title = "hpcmodels: scheduling and allocation across multiple clusters"
extensions = ["myst_nb", "sphinx-mathjax-offline", "sphinx_copybutton"]
nb_execution_mode = "off"  # the stored outputs, as nbval checks them
nb_ipywidgets_js = {}  # no require.js / widget manager from a CDN
# every collapsed cell is an exercise's worked answer (tagged hide-cell): its toggle says so
nb_code_prompt_show = "Show answer"
nb_code_prompt_hide = "Hide answer"
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3
html_theme = "furo"
html_static_path: list[str] = []
html_show_sourcelink = False
html_copy_source = False
# downloads/: the notebooks as they are, served by each page's download link, not pages
exclude_patterns = ["_build", "downloads"]
# every figure (a notebook's outputs, captioned when staged, and the explorers' pictures)
# is numbered within its notebook: Figure 3.2 is notebook 03's second (the notebooks'
# toctree is numbered, one level: notebook NN is N)
numfig = True
numfig_secnum_depth = 1
numfig_format = {"figure": "Figure %s:"}
# the copy button copies a cell's code, not the prompts of a console session
copybutton_exclude = ".linenos, .gp, .go"
suppress_warnings = ["mystnb.unknown_mime_type", "misc.highlighting_failure"]
