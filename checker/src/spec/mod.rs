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
    /// Where the spec was read from, for messages: a file, or "reference spec" for a text
    /// embedded in a certificate.
    pub origin: String,
    /// The line of each parameter's table in the spec (0 where unknown), for messages.
    pub param_lines: Vec<usize>,
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
                "scratch" => &[],
                other => {
                    return Err(fail(
                        kind_line,
                        "kind",
                        format!(
                            "unknown kind {other:?} (expected \"tensor\", \"scalar\" or \"scratch\")"
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
                    Binding::Tensor(Tensor {
                        name,
                        dtype,
                        shape,
                        role,
                    })
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
        Ok(KernelSpec {
            ptx: base.join(raw.ptx),
            entry: raw.entry,
            grid,
            block,
            dynamic_shared: raw.dynamic_shared,
            params,
            origin: origin.to_string(),
            param_lines,
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
