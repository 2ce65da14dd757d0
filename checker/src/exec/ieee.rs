//! The interpreter's float arithmetic under PTX's rounding modifiers (ISA 9.7.3): `.rz`, `.rm`,
//! `.rp` and `.ftz` on f32 and f64, bit for bit. Round-to-nearest results come from the host's
//! IEEE arithmetic; a directed mode starts from that result and moves it one unit in the last
//! place when the exact value lies on the other side. Which side is decided exactly: the error
//! of each operation is itself a float (error-free transformations: `TwoSum` for sums, a fused
//! multiply-add for products, remainders for quotients and square roots), so the comparison
//! never rounds.
//!
//! The symbolic executor does not use this module: the real model abstracts rounding and
//! records it in the term ([`crate::term::Node::Round`]). Keeping the two apart is what lets
//! the interpreter stand as the reference semantics the terms are checked against.

use crate::term::RoundMode;
use std::cmp::Ordering;

/// An f32 or f64 operation whose exact result the interpreter can place against the rounded one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exact {
    Add,
    Sub,
    Mul,
    Div,
    Fma,
    Sqrt,
}

/// Flushes a subnormal f32 to a zero of the same sign (`.ftz`).
pub fn flush32(x: f32) -> f32 {
    if x.is_subnormal() {
        0f32.copysign(x)
    } else {
        x
    }
}

/// The sign of `exact - r` for the f64 operation `op` on `a`, `b`, `c`, where `r` is its
/// round-to-nearest result; `None` when no error-free transformation decides it (overflow,
/// underflow of the error term, non-finite operands).
fn side64(op: Exact, a: f64, b: f64, c: f64, r: f64) -> Option<Ordering> {
    if !(a.is_finite() && b.is_finite() && c.is_finite() && r.is_finite()) {
        return None;
    }
    let zero = |e: f64| e.partial_cmp(&0.0);
    match op {
        Exact::Add | Exact::Sub => {
            let b = if op == Exact::Sub { -b } else { b };
            // TwoSum: a + b = r + e exactly.
            let bb = r - a;
            let e = (a - (r - bb)) + (b - bb);
            zero(e)
        }
        Exact::Mul => {
            // a * b = r + e exactly while no underflow: e = fma(a, b, -r).
            let e = a.mul_add(b, -r);
            if r != 0.0 && r.abs() < f64::MIN_POSITIVE * 2f64.powi(53) {
                return None;
            }
            zero(e)
        }
        Exact::Div => {
            // a / b - r has the sign of (a - r b) / b; the remainder is exact.
            let rem = (-r).mul_add(b, a);
            if r != 0.0 && r.abs() < f64::MIN_POSITIVE * 2f64.powi(53) {
                return None;
            }
            let s = zero(rem)?;
            Some(if b < 0.0 { s.reverse() } else { s })
        }
        Exact::Sqrt => {
            let rem = (-r).mul_add(r, a);
            zero(rem)
        }
        // No error-free transformation of a fused multiply-add in f64 arithmetic alone.
        Exact::Fma => None,
    }
}

/// The f32 operation rounded as `mode` says, with `.ftz` if `ftz` (inputs and result).
/// `None` when the interpreter cannot place the exact result (it then refuses the run).
pub fn op32(op: Exact, mode: RoundMode, ftz: bool, a: f32, b: f32, c: f32) -> Option<f32> {
    let (a, b, c) = if ftz {
        (flush32(a), flush32(b), flush32(c))
    } else {
        (a, b, c)
    };
    let rn = match op {
        Exact::Add => a + b,
        Exact::Sub => a - b,
        Exact::Mul => a * b,
        Exact::Div => a / b,
        Exact::Fma => a.mul_add(b, c),
        Exact::Sqrt => a.sqrt(),
    };
    let r = match mode {
        RoundMode::Rn | RoundMode::Exact | RoundMode::Approx | RoundMode::Full => rn,
        directed => directed32(op, directed, a, b, c, rn)?,
    };
    Some(if ftz { flush32(r) } else { r })
}

/// `rn` moved to the directed rounding of the exact result.
fn directed32(op: Exact, mode: RoundMode, a: f32, b: f32, c: f32, rn: f32) -> Option<f32> {
    if rn.is_nan() || !(a.is_finite() && b.is_finite() && c.is_finite()) {
        return Some(rn);
    }
    if rn.is_infinite() {
        // Overflow of finite operands: the exact result lies beyond the largest float.
        let max = f32::MAX.copysign(rn);
        return Some(match mode {
            RoundMode::Rz => max,
            RoundMode::Rm if rn > 0.0 => max,
            RoundMode::Rp if rn < 0.0 => max,
            _ => rn,
        });
    }
    // The exact value, placed against `rn` in f64: products of two f32 are exact there, and
    // the remaining sum or remainder is decided by an error-free transformation.
    let (x, y, z, r) = (f64::from(a), f64::from(b), f64::from(c), f64::from(rn));
    let side = match op {
        Exact::Add | Exact::Sub => {
            let y = if op == Exact::Sub { -y } else { y };
            let s = x + y;
            let bb = s - x;
            let e = (x - (s - bb)) + (y - bb);
            ((s - r) + e).partial_cmp(&0.0)?
        }
        Exact::Mul => (x * y - r).partial_cmp(&0.0)?,
        Exact::Fma => {
            let p = x * y;
            let s = p + z;
            let bb = s - p;
            let e = (p - (s - bb)) + (z - bb);
            ((s - r) + e).partial_cmp(&0.0)?
        }
        Exact::Div => {
            let rem = x - r * y;
            let s = rem.partial_cmp(&0.0)?;
            if y < 0.0 { s.reverse() } else { s }
        }
        Exact::Sqrt => (x - r * r).partial_cmp(&0.0)?,
    };
    if side == Ordering::Equal {
        // An exact zero sum is -0 under .rm unless both addends are +0 (IEEE 754, 6.3).
        if rn == 0.0 && mode == RoundMode::Rm && matches!(op, Exact::Add | Exact::Sub | Exact::Fma)
        {
            let (p, q) = match op {
                Exact::Add => (a, b),
                Exact::Sub => (a, -b),
                _ => (a * b, c),
            };
            if p.is_sign_negative() || q.is_sign_negative() || p != 0.0 || q != 0.0 {
                return Some(-0.0);
            }
        }
        return Some(rn);
    }
    Some(step32(rn, mode, side))
}

/// One unit in the last place from `r` in the direction `mode` asks, given that the exact
/// result lies on `side` of `r`.
pub fn step32(r: f32, mode: RoundMode, side: Ordering) -> f32 {
    f32::from_bits(step(u64::from(r.to_bits()), 1 << 31, f64::from(r), mode, side) as u32)
}

/// The directed rounding of every format, on its bit pattern `bits` (sign bit `sign_bit`,
/// value `r`): one pattern step when the exact result lies on the `side` of `r` that `mode`
/// rounds away from. Moving a sign-magnitude pattern's magnitude by one moves the value by one
/// unit in the last place; from a zero the step is to the smallest subnormal of that sign.
fn step(bits: u64, sign_bit: u64, r: f64, mode: RoundMode, side: Ordering) -> u64 {
    let toward_zero = (r > 0.0 && side == Ordering::Less) || (r < 0.0 && side == Ordering::Greater);
    let down = side == Ordering::Less;
    let (sign, mag) = (bits & sign_bit, bits & (sign_bit - 1));
    let shrink = sign | mag.saturating_sub(1);
    let grow = sign | (mag + 1);
    match mode {
        RoundMode::Rz if toward_zero => shrink,
        RoundMode::Rm if down => {
            if r > 0.0 {
                shrink
            } else if r == 0.0 {
                sign_bit | 1
            } else {
                grow
            }
        }
        RoundMode::Rp if !down => {
            if r < 0.0 {
                shrink
            } else if r == 0.0 {
                1
            } else {
                grow
            }
        }
        _ => bits,
    }
}

/// The f64 operation rounded as `mode` says (`.ftz` does not exist on f64). `None` when the
/// exact result cannot be placed (a directed fma, or an error term that underflows).
pub fn op64(op: Exact, mode: RoundMode, a: f64, b: f64, c: f64) -> Option<f64> {
    let rn = match op {
        Exact::Add => a + b,
        Exact::Sub => a - b,
        Exact::Mul => a * b,
        Exact::Div => a / b,
        Exact::Fma => a.mul_add(b, c),
        Exact::Sqrt => a.sqrt(),
    };
    if matches!(
        mode,
        RoundMode::Rn | RoundMode::Exact | RoundMode::Approx | RoundMode::Full
    ) || rn.is_nan()
    {
        return Some(rn);
    }
    if rn.is_infinite() {
        if !(a.is_finite() && b.is_finite() && c.is_finite()) {
            return Some(rn);
        }
        let max = f64::MAX.copysign(rn);
        return Some(match mode {
            RoundMode::Rz => max,
            RoundMode::Rm if rn > 0.0 => max,
            RoundMode::Rp if rn < 0.0 => max,
            _ => rn,
        });
    }
    let side = side64(op, a, b, c, rn)?;
    if side == Ordering::Equal {
        if rn == 0.0 && mode == RoundMode::Rm && matches!(op, Exact::Add | Exact::Sub) {
            let q = if op == Exact::Sub { -b } else { b };
            if a.is_sign_negative() || q.is_sign_negative() || a != 0.0 || q != 0.0 {
                return Some(-0.0);
            }
        }
        return Some(rn);
    }
    Some(f64::from_bits(step(rn.to_bits(), 1 << 63, rn, mode, side)))
}

/// A 16-bit float pattern (f16 or bf16, `bf16` says which) rounded from `rn`, its nearest-even
/// rounding of the value `v`, as `mode` says: one pattern step when `v` lies on the other side.
pub fn directed16(
    v: f64,
    rn: u16,
    bf16: bool,
    mode: RoundMode,
    value_of: impl Fn(u16) -> f64,
) -> u16 {
    if !matches!(mode, RoundMode::Rz | RoundMode::Rm | RoundMode::Rp) || v.is_nan() {
        return rn;
    }
    let r = value_of(rn);
    let side = match v.partial_cmp(&r) {
        Some(o) => o,
        None => return rn,
    };
    if side == Ordering::Equal {
        return rn;
    }
    let exp_mask = if bf16 { 0x7f80 } else { 0x7c00 };
    let sign = rn & 0x8000;
    let mag = rn & 0x7fff;
    if mag == exp_mask {
        // Rounded to infinity from a finite value beyond the largest finite half.
        let keep_inf = match mode {
            RoundMode::Rm => sign != 0,
            RoundMode::Rp => sign == 0,
            _ => false,
        };
        return if keep_inf { rn } else { sign | (exp_mask - 1) };
    }
    step(u64::from(rn), 0x8000, r, mode, side) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directed_sums_differ_from_nearest_where_the_issue_says() {
        // a = 1, b = 3 * 2^-25: nearest gives 0x3f800001, toward zero 0x3f800000.
        let (a, b) = (1.0f32, 3.0 * 2f32.powi(-25));
        let rn = op32(Exact::Add, RoundMode::Rn, false, a, b, 0.0).unwrap();
        let rz = op32(Exact::Add, RoundMode::Rz, false, a, b, 0.0).unwrap();
        assert_eq!(rn.to_bits(), 0x3f80_0001);
        assert_eq!(rz.to_bits(), 0x3f80_0000);
        let rp = op32(Exact::Add, RoundMode::Rp, false, a, b, 0.0).unwrap();
        let rm = op32(Exact::Add, RoundMode::Rm, false, a, b, 0.0).unwrap();
        assert_eq!(rp.to_bits(), 0x3f80_0001);
        assert_eq!(rm.to_bits(), 0x3f80_0000);
        // Exact results are not moved.
        assert_eq!(
            op32(Exact::Add, RoundMode::Rz, false, 1.0, 2.0, 0.0),
            Some(3.0)
        );
        // x - x is -0 under .rm only.
        let z = op32(Exact::Sub, RoundMode::Rm, false, 1.5, 1.5, 0.0).unwrap();
        assert!(z == 0.0 && z.is_sign_negative());
        let z = op32(Exact::Sub, RoundMode::Rz, false, 1.5, 1.5, 0.0).unwrap();
        assert!(z == 0.0 && z.is_sign_positive());
    }

    #[test]
    fn directed_products_quotients_roots() {
        let third = op32(Exact::Div, RoundMode::Rn, false, 1.0, 3.0, 0.0).unwrap();
        let down = op32(Exact::Div, RoundMode::Rm, false, 1.0, 3.0, 0.0).unwrap();
        let up = op32(Exact::Div, RoundMode::Rp, false, 1.0, 3.0, 0.0).unwrap();
        assert!(f64::from(down) < 1.0 / 3.0 && 1.0 / 3.0 < f64::from(up));
        assert!(down == third || up == third);
        assert_eq!(up.to_bits() - down.to_bits(), 1);
        let neg = op32(Exact::Div, RoundMode::Rz, false, -1.0, 3.0, 0.0).unwrap();
        assert!(f64::from(neg) > -1.0 / 3.0);
        let s = op32(Exact::Sqrt, RoundMode::Rz, false, 2.0, 0.0, 0.0).unwrap();
        assert!(f64::from(s) < 2f64.sqrt());
        let p = op32(
            Exact::Mul,
            RoundMode::Rp,
            false,
            1.0 + f32::EPSILON,
            1.0 + f32::EPSILON,
            0.0,
        )
        .unwrap();
        assert!(f64::from(p) >= (1.0 + f64::from(f32::EPSILON)).powi(2));
        let f = op32(
            Exact::Fma,
            RoundMode::Rz,
            false,
            1.0,
            1.0,
            3.0 * 2f32.powi(-25),
        )
        .unwrap();
        assert_eq!(f.to_bits(), 0x3f80_0000);
        // Overflow toward zero stays finite.
        assert_eq!(
            op32(Exact::Mul, RoundMode::Rz, false, f32::MAX, 2.0, 0.0),
            Some(f32::MAX)
        );
    }

    #[test]
    fn ftz_flushes_inputs_and_results() {
        let tiny = f32::from_bits(1);
        assert_eq!(
            op32(Exact::Add, RoundMode::Rn, true, tiny, 0.0, 0.0),
            Some(0.0)
        );
        assert_eq!(
            op32(Exact::Add, RoundMode::Rn, false, tiny, 0.0, 0.0),
            Some(tiny)
        );
        let r = op32(Exact::Mul, RoundMode::Rn, true, f32::MIN_POSITIVE, 0.5, 0.0).unwrap();
        assert_eq!(r, 0.0);
    }

    #[test]
    fn f64_directed() {
        let rz = op64(Exact::Add, RoundMode::Rz, 1.0, 3.0 * 2f64.powi(-54), 0.0).unwrap();
        assert_eq!(rz, 1.0);
        let rp = op64(Exact::Add, RoundMode::Rp, 1.0, 3.0 * 2f64.powi(-54), 0.0).unwrap();
        assert_eq!(rp, 1.0 + f64::EPSILON);
        assert_eq!(op64(Exact::Fma, RoundMode::Rz, 1.0, 1.0, 1e-30), None);
        assert_eq!(op64(Exact::Fma, RoundMode::Rn, 1.0, 1.0, 1.0), Some(2.0));
    }
}
