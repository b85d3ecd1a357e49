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

from ..errors import InvalidParameter, InvalidType, check_real

__all__ = ["Residual", "start_residual", "advance_residuals"]


@dataclass(frozen=True)
class Residual:
    """A running job's residual computation ``tp`` and (stretched) communication ``tc``
    times, seconds, under the slowdown factor ``sd`` in force since the last change."""

    tp: float
    tc: float
    sd: float = 1.0

    def __post_init__(self) -> None:
        """``tp`` and ``tc`` finite numbers >= 0, ``sd`` in (0, 1] (stored as floats);
        bools, strings, NaN and inf are an InvalidParameter naming the field."""
        for name in ("tp", "tc"):
            object.__setattr__(
                self, name, check_real(f"Residual.{name}", getattr(self, name), at_least=0)
            )
        object.__setattr__(self, "sd", check_real("Residual.sd", self.sd, above=0, at_most=1))

    @property
    def te(self) -> float:
        """Residual execution time ``T_E^R = T_P^R + T_C^R`` (Eq. 6)."""
        return self.tp + self.tc


def start_residual(execution_time: float, compute_fraction: float) -> Residual:
    """A job's residual times when it starts: its profile at full speed.
    ``execution_time`` is a finite number >= 0, ``compute_fraction`` one in [0, 1]."""
    execution_time = check_real("execution_time", execution_time, at_least=0)
    k = check_real("compute_fraction", compute_fraction, at_least=0, at_most=1)
    return Residual(k * execution_time, (1 - k) * execution_time)


def advance_residuals(r: Residual, dt: float, sd: float) -> Residual:
    """Eqs. 6-7: ``dt`` seconds after the last change (``dt`` <= ``r.te``), the slowdown
    factor becomes ``sd`` (in (0, 1]). ``r`` is a :class:`Residual` (else
    :class:`~hpcmodels.errors.InvalidType`); ``dt`` and ``sd`` finite numbers."""
    if not isinstance(r, Residual):
        raise InvalidType(f"r must be a Residual, got {r!r:.80}")
    dt = check_real("dt", dt, at_least=0)
    sd = check_real("sd", sd, above=0, at_most=1)
    if not 0 <= dt <= r.te * (1 + 1e-12) or not 0 < sd <= 1:
        raise InvalidParameter(
            f"need 0 <= dt <= {r.te!r} and 0 < sd <= 1, got dt={dt!r}, sd={sd!r}"
        )
    share = dt / r.te if r.te > 0 else 0.0
    tp = r.tp - share * r.tp
    tc = (r.tc - share * r.tc) * r.sd / sd
    return Residual(max(tp, 0.0), max(tc, 0.0), sd)
