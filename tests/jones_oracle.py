"""A slow, independent pure-Python reference for Jones 2005 on the engine's semantics.

It extends the engine oracle (:mod:`engine_oracle`) with each job's cluster of arrival
(LA -> MIG, or local only), the co-allocation modules written from the paper's text
(A1 by its m nested loops, first solution), and co-allocated jobs whose residual
computation and communication times follow Eqs. 6-7 literally
(:func:`hpcmodels.bandwidth.advance_residuals`) at every link change, their end
events moving with them. Only for small workloads.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pandas as pd

from hpcmodels.bandwidth import advance_residuals, allot_bandwidth, start_residual

from engine_oracle import _Sim, tolerance


def demand(n, total, bsbw):
    """Eq. 1 with Eq. 8's PPBW."""
    if total <= 1:
        return 0.0
    ppbw = bsbw * 4 * (total - 1) / total**2
    return n * ppbw * (total - n) / (total - 1)


class JonesSim(_Sim):
    def __init__(self, jobs, clusters, selection, allocation, module, network):
        coal = "larger_first" if module is not None else None
        super().__init__(jobs, clusters, selection, "best_fit", coal, 1.0, 0)
        self.origin = [int(o) for o in jobs["origin"]]
        self.local_only = allocation == "local_only"
        self.module = module
        self.net = network
        self.residual = {}  # co-allocated running job -> Residual
        self.since = {}  # ... -> time of its last update

    # ------------------------------------------------------------ placement
    def single_site_candidates(self, j):
        o = self.origin[j]
        if self.free[o] >= self.procs[j]:
            return [o]  # LA
        if self.local_only:
            return []
        return super().single_site_candidates(j)  # MIG: best fit (choose)

    def choose(self, cands, j):
        if cands == [self.origin[j]]:
            return cands[0]
        return super().choose(cands, j)

    def loads(self):
        load = [0.0] * self.m
        for r in self.running:
            if self.cluster[r] == -1:
                for c in range(self.m):
                    load[c] += demand(self.alloc[r][c], self.procs[r], self.net.bsbw)
        return load

    def exact_loads(self):
        """The links' loads in exact arithmetic (Eq. 1 with Eq. 8's PPBW as fractions):
        loads equal in exact arithmetic compare equal (a job cut 7 + 5 loads its two links
        equally, where the float form above differs in the last bit)."""
        load = [Fraction(0)] * self.m
        for r in self.running:
            if self.cluster[r] == -1:
                p = self.procs[r]
                for c in range(self.m):
                    n = self.alloc[r][c]
                    if p > 1:
                        load[c] += Fraction(self.net.bsbw) * 4 * n * (p - n) / (p * p)
        return load

    def coallocation_sites(self, j):
        if self.module in (None, "first_fit"):
            return super().coallocation_sites(j)
        p, load, cap = self.procs[j], self.loads(), self.net.link_mbps
        if self.module == "a1":
            for xs in itertools.product(*(range(p + 1) for _ in range(self.m))):
                if sum(xs) == p and all(
                    x <= f
                    and (
                        x == 0
                        or load[c] + demand(x, p, self.net.bsbw) <= self.net.lslt * cap + 1e-9
                    )  # fmt: skip
                    for c, (x, f) in enumerate(zip(xs, self.free, strict=True))
                ):
                    return list(xs)
            return None
        eligible = [c for c in range(self.m) if load[c] < self.net.lslt * cap]
        if sum(self.free[c] for c in eligible) < p:
            return None
        give = [0] * self.m
        if self.module == "b4":  # round robin, one node at a time, in index order
            need = p
            while need:
                for c in eligible:
                    if need and give[c] < self.free[c]:
                        give[c] += 1
                        need -= 1
            return give
        if self.module == "b2":  # least loaded link first, exact ties by index
            exact = self.exact_loads()
            eligible.sort(key=lambda c: (exact[c], c))
        else:
            eligible.sort(key=lambda c: (-self.free[c], c))
        if self.module == "b3" and self.free[eligible[0]] < math.ceil(self.net.chunk * p - 1e-9):
            return None
        need = p
        for c in eligible:
            g = min(self.free[c], need)
            give[c] = g
            need -= g
        return give

    # ------------------------------------------------------------ the links
    def relink(self, t):
        """Eqs. 6-7 for every running co-allocated job at a link change at ``t``."""
        co = [r for r in self.running if self.cluster[r] == -1]
        if not co or not self.net.dynamic:
            return
        d = np.array([[demand(self.alloc[r][c], self.procs[r], self.net.bsbw)
                       for c in range(self.m)] for r in co])  # fmt: skip
        allotted = allot_bandwidth(d, [self.net.link_mbps] * self.m)
        for a, r in enumerate(co):
            sd = allotted[a].sum() / d[a].sum() if d[a].sum() > 0 else 1.0
            res = self.residual[r]
            dt = min(t - self.since[r], res.te)
            self.residual[r] = advance_residuals(res, dt, min(sd, 1.0))
            self.since[r] = t
            self.end[r] = t + self.residual[r].te

    def start_coallocated(self, j, give, t):
        super().start_coallocated(j, give, t)
        self.residual[j] = start_residual(self.runtime[j], self.net.compute_fraction)
        self.since[j] = t
        self.relink(t)

    def run(self):
        k = 0
        while k < self.n or self.running or self.queue:
            times = [self.end[r] for r in self.running]
            if k < self.n:
                times.append(self.submit[self.order[k]])
            limit = min(times) + tolerance(min(times))
            t = max(x for x in times if x <= limit)
            co_finished = False
            for r in list(self.running):
                if self.end[r] <= limit:
                    self.end[r] = t
                    for c in range(self.m):
                        self.free[c] += self.alloc[r][c]
                    self.running.remove(r)
                    co_finished |= self.cluster[r] == -1
            if co_finished:
                self.relink(t)
            while k < self.n and self.submit[self.order[k]] <= limit:
                self.queue.append(self.order[k])
                k += 1
            self.session(t)
        assert self.free == self.sizes


def jones_oracle(jobs, clusters, selection, allocation, module, network) -> pd.DataFrame:
    """Per job: start, end, cluster (-1 co-allocated) and alloc (nodes per cluster)."""
    sim = JonesSim(jobs, clusters, selection, allocation, module, network)
    sim.run()
    return pd.DataFrame({"start": sim.start, "end": sim.end, "cluster": sim.cluster,
                         "alloc": [tuple(a) for a in sim.alloc]}, index=jobs.index)  # fmt: skip
