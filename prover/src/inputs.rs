//! Concrete inputs for the interpreter: seeded random tensors, or raw little-endian files.

use kcert_checker::exec::Inputs;
use kcert_checker::ptx::ScalarType;
use kcert_checker::spec::{Binding, KernelSpec, Role};
use std::collections::HashMap;
use std::path::Path;

/// SplitMix64: tiny, seedable, and good enough for test data.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [-1, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// The bit pattern of `v` as an element of `dtype`.
pub fn encode(v: f64, dtype: ScalarType) -> u64 {
    match dtype {
        ScalarType::F32 => u64::from((v as f32).to_bits()),
        ScalarType::F64 => v.to_bits(),
        ScalarType::Bf16 => u64::from((v as f32).to_bits() >> 16),
        ScalarType::F16 => u64::from(f16_bits(v as f32)),
        t => {
            let bits = t.size() * 8;
            let m = if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            (v as i64 as u64) & m
        }
    }
}

/// The value of an element bit pattern of `dtype`.
pub fn decode(bits: u64, dtype: ScalarType) -> f64 {
    match dtype {
        ScalarType::F32 => f64::from(f32::from_bits(bits as u32)),
        ScalarType::F64 => f64::from_bits(bits),
        ScalarType::Bf16 => f64::from(f32::from_bits((bits as u32) << 16)),
        ScalarType::F16 => {
            let h = bits as u16;
            let s = if h >> 15 == 1 { -1.0 } else { 1.0 };
            let e = i32::from((h >> 10) & 0x1f);
            let f = f64::from(h & 0x3ff);
            match e {
                0 => s * f * 2f64.powi(-24),
                0x1f => s * f64::INFINITY,
                _ => s * (1.0 + f / 1024.0) * 2f64.powi(e - 15),
            }
        }
        ScalarType::S8 | ScalarType::S16 | ScalarType::S32 | ScalarType::S64 => {
            let b = dtype.size() * 8;
            let sh = 64 - b;
            (((bits << sh) as i64) >> sh) as f64
        }
        _ => bits as f64,
    }
}

fn f16_bits(x: f32) -> u16 {
    // Truncating conversion is enough for generating test data in [-1, 1).
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let a = x.abs();
    if a < 6.1e-5 {
        return sign;
    }
    let e = a.log2().floor() as i32;
    let mant = ((a / 2f32.powi(e) - 1.0) * 1024.0) as u16;
    sign | (((e + 15) as u16) << 10) | (mant & 0x3ff)
}

/// A seeded integer for an element of integer tensor `t`, inside its declared range (the
/// self-check's draw range: kcert-check's interpreter runs see the same kind of values).
pub fn int_value(t: &kcert_checker::spec::Tensor, rng: &mut Rng) -> f64 {
    let (lo, hi) = kcert_checker::selfcheck::int_draw_range(t);
    let span = (hi - lo + 1) as u128;
    (lo + (u128::from(rng.next_u64()) % span) as i128) as f64
}

/// Random data for every `in`/`inout` tensor of `spec` (an `init` tensor gets its fixed
/// contents, an integer tensor integers inside its declared range), and a random value for
/// every symbolic scalar (in [-1, 1), or (0, 1] when declared positive).
pub fn random(spec: &KernelSpec, seed: u64) -> Inputs {
    let mut rng = Rng::new(seed);
    let mut out = HashMap::new();
    for (i, b) in spec.params.iter().enumerate() {
        match b {
            Binding::Tensor(t) if t.role != Role::Out => {
                let data = match t.init {
                    Some(init) => init.contents(t.elements(), t.dtype),
                    None if kcert_checker::spec::int_bounds(t.dtype).is_some() => (0..t.elements())
                        .map(|_| encode(int_value(t, &mut rng), t.dtype))
                        .collect(),
                    None => (0..t.elements())
                        .map(|_| encode(rng.unit(), t.dtype))
                        .collect(),
                };
                out.insert(i, data);
            }
            Binding::Symbolic {
                dtype, positive, ..
            } => {
                let v = rng.unit();
                let v = if *positive {
                    v.abs().max(1.0 / 64.0)
                } else {
                    v
                };
                out.insert(i, vec![encode(v, *dtype)]);
            }
            _ => {}
        }
    }
    out
}

/// The value `NAME=VALUE` gives symbolic scalar `NAME` of `spec` (for `kcert run`).
pub fn scalar_value(spec: &KernelSpec, given: &str) -> Result<(usize, u64, f64), String> {
    let (name, value) = given
        .split_once('=')
        .ok_or_else(|| format!("--scalar takes NAME=VALUE, got {given:?}"))?;
    let i = spec
        .symbolic_by_name(name)
        .ok_or_else(|| format!("the spec has no symbolic scalar named {name}"))?;
    let v: f64 = value
        .parse()
        .map_err(|_| format!("--scalar {name}: {value:?} is not a number"))?;
    let Some(Binding::Symbolic {
        dtype, positive, ..
    }) = spec.params.get(i)
    else {
        return Err(format!("{name} is not a symbolic scalar"));
    };
    if *positive && (v.is_nan() || v <= 0.0) {
        return Err(format!(
            "--scalar {name}: {v} is not positive, and the spec declares {name} positive"
        ));
    }
    Ok((i, encode(v, *dtype), v))
}

/// Reads a raw little-endian tensor file for parameter `name`.
pub fn read_tensor(
    spec: &KernelSpec,
    name: &str,
    path: &Path,
) -> Result<(usize, Vec<u64>), String> {
    let (i, t) = spec
        .tensor_by_name(name)
        .ok_or_else(|| format!("the spec has no tensor named {name}"))?;
    if let Some(init) = t.init {
        return Err(format!(
            "tensor {name} has its contents fixed by the spec (init = {}); a file cannot replace them",
            init.describe()
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let w = t.dtype.size() as usize;
    if bytes.len() as u64 != t.bytes() {
        return Err(format!(
            "{}: {} bytes, tensor {name} needs {}",
            path.display(),
            bytes.len(),
            t.bytes()
        ));
    }
    let data = bytes
        .chunks(w)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..w].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect();
    Ok((i, data))
}
