//! Exact dyadic rationals m·2^e: every finite float and every 64-bit integer is one, so float
//! literals are read as the exact rational they denote without a bignum dependency.

use std::cmp::Ordering;
use std::fmt;

/// `(-1)^neg · mant · 2^exp`, normalized: `mant` is odd, or zero with `exp == 0` and `!neg`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dyadic {
    neg: bool,
    mant: u64,
    exp: i32,
}

impl Dyadic {
    pub const ZERO: Dyadic = Dyadic {
        neg: false,
        mant: 0,
        exp: 0,
    };
    pub const ONE: Dyadic = Dyadic {
        neg: false,
        mant: 1,
        exp: 0,
    };

    pub fn new(neg: bool, mant: u64, exp: i32) -> Dyadic {
        if mant == 0 {
            return Dyadic::ZERO;
        }
        let tz = mant.trailing_zeros();
        Dyadic {
            neg,
            mant: mant >> tz,
            exp: exp + tz as i32,
        }
    }

    pub fn from_i64(v: i64) -> Dyadic {
        Dyadic::new(v < 0, v.unsigned_abs(), 0)
    }

    pub fn from_u64(v: u64) -> Dyadic {
        Dyadic::new(false, v, 0)
    }

    /// The exact value of a finite f32 bit pattern; `None` for ±inf and NaN.
    pub fn from_f32_bits(bits: u32) -> Option<Dyadic> {
        let neg = bits >> 31 == 1;
        let e = ((bits >> 23) & 0xff) as i32;
        let f = u64::from(bits & 0x7f_ffff);
        match e {
            0xff => None,
            0 => Some(Dyadic::new(neg, f, -149)),
            _ => Some(Dyadic::new(neg, f | 0x80_0000, e - 150)),
        }
    }

    /// The exact value of a finite f64 bit pattern; `None` for ±inf and NaN.
    pub fn from_f64_bits(bits: u64) -> Option<Dyadic> {
        let neg = bits >> 63 == 1;
        let e = ((bits >> 52) & 0x7ff) as i32;
        let f = bits & 0xf_ffff_ffff_ffff;
        match e {
            0x7ff => None,
            0 => Some(Dyadic::new(neg, f, -1074)),
            _ => Some(Dyadic::new(neg, f | 0x10_0000_0000_0000, e - 1075)),
        }
    }

    /// The exact value of a finite f16 bit pattern; `None` for ±inf and NaN.
    pub fn from_f16_bits(bits: u16) -> Option<Dyadic> {
        let neg = bits >> 15 == 1;
        let e = i32::from((bits >> 10) & 0x1f);
        let f = u64::from(bits & 0x3ff);
        match e {
            0x1f => None,
            0 => Some(Dyadic::new(neg, f, -24)),
            _ => Some(Dyadic::new(neg, f | 0x400, e - 25)),
        }
    }

    /// The exact value of a finite bf16 bit pattern (the top half of an f32).
    pub fn from_bf16_bits(bits: u16) -> Option<Dyadic> {
        Dyadic::from_f32_bits(u32::from(bits) << 16)
    }

    pub fn is_zero(self) -> bool {
        self.mant == 0
    }

    pub fn is_negative(self) -> bool {
        self.neg
    }

    /// Parts `(negative, odd mantissa, exponent)`.
    pub fn parts(self) -> (bool, u64, i32) {
        (self.neg, self.mant, self.exp)
    }

    /// Nearest f64, for reports and numeric hints only, never for decisions.
    pub fn to_f64(self) -> f64 {
        let m = self.mant as f64 * 2f64.powi(self.exp.clamp(-1100, 1100));
        if self.neg { -m } else { m }
    }

    /// The integer value when this is an integer that fits in i128.
    pub fn to_i128(self) -> Option<i128> {
        if self.exp < 0 {
            return None;
        }
        let m = i128::from(self.mant);
        let v = m.checked_mul(1i128.checked_shl(self.exp as u32)?)?;
        if v >> self.exp != m {
            return None;
        }
        Some(if self.neg { -v } else { v })
    }

    /// Compares magnitudes exactly.
    fn cmp_abs(self, other: Dyadic) -> Ordering {
        match (self.mant == 0, other.mant == 0) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        // Highest set bit position, as a power of two exponent.
        let top = |d: Dyadic| i64::from(63 - d.mant.leading_zeros() as i32) + i64::from(d.exp);
        match top(self).cmp(&top(other)) {
            Ordering::Equal => {}
            o => return o,
        }
        // Same leading exponent: align mantissas on their top bit and compare.
        let a = u128::from(self.mant) << (self.mant.leading_zeros() + 64);
        let b = u128::from(other.mant) << (other.mant.leading_zeros() + 64);
        a.cmp(&b)
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.neg, other.neg) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_abs(*other),
            (true, true) => other.cmp_abs(*self),
        }
    }
}

impl fmt::Display for Dyadic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.neg { "-" } else { "" };
        if let Some(i) = self.to_i128() {
            return write!(f, "{i}");
        }
        if (-64..0).contains(&self.exp) && self.mant < (1 << 53) {
            // Exact decimal: m / 2^k = m·5^k / 10^k, printed when short.
            let k = (-self.exp) as u32;
            if let Some(num) = 5u128
                .checked_pow(k)
                .and_then(|p| p.checked_mul(u128::from(self.mant)))
            {
                let digits = num.to_string();
                let k = k as usize;
                let (int, frac) = if digits.len() > k {
                    digits.split_at(digits.len() - k)
                } else {
                    ("0", "")
                };
                let frac = if digits.len() > k {
                    frac.to_string()
                } else {
                    format!("{}{}", "0".repeat(k - digits.len()), digits)
                };
                if frac.len() <= 24 {
                    return write!(f, "{sign}{int}.{frac}");
                }
            }
        }
        write!(f, "{sign}{}*2^{}", self.mant, self.exp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_literals_are_exact() {
        let one = Dyadic::from_f32_bits(0x3f80_0000).unwrap();
        assert_eq!(one, Dyadic::ONE);
        let half = Dyadic::from_f32_bits(0x3f00_0000).unwrap();
        assert_eq!(half.to_string(), "0.5");
        // 0f3FB8AA3B is the f32 nearest log2(e): an exact dyadic, not log2(e).
        let l2e = Dyadic::from_f32_bits(0x3fb8_aa3b).unwrap();
        assert_eq!(l2e.parts(), (false, 0xb8_aa3b, -23));
        assert!(Dyadic::from_f32_bits(0xff80_0000).is_none());
        assert_eq!(
            Dyadic::from_f64_bits(1.5f64.to_bits()).unwrap().to_f64(),
            1.5
        );
        assert_eq!(Dyadic::from_f32_bits(1).unwrap().parts(), (false, 1, -149));
        assert_eq!(Dyadic::from_f16_bits(0x3c00), Some(Dyadic::ONE));
    }

    #[test]
    fn ordering_is_exact() {
        let a = Dyadic::from_f32_bits(1.0000001f32.to_bits()).unwrap();
        let b = Dyadic::ONE;
        assert!(a > b);
        assert!(Dyadic::from_i64(-3) < Dyadic::from_i64(-2));
        assert!(Dyadic::from_i64(-3) < Dyadic::ZERO);
        assert!(Dyadic::from_u64(u64::MAX) > Dyadic::from_i64(i64::MAX));
        assert_eq!(Dyadic::from_i64(-0), Dyadic::ZERO);
    }
}
