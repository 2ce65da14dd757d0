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
    /// A predicate that depends on tensor data: a comparison term.
    Cond(TermId),
    /// The old value an atomic returned: it depends on the order of the atomics, so reading it
    /// is rejected (the one-schedule semantics would not cover it).
    Unordered,
}

impl Val {
    pub fn bits(self) -> Option<u64> {
        match self {
            Val::Bits(b) => Some(b),
            _ => None,
        }
    }
}
