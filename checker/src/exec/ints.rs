//! Symbolic integers: elements of integer input tensors without `init`, and the ring
//! arithmetic on them, as exact integer terms ([`Val::Int`]).
//!
//! PTX integer arithmetic is modulo 2^n, the terms are over the reals. The two agree exactly
//! when no value ever leaves the range its type reads it in, so every value carries an
//! interval (from the tensor's declared `range`, or its dtype's whole range) and every
//! operation checks it: each operand must lie in the range of the type it is read as (a
//! 32-bit value widened by a 64-bit operation must be non-negative, since its upper bits are
//! zero), and the result must lie in the range of the result type. Anything else is refused
//! with the line: an add that may wrap, shifts right, bitwise operations, division.
//! Such a value never becomes an address or a branch condition (those need [`Val::Bits`]).

use super::{ExecError, Machine, Val};
use crate::lower::{IntOp, IntTy, MadMode};
use crate::ptx::Line;
use crate::term::{CmpOp, Dyadic, Node, TermId};

/// A closed interval of integers.
pub(crate) type Range = (i128, i128);

/// The values type `ty` reads its bits as.
pub(crate) fn type_range(ty: IntTy) -> Range {
    let b = u32::from(ty.bits);
    if ty.signed {
        (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
    } else {
        (0, (1i128 << b) - 1)
    }
}

fn within(r: Range, outer: Range) -> bool {
    outer.0 <= r.0 && r.1 <= outer.1
}

fn refuse(line: Line, what: String) -> ExecError {
    ExecError::Unsupported { line, what }
}

impl Machine<'_> {
    /// The interval of an integer term built in this run.
    pub(crate) fn int_range(&self, t: TermId) -> Option<Range> {
        self.int_ranges.get(&t).copied()
    }

    /// Registers `t` with interval `r` as an integer of `width` bits.
    pub(crate) fn int_val(&mut self, t: TermId, r: Range, width: u8) -> Val {
        self.int_ranges.insert(t, r);
        Val::Int { term: t, width }
    }

    /// The term and interval of operand `v` read as `ty`: an integer term whose interval fits
    /// that reading, or a concrete value as its constant. `None` for other values (the
    /// caller's concrete path decides).
    pub(crate) fn int_operand(
        &mut self,
        v: Val,
        ty: IntTy,
        line: Line,
    ) -> Result<Option<(TermId, Range)>, ExecError> {
        match v {
            Val::Int { term, width } => {
                let r = self
                    .int_range(term)
                    .ok_or_else(|| refuse(line, "an integer term without an interval".into()))?;
                let fits = if width < ty.bits {
                    // Zero above `width`: read wider, the value is the unsigned one.
                    r.0 >= 0 && r.1 < (1i128 << width)
                } else {
                    within(r, type_range(ty))
                };
                if !fits {
                    return Err(refuse(
                        line,
                        format!(
                            "integer tensor data with values in [{}, {}] ({width} bits) read as \
                             {}{}: the bits would not mean the value (declare a narrower range on \
                             the input)",
                            r.0,
                            r.1,
                            if ty.signed { "s" } else { "u" },
                            ty.bits
                        ),
                    ));
                }
                Ok(Some((term, r)))
            }
            Val::Bits(b) => {
                let v = super::step::wide_of(b, ty);
                let c = self.int_const(v, line)?;
                Ok(Some((c, (v, v))))
            }
            _ => Ok(None),
        }
    }

    fn int_const(&mut self, v: i128, line: Line) -> Result<TermId, ExecError> {
        let d = if v < 0 {
            Dyadic::new(true, v.unsigned_abs() as u64, 0)
        } else {
            Dyadic::new(false, v as u64, 0)
        };
        if v.unsigned_abs() > u128::from(u64::MAX) {
            return Err(refuse(line, "an integer constant beyond 64 bits".into()));
        }
        self.arena
            .constant(d)
            .map_err(|e| ExecError::Limit(e.to_string()))
    }

    /// The result `r` as type `ty` (`what`: the operation), or a refusal when it may wrap.
    fn int_result(
        &mut self,
        node: Node,
        r: Range,
        ty: IntTy,
        line: Line,
        what: &str,
    ) -> Result<Val, ExecError> {
        if !within(r, type_range(ty)) {
            return Err(refuse(
                line,
                format!(
                    "{what} of integer tensor data may wrap around: its values lie in [{}, {}], \
                     beyond {} (declare a narrower range on the input)",
                    r.0,
                    r.1,
                    if ty.signed {
                        format!("s{}", ty.bits)
                    } else {
                        format!("both s{0} and u{0}", ty.bits)
                    }
                ),
            ));
        }
        let t = self
            .arena
            .intern(node)
            .map_err(|e| ExecError::Limit(e.to_string()))?;
        Ok(self.int_val(t, r, ty.bits))
    }

    /// A binary integer operation with an integer term operand (`None`: none is one).
    pub(crate) fn int_sym_bin(
        &mut self,
        op: IntOp,
        ty: IntTy,
        x: Val,
        y: Val,
        line: Line,
    ) -> Result<Option<Val>, ExecError> {
        if !matches!(x, Val::Int { .. }) && !matches!(y, Val::Int { .. }) {
            return Ok(None);
        }
        // `x << k` for a concrete k is `x * 2^k`.
        let (op, y) = match (op, y) {
            (IntOp::Shl, Val::Bits(k)) if k < u64::from(ty.bits) => {
                (IntOp::MulLo, Val::Bits(1u64 << k))
            }
            _ => (op, y),
        };
        if !matches!(
            op,
            IntOp::Add | IntOp::Sub | IntOp::MulLo | IntOp::Min | IntOp::Max
        ) {
            return Err(refuse(
                line,
                format!(
                    "{op:?} on integer tensor data (only add, sub, mul.lo, shl by a constant, min \
                     and max are modelled exactly)"
                ),
            ));
        }
        // Ring operations are the same bits whether read signed or unsigned: each operand
        // needs only its value modulo 2^n, and the result one reading that holds it (a
        // later use checks its own). Min and max compare, so their type decides.
        let ring = matches!(op, IntOp::Add | IntOp::Sub | IntOp::MulLo);
        let read = if ring {
            ring_reading(x, y, ty, self)
        } else {
            ty
        };
        let (Some((a, ra)), Some((b, rb))) = (
            self.int_operand(x, read, line)?,
            self.int_operand(y, read, line)?,
        ) else {
            return Err(super::step::data_int(line));
        };
        let (node, r) = match op {
            IntOp::Add if super::fault::active(super::fault::Fault::IntAddAsSub) => (
                Node::Sub(a, b),
                (ra.0.saturating_sub(rb.1), ra.1.saturating_sub(rb.0)),
            ),
            IntOp::Add => (
                Node::Add(a, b),
                (ra.0.saturating_add(rb.0), ra.1.saturating_add(rb.1)),
            ),
            IntOp::Sub => (
                Node::Sub(a, b),
                (ra.0.saturating_sub(rb.1), ra.1.saturating_sub(rb.0)),
            ),
            IntOp::MulLo => (Node::Mul(a, b), mul_range(ra, rb)),
            IntOp::Min => (Node::Min(a, b), (ra.0.min(rb.0), ra.1.min(rb.1))),
            _ => (Node::Max(a, b), (ra.0.max(rb.0), ra.1.max(rb.1))),
        };
        let out = if ring { ring_result(r, ty) } else { ty };
        self.int_result(node, r, out, line, &format!("{op:?}"))
            .map(Some)
    }

    /// `mad.lo` / `mad.wide` with an integer term operand (`None`: none is one).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn int_sym_mad(
        &mut self,
        mode: MadMode,
        ty: IntTy,
        x: Val,
        y: Val,
        z: Val,
        line: Line,
    ) -> Result<Option<Val>, ExecError> {
        if ![x, y, z].iter().any(|v| matches!(v, Val::Int { .. })) {
            return Ok(None);
        }
        let out = match mode {
            MadMode::Lo => ty,
            MadMode::Wide => IntTy {
                bits: ty.bits * 2,
                signed: ty.signed,
            },
            MadMode::Hi => {
                return Err(refuse(line, "mad.hi on integer tensor data".into()));
            }
        };
        let (Some((a, ra)), Some((b, rb)), Some((c, rc))) = (
            self.int_operand(x, ty, line)?,
            self.int_operand(y, ty, line)?,
            self.int_operand(z, out, line)?,
        ) else {
            return Err(super::step::data_int(line));
        };
        let p = mul_range(ra, rb);
        let r = (p.0.saturating_add(rc.0), p.1.saturating_add(rc.1));
        self.int_result(Node::Fma(a, b, c), r, out, line, "mad")
            .map(Some)
    }

    /// `mul.wide` with an integer term operand (`None`: none is one).
    pub(crate) fn int_sym_mul_wide(
        &mut self,
        ty: IntTy,
        x: Val,
        y: Val,
        line: Line,
    ) -> Result<Option<Val>, ExecError> {
        if !matches!(x, Val::Int { .. }) && !matches!(y, Val::Int { .. }) {
            return Ok(None);
        }
        let (Some((a, ra)), Some((b, rb))) = (
            self.int_operand(x, ty, line)?,
            self.int_operand(y, ty, line)?,
        ) else {
            return Err(super::step::data_int(line));
        };
        let out = IntTy {
            bits: ty.bits * 2,
            signed: ty.signed,
        };
        self.int_result(Node::Mul(a, b), mul_range(ra, rb), out, line, "mul.wide")
            .map(Some)
    }

    /// An integer comparison with an integer term operand (`None`: none is one).
    pub(crate) fn int_sym_cmp(
        &mut self,
        op: CmpOp,
        ty: IntTy,
        x: Val,
        y: Val,
        line: Line,
    ) -> Result<Option<Val>, ExecError> {
        if !matches!(x, Val::Int { .. }) && !matches!(y, Val::Int { .. }) {
            return Ok(None);
        }
        let (Some((a, _)), Some((b, _))) = (
            self.int_operand(x, ty, line)?,
            self.int_operand(y, ty, line)?,
        ) else {
            return Err(super::step::data_int(line));
        };
        let t = self
            .arena
            .intern(Node::Cmp(op, a, b))
            .map_err(|e| ExecError::Limit(e.to_string()))?;
        Ok(Some(Val::Cond(t)))
    }

    /// `selp` between integers on a data-dependent condition `c`, at least one of them an
    /// integer term (`None`: neither is one).
    pub(crate) fn int_sym_select(
        &mut self,
        cond: TermId,
        bits: u8,
        x: Val,
        y: Val,
        line: Line,
    ) -> Result<Option<Val>, ExecError> {
        if !matches!(x, Val::Int { .. }) && !matches!(y, Val::Int { .. }) {
            return Ok(None);
        }
        let ty = IntTy { bits, signed: true };
        let (Some((a, ra)), Some((b, rb))) = (
            self.int_operand(x, ty, line)?,
            self.int_operand(y, ty, line)?,
        ) else {
            return Err(super::step::data_int(line));
        };
        let node = Node::Select {
            cond,
            then: a,
            else_: b,
        };
        let r = (ra.0.min(rb.0), ra.1.max(rb.1));
        self.int_result(node, r, ty, line, "selp").map(Some)
    }

    /// `cvt` from integer type `a` of an integer term: to another integer type (the value
    /// must fit it), or to a float format that holds it exactly (a real term from then on).
    pub(crate) fn int_sym_cvt(
        &mut self,
        a: IntTy,
        to: crate::lower::Ty,
        x: Val,
        line: Line,
    ) -> Result<Option<Val>, ExecError> {
        if !matches!(x, Val::Int { .. }) {
            return Ok(None);
        }
        let Some((t, r)) = self.int_operand(x, a, line)? else {
            return Err(super::step::data_int(line));
        };
        match to {
            crate::lower::Ty::Int(b) => self.int_result_term(t, r, b, line).map(Some),
            crate::lower::Ty::Float(f) => {
                // Integers up to 2^(p) in magnitude are exact in a format with p significand
                // bits: the conversion is then the identity on the value.
                let exact: i128 = 1 << f.significand_bits();
                if r.0 < -exact || r.1 > exact {
                    return Err(refuse(
                        line,
                        format!(
                            "converting integer tensor data in [{}, {}] to {f:?} may round \
                             (exact only within +-{exact})",
                            r.0, r.1
                        ),
                    ));
                }
                Ok(Some(Val::Term(t)))
            }
        }
    }

    /// The integer term `t` (interval `r`) as type `b`: refused unless every value fits.
    fn int_result_term(
        &mut self,
        t: TermId,
        r: Range,
        b: IntTy,
        line: Line,
    ) -> Result<Val, ExecError> {
        if !within(r, type_range(b)) {
            return Err(refuse(
                line,
                format!(
                    "converting integer tensor data in [{}, {}] to {}{} changes its value",
                    r.0,
                    r.1,
                    if b.signed { "s" } else { "u" },
                    b.bits
                ),
            ));
        }
        Ok(self.int_val(t, r, b.bits))
    }

    /// The effect of an integer atomic add of `val` onto `old` (both in `ty`): exact while
    /// every value fits, which also makes it independent of the order of the atomics (the
    /// sum of the contributions is the same integer in every order, and it fits).
    pub(crate) fn int_sym_atomic(
        &mut self,
        ty: IntTy,
        old: Val,
        val: Val,
        line: Line,
    ) -> Result<Option<Val>, ExecError> {
        if !matches!(old, Val::Int { .. }) && !matches!(val, Val::Int { .. }) {
            return Ok(None);
        }
        // 0 + v is v itself: the caller's zeroed output adds nothing to the term.
        if old == Val::Bits(0) {
            let read = ring_reading(val, old, ty, self);
            let Some((t, r)) = self.int_operand(val, read, line)? else {
                return Err(super::step::data_int(line));
            };
            return self
                .int_result_term(t, r, ring_result(r, ty), line)
                .map(Some);
        }
        self.int_sym_bin(IntOp::Add, ty, old, val, line)
    }
}

/// The reading of a ring operation's operands: signed unless one of them is an integer
/// term known to be non-negative and beyond the signed range (then unsigned).
fn ring_reading(x: Val, y: Val, ty: IntTy, m: &Machine) -> IntTy {
    let big = |v: Val| match v {
        Val::Int { term, .. } => m
            .int_range(term)
            .is_some_and(|r| r.0 >= 0 && r.1 > type_range(IntTy { signed: true, ..ty }).1),
        _ => false,
    };
    IntTy {
        signed: !(big(x) || big(y)),
        ..ty
    }
}

/// The type whose reading holds a ring result `r` of `ty`'s width: signed if it fits, else
/// unsigned (refused by [`Machine::int_result`] when neither does).
fn ring_result(r: Range, ty: IntTy) -> IntTy {
    let signed = IntTy { signed: true, ..ty };
    if within(r, type_range(signed)) {
        signed
    } else {
        IntTy {
            signed: false,
            ..ty
        }
    }
}

/// The interval of a product; saturated (so refused by every type) where i128 overflows.
fn mul_range(a: Range, b: Range) -> Range {
    let p = [(a.0, b.0), (a.0, b.1), (a.1, b.0), (a.1, b.1)].map(|(x, y)| x.checked_mul(y));
    if p.iter().any(Option::is_none) {
        return (i128::MIN, i128::MAX);
    }
    let p = p.map(|v| v.unwrap_or(0));
    (
        p.iter().copied().min().unwrap_or(0),
        p.iter().copied().max().unwrap_or(0),
    )
}
