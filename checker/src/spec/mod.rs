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
    /// A float scalar bound to no value: a real-valued leaf, so a proof holds for every value
    /// (for every positive value when `positive`). A pair links it by name (`[[scalars]]`).
    Symbolic {
        name: String,
        dtype: ScalarType,
        positive: bool,
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
    /// The CTAs to execute, when the spec names them (`ctas = [[0, 0, 0]]`): every claim is
    /// then about those CTAs only, and says so. `None`: the whole grid.
    pub ctas: Option<Vec<[u32; 3]>>,
}

impl KernelSpec {
    /// The scope of a claim about this launch, in words: "all 4096 CTAs of grid [64, 64, 1]"
    /// or "CTA (0,0,0) of grid [64, 64, 1]" (never the whole grid when `ctas` is named).
    pub fn scope(&self) -> String {
        match &self.ctas {
            None => format!("all {} CTAs of grid {:?}", self.ctas(), self.grid),
            Some(list) => {
                let ids: Vec<String> = list
                    .iter()
                    .map(|c| format!("({},{},{})", c[0], c[1], c[2]))
                    .collect();
                let noun = if list.len() == 1 { "CTA" } else { "CTAs" };
                format!(
                    "{noun} {} of grid {:?} only ({} of {} CTAs)",
                    ids.join(", "),
                    self.grid,
                    list.len(),
                    self.ctas()
                )
            }
        }
    }

    /// The symbolic scalars in parameter order with their parameter index.
    pub fn symbolics(&self) -> impl Iterator<Item = (usize, &str)> {
        self.params.iter().enumerate().filter_map(|(i, b)| match b {
            Binding::Symbolic { name, .. } => Some((i, name.as_str())),
            _ => None,
        })
    }

    pub fn symbolic_by_name(&self, name: &str) -> Option<usize> {
        self.symbolics().find(|(_, n)| *n == name).map(|(i, _)| i)
    }

    /// What parameter `p` holds as input leaves: its element type and count, for an `in` or
    /// `inout` tensor or a symbolic scalar (one element).
    pub fn leaf_input(&self, p: usize) -> Option<(ScalarType, u64)> {
        match self.params.get(p)? {
            Binding::Tensor(t) if t.role != Role::Out => Some((t.dtype, t.elements())),
            Binding::Symbolic { dtype, .. } => Some((*dtype, 1)),
            _ => None,
        }
    }

    /// The name of tensor or symbolic scalar parameter `p`, for reports.
    pub fn param_name(&self, p: usize) -> String {
        match self.params.get(p) {
            Some(Binding::Tensor(t)) => t.name.clone(),
            Some(Binding::Symbolic { name, .. }) => name.clone(),
            _ => format!("param{p}"),
        }
    }

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
    #[serde(default)]
    ctas: Option<Vec<Vec<u32>>>,
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum RawParam {
    Tensor {
        name: String,
        dtype: String,
        shape: Vec<u64>,
        role: Role,
    },
    Scalar {
        dtype: String,
        value: toml::Value,
    },
    Symbolic {
        name: String,
        dtype: String,
        #[serde(default)]
        positive: bool,
    },
    Scratch {},
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
                    Binding::Tensor(Tensor {
                        name,
                        dtype,
                        shape,
                        role,
                    })
                }
                RawParam::Scalar { dtype, value } => {
                    let dtype = data_type(&dtype).map_err(at)?;
                    Binding::Scalar {
                        dtype,
                        bits: scalar_bits(dtype, &value).map_err(at)?,
                    }
                }
                RawParam::Symbolic {
                    name,
                    dtype,
                    positive,
                } => {
                    let dtype = data_type(&dtype).map_err(at)?;
                    // Only the formats terms read as reals: an integer scalar steers indices
                    // and branches, which must stay concrete.
                    if !matches!(dtype, ScalarType::F32 | ScalarType::F64) {
                        return Err(at(format!(
                            "symbolic scalar {name} has dtype {dtype:?}: only f32 and f64 scalars \
                             can be symbolic (integer scalars steer indices and branches, which \
                             must be concrete)"
                        )));
                    }
                    if !names.insert(name.clone()) {
                        return Err(at(format!("name {name} is used twice")));
                    }
                    Binding::Symbolic {
                        name,
                        dtype,
                        positive,
                    }
                }
                RawParam::Scratch {} => Binding::Scratch,
            });
        }
        let ctas = match raw.ctas {
            None => None,
            Some(list) => {
                if list.is_empty() {
                    return Err(
                        "ctas is empty: name at least one CTA, or leave ctas out to \
                                execute the whole grid"
                            .into(),
                    );
                }
                let mut out: Vec<[u32; 3]> = Vec::with_capacity(list.len());
                for (n, c) in list.iter().enumerate() {
                    if c.is_empty() || c.len() > 3 {
                        return Err(format!("ctas[{n}] {c:?} must have 1 to 3 coordinates"));
                    }
                    let mut id = [0u32; 3];
                    id[..c.len()].copy_from_slice(c);
                    if (0..3).any(|d| id[d] >= grid[d]) {
                        return Err(format!("ctas[{n}] {c:?} is outside the grid {grid:?}"));
                    }
                    if out.contains(&id) {
                        return Err(format!("ctas[{n}] {c:?} is named twice"));
                    }
                    out.push(id);
                }
                Some(out)
            }
        };
        Ok(KernelSpec {
            ptx: base.join(raw.ptx),
            entry: raw.entry,
            grid,
            block,
            dynamic_shared: raw.dynamic_shared,
            params,
            ctas,
        })
    }
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
        assert_eq!(s.ctas, None);
        assert_eq!(s.scope(), "all 4 CTAs of grid [4, 1, 1]");
    }

    #[test]
    fn symbolic_scalars_and_named_ctas_parse() {
        let text = GOOD.replace("ptx =", "ctas = [[2]]\nptx =").replace(
            "kind = \"scalar\"\ndtype = \"s32\"\nvalue = -3",
            "kind = \"symbolic\"\nname = \"eps\"\ndtype = \"f32\"\npositive = true",
        );
        let s = KernelSpec::parse(&text, Path::new("/k")).unwrap();
        assert_eq!(
            s.params[1],
            Binding::Symbolic {
                name: "eps".into(),
                dtype: ScalarType::F32,
                positive: true
            }
        );
        assert_eq!(s.ctas, Some(vec![[2, 0, 0]]));
        assert_eq!(
            s.scope(),
            "CTA (2,0,0) of grid [4, 1, 1] only (1 of 4 CTAs)"
        );
        assert_eq!(s.symbolic_by_name("eps"), Some(1));
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
            (
                GOOD.replace("kind = \"scalar\"", "kind = \"symbolic\"\nname = \"n\"")
                    .replace("value = -3\n", ""),
                "only f32 and f64 scalars can be symbolic",
            ),
            (
                GOOD.replace("ptx =", "ctas = [[4, 0, 0]]\nptx ="),
                "ctas[0] [4, 0, 0] is outside the grid [4, 1, 1]",
            ),
            (
                GOOD.replace("ptx =", "ctas = [[0, 1]]\nptx ="),
                "outside the grid",
            ),
            (GOOD.replace("ptx =", "ctas = []\nptx ="), "ctas is empty"),
            // A launch the hardware cannot run stays invalid, whatever CTAs it names.
            (
                GOOD.replace("ptx =", "ctas = [[0, 0, 0]]\nptx =")
                    .replace("grid = [4]", "grid = [1, 70000]"),
                "y and z are limited to 65535",
            ),
            (
                GOOD.replace("ptx =", "ctas = [[1], [1, 0, 0]]\nptx ="),
                "named twice",
            ),
        ];
        for (text, needle) in cases {
            let e = KernelSpec::parse(&text, Path::new(".")).unwrap_err();
            assert!(e.contains(needle), "{e:?} should mention {needle:?}");
        }
    }
}
