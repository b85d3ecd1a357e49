"""Co-allocation as a Markov decision process: Filippopoulos & Karatza (two clusters,
1- and 2-component jobs), value, policy and modified policy iteration, and policy simulation."""

from .model import CoallocationMDP
from .solve import (
    METHODS,
    Solution,
    modified_policy_iteration,
    policy_iteration,
    solve,
    value_iteration,
)

__all__ = [
    "CoallocationMDP",
    "METHODS",
    "Solution",
    "modified_policy_iteration",
    "policy_iteration",
    "solve",
    "value_iteration",
]
