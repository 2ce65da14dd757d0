//! Kernel instances: a PTX entry under a launch, with a binding for every parameter.
//!
//! The TOML format is documented in `kernels/README.md`. A spec is untrusted input: every field is
//! validated here, and each error names the file and, where TOML knows it, the line.

use crate::ptx::ScalarType;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// What a kernel does with a tensor; `out` tensors start uninitialized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    In,
    Out,
    Inout,
}

/// A tensor parameter: the kernel receives a pointer to its first element.
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    pub name: String,
    pub dtype: ScalarType,
    pub shape: Vec<u64>,
    pub role: Role,
    /// Contents the caller puts there before the launch, fixed by the spec: such a tensor is
    /// concrete in every run (its elements may be addresses or branch conditions), and every
    /// claim holds for these contents only.
    pub init: Option<Init>,
    /// Declared bounds `[lo, hi]` on every element of an integer input: its symbolic integers
    /// are taken from this range, which is what excludes wraparound in their arithmetic.
    pub range: Option<(i64, i64)>,
}

/// Concrete contents of a tensor fixed by its spec (`init = ...`, kernels/README.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Init {
    /// Every element 0 (the caller zeroes it, e.g. an output that atomics add into).
    Zero,
    /// Element `i` holds `i` (integer tensors).
    Iota,
    /// A permutation of `0..n` shuffled by the seed (integer tensors).
    Permutation { seed: u64 },
    /// Seeded values in `[lo, hi]` (integer tensors).
    Uniform { lo: i64, hi: i64, seed: u64 },
}

/// The generator behind seeded contents (SplitMix64): part of the spec's meaning, so it is
/// fixed here and never changes for a given seed.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Init {
    /// The element bit patterns of `n` elements of `dtype`.
    pub fn contents(self, n: u64, dtype: ScalarType) -> Vec<u64> {
        let m = mask(dtype.size() * 8);
        match self {
            Init::Zero => vec![0; n as usize],
            Init::Iota => (0..n).map(|i| i & m).collect(),
            Init::Permutation { seed } => {
                let mut v: Vec<u64> = (0..n).collect();
                let mut s = seed;
                // Fisher-Yates from the top.
                for i in (1..v.len()).rev() {
                    let j = (splitmix(&mut s) % (i as u64 + 1)) as usize;
                    v.swap(i, j);
                }
                v.into_iter().map(|x| x & m).collect()
            }
            Init::Uniform { lo, hi, seed } => {
                let mut s = seed;
                let span = (i128::from(hi) - i128::from(lo) + 1) as u128;
                (0..n)
                    .map(|_| {
                        let r = u128::from(splitmix(&mut s)) % span;
                        ((i128::from(lo) + r as i128) as i64 as u64) & m
                    })
                    .collect()
            }
        }
    }

    /// How a verdict names these contents.
    pub fn describe(self) -> String {
        match self {
            Init::Zero => "zero".into(),
            Init::Iota => "iota".into(),
            Init::Permutation { seed } => format!("permutation(seed {seed})"),
            Init::Uniform { lo, hi, seed } => format!("uniform [{lo}, {hi}] (seed {seed})"),
        }
    }
}

/// The `[lo, hi]` an integer dtype holds, signed or unsigned.
pub fn int_bounds(dtype: ScalarType) -> Option<(i128, i128)> {
    use ScalarType::*;
    let bits = dtype.size() * 8;
    match dtype {
        S8 | S16 | S32 | S64 => Some((-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)),
        U8 | U16 | U32 | U64 | B8 | B16 | B32 | B64 => Some((0, (1i128 << bits) - 1)),
        _ => None,
    }
}

impl Tensor {
    pub fn elements(&self) -> u64 {
        self.shape.iter().product()
    }

    pub fn bytes(&self) -> u64 {
        self.elements() * u64::from(self.dtype.size())
    }

    /// Row-major multi-index of a flat element index, for reports.
    pub fn multi_index(&self, mut flat: u64) -> Vec<u64> {
        let mut idx = vec![0; self.shape.len()];
        for (slot, &dim) in idx.iter_mut().zip(&self.shape).rev() {
            if dim > 0 {
                *slot = flat % dim;
                flat /= dim;
            }
        }
        idx
    }
}

/// How one `.entry` parameter is bound.
#[derive(Debug, Clone, PartialEq)]
pub enum Binding {
    Tensor(Tensor),
    /// A concrete scalar, as the bit pattern the parameter holds.
    Scalar {
        dtype: ScalarType,
        bits: u64,
    },
    /// A pointer the kernel must never dereference (Triton's trailing scratch pointers).
    Scratch,
}

/// A kernel instance: everything needed to execute the entry.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelSpec {
    /// Absolute or spec-relative path of the PTX file, resolved against the spec's directory.
    pub ptx: PathBuf,
    pub entry: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared: u32,
    pub params: Vec<Binding>,
}

impl KernelSpec {
    pub fn threads_per_cta(&self) -> u32 {
        self.block.iter().product()
    }

    pub fn ctas(&self) -> u64 {
        self.grid.iter().map(|&g| u64::from(g)).product()
    }

    /// The tensors in parameter order with their parameter index.
    pub fn tensors(&self) -> impl Iterator<Item = (usize, &Tensor)> {
        self.params.iter().enumerate().filter_map(|(i, b)| match b {
            Binding::Tensor(t) => Some((i, t)),
            _ => None,
        })
    }

    pub fn tensor_by_name(&self, name: &str) -> Option<(usize, &Tensor)> {
        self.tensors().find(|(_, t)| t.name == name)
    }
}

/// A spec that cannot be used, with where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {msg}")]
pub struct SpecError {
    pub path: String,
    pub msg: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    ptx: String,
    entry: String,
    grid: Vec<u32>,
    block: Vec<u32>,
    #[serde(default)]
    dynamic_shared: u32,
    #[serde(default)]
    params: Vec<RawParam>,
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum RawParam {
    Tensor {
        name: String,
        dtype: String,
        shape: Vec<u64>,
        role: Role,
        #[serde(default)]
        init: Option<RawInit>,
        #[serde(default)]
        range: Option<[i64; 2]>,
    },
    Scalar {
        dtype: String,
        value: toml::Value,
    },
    Scratch {},
}

/// `init = "zero" | "iota" | { permutation = SEED } | { range = [LO, HI], seed = S }`.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawInit {
    Name(String),
    Permutation { permutation: u64 },
    Uniform { range: [i64; 2], seed: u64 },
}

/// Largest tensor the executor will bind, in bytes; beyond it a spec is rejected, not truncated.
pub const MAX_TENSOR_BYTES: u64 = 1 << 34;

impl KernelSpec {
    /// Reads and validates a spec file.
    pub fn load(path: &Path) -> Result<KernelSpec, SpecError> {
        let text = std::fs::read_to_string(path).map_err(|e| SpecError {
            path: path.display().to_string(),
            msg: format!("cannot read: {e}"),
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        KernelSpec::parse(&text, base).map_err(|msg| SpecError {
            path: path.display().to_string(),
            msg,
        })
    }

    /// Parses spec text; relative PTX paths resolve against `base`.
    pub fn parse(text: &str, base: &Path) -> Result<KernelSpec, String> {
        let raw: RawSpec =
            toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())?;
        let dims = |what: &str, v: &[u32]| -> Result<[u32; 3], String> {
            if v.is_empty() || v.len() > 3 {
                return Err(format!(
                    "{what} must have 1 to 3 dimensions, found {}",
                    v.len()
                ));
            }
            let mut d = [1u32; 3];
            d[..v.len()].copy_from_slice(v);
            if d.contains(&0) {
                return Err(format!("{what} {v:?} has a zero dimension"));
            }
            Ok(d)
        };
        let grid = dims("grid", &raw.grid)?;
        let block = dims("block", &raw.block)?;
        let threads = block.iter().map(|&b| u64::from(b)).product::<u64>();
        if threads > 1024 {
            return Err(format!(
                "block {block:?} has {threads} threads; CUDA allows at most 1024"
            ));
        }
        if grid[1] > 65535 || grid[2] > 65535 {
            return Err(format!("grid {grid:?}: y and z are limited to 65535"));
        }
        let mut params = Vec::with_capacity(raw.params.len());
        let mut names = std::collections::HashSet::new();
        for (i, p) in raw.params.into_iter().enumerate() {
            let at = |m: String| format!("params[{i}]: {m}");
            params.push(match p {
                RawParam::Tensor {
                    name,
                    dtype,
                    shape,
                    role,
                    init,
                    range,
                } => {
                    let dtype = data_type(&dtype).map_err(at)?;
                    if shape.is_empty() || shape.contains(&0) {
                        return Err(at(format!("tensor {name} has empty shape {shape:?}")));
                    }
                    let bytes = shape
                        .iter()
                        .try_fold(u64::from(dtype.size()), |acc, &d| acc.checked_mul(d))
                        .filter(|&b| b <= MAX_TENSOR_BYTES)
                        .ok_or_else(|| {
                            at(format!(
                                "tensor {name} {shape:?} is larger than {MAX_TENSOR_BYTES} bytes"
                            ))
                        })?;
                    let _ = bytes;
                    if !names.insert(name.clone()) {
                        return Err(at(format!("tensor name {name} is used twice")));
                    }
                    let init = init
                        .map(|i| tensor_init(i, dtype, role, shape.iter().product()))
                        .transpose()
                        .map_err(|m| at(format!("tensor {name}: {m}")))?;
                    let range = range
                        .map(|r| tensor_range(r, dtype, role, init.is_some()))
                        .transpose()
                        .map_err(|m| at(format!("tensor {name}: {m}")))?;
                    Binding::Tensor(Tensor {
                        name,
                        dtype,
                        shape,
                        role,
                        init,
                        range,
                    })
                }
                RawParam::Scalar { dtype, value } => {
                    let dtype = data_type(&dtype).map_err(at)?;
                    Binding::Scalar {
                        dtype,
                        bits: scalar_bits(dtype, &value).map_err(at)?,
                    }
                }
                RawParam::Scratch {} => Binding::Scratch,
            });
        }
        Ok(KernelSpec {
            ptx: base.join(raw.ptx),
            entry: raw.entry,
            grid,
            block,
            dynamic_shared: raw.dynamic_shared,
            params,
        })
    }
}

/// Validates an `init`: zero for any tensor, integer contents for integer `in` tensors only,
/// each value fitting the dtype.
fn tensor_init(raw: RawInit, dtype: ScalarType, role: Role, n: u64) -> Result<Init, String> {
    let init = match raw {
        RawInit::Name(s) if s == "zero" => Init::Zero,
        RawInit::Name(s) if s == "iota" => Init::Iota,
        RawInit::Name(s) => {
            return Err(format!(
                "unknown init {s:?} (expected \"zero\", \"iota\", {{ permutation = SEED }} or {{ range = [LO, HI], seed = S }})"
            ));
        }
        RawInit::Permutation { permutation } => Init::Permutation { seed: permutation },
        RawInit::Uniform {
            range: [lo, hi],
            seed,
        } => Init::Uniform { lo, hi, seed },
    };
    if init == Init::Zero {
        return Ok(init);
    }
    let Some((tlo, thi)) = int_bounds(dtype) else {
        return Err(format!(
            "init {} needs an integer dtype, not {dtype:?}",
            init.describe()
        ));
    };
    if role != Role::In {
        return Err(format!(
            "init {} is for role = \"in\" tensors (an output can start as \"zero\")",
            init.describe()
        ));
    }
    let (lo, hi) = match init {
        Init::Uniform { lo, hi, .. } => (i128::from(lo), i128::from(hi)),
        _ => (0, i128::from(n) - 1),
    };
    if lo > hi || lo < tlo || hi > thi {
        return Err(format!(
            "init {} has values outside {dtype:?} (or an empty range)",
            init.describe()
        ));
    }
    Ok(init)
}

/// Validates a `range`: integer `in` tensors without `init`, `lo <= hi`, inside the dtype.
fn tensor_range(
    [lo, hi]: [i64; 2],
    dtype: ScalarType,
    role: Role,
    has_init: bool,
) -> Result<(i64, i64), String> {
    let Some((tlo, thi)) = int_bounds(dtype) else {
        return Err(format!("range needs an integer dtype, not {dtype:?}"));
    };
    if role != Role::In || has_init {
        return Err("range is for role = \"in\" tensors without init".into());
    }
    if lo > hi || i128::from(lo) < tlo || i128::from(hi) > thi {
        return Err(format!("range [{lo}, {hi}] is empty or outside {dtype:?}"));
    }
    Ok((lo, hi))
}

fn data_type(s: &str) -> Result<ScalarType, String> {
    match ScalarType::from_suffix(s) {
        Some(t)
            if !matches!(
                t,
                ScalarType::Pred | ScalarType::B128 | ScalarType::F16x2 | ScalarType::Bf16x2
            ) =>
        {
            Ok(t)
        }
        _ => Err(format!(
            "unknown dtype {s:?} (expected f32, f16, bf16, f64, s32, u32, s64, u64, ...)"
        )),
    }
}

fn scalar_bits(ty: ScalarType, v: &toml::Value) -> Result<u64, String> {
    use ScalarType::*;
    let size = ty.size() * 8;
    match (ty, v) {
        (F32, toml::Value::Float(f)) => Ok(u64::from((*f as f32).to_bits())),
        (F32, toml::Value::Integer(i)) => Ok(u64::from((*i as f32).to_bits())),
        (F64, toml::Value::Float(f)) => Ok(f.to_bits()),
        (F64, toml::Value::Integer(i)) => Ok((*i as f64).to_bits()),
        (S8 | S16 | S32 | S64, toml::Value::Integer(i)) => {
            let lo = -(1i128 << (size - 1));
            let hi = (1i128 << (size - 1)) - 1;
            if !(lo..=hi).contains(&i128::from(*i)) {
                return Err(format!("{i} does not fit in {ty:?}"));
            }
            Ok((*i as u64) & mask(size))
        }
        (U8 | U16 | U32 | U64 | B8 | B16 | B32 | B64, toml::Value::Integer(i)) => {
            if *i < 0 || (size < 64 && (*i as u64) > mask(size)) {
                return Err(format!("{i} does not fit in {ty:?}"));
            }
            Ok(*i as u64)
        }
        _ => Err(format!("scalar of type {ty:?} cannot take the value {v:?}")),
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
ptx = "k.ptx"
entry = "k"
grid = [4]
block = [256, 1, 1]
[[params]]
kind = "tensor"
name = "x"
dtype = "f32"
shape = [1024]
role = "in"
[[params]]
kind = "scalar"
dtype = "s32"
value = -3
[[params]]
kind = "scratch"
"#;

    #[test]
    fn parses_a_good_spec() {
        let s = KernelSpec::parse(GOOD, Path::new("/k")).unwrap();
        assert_eq!(s.grid, [4, 1, 1]);
        assert_eq!(s.ptx, Path::new("/k/k.ptx"));
        assert_eq!(
            s.params[1],
            Binding::Scalar {
                dtype: ScalarType::S32,
                bits: 0xffff_fffd
            }
        );
        assert_eq!(s.params[2], Binding::Scratch);
    }

    /// One integer tensor `idx` with the given extra lines, then an f32 output.
    fn with_idx(dtype: &str, role: &str, extra: &str) -> String {
        format!(
            "ptx = \"k.ptx\"\nentry = \"k\"\ngrid = [1]\nblock = [32]\n[[params]]\nkind = \"tensor\"\n\
             name = \"idx\"\ndtype = \"{dtype}\"\nshape = [8]\nrole = \"{role}\"\n{extra}\n[[params]]\n\
             kind = \"tensor\"\nname = \"out\"\ndtype = \"f32\"\nshape = [8]\nrole = \"out\"\n"
        )
    }

    fn idx_of(text: &str) -> Tensor {
        match KernelSpec::parse(text, Path::new("."))
            .unwrap()
            .params
            .remove(0)
        {
            Binding::Tensor(t) => t,
            b => panic!("{b:?}"),
        }
    }

    #[test]
    fn init_and_range_parse_and_fix_the_contents() {
        let t = idx_of(&with_idx("s32", "in", "init = \"iota\""));
        assert_eq!(t.init, Some(Init::Iota));
        assert_eq!(
            Init::Iota.contents(8, t.dtype),
            (0..8).collect::<Vec<u64>>()
        );
        let t = idx_of(&with_idx("s32", "in", "init = { permutation = 3 }"));
        let mut p = t.init.unwrap().contents(8, t.dtype);
        assert_eq!(p, t.init.unwrap().contents(8, t.dtype), "deterministic");
        p.sort_unstable();
        assert_eq!(p, (0..8).collect::<Vec<u64>>(), "a permutation");
        let t = idx_of(&with_idx(
            "s64",
            "in",
            "init = { range = [-2, 5], seed = 1 }",
        ));
        for b in t.init.unwrap().contents(8, t.dtype) {
            assert!((-2..=5).contains(&(b as i64)), "{b}");
        }
        let t = idx_of(&with_idx("s32", "in", "range = [-10, 10]"));
        assert_eq!(t.range, Some((-10, 10)));
        let t = idx_of(&with_idx("f32", "out", "init = \"zero\""));
        assert_eq!(t.init, Some(Init::Zero));
    }

    #[test]
    fn bad_init_and_range_are_refused_with_a_reason() {
        let cases = [
            (with_idx("s32", "in", "init = \"ones\""), "unknown init"),
            (with_idx("f32", "in", "init = \"iota\""), "integer dtype"),
            (with_idx("s32", "out", "init = \"iota\""), "role"),
            (
                with_idx("u8", "in", "init = { range = [0, 300], seed = 1 }"),
                "outside",
            ),
            (
                with_idx("s32", "in", "init = { range = [5, 1], seed = 1 }"),
                "empty",
            ),
            (with_idx("f32", "in", "range = [0, 1]"), "integer dtype"),
            (with_idx("s32", "out", "range = [0, 1]"), "without init"),
            (
                with_idx("s32", "in", "init = \"iota\"\nrange = [0, 7]"),
                "without init",
            ),
            (with_idx("u32", "in", "range = [-1, 4]"), "outside"),
            (with_idx("s32", "in", "init = { seed = 1 }"), ""),
        ];
        for (text, needle) in cases {
            let e = KernelSpec::parse(&text, Path::new(".")).unwrap_err();
            assert!(e.contains(needle), "{e:?} should mention {needle:?}");
        }
    }

    #[test]
    fn rejects_bad_specs_with_a_reason() {
        let cases = [
            (GOOD.replace("[256, 1, 1]", "[2048]"), "1024"),
            (GOOD.replace("\"f32\"", "\"f31\""), "dtype"),
            (GOOD.replace("value = -3", "value = 3000000000"), "fit"),
            (GOOD.replace("[1024]", "[]"), "empty shape"),
            (GOOD.replace("grid = [4]", "grid = [0]"), "zero"),
            (
                GOOD.replace("role = \"in\"", "role = \"sideways\""),
                "sideways",
            ),
            (GOOD.replace("entry", "entri"), "entr"),
            (GOOD[..GOOD.len() / 2].to_string(), ""),
            (GOOD.replace("value = -3", "value = \"x\""), "cannot take"),
        ];
        for (text, needle) in cases {
            let e = KernelSpec::parse(&text, Path::new(".")).unwrap_err();
            assert!(e.contains(needle), "{e:?} should mention {needle:?}");
        }
    }
}
