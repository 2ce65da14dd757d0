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
//! are `m << 23` (the high bits fall off), the normal float `2^(m - 127) = 2^(j - 12583039)`. The
//! real reading of `shl.b32 bits(j), 23` is therefore `2^(j - 12583039)`, with `j` the real
//! value of its term; then `y = 2^r 2^k = 2^(x (0f3FB8AA3B + 0f32A57060))` exactly, whatever
//! rounding did to `j`. Exact literals make this a different real function from `__expf`'s
//! `2^(x 0f3FB8AA3B)`: `expf` kernels are equivalent to `expf` kernels.

use super::Machine;
use super::step::data_int;
use crate::exec::ExecError;
use crate::ptx::Line;
use crate::term::{Dyadic, Fmt, Func, Node, Rnd, RoundMode, TermId};

/// `2^23 + 2^22 + 1`, the addend that makes `fma.rm` round to an integer.
const MAGIC: i64 = 12_582_913;
/// `2^23 + 2^22 + 127`: the float bits of `MAGIC - 1` plus the exponent bias.
const BIAS: i64 = 12_583_039;
/// The largest multiplier that keeps the exponent field normal (at most 254).
const MAX_SCALE: i64 = 253;

impl Machine<'_> {
    /// The real value of `shl.b32 bits(j), 23` when `j` is libdevice's rounded exponent (see
    /// the module docs); any other term is data used as an integer.
    pub(super) fn exp2_of_rounded_exponent(
        &mut self,
        j: TermId,
        line: Line,
    ) -> Result<TermId, ExecError> {
        let konst = |m: &Self, t: TermId| match *m.arena.node(t) {
            Node::Const(c) => Some(m.arena.const_value(c)),
            _ => None,
        };
        // `j` is `fma.rm`'s result: rounded down, as the reading needs (the integer grid).
        let Node::Round(
            Rnd {
                fmt: Fmt::F32,
                mode: RoundMode::Rm,
                ..
            },
            fma,
        ) = *self.arena.node(j)
        else {
            return Err(data_int(line));
        };
        let Node::Fma(p, q, add) = *self.arena.node(fma) else {
            return Err(data_int(line));
        };
        // The product is `t * c` in nvcc's order; `c * t` is the same number.
        let (t, c) = if konst(self, q).is_some() {
            (p, q)
        } else {
            (q, p)
        };
        let scale_ok =
            konst(self, c).is_some_and(|c| c >= Dyadic::ZERO && c <= Dyadic::from_i64(MAX_SCALE));
        let magic_ok = konst(self, add) == Some(Dyadic::from_i64(MAGIC));
        // `t` must be `cvt.sat`'s clamp: min(max(u, 0), 1).
        let clamped = match *self.arena.node(t) {
            Node::Min(low, one) if konst(self, one) == Some(Dyadic::ONE) => {
                matches!(*self.arena.node(low), Node::Max(_, zero) if konst(self, zero) == Some(Dyadic::ZERO))
            }
            _ => false,
        };
        if !(scale_ok && magic_ok && clamped) {
            return Err(data_int(line));
        }
        let limit = |e: crate::term::ArenaFull| ExecError::Limit(e.to_string());
        let bias = self
            .arena
            .constant(Dyadic::from_i64(-BIAS))
            .map_err(limit)?;
        let k = self.arena.intern(Node::Add(j, bias)).map_err(limit)?;
        self.arena.intern(Node::Apply(Func::Ex2, k)).map_err(limit)
    }
}
