"""The paper's model (Section 3) with Fig. 2's parameters by default, and Section 6's
heuristic as one action per state."""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from ...errors import InvalidType, check_bool, check_int
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


@dataclass(frozen=True)
class HeuristicRule:
    """How the heuristic's condition ``p c1 q1 > c2 q2`` is read (Section 6: "co-allocates
    the job at head of queue 1 if the conditions p c1 q1 > c2 q2, x1 = 1 hold"). The
    default is the rule as printed; each field is one unstated (or contested) choice:

    * ``with_p``: the multiplier p (False: ``c1 q1 > c2 q2``, the rule Section 6 says the
      heuristic outperforms);
    * ``strict``: ``>`` as printed (False: ``>=``);
    * ``head_in_q1``: q1 counts the head job, as the state's q1 does (False: ``q1 - 1``,
      the jobs behind the one to be co-allocated);
    * ``service_in_q2``: q2 counts cluster 2's job in service, as the state's q2 does
      (False: ``q2 - 1`` where ``q2 > 0``, the jobs waiting).

    Bools only (else an :class:`~hpcmodels.errors.InvalidParameter` naming the field)."""

    with_p: bool = True
    strict: bool = True
    head_in_q1: bool = True
    service_in_q2: bool = True

    def __post_init__(self) -> None:
        for f in fields(self):
            check_bool(f.name, getattr(self, f.name))


PRINTED_RULE = HeuristicRule()
"""Section 6's rule as printed: ``p c1 q1 > c2 q2``."""


def heuristic_actions(mdp: CoallocationMDP, rule: HeuristicRule = PRINTED_RULE) -> np.ndarray:
    """Section 6's "p c1 q1 > c2 q2 - best pack" heuristic as one action per state:
    co-allocate where it is allowed, ``x1 = 1`` and ``p c1 q1 > c2 q2`` (the rule
    :func:`hpcmodels.mdp.simulate.simulate_policy` applies as ``"heuristic"``), or the
    condition as ``rule`` reads it (:class:`HeuristicRule`). Its rule does not involve
    mu3."""
    if not isinstance(rule, HeuristicRule):
        raise InvalidType(f"rule must be a HeuristicRule, got {type(rule).__name__}")
    q1, q2, _, x1, _, _ = mdp.states.T
    lhs = (mdp.p if rule.with_p else 1.0) * mdp.c1 * (q1 if rule.head_in_q1 else q1 - 1)
    rhs = mdp.c2 * (q2 if rule.service_in_q2 else np.maximum(q2 - 1, 0))
    wants = lhs > rhs if rule.strict else lhs >= rhs
    return (mdp.can_coallocate & (x1 == 1) & wants).astype(np.int8)
