"""The bitboard word of the boards past 64 bits: a 128-bit unsigned integer for numba.

A board with ``(H + 1) * W > 64`` squares and sentinels needs more than one ``uint64``.
:class:`Word128` is a Python ``int`` that numba types as ``word128``, kept in one LLVM
``i128`` register pair: ``& | ^ ~ << >> + - *``, comparisons and truth compile to the two-
instruction sequences LLVM emits for 128-bit integers, so the kernels' source is the same for
every size (see :mod:`.bitboard`). Only the sizes that need it compile it: on a 64-bit board
the kernels' words are ``np.uint64`` and never meet this type.

Shift counts are ordinary integers (or a ``word128``, as the kernels' ``x << U1``); a
``word128`` meets no other integer type in an operation: mixing is a typing error (where
``uint64`` with ``int64`` would silently be float).
"""

from __future__ import annotations

import operator
from typing import Any

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.imputils import lower_builtin, lower_cast, lower_constant
from numba.core.typing.templates import AbstractTemplate, infer_global, signature
from numba.extending import (
    NativeValue,
    box,
    intrinsic,
    models,
    register_model,
    typeof_impl,
    unbox,
)

_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1
_I128 = ir.IntType(128)
_I64 = ir.IntType(64)


class Word128(int):
    """A 128-bit bitboard word: an ``int`` in ``[0, 2**128)`` that numba passes as ``word128``."""

    def __new__(cls, value: int = 0) -> Word128:
        return super().__new__(cls, int(value) & _MASK128)

    @property
    def lo(self) -> int:
        """The low 64 bits."""
        return int(self) & _MASK64

    @property
    def hi(self) -> int:
        """The high 64 bits."""
        return int(self) >> 64


def _from_words(lo: int, hi: int) -> Word128:
    return Word128((hi << 64) | lo)


class Word128Type(types.Type):
    """numba's type of :class:`Word128`."""

    def __init__(self) -> None:
        super().__init__(name="word128")


word128 = Word128Type()


@typeof_impl.register(Word128)
def _typeof_word(val: Word128, c: Any) -> Word128Type:
    return word128


@register_model(Word128Type)
class _Word128Model(models.PrimitiveModel):
    def __init__(self, dmm: Any, fe_type: Word128Type) -> None:
        super().__init__(dmm, fe_type, _I128)


@lower_constant(Word128Type)
def _constant(context: Any, builder: object, ty: Any, pyval: int) -> ir.Constant:
    return ir.Constant(_I128, int(pyval) & _MASK128)


@unbox(Word128Type)
def _unbox(typ: Any, obj: object, c: Any) -> NativeValue:
    lo_obj = c.pyapi.object_getattr_string(obj, "lo")
    hi_obj = c.pyapi.object_getattr_string(obj, "hi")
    lo = c.unbox(types.uint64, lo_obj)
    hi = c.unbox(types.uint64, hi_obj)
    c.pyapi.decref(lo_obj)
    c.pyapi.decref(hi_obj)
    b = c.builder
    val = b.or_(b.zext(lo.value, _I128), b.shl(b.zext(hi.value, _I128), ir.Constant(_I128, 64)))
    is_error = b.or_(lo.is_error, hi.is_error)
    return NativeValue(val, is_error=is_error)


@box(Word128Type)
def _box(typ: Any, val: ir.Value, c: Any) -> object:
    b = c.builder
    lo = b.trunc(val, _I64)
    hi = b.trunc(b.lshr(val, ir.Constant(_I128, 64)), _I64)
    lo_obj = c.box(types.uint64, lo)
    hi_obj = c.box(types.uint64, hi)
    make = c.pyapi.unserialize(c.pyapi.serialize_object(_from_words))
    res = c.pyapi.call_function_objargs(make, (lo_obj, hi_obj))
    c.pyapi.decref(lo_obj)
    c.pyapi.decref(hi_obj)
    c.pyapi.decref(make)
    return res


# --- operators ----------------------------------------------------------------------------

_BINARY = {
    operator.and_: "and_", operator.iand: "and_",
    operator.or_: "or_", operator.ior: "or_",
    operator.xor: "xor", operator.ixor: "xor",
    operator.add: "add", operator.iadd: "add",
    operator.sub: "sub", operator.isub: "sub",
    operator.mul: "mul", operator.imul: "mul",
}
_SHIFTS = {
    operator.lshift: "shl", operator.ilshift: "shl",
    operator.rshift: "lshr", operator.irshift: "lshr",
}
_COMPARE = {
    operator.eq: "==", operator.ne: "!=", operator.lt: "<",
    operator.le: "<=", operator.gt: ">", operator.ge: ">=",
}


def _register_binary(op: object, method: str) -> None:
    @infer_global(op)
    class _Typing(AbstractTemplate):
        def generic(self, args: tuple, kws: dict) -> object:
            if len(args) == 2 and args[0] == word128 and args[1] == word128:
                return signature(word128, word128, word128)
            return None

    @lower_builtin(op, word128, word128)
    def _lower(context: Any, builder: ir.IRBuilder, sig: Any, args: tuple) -> object:
        return getattr(builder, method)(args[0], args[1])


def _register_shift(op: object, method: str) -> None:
    @infer_global(op)
    class _Typing(AbstractTemplate):
        def generic(self, args: tuple, kws: dict) -> object:
            if len(args) == 2 and args[0] == word128 and (
                    isinstance(args[1], types.Integer) or args[1] == word128):
                return signature(word128, word128, args[1])
            return None

    def _lower(context: Any, builder: ir.IRBuilder, sig: Any, args: tuple) -> object:
        n = builder.zext(args[1], _I128) if args[1].type.width < 128 else args[1]
        return getattr(builder, method)(args[0], n)

    lower_builtin(op, word128, types.Integer)(_lower)
    lower_builtin(op, word128, word128)(_lower)


def _register_compare(op: object, sym: str) -> None:
    @infer_global(op)
    class _Typing(AbstractTemplate):
        def generic(self, args: tuple, kws: dict) -> object:
            if len(args) == 2 and args[0] == word128 and args[1] == word128:
                return signature(types.boolean, word128, word128)
            return None

    @lower_builtin(op, word128, word128)
    def _lower(context: Any, builder: ir.IRBuilder, sig: Any, args: tuple) -> object:
        return builder.icmp_unsigned(sym, args[0], args[1])


for _op, _m in _BINARY.items():
    _register_binary(_op, _m)
for _op, _m in _SHIFTS.items():
    _register_shift(_op, _m)
for _op, _s in _COMPARE.items():
    _register_compare(_op, _s)


@infer_global(operator.invert)
class _InvertTyping(AbstractTemplate):
    def generic(self, args: tuple, kws: dict) -> object:
        if len(args) == 1 and args[0] == word128:
            return signature(word128, word128)
        return None


@lower_builtin(operator.invert, word128)
def _lower_invert(context: Any, builder: ir.IRBuilder, sig: Any, args: tuple) -> object:
    return builder.not_(args[0])


@infer_global(bool)
class _BoolTyping(AbstractTemplate):
    def generic(self, args: tuple, kws: dict) -> object:
        if len(args) == 1 and args[0] == word128:
            return signature(types.boolean, word128)
        return None


@lower_builtin(bool, word128)
def _lower_bool(context: Any, builder: ir.IRBuilder, sig: Any, args: tuple) -> object:
    return builder.icmp_unsigned("!=", args[0], ir.Constant(_I128, 0))


@lower_cast(Word128Type, types.boolean)
def _cast_bool(context: Any, builder: ir.IRBuilder, fromty: Any, toty: Any,
               val: ir.Value) -> object:
    return builder.icmp_unsigned("!=", val, ir.Constant(_I128, 0))


# --- conversions the kernels use ----------------------------------------------------------
# numba intrinsics, called from kernels with the one argument ``x`` (typed ``Any`` for mypy,
# which sees the ``typingctx`` parameter too).

def _low64(typingctx: Any, x: types.Type) -> object:
    """The low 64 bits of a ``word128`` as ``uint64`` (a ``uint64`` unchanged)."""
    if x == word128:
        def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: tuple) -> object:
            return builder.trunc(args[0], _I64)
        return signature(types.uint64, x), codegen
    if x == types.uint64:
        def codegen_u(context: Any, builder: ir.IRBuilder, sig: Any,
                      args: tuple) -> object:
            return args[0]
        return signature(types.uint64, x), codegen_u
    return None


low64: Any = intrinsic(_low64)


def _high64(typingctx: Any, x: types.Type) -> object:
    """The high 64 bits of a ``word128`` as ``uint64``."""
    if x == word128:
        def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: tuple) -> object:
            return builder.trunc(builder.lshr(args[0], ir.Constant(_I128, 64)), _I64)
        return signature(types.uint64, x), codegen
    return None


high64: Any = intrinsic(_high64)


def _widen(typingctx: Any, x: types.Type) -> object:
    """A ``uint64`` as a ``word128``."""
    if isinstance(x, types.Integer) and not getattr(x, "signed", True):
        def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: tuple) -> object:
            return builder.zext(args[0], _I128)
        return signature(word128, x), codegen
    return None


widen: Any = intrinsic(_widen)


def _popcount128(typingctx: Any, x: types.Type) -> object:
    """Number of set bits of a ``word128`` (``int64``)."""
    if x == word128:
        def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: tuple) -> object:
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(_I128, [_I128]), "llvm.ctpop.i128")
            return builder.trunc(builder.call(fn, [args[0]]), _I64)
        return signature(types.int64, x), codegen
    return None


popcount128: Any = intrinsic(_popcount128)
