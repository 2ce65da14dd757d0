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

    /// The canonical form of `mant · 2^exp`. The exponent is checked too: a wrapped one would
    /// give two different numbers one normal form (found by the Lean model, `Kcert.Dyadic`).
    fn norm(mant: i128, exp: i32) -> Result<Coef, Overflow> {
        if mant == 0 {
            return Ok(Coef::ZERO);
        }
        let tz = mant.trailing_zeros();
        Ok(Coef {
            mant: mant >> tz,
            exp: exp.checked_add(tz as i32).ok_or(Overflow)?,
        })
    }

    pub fn from_dyadic(d: Dyadic) -> Result<Coef, Overflow> {
        let (neg, m, e) = d.parts();
        let m = i128::from(m);
        Coef::norm(if neg { -m } else { m }, e)
    }

    /// `1/c` when `c = ±2^e`, the only inverses normal forms need (`2^(P/c)`).
    pub fn inverse_of_power_of_two(self) -> Option<Coef> {
        (self.mant == 1 || self.mant == -1).then_some(())?;
        Some(Coef {
            mant: self.mant,
            exp: self.exp.checked_neg()?,
        })
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
        Coef::norm(m, e)
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
        let shift = hi
            .exp
            .checked_sub(lo.exp)
            .and_then(|d| u32::try_from(d).ok())
            .ok_or(Overflow)?;
        let scaled = if shift >= 127 {
            return Err(Overflow);
        } else {
            let s = hi.mant.checked_mul(1i128 << shift).ok_or(Overflow)?;
            if s >> shift != hi.mant {
                return Err(Overflow);
            }
            s
        };
        Coef::norm(lo.mant.checked_add(scaled).ok_or(Overflow)?, lo.exp)
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
        let half = Coef::from_dyadic(Dyadic::from_f32_bits(0x3f00_0000).unwrap()).unwrap();
        let one = half.checked_add(half).unwrap();
        assert_eq!(one, Coef::ONE);
        let third_ish = Coef::from_dyadic(Dyadic::from_f32_bits(0x3eaa_aaab).unwrap()).unwrap();
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
        let tiny = Coef::from_dyadic(Dyadic::from_f32_bits(1).unwrap()).unwrap();
        assert_eq!(
            Coef::ONE.checked_add(tiny),
            Err(Overflow),
            "2^-149 + 1 needs 150 bits"
        );
    }

    /// Exponents at the ends of `i32` overflow instead of wrapping: `2^MAX + 2^MAX` is not
    /// `2^MIN`, and `1/2^MIN` does not exist.
    #[test]
    fn exponents_never_wrap() {
        let top = Coef {
            mant: 1,
            exp: i32::MAX,
        };
        assert_eq!(top.checked_add(top), Err(Overflow));
        assert_eq!(top.checked_mul(Coef { mant: 1, exp: 1 }), Err(Overflow));
        let bottom = Coef {
            mant: -1,
            exp: i32::MIN,
        };
        assert_eq!(bottom.inverse_of_power_of_two(), None);
        assert_eq!(
            top.inverse_of_power_of_two(),
            Some(Coef {
                mant: 1,
                exp: -i32::MAX
            })
        );
        let far = Coef { mant: 1, exp: 5 }.checked_add(bottom);
        assert_eq!(far, Err(Overflow), "exponent difference beyond i32");
    }
}
