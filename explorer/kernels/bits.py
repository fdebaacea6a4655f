"""Machine instructions the compiled kernels need and numba does not expose: population count,
trailing zeros, a cache prefetch and an atomic compare-and-swap, each one LLVM intrinsic or
instruction (llvm.ctpop, llvm.cttz, llvm.prefetch, cmpxchg), so a kernel compiles to what a C
compiler makes of __builtin_popcountll, __builtin_ctzll, __builtin_prefetch and
__atomic_compare_exchange_n. They are numba intrinsics: callable only from compiled code, and
cached with it.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_I64 = ir.IntType(64)
_I32 = ir.IntType(32)
_I1 = ir.IntType(1)


@intrinsic
def popcount(typingctx, value):
    """The number of set bits of an int64 (llvm.ctpop)."""
    def codegen(context, builder, signature, args):
        word = context.cast(builder, args[0], signature.args[0], types.int64)
        function = cgutils.get_or_insert_function(builder.module, ir.FunctionType(_I64, [_I64]), "llvm.ctpop.i64")
        return builder.call(function, [word])

    return types.int64(value), codegen


@intrinsic
def trailing_zeros(typingctx, value):
    """The index of the lowest set bit of an int64 (llvm.cttz); 64 for 0."""
    def codegen(context, builder, signature, args):
        word = context.cast(builder, args[0], signature.args[0], types.int64)
        function = cgutils.get_or_insert_function(builder.module, ir.FunctionType(_I64, [_I64, _I1]), "llvm.cttz.i64")
        return builder.call(function, [word, _I1(0)])

    return types.int64(value), codegen


@intrinsic
def prefetch(typingctx, array, index):
    """Ask the CPU to bring `array[index]` into the cache for writing (llvm.prefetch). No
    effect on any result, and none on an index outside the array: a prefetch never faults."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, view, [args[1]], wraparound=False)
        byte_pointer = ir.IntType(8).as_pointer()
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, _I32, _I32, _I32]), "llvm.prefetch.p0")
        builder.call(function, [builder.bitcast(pointer, byte_pointer), _I32(1), _I32(3), _I32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


@intrinsic
def compare_and_swap(typingctx, array, index, expected, new):
    """Atomically: if array[index] equals `expected`, set it to `new`. Returns the element as it was
    (equal to `expected` exactly when the swap happened). One `lock cmpxchg` on x86 (relaxed
    ordering: only the element itself is synchronised; a parallel region's end orders the rest).
    `expected` and `new` are cast to the array's dtype."""
    dtype = array.dtype

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, view, [args[1]], wraparound=False)
        old = context.cast(builder, args[2], signature.args[2], dtype)
        value = context.cast(builder, args[3], signature.args[3], dtype)
        pair = builder.cmpxchg(pointer, old, value, "monotonic", "monotonic")
        return builder.extract_value(pair, 0)

    return dtype(array, index, expected, new), codegen


def _bmi2() -> bool:
    """Whether numba compiles for this machine's CPU and it has BMI2 (pdep, pext)."""
    from llvmlite import binding
    from numba.core import config

    return not config.CPU_NAME and bool(binding.get_host_cpu_features().get("bmi2"))


def _deposit_loop(bits, where):
    out = 0
    while where and bits:
        if bits & 1:
            out |= where & -where
        bits >>= 1
        where &= where - 1
    return out


def _extract_loop(bits, where):
    out = 0
    bit = 1
    while where:
        if bits & where & -where:
            out |= bit
        bit <<= 1
        where &= where - 1
    return out


def _bit_scatter(instruction, loop):
    @intrinsic
    def scatter(typingctx, bits, where):
        signature = types.int64(types.int64, types.int64)

        def codegen(context, builder, sig, args):
            args = [context.cast(builder, a, t, types.int64) for a, t in zip(args, sig.args)]
            if _bmi2():
                function = cgutils.get_or_insert_function(builder.module, ir.FunctionType(_I64, [_I64, _I64]),
                                                          f"llvm.x86.bmi.{instruction}.64")
                return builder.call(function, args)
            return context.compile_internal(builder, loop, signature, args)

        return types.int64(bits, where), codegen

    return scatter


deposit = _bit_scatter("pdep", _deposit_loop)
deposit.__doc__ = """The low bits of `bits` placed, in order, on the set bits of `where` (BMI2 pdep, or a loop)."""
extract = _bit_scatter("pext", _extract_loop)
extract.__doc__ = """The bits of `bits` on the set bits of `where`, packed to the low end (BMI2 pext, or a loop)."""
