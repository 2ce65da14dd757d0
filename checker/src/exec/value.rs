//! Register and memory contents.

use crate::term::TermId;

/// What a register or memory granule holds.
///
/// In concrete runs every value is [`Val::Bits`]. In symbolic runs integers, addresses and
/// predicates that depend only on thread and block indices and scalars stay [`Val::Bits`];
/// values that depend on tensor data are terms. Control flow and addresses must be `Bits`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Val {
    /// Never written: reading it is an error, not a zero.
    Undef,
    /// A concrete bit pattern, zero-extended to 64 bits (predicates are 0 or 1).
    Bits(u64),
    /// A real-valued float that depends on tensor data.
    Term(TermId),
    /// An exact integer that depends on integer tensor data, held in a register or granule of
    /// `width` bits: the bits are the value modulo 2^width (zero above). The term is over the
    /// reals and its value is the integer itself, never a wrapped one: every operation that
    /// builds one checks that the value's interval ([`super::Machine::int_range`]) fits the
    /// type it is read and written as, so wraparound never happens.
    Int { term: TermId, width: u8 },
    /// A predicate that depends on tensor data: a comparison term.
    Cond(TermId),
    /// Two 16-bit floats packed in 32 bits (`f16x2`/`bf16x2`), low half first, at least one of
    /// them depending on tensor data (a constant half is its constant term). Packed halves are
    /// how tensor-core fragments travel; both halves are reals like any other float.
    Pair(TermId, TermId),
    /// One 32-bit word of the IEEE binary64 bit pattern of a real `f64` value (`hi`: bits
    /// 32..64, else bits 0..32), zero-extended. This is how a double crosses lanes: nvcc splits
    /// it (`mov.b64 %rd, %fd; cvt.u32.u64` / `shr.u64 32`, or `mov.b64 {%r1, %r2}, %fd`),
    /// shuffles the two words and joins them again (`bfi.b64` or `mov.b64 %rd, {%r1, %r2}`).
    /// A word may be moved, shuffled, stored and loaded, and joined with the other word of the
    /// same value, which gives that value back; any arithmetic on it is rejected.
    Word { term: TermId, hi: bool },
    /// A `cp.async` destination before the `cp.async.wait_group` that completes the copy: its
    /// contents are not yet defined, so reading it is a finding.
    Pending,
    /// The old value an atomic returned: it depends on the order of the atomics, so reading it
    /// is rejected (the one-schedule semantics would not cover it).
    Unordered,
    /// One register of a `wmma` fragment: an opaque handle, never a number. PTX leaves which
    /// matrix elements a lane's fragment registers hold unspecified, so only `wmma` operations
    /// (and `mov`, which copies the handle) may use it; a kernel built that way computes the
    /// same result under every layout (see `exec::wmma`).
    Frag(FragRef),
    /// A concrete address in the executor's layout (`bits`, what [`Val::Bits`] would hold)
    /// known to be "start of region `base` + an offset `o` computed from non-address integers
    /// only" (see [`Base`]). Why this is sound: `bits == start_k + o (mod 2^64)` in our
    /// layout and `o` does not depend on where memory is placed, so on the hardware the same
    /// value is `H_k + o`, and checking `o` against region `k` checks the real access. In a
    /// 32-bit register (a shared or local variable in its own space) the equation holds
    /// modulo 2^32, as the hardware computes such addresses; the region lies below 2^32 in
    /// every layout, so the accessed address, reduced the same way, is checked exactly.
    /// Hence only `Addr + integer` keeps the base; every operation whose result would depend
    /// on the layout is refused, never turned into `Bits`.
    Addr { base: u32, bits: u64 },
    /// `off + j` (`off - j` when `neg`), with `j` the integer that execution `id` of libdevice
    /// expf's `fma.rm` rounded to (exec/libdevice.rs). The floor has no real reading, so only
    /// the range reduction's arithmetic may carry it until `2^j` and `2^-j` cancel.
    Rounded { id: u32, off: TermId, neg: bool },
    /// `scale * 2^j` (`scale * 2^-j` when `neg`) for the rounded exponent `j` of execution
    /// `id`; two of them with opposite signs multiply to the real `scale * scale'`.
    Pow2 { id: u32, scale: TermId, neg: bool },
}

/// The regions an [`Val::Addr`] can come from, encoded in its `base`: tensor `k` (an index
/// into the machine's tensors) is `k`; variable `i` of [`crate::lower::Program::vars`] is
/// `VAR | i`; an unbound (scratch) pointer parameter `p`, which has no bytes, is
/// `SCRATCH | p`.
pub struct Base;

impl Base {
    pub const VAR: u32 = 1 << 30;
    pub const SCRATCH: u32 = 1 << 31;
}

/// Register `slot` of lane `lane`'s share of fragment `id` (an index into the run's fragments).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FragRef {
    pub id: u32,
    pub lane: u8,
    pub slot: u8,
}

impl Val {
    pub fn bits(self) -> Option<u64> {
        match self {
            Val::Bits(b) => Some(b),
            _ => None,
        }
    }
}
