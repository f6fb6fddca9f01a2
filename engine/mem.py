"""Raw memory access for numba kernels.

Passing numpy arrays into a recursive ``@njit`` function costs an atomic reference-count
increment and decrement per call (see docs/engine.md). The hot recursions therefore take
plain integer addresses (``arr.ctypes.data``) and read and write through these tiny
intrinsics, which compile to a single load or store.

Stores of 64-bit words are aligned and atomic (``monotonic`` ordering), so a table shared
between threads never shows a torn entry.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _make_load(nbtype, bits, atomic):
    @intrinsic
    def _load(typingctx, addr, idx):
        if not isinstance(addr, types.Integer) or not isinstance(idx, types.Integer):
            return None
        sig = nbtype(addr, idx)

        def codegen(context, builder, signature, args):
            a = context.cast(builder, args[0], signature.args[0], types.intp)
            i = context.cast(builder, args[1], signature.args[1], types.intp)
            ptr = builder.inttoptr(a, ir.PointerType(ir.IntType(bits)))
            p = builder.gep(ptr, [i])
            if atomic:
                return builder.load_atomic(p, "monotonic", bits // 8)
            return builder.load(p)

        return sig, codegen

    return _load


def _make_store(nbtype, bits, atomic):
    @intrinsic
    def _store(typingctx, addr, idx, val):
        if not all(isinstance(t, types.Integer) for t in (addr, idx, val)):
            return None
        sig = types.void(addr, idx, val)

        def codegen(context, builder, signature, args):
            a = context.cast(builder, args[0], signature.args[0], types.intp)
            i = context.cast(builder, args[1], signature.args[1], types.intp)
            v = context.cast(builder, args[2], signature.args[2], nbtype)
            ptr = builder.inttoptr(a, ir.PointerType(ir.IntType(bits)))
            p = builder.gep(ptr, [i])
            if atomic:
                builder.store_atomic(v, p, "monotonic", bits // 8)
            else:
                builder.store(v, p)
            return context.get_dummy_value()

        return sig, codegen

    return _store


load_u64 = _make_load(types.uint64, 64, True)
store_u64 = _make_store(types.uint64, 64, True)
load_i64 = _make_load(types.int64, 64, True)
store_i64 = _make_store(types.int64, 64, True)
#: Plain (non-atomic) 64-bit access, for memory only one thread touches during a search
#: (a thread's scratch area and counters): the compiler may combine and reorder these.
load_i64p = _make_load(types.int64, 64, False)
store_i64p = _make_store(types.int64, 64, False)
load_i8 = _make_load(types.int8, 8, False)


@intrinsic
def _sleep_us(typingctx, usec):
    """Sleep ``usec`` microseconds inside a kernel (libc ``usleep``), GIL released.

    Used by paused searches so that they wait without using CPU. The symbol is resolved
    by name when the (possibly cached) code is linked, so it survives numba's cache.
    """
    if not isinstance(usec, types.Integer):
        return None
    sig = types.int32(usec)

    def codegen(context, builder, signature, args):
        v = context.cast(builder, args[0], signature.args[0], types.uint32)
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "usleep")
        return builder.call(fn, [v])

    return sig, codegen


#: ``sleep_us(usec)`` as the kernels call it (typed ``Any``, as :data:`prefetch`).
sleep_us: Any = _sleep_us


def address(arr) -> int:
    """Data address of a contiguous numpy array, for passing to kernels."""
    if not arr.flags.c_contiguous:
        raise ValueError("kernel buffers must be C-contiguous")
    return int(arr.ctypes.data)


@intrinsic
def _prefetch(typingctx, addr, idx):
    """Hint the CPU to bring the 64-bit word ``idx`` of ``addr`` into the cache (``llvm.prefetch``).

    Lets a node start the memory accesses of its table probes before it needs them.
    """
    if not isinstance(addr, types.Integer) or not isinstance(idx, types.Integer):
        return None
    sig = types.void(addr, idx)

    def codegen(context, builder, signature, args):
        a = context.cast(builder, args[0], signature.args[0], types.intp)
        i = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = builder.gep(builder.inttoptr(a, ir.PointerType(ir.IntType(64))), [i])
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


#: ``prefetch(addr, idx)`` as the kernels call it (typed ``Any``: mypy reads the intrinsic's
#: definition, whose first parameter is numba's typing context).
prefetch: Any = _prefetch
