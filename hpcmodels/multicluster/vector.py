"""Array moves and 64-wide compares for the profile kernels (numba intrinsics).

numba compiles an element-by-element shift of an array (``a[i] = a[i - 1]`` from the
end down) to a scalar loop that LLVM does not vectorise (each access's negative-index
wrap-around stands in the way): about 1.2 ns per element of a 2-D profile row here,
and making a step boundary in the middle of a row shifts the rest of the row. LLVM's
``memmove`` moves the same elements several times faster. Likewise, the earliest-fit
search over a profile row (:func:`.profile.earliest_from`) reads which of 64 steps have
at least ``p`` free processors as one bit mask, and then walks the candidate windows
with bit operations instead of one unpredictable branch per step.

* :func:`move_items`: ``n`` items of a C-contiguous array from flat index ``src`` to
  flat index ``dst`` (the ranges may overlap), as ``memmove``;
* :func:`at_least_mask`: bit ``i`` (0-63) set iff ``a.flat[start + i] >= x``, for a
  C-contiguous int64 array;
* :func:`trailing_zeros`: the index of the lowest set bit (64 for 0).

An index range outside the array is an ``IndexError``; an array that is not
C-contiguous, or (for :func:`at_least_mask`) not int64, does not compile (numba's
``TypingError``).
"""

from __future__ import annotations

import numba
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

__all__ = ["move_items", "at_least_mask", "trailing_zeros"]

WIDTH = 64
"""Items compared by one :func:`at_least_mask`."""


@intrinsic
def _memmove(typingctx, a, dst, src, n):
    """``memmove`` of ``n`` items of C-contiguous ``a`` from flat index ``src`` to ``dst``
    (unchecked)."""
    if not (isinstance(a, types.Array) and a.layout == "C"):
        return None
    if not all(isinstance(x, types.Integer) for x in (dst, src, n)):
        return None
    sig = types.void(a, dst, src, n)

    def codegen(context, builder, signature, args):
        arr, d, s, k = args
        d = context.cast(builder, d, signature.args[1], types.intp)
        s = context.cast(builder, s, signature.args[2], types.intp)
        k = context.cast(builder, k, signature.args[3], types.intp)
        data = context.make_array(signature.args[0])(context, builder, arr).data
        size = context.get_abi_sizeof(context.get_data_type(signature.args[0].dtype))
        cgutils.raw_memmove(builder, builder.gep(data, [d]), builder.gep(data, [s]), k, size)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _mask64(typingctx, a, start, x):
    """Bit ``i`` (0-63) set iff ``a.flat[start + i] >= x``, for a C-contiguous int64
    array (unchecked: ``start + 64`` must not pass the end)."""
    if not (isinstance(a, types.Array) and a.layout == "C" and a.dtype == types.int64):
        return None
    if not (isinstance(start, types.Integer) and isinstance(x, types.Integer)):
        return None
    sig = types.int64(a, start, x)

    def codegen(context, builder, signature, args):
        arr, s, xv = args
        s = context.cast(builder, s, signature.args[1], types.intp)
        xv = context.cast(builder, xv, signature.args[2], types.int64)
        data = context.make_array(signature.args[0])(context, builder, arr).data
        vector = ir.VectorType(ir.IntType(64), WIDTH)
        items = builder.load(builder.bitcast(builder.gep(data, [s]), vector.as_pointer()), align=8)
        splat = builder.insert_element(
            ir.Constant(vector, ir.Undefined), xv, ir.Constant(ir.IntType(32), 0)
        )
        zeros = ir.Constant(ir.VectorType(ir.IntType(32), WIDTH), [0] * WIDTH)
        splat = builder.shuffle_vector(splat, ir.Constant(vector, ir.Undefined), zeros)
        return builder.bitcast(builder.icmp_signed(">=", items, splat), ir.IntType(64))

    return sig, codegen


@intrinsic
def trailing_zeros(typingctx, x):
    """Index of the lowest set bit of an integer (``llvm.cttz``; 64 for 0)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], signature.args[0], types.int64)
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(1)])
        cttz = cgutils.get_or_insert_function(builder.module, fnty, "llvm.cttz.i64")
        return builder.call(cttz, [value, ir.Constant(ir.IntType(1), 0)])

    return sig, codegen


@numba.njit(cache=True, inline="always")
def move_items(a, dst, src, n):
    """Move ``n`` items of C-contiguous ``a`` from flat index ``src`` to flat index
    ``dst`` (overlapping ranges allowed, as ``memmove``); an index range outside the
    array is an ``IndexError``."""
    if n < 0 or dst < 0 or src < 0 or max(dst, src) + n > a.size:
        raise IndexError("move_items: range outside the array")
    if n > 0:
        _memmove(a, dst, src, n)


@numba.njit(cache=True, inline="always")
def at_least_mask(a, start, x):
    """Bit ``i`` (0-63) set iff ``a.flat[start + i] >= x`` (C-contiguous int64 ``a``;
    the 64 items must lie in the array, else ``IndexError``)."""
    if start < 0 or start + WIDTH > a.size:
        raise IndexError("at_least_mask: 64 items from start are not all in the array")
    return _mask64(a, start, x)
