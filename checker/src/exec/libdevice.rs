//! Bit-level idioms of nvcc's libdevice that have a real reading. Values are reals, so integer
//! operations on a float's bits are refused, except where the bits provably encode a number
//! the reals can name.
//!
//! libdevice `expf(x)` (no `-use_fast_math`) splits `x log2 e = k + r` and builds `2^k` from
//! bits:
//!
//! ```text
//! fma.rn.f32  t, x, 0f3BBB989D, 0f3F000000;   t = x log2(e) / 256 + 1/2 (any u works)
//! cvt.sat.f32.f32  t, t;                      t in [0, 1]
//! fma.rm.f32  j, t, 0f437C0000, 0f4B400001;   j = floor(252 t) + 2^23 + 2^22 + 1
//! add.f32     k, j, 0fCB40007F;               k = j - (2^23 + 2^22 + 127)
//! ...         r = x * 0f3FB8AA3B - k + x * 0f32A57060
//! mov.b32     b, j;  shl.b32 b, b, 23;  mov.b32 s, b;  ex2.approx.ftz.f32 e, r;  mul.f32 y, e, s;
//! ```
//!
//! In floats, `j = fma.rm(sat(u), c, 0x4B400001)` with `0 <= c <= 253` is an integer in
//! `[2^23 + 2^22 + 1, 2^23 + 2^22 + 1 + c]` (the spacing there is 1 and `.rm` rounds down), whose
//! bits are `0x4B400000 + m` with `m = j - (2^23 + 2^22)` in `[1, 254]`; shifted left by 23 they
//! are `m << 23` (the high bits fall off), the normal float `2^(m - 127) = 2^(j - 12583039)`.
//!
//! `j` is a floor: no real term equals it. So `j` is not a term but a [`Val::Rounded`] (a real
//! offset plus or minus `j`, tied to this one execution of the `fma.rm`), which only the range
//! reduction's arithmetic may carry: `+ - neg fma` with real operands keep it, `ex2` and the
//! `shl` turn it into a [`Val::Pow2`] (`scale * 2^(+-j)`), and the product of the `2^j` and the
//! `2^-j` of one execution is a real again, `y = 2^r 2^k = 2^(x (0f3FB8AA3B + 0f32A57060))`,
//! whatever the floor was. Any other use (a store, a comparison, a `2^j` nothing compensates,
//! a compensation by another rounding of `j`) is refused with its line. Exact literals make
//! this a different real function from `__expf`'s `2^(x 0f3FB8AA3B)`: `expf` kernels are
//! equivalent to `expf` kernels.

use super::Machine;
use super::step::data_int;
use super::value::Val;
use crate::exec::ExecError;
use crate::lower::{FloatOp, FloatUnOp};
use crate::ptx::Line;
use crate::term::{Dyadic, Func, Node, TermId};

/// `2^23 + 2^22 + 1`, the addend that makes `fma.rm` round to an integer.
const MAGIC: i64 = 12_582_913;
/// `2^23 + 2^22 + 127`: the float bits of `MAGIC - 1` plus the exponent bias.
const BIAS: i64 = 12_583_039;
/// The largest multiplier that keeps the exponent field normal (at most 254).
const MAX_SCALE: i64 = 253;

/// A rounded exponent used outside the range reduction.
pub(super) fn outside_reduction(line: Line) -> ExecError {
    ExecError::Unsupported {
        line,
        what: "libdevice expf's rounded exponent j (an fma.rm to an integer) used outside its \
               range reduction: floor has no real reading, and 2^j is a real only times the \
               2^-j of the same j"
            .into(),
    }
}

fn limit(e: crate::term::ArenaFull) -> ExecError {
    ExecError::Limit(e.to_string())
}

impl Machine<'_> {
    fn konst(&self, t: TermId) -> Option<Dyadic> {
        match *self.arena.node(t) {
            Node::Const(c) => Some(self.arena.const_value(c)),
            _ => None,
        }
    }

    /// `fma.rm.f32 j, t, c, MAGIC` with `t` a `cvt.sat` clamp and `0 <= c <= 253` (either
    /// product order): the integer `j` of libdevice expf, as a fresh [`Val::Rounded`]. `None`
    /// when the operands are not that pattern (the fma is then an ordinary real one).
    pub(super) fn rounded_exponent(
        &mut self,
        p: TermId,
        q: TermId,
        add: TermId,
    ) -> Result<Option<Val>, ExecError> {
        let (t, c) = if self.konst(q).is_some() {
            (p, q)
        } else {
            (q, p)
        };
        let scale_ok = self
            .konst(c)
            .is_some_and(|c| c >= Dyadic::ZERO && c <= Dyadic::from_i64(MAX_SCALE));
        let magic_ok = self.konst(add) == Some(Dyadic::from_i64(MAGIC));
        // `t` must be `cvt.sat`'s clamp: min(max(u, 0), 1).
        let clamped = match *self.arena.node(t) {
            Node::Min(low, one) if self.konst(one) == Some(Dyadic::ONE) => {
                matches!(*self.arena.node(low), Node::Max(_, zero) if self.konst(zero) == Some(Dyadic::ZERO))
            }
            _ => false,
        };
        if !(scale_ok && magic_ok && clamped) {
            return Ok(None);
        }
        let off = self.arena.constant(Dyadic::ZERO).map_err(limit)?;
        let id = self.rounded_count;
        self.rounded_count = id.checked_add(1).ok_or_else(|| {
            ExecError::Limit("more than 2^32 executions of libdevice expf's fma.rm".into())
        })?;
        Ok(Some(Val::Rounded {
            id,
            off,
            neg: false,
        }))
    }

    /// `shl.b32 bits(j), 23` of a bare rounded exponent `j` (offset 0, plus sign): the bits of
    /// the float `2^(j - 12583039)` (module docs). Anything else is data used as an integer.
    pub(super) fn exp2_of_rounded_exponent(
        &mut self,
        j: Val,
        line: Line,
    ) -> Result<Val, ExecError> {
        let Val::Rounded {
            id,
            off,
            neg: false,
        } = j
        else {
            return Err(match j {
                Val::Rounded { .. } | Val::Pow2 { .. } => outside_reduction(line),
                _ => data_int(line),
            });
        };
        if self.konst(off) != Some(Dyadic::ZERO) {
            return Err(outside_reduction(line));
        }
        let bias = self
            .arena
            .constant(Dyadic::from_i64(-BIAS))
            .map_err(limit)?;
        let scale = self
            .arena
            .intern(Node::Apply(Func::Ex2, bias))
            .map_err(limit)?;
        Ok(Val::Pow2 {
            id,
            scale,
            neg: false,
        })
    }

    /// A binary float operation with a rounded exponent or power of two among its operands
    /// (symbolic runs): `off +- j` plus or minus a real stays one, and `2^j` times `2^-j` of
    /// the same execution is the real product of the scales. `x`, `y`: the real operands' terms
    /// where they are reals. Everything else is refused.
    pub(super) fn reduction_bin(
        &mut self,
        op: FloatOp,
        a: Val,
        b: Val,
        real: impl Fn(&mut Self, Val) -> Result<TermId, ExecError>,
        line: Line,
    ) -> Result<Val, ExecError> {
        let mk = |m: &mut Self, n: Node| m.arena.intern(n).map_err(limit);
        if let (FloatOp::Mul, Some((s, s2))) = (op, compensated(a, b)) {
            return Ok(Val::Term(mk(self, Node::Mul(s, s2))?));
        }
        match (op, a, b) {
            (FloatOp::Add, Val::Rounded { id, off, neg }, y)
            | (FloatOp::Add, y, Val::Rounded { id, off, neg })
                if !is_reduction(y) =>
            {
                let y = real(self, y)?;
                let off = mk(self, Node::Add(off, y))?;
                Ok(Val::Rounded { id, off, neg })
            }
            (FloatOp::Sub, Val::Rounded { id, off, neg }, y) if !is_reduction(y) => {
                let y = real(self, y)?;
                let off = mk(self, Node::Sub(off, y))?;
                Ok(Val::Rounded { id, off, neg })
            }
            (FloatOp::Sub, y, Val::Rounded { id, off, neg }) if !is_reduction(y) => {
                let y = real(self, y)?;
                let off = mk(self, Node::Sub(y, off))?;
                Ok(Val::Rounded { id, off, neg: !neg })
            }
            _ => Err(outside_reduction(line)),
        }
    }

    /// `fma(a, b, off +- j)` with real `a`, `b`: `a b + off +- j`.
    pub(super) fn reduction_fma(
        &mut self,
        a: TermId,
        b: TermId,
        c: Val,
        line: Line,
    ) -> Result<Val, ExecError> {
        let Val::Rounded { id, off, neg } = c else {
            return Err(outside_reduction(line));
        };
        let off = self.arena.intern(Node::Fma(a, b, off)).map_err(limit)?;
        Ok(Val::Rounded { id, off, neg })
    }

    /// `neg` keeps a rounded exponent (both signs flip); `ex2` of `off +- j` is `2^off 2^(+-j)`.
    pub(super) fn reduction_un(
        &mut self,
        op: FloatUnOp,
        a: Val,
        line: Line,
    ) -> Result<Val, ExecError> {
        let Val::Rounded { id, off, neg } = a else {
            return Err(outside_reduction(line));
        };
        match op {
            FloatUnOp::Neg => {
                let off = self.arena.intern(Node::Neg(off)).map_err(limit)?;
                Ok(Val::Rounded { id, off, neg: !neg })
            }
            FloatUnOp::Ex2 => {
                let scale = self
                    .arena
                    .intern(Node::Apply(Func::Ex2, off))
                    .map_err(limit)?;
                Ok(Val::Pow2 { id, scale, neg })
            }
            _ => Err(outside_reduction(line)),
        }
    }
}

/// The scales of `2^j` and `2^-j` of one rounded exponent, whose product is the real
/// product of the scales; `None` for any other two values.
pub(super) fn compensated(a: Val, b: Val) -> Option<(TermId, TermId)> {
    match (a, b) {
        (
            Val::Pow2 {
                id: i,
                scale: s,
                neg: n,
            },
            Val::Pow2 {
                id: i2,
                scale: s2,
                neg: n2,
            },
        ) if i == i2 && n != n2 => Some((s, s2)),
        _ => None,
    }
}

/// Whether `v` is part of a range reduction (a rounded exponent or a power of two of one).
pub(super) fn is_reduction(v: Val) -> bool {
    matches!(v, Val::Rounded { .. } | Val::Pow2 { .. })
}
