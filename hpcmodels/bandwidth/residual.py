"""Jones et al. 2005, Section 3.7: residual computation and communication times.

At every inter-cluster state change a co-allocated job's residual times are updated
from the previous change (primed values) by Eqs. 6-7::

    T_P^D = dT / T_E^R' x T_P^R'          T_C^D = dT / T_E^R' x T_C^R'     (Eq. 7)
    T_P^R = T_P^R' - T_P^D
    T_C^R = (T_C^R' - T_C^D) sd' / sd                                      (Eq. 6)
    T_E^R = T_C^R + T_P^R

where ``T_C^R`` is the communication time still to run *as stretched by the current
slowdown factor* ``sd`` (Eq. 5). A newly co-allocated job starts from its profile
(``T_P = K T_E``, ``T_C = (1 - K) T_E``, ``sd' = 1``). This module is the literal
recurrence, used as the reference the engine's rate form
(:func:`.model.progress_rate`) is tested against.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InvalidParameter

__all__ = ["Residual", "start_residual", "advance_residuals"]


@dataclass(frozen=True)
class Residual:
    """A running job's residual computation ``tp`` and (stretched) communication ``tc``
    times, seconds, under the slowdown factor ``sd`` in force since the last change."""

    tp: float
    tc: float
    sd: float = 1.0

    @property
    def te(self) -> float:
        """Residual execution time ``T_E^R = T_P^R + T_C^R`` (Eq. 6)."""
        return self.tp + self.tc


def start_residual(execution_time: float, compute_fraction: float) -> Residual:
    """A job's residual times when it starts: its profile at full speed."""
    if not execution_time >= 0 or not 0 <= compute_fraction <= 1:
        raise InvalidParameter(
            f"need execution_time >= 0 and compute_fraction in [0, 1], got "
            f"{execution_time!r}, {compute_fraction!r}"
        )
    k = compute_fraction
    return Residual(k * execution_time, (1 - k) * execution_time)


def advance_residuals(r: Residual, dt: float, sd: float) -> Residual:
    """Eqs. 6-7: ``dt`` seconds after the last change (``dt`` <= ``r.te``), the slowdown
    factor becomes ``sd`` (in (0, 1])."""
    if not 0 <= dt <= r.te * (1 + 1e-12) or not 0 < sd <= 1:
        raise InvalidParameter(
            f"need 0 <= dt <= {r.te!r} and 0 < sd <= 1, got dt={dt!r}, sd={sd!r}"
        )
    share = dt / r.te if r.te > 0 else 0.0
    tp = r.tp - share * r.tp
    tc = (r.tc - share * r.tc) * r.sd / sd
    return Residual(max(tp, 0.0), max(tc, 0.0), sd)
