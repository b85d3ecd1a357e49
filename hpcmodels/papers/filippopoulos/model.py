"""The paper's model (Section 3) with Fig. 2's parameters by default, and Section 6's
heuristic as one action per state."""

from __future__ import annotations

import numpy as np

from ...errors import check_int
from ...mdp import CoallocationMDP
from ...mdp.model import MAX_TRUNCATION
from .published import EXPERIMENT_1


def check_truncation(value: object, name: str = "truncation") -> int:
    """``value`` as Delta, a whole number in [1, 1000]
    (:data:`hpcmodels.mdp.model.MAX_TRUNCATION`: about 12 million states, minutes of
    solving); else an :class:`~hpcmodels.errors.InvalidParameter` naming ``name``."""
    return check_int(name, value, minimum=1, maximum=MAX_TRUNCATION)


def model(truncation: int = 30, **params) -> CoallocationMDP:
    """A model of the paper: Fig. 2's parameters unless overridden (``rho`` sets both loads).
    ``truncation`` (Delta) is a whole number in [1, 1000] (:func:`check_truncation`)."""
    truncation = check_truncation(truncation)
    settings = dict(EXPERIMENT_1, mu1=1.0, mu2=1.0, c1=2.0, c2=1.0, beta=0.05)
    rho = params.pop("rho", None)
    if rho is not None:
        settings.update(rho1=rho, rho2=rho)
    settings.update(params)
    return CoallocationMDP.from_loads(truncation=truncation, **settings)


def heuristic_actions(mdp: CoallocationMDP) -> np.ndarray:
    """Section 6's "p c1 q1 > c2 q2 - best pack" heuristic as one action per state:
    co-allocate where it is allowed, ``x1 = 1`` and ``p c1 q1 > c2 q2`` (the rule
    :func:`hpcmodels.mdp.simulate.simulate_policy` applies as ``"heuristic"``). Its
    rule does not involve mu3."""
    q1, q2, _, x1, _, _ = mdp.states.T
    return (mdp.can_coallocate & (x1 == 1) & (mdp.p * mdp.c1 * q1 > mdp.c2 * q2)).astype(np.int8)
