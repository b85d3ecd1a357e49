"""The inter-cluster network of Jones et al. 2005 (Section 3.1): :class:`Network`, defined in
the engine's layer (:mod:`hpcmodels.multicluster.network`), which takes it as a parameter,
and re-exported here with the rest of the bandwidth model."""

from ..multicluster.network import Network

__all__ = ["Network"]
