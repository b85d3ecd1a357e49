"""Sphinx configuration of the static site (``make site``: ``python -m hpcmodels site``).

The site is built from a staged copy (:mod:`hpcmodels.site`): the notebooks with their
stored outputs (never executed here), the report and the docs. Everything it loads is
served from the site itself: MathJax from the sphinx-mathjax-offline bundle, no widget
JavaScript from a CDN (the explorers need a kernel: each page says how to open it live),
Furo's system fonts."""

project = "hpcmodels"
author = "the hpcmodels developers"
copyright = "2026, the hpcmodels developers"
html_title = "hpcmodels: scheduling and allocation across multiple clusters"
extensions = ["myst_nb", "sphinx-mathjax-offline"]
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
exclude_patterns = ["_build"]
suppress_warnings = ["mystnb.unknown_mime_type", "misc.highlighting_failure"]
