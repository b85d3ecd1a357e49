"""Co-allocation as a Markov decision process: Filippopoulos & Karatza (two clusters,
1- and 2-component jobs), value and policy iteration, and policy simulation."""

from .model import CoallocationMDP
from .solve import Solution, policy_iteration, solve, value_iteration

__all__ = ["CoallocationMDP", "Solution", "policy_iteration", "solve", "value_iteration"]
