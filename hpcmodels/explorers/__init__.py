"""Interactive explorers for the notebooks (ipywidgets), one module per paper over the
shared :mod:`.core`. They only call the models and the paper modules."""

from .across import across_explorer
from .filippopoulos import mdp_explorer
from .he2006 import allocation_explorer
from .huang2006 import policy_explorer
from .jones2005 import bandwidth_explorer, link_saturation_explorer
from .shih2013 import tla_run_explorer, tla_snapshot_explorer

__all__ = [
    "across_explorer",
    "allocation_explorer",
    "bandwidth_explorer",
    "link_saturation_explorer",
    "mdp_explorer",
    "policy_explorer",
    "tla_run_explorer",
    "tla_snapshot_explorer",
]
