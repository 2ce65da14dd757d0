//! Exact coefficients of normal forms: dyadic rationals `m · 2^e` with a 127-bit mantissa.
//! Every float literal and integer is one, and sums and products of them stay dyadic. A result
//! that does not fit is an error, never a rounded value.

use crate::term::Dyadic;
use std::cmp::Ordering;

/// `mant · 2^exp`, normalized: `mant` odd, or zero with `exp == 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Coef {
    mant: i128,
    exp: i32,
}

/// A coefficient outgrew 127 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a coefficient needs more than 127 bits")]
pub struct Overflow;

impl Coef {
    pub const ZERO: Coef = Coef { mant: 0, exp: 0 };
    pub const ONE: Coef = Coef { mant: 1, exp: 0 };

    fn norm(mant: i128, exp: i32) -> Coef {
        if mant == 0 {
            return Coef::ZERO;
        }
        let tz = mant.trailing_zeros();
        Coef {
            mant: mant >> tz,
            exp: exp + tz as i32,
        }
    }

    pub fn from_dyadic(d: Dyadic) -> Coef {
        let (neg, m, e) = d.parts();
        let m = i128::from(m);
        Coef::norm(if neg { -m } else { m }, e)
    }

    pub fn is_zero(self) -> bool {
        self.mant == 0
    }

    pub fn negated(self) -> Coef {
        Coef {
            mant: -self.mant,
            exp: self.exp,
        }
    }

    pub fn checked_mul(self, o: Coef) -> Result<Coef, Overflow> {
        let m = self.mant.checked_mul(o.mant).ok_or(Overflow)?;
        let e = self.exp.checked_add(o.exp).ok_or(Overflow)?;
        Ok(Coef::norm(m, e))
    }

    pub fn checked_add(self, o: Coef) -> Result<Coef, Overflow> {
        if self.is_zero() {
            return Ok(o);
        }
        if o.is_zero() {
            return Ok(self);
        }
        let (lo, hi) = if self.exp <= o.exp {
            (self, o)
        } else {
            (o, self)
        };
        let shift = u32::try_from(hi.exp - lo.exp).map_err(|_| Overflow)?;
        let scaled = if shift >= 127 {
            return Err(Overflow);
        } else {
            let s = hi.mant.checked_mul(1i128 << shift).ok_or(Overflow)?;
            if s >> shift != hi.mant {
                return Err(Overflow);
            }
            s
        };
        Ok(Coef::norm(
            lo.mant.checked_add(scaled).ok_or(Overflow)?,
            lo.exp,
        ))
    }

    /// Parts `(mantissa, exponent)`.
    pub fn parts(self) -> (i128, i32) {
        (self.mant, self.exp)
    }

    /// Nearest f64, for reports only.
    pub fn to_f64(self) -> f64 {
        self.mant as f64 * 2f64.powi(self.exp.clamp(-1100, 1100))
    }
}

impl PartialOrd for Coef {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Coef {
    /// A total order for canonical sorting (not the numeric order).
    fn cmp(&self, other: &Self) -> Ordering {
        (self.exp, self.mant).cmp(&(other.exp, other.mant))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_exact() {
        let half = Coef::from_dyadic(Dyadic::from_f32_bits(0x3f00_0000).unwrap());
        let one = half.checked_add(half).unwrap();
        assert_eq!(one, Coef::ONE);
        let third_ish = Coef::from_dyadic(Dyadic::from_f32_bits(0x3eaa_aaab).unwrap());
        let sum = third_ish
            .checked_add(third_ish)
            .unwrap()
            .checked_add(third_ish)
            .unwrap();
        assert_ne!(sum, Coef::ONE, "0.33333334f * 3 is not 1 over the reals");
        assert_eq!(
            Coef::ONE.checked_add(Coef::ONE.negated()).unwrap(),
            Coef::ZERO
        );
        let tiny = Coef::from_dyadic(Dyadic::from_f32_bits(1).unwrap());
        assert_eq!(
            Coef::ONE.checked_add(tiny),
            Err(Overflow),
            "2^-149 + 1 needs 150 bits"
        );
    }
}
