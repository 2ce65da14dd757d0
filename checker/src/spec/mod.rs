//! Kernel instances: a PTX entry under a launch, with a binding for every parameter.
//!
//! The TOML format is documented in `kernels/README.md`. A spec is untrusted input: every field is
//! validated here, and each error names the file and, where TOML knows it, the line.

use crate::ptx::ScalarType;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

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
    /// Where the spec was read from, for messages: a file, or "reference spec" for a text
    /// embedded in a certificate.
    pub origin: String,
    /// The line of each parameter's table in the spec (0 where unknown), for messages.
    pub param_lines: Vec<usize>,
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

/// A spec that cannot be used: the file, the line of the key at fault where known, and why
/// (`msg` starts with the key, in the spec's own words).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}{}: {msg}", line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct SpecError {
    pub path: String,
    pub line: Option<usize>,
    pub msg: String,
}

/// 1-based line of byte offset `at` in `text`.
pub fn line_of(text: &str, at: usize) -> usize {
    1 + text
        .as_bytes()
        .iter()
        .take(at)
        .filter(|&&b| b == b'\n')
        .count()
}

/// A TOML (de)serialization error as `(line, "key: message")`: the key is read from the line
/// the error's span starts on, so the message names what the author wrote.
pub fn toml_error(text: &str, e: &toml::de::Error) -> (Option<usize>, String) {
    let msg = e.message().trim_end().to_string();
    let Some(span) = e.span() else {
        return (None, msg);
    };
    let line = line_of(text, span.start);
    let src = text.lines().nth(line - 1).unwrap_or("");
    let key = src
        .split_once('=')
        .map(|(k, _)| k.trim())
        .filter(|k| !k.is_empty() && !k.starts_with('['));
    match key {
        Some(k) => (Some(line), format!("{k}: {msg}")),
        None => (Some(line), msg),
    }
}

/// A TOML value as the spec writes it (`"two"`, `2`, `2.5`), for messages.
pub fn toml_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("{s:?}"),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => format!("{f:?}"),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Datetime(d) => d.to_string(),
        toml::Value::Array(_) => "an array".into(),
        toml::Value::Table(_) => "a table".into(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    ptx: String,
    entry: String,
    grid: Spanned<Vec<u32>>,
    block: Spanned<Vec<u32>>,
    #[serde(default)]
    dynamic_shared: u32,
    #[serde(default)]
    params: Vec<Spanned<RawParam>>,
    #[serde(default)]
    ctas: Option<Spanned<Vec<Vec<u32>>>>,
}

/// One `[[params]]` table. Not a serde-tagged enum: those buffer their fields and lose the
/// spans that locate an error; `kind` is dispatched by hand instead.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParam {
    kind: Spanned<String>,
    name: Option<Spanned<String>>,
    dtype: Option<Spanned<String>>,
    shape: Option<Spanned<Vec<u64>>>,
    role: Option<Spanned<String>>,
    value: Option<Spanned<toml::Value>>,
    /// Tensors only: fixed contents and a declared value range.
    init: Option<Spanned<RawInit>>,
    range: Option<Spanned<[i64; 2]>>,
    /// Symbolic scalars only: declared positive.
    positive: Option<Spanned<bool>>,
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
            line: None,
            msg: format!("cannot read: {e}"),
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        KernelSpec::parse_named(&text, base, &path.display().to_string())
    }

    /// Parses spec text; relative PTX paths resolve against `base`.
    pub fn parse(text: &str, base: &Path) -> Result<KernelSpec, String> {
        KernelSpec::parse_named(text, base, "spec").map_err(|e| e.to_string())
    }

    /// Parses spec text whose errors name `origin` (a file, or "reference spec" for a text
    /// embedded in a certificate); relative PTX paths resolve against `base`.
    pub fn parse_named(text: &str, base: &Path, origin: &str) -> Result<KernelSpec, SpecError> {
        let err = |at: Option<usize>, msg: String| SpecError {
            path: origin.to_string(),
            line: at,
            msg,
        };
        let at = |span: std::ops::Range<usize>| Some(line_of(text, span.start));
        let raw: RawSpec = toml::from_str(text).map_err(|e| {
            let (line, msg) = toml_error(text, &e);
            err(line, msg)
        })?;
        let dims = |what: &str, v: &Spanned<Vec<u32>>| -> Result<[u32; 3], SpecError> {
            let line = at(v.span());
            let v = v.get_ref();
            if v.is_empty() || v.len() > 3 {
                return Err(err(
                    line,
                    format!("{what}: must have 1 to 3 dimensions, found {}", v.len()),
                ));
            }
            let mut d = [1u32; 3];
            d[..v.len()].copy_from_slice(v);
            if d.contains(&0) {
                return Err(err(line, format!("{what}: {v:?} has a zero dimension")));
            }
            Ok(d)
        };
        let grid = dims("grid", &raw.grid)?;
        let block = dims("block", &raw.block)?;
        let threads = block.iter().map(|&b| u64::from(b)).product::<u64>();
        if threads > 1024 {
            return Err(err(
                at(raw.block.span()),
                format!("block: {block:?} has {threads} threads; CUDA allows at most 1024"),
            ));
        }
        if grid[1] > 65535 || grid[2] > 65535 {
            return Err(err(
                at(raw.grid.span()),
                format!("grid: {grid:?}: y and z are limited to 65535"),
            ));
        }
        let mut params = Vec::with_capacity(raw.params.len());
        let mut param_lines = Vec::with_capacity(raw.params.len());
        let mut names = std::collections::HashSet::new();
        for (i, p) in raw.params.into_iter().enumerate() {
            let table_line = at(p.span());
            let p = p.into_inner();
            // The line of a key when present, else of its table.
            let key_line = |s: Option<std::ops::Range<usize>>| s.and_then(at).or(table_line);
            let fail = |line: Option<usize>, key: &str, m: String| {
                err(line, format!("params[{i}].{key}: {m}"))
            };
            let kind = p.kind.get_ref().as_str();
            let kind_line = key_line(Some(p.kind.span()));
            // Every key this kind needs, and none it does not read.
            let needs: &[&str] = match kind {
                "tensor" => &["name", "dtype", "shape", "role"],
                "scalar" => &["dtype", "value"],
                "symbolic" => &["name", "dtype"],
                "scratch" => &[],
                other => {
                    return Err(fail(
                        kind_line,
                        "kind",
                        format!(
                            "unknown kind {other:?} (expected \"tensor\", \"scalar\", \"symbolic\" or \"scratch\")"
                        ),
                    ));
                }
            };
            let present = [
                ("name", p.name.as_ref().map(Spanned::span)),
                ("dtype", p.dtype.as_ref().map(Spanned::span)),
                ("shape", p.shape.as_ref().map(Spanned::span)),
                ("role", p.role.as_ref().map(Spanned::span)),
                ("value", p.value.as_ref().map(Spanned::span)),
            ];
            for (key, span) in &present {
                match (needs.contains(key), span) {
                    (true, None) => {
                        return Err(fail(
                            table_line,
                            key,
                            format!("missing: a {kind} parameter needs {}", needs.join(", ")),
                        ));
                    }
                    (false, Some(s)) => {
                        return Err(fail(
                            key_line(Some(s.clone())),
                            key,
                            format!("a {kind} parameter takes no {key}"),
                        ));
                    }
                    _ => {}
                }
            }
            // `init` and `range` are optional, and for tensors only; `positive` for symbolic
            // scalars only.
            for (key, span, for_kind) in [
                ("init", p.init.as_ref().map(Spanned::span), "tensor"),
                ("range", p.range.as_ref().map(Spanned::span), "tensor"),
                (
                    "positive",
                    p.positive.as_ref().map(Spanned::span),
                    "symbolic",
                ),
            ] {
                if let Some(s) = span
                    && kind != for_kind
                {
                    return Err(fail(
                        key_line(Some(s)),
                        key,
                        format!("a {kind} parameter takes no {key}"),
                    ));
                }
            }
            let positive = p.positive.as_ref().is_some_and(|b| *b.get_ref());
            let dtype_line = key_line(p.dtype.as_ref().map(Spanned::span));
            let init_line = key_line(p.init.as_ref().map(Spanned::span));
            let range_line = key_line(p.range.as_ref().map(Spanned::span));
            let (init, range) = (
                p.init.map(Spanned::into_inner),
                p.range.map(Spanned::into_inner),
            );
            let dtype = match &p.dtype {
                Some(d) => Some(
                    data_type(d.get_ref())
                        .map_err(|m| fail(key_line(Some(d.span())), "dtype", m))?,
                ),
                None => None,
            };
            params.push(match (kind, dtype, p.name, p.shape, p.role, p.value) {
                ("tensor", Some(dtype), Some(name), Some(shape), Some(role), None) => {
                    let name = name.into_inner();
                    let shape_line = key_line(Some(shape.span()));
                    let shape = shape.into_inner();
                    if shape.is_empty() || shape.contains(&0) {
                        return Err(fail(
                            shape_line,
                            "shape",
                            format!("tensor {name} has empty shape {shape:?}"),
                        ));
                    }
                    shape
                        .iter()
                        .try_fold(u64::from(dtype.size()), |acc, &d| acc.checked_mul(d))
                        .filter(|&b| b <= MAX_TENSOR_BYTES)
                        .ok_or_else(|| {
                            fail(
                                shape_line,
                                "shape",
                                format!(
                                    "tensor {name} {shape:?} is larger than {MAX_TENSOR_BYTES} bytes"
                                ),
                            )
                        })?;
                    let role = match role.get_ref().as_str() {
                        "in" => Role::In,
                        "out" => Role::Out,
                        "inout" => Role::Inout,
                        other => {
                            return Err(fail(
                                key_line(Some(role.span())),
                                "role",
                                format!(
                                    "unknown role {other:?} (expected \"in\", \"out\" or \"inout\")"
                                ),
                            ));
                        }
                    };
                    if !names.insert(name.clone()) {
                        return Err(fail(
                            table_line,
                            "name",
                            format!("tensor name {name:?} is used twice"),
                        ));
                    }
                    let init = init
                        .map(|i| tensor_init(i, dtype, role, shape.iter().product()))
                        .transpose()
                        .map_err(|m| fail(init_line, "init", format!("tensor {name}: {m}")))?;
                    let range = range
                        .map(|r| tensor_range(r, dtype, role, init.is_some()))
                        .transpose()
                        .map_err(|m| fail(range_line, "range", format!("tensor {name}: {m}")))?;
                    Binding::Tensor(Tensor {
                        name,
                        dtype,
                        shape,
                        role,
                        init,
                        range,
                    })
                }
                ("symbolic", Some(dtype), Some(name), None, None, None) => {
                    let name = name.into_inner();
                    // Only the formats terms read as reals: an integer scalar steers indices
                    // and branches, which must stay concrete.
                    if !matches!(dtype, ScalarType::F32 | ScalarType::F64) {
                        return Err(fail(
                            dtype_line,
                            "dtype",
                            format!(
                                "symbolic scalar {name} has dtype {}: only f32 and f64 scalars \
                                 can be symbolic (integer scalars steer indices and branches, \
                                 which must be concrete)",
                                dtype.suffix()
                            ),
                        ));
                    }
                    if !names.insert(name.clone()) {
                        return Err(fail(
                            table_line,
                            "name",
                            format!("name {name:?} is used twice"),
                        ));
                    }
                    Binding::Symbolic {
                        name,
                        dtype,
                        positive,
                    }
                }
                ("scalar", Some(dtype), None, None, None, Some(value)) => Binding::Scalar {
                    dtype,
                    bits: scalar_bits(dtype, value.get_ref())
                        .map_err(|m| fail(key_line(Some(value.span())), "value", m))?,
                },
                ("scratch", None, None, None, None, None) => Binding::Scratch,
                // The key checks above leave no other shape.
                _ => return Err(fail(table_line, "kind", "malformed parameter".into())),
            });
            param_lines.push(table_line.unwrap_or(0));
        }
        let ctas_line = raw.ctas.as_ref().and_then(|c| at(c.span()));
        let ctas = match raw.ctas.map(Spanned::into_inner) {
            None => None,
            Some(list) => {
                if list.is_empty() {
                    return Err(err(
                        ctas_line,
                        "ctas is empty: name at least one CTA, or leave ctas out to execute the \
                         whole grid"
                            .into(),
                    ));
                }
                let mut out: Vec<[u32; 3]> = Vec::with_capacity(list.len());
                for (n, c) in list.iter().enumerate() {
                    if c.is_empty() || c.len() > 3 {
                        return Err(err(
                            ctas_line,
                            format!("ctas[{n}] {c:?} must have 1 to 3 coordinates"),
                        ));
                    }
                    let mut id = [0u32; 3];
                    id[..c.len()].copy_from_slice(c);
                    if (0..3).any(|d| id[d] >= grid[d]) {
                        return Err(err(
                            ctas_line,
                            format!("ctas[{n}] {c:?} is outside the grid {grid:?}"),
                        ));
                    }
                    if out.contains(&id) {
                        return Err(err(ctas_line, format!("ctas[{n}] {c:?} is named twice")));
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
            origin: origin.to_string(),
            param_lines,
            ctas,
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
            "unknown dtype {s:?} (expected \"f32\", \"f16\", \"bf16\", \"f64\", \"s32\", \"u32\", \"s64\", \"u64\", ...)"
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
                return Err(format!("{i} does not fit in {}", ty.suffix()));
            }
            Ok((*i as u64) & mask(size))
        }
        (U8 | U16 | U32 | U64 | B8 | B16 | B32 | B64, toml::Value::Integer(i)) => {
            if *i < 0 || (size < 64 && (*i as u64) > mask(size)) {
                return Err(format!("{i} does not fit in {}", ty.suffix()));
            }
            Ok(*i as u64)
        }
        _ => Err(format!(
            "a scalar of dtype {} cannot take the value {}",
            ty.suffix(),
            toml_text(v)
        )),
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

    /// Errors name the line of the key at fault and quote the spec's own words.
    #[test]
    fn errors_name_the_line_and_the_spec_words() {
        let e =
            |text: String| KernelSpec::parse_named(&text, Path::new("."), "k.toml").unwrap_err();
        let line = |needle: &str| 1 + GOOD.lines().position(|l| l.contains(needle)).unwrap();
        let cases = [
            (
                GOOD.replace("value = -3", "value = \"two\""),
                line("value = -3"),
                "params[1].value: a scalar of dtype s32 cannot take the value \"two\"",
            ),
            (
                GOOD.replace("value = -3", "value = 3000000000"),
                line("value = -3"),
                "params[1].value: 3000000000 does not fit in s32",
            ),
            (
                GOOD.replace("\"f32\"", "\"float\""),
                line("\"f32\""),
                "params[0].dtype: unknown dtype \"float\"",
            ),
            (
                GOOD.replace("grid = [4]", "grid = \"eight\""),
                line("grid = [4]"),
                "grid: invalid type: string \"eight\"",
            ),
            (
                GOOD.replace("grid = [4]", "grid = [0]"),
                line("grid = [4]"),
                "grid: [0] has a zero dimension",
            ),
            (
                GOOD.replace("role = \"in\"", "role = \"sideways\""),
                line("role = \"in\""),
                "params[0].role: unknown role \"sideways\"",
            ),
            (
                GOOD.replace("kind = \"scratch\"", "kind = \"scratch\"\nvalue = 1"),
                line("kind = \"scratch\"") + 1,
                "params[2].value: a scratch parameter takes no value",
            ),
            (
                GOOD.replace("value = -3", ""),
                line("dtype = \"s32\"") - 2,
                "params[1].value: missing",
            ),
        ];
        for (text, want_line, needle) in cases {
            let err = e(text);
            assert_eq!(err.line, Some(want_line), "{err}");
            let shown = err.to_string();
            assert!(
                shown.starts_with(&format!("k.toml:{want_line}: ")) && shown.contains(needle),
                "{shown:?} should mention {needle:?}"
            );
            assert!(
                !shown.contains("String(") && !shown.contains("S32"),
                "{shown}"
            );
        }
    }
}
