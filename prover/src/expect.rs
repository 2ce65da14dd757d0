//! Expected verdicts of corpus instances (`X.expect.toml`, documented in kernels/README.md), and
//! the operator each instance computes, for tests and the corpus report.

use crate::reference;
use kcert_checker::exec::{FindingKind, Inputs, Outcome};
use kcert_checker::instance::{Error, ErrorClass};
use kcert_checker::spec::KernelSpec;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The operator an instance computes, in plain math.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Reference {
    BlockSum {
        input: String,
        output: String,
        chunk: u64,
    },
    /// `output[c] = sum over r of input[r][c]` for a `rows` x `cols` input.
    ColumnSum {
        input: String,
        output: String,
        rows: u64,
        cols: u64,
    },
    Matmul {
        a: String,
        b: String,
        c: String,
        m: u64,
        n: u64,
        k: u64,
        /// A ReLU epilogue: `c = max(a b, 0)`.
        #[serde(default)]
        relu: bool,
    },
    Relu {
        input: String,
        output: String,
        /// The kernel writes only the first `written` elements (a partial or empty footprint).
        #[serde(default)]
        written: Option<u64>,
    },
    WarpSum {
        input: String,
        output: String,
    },
    TotalSum {
        input: String,
        output: String,
    },
    Copy {
        input: String,
        output: String,
        /// The kernel writes only the first `written` elements (a partial or empty footprint).
        #[serde(default)]
        written: Option<u64>,
    },
    Transpose {
        input: String,
        output: String,
        rows: u64,
        cols: u64,
    },
    Vadd {
        x: String,
        y: String,
        output: String,
    },
    /// `output[i] = alpha * x[i] + y[i]`.
    Axpy {
        x: String,
        y: String,
        output: String,
        alpha: f64,
    },
    /// `output[r] = sum over c of a[r][c] * x[c]` for a `rows` x `cols` matrix `a`.
    Matvec {
        a: String,
        x: String,
        output: String,
        rows: u64,
        cols: u64,
    },
    /// `output[r] = sum over c of input[r][c]` for a `rows` x `cols` input.
    RowSum {
        input: String,
        output: String,
        rows: u64,
        cols: u64,
    },
    /// `output[r][c] = input[r][c] + bias[c]` for a `rows` x `cols` input.
    BiasAdd {
        input: String,
        bias: String,
        output: String,
        rows: u64,
        cols: u64,
    },
    /// Row-wise softmax of `scale * input` (`scale`: a symbolic scalar's name; none: 1).
    Softmax {
        input: String,
        output: String,
        rows: u64,
        cols: u64,
        #[serde(default)]
        scale: Option<String>,
    },
    Layernorm {
        input: String,
        gamma: String,
        beta: String,
        output: String,
        rows: u64,
        cols: u64,
        eps: Number,
    },
    /// `c = alpha a b + beta c` with `c` inout (its initial value read); `alpha` and `beta`
    /// name symbolic scalars of the spec.
    Gemm {
        a: String,
        b: String,
        c: String,
        m: u64,
        n: u64,
        k: u64,
        alpha: String,
        beta: String,
    },
    Rmsnorm {
        input: String,
        gamma: String,
        output: String,
        rows: u64,
        cols: u64,
        eps: f64,
    },
    Attention {
        q: String,
        k: String,
        v: String,
        output: String,
        tq: u64,
        tk: u64,
        d: u64,
        scale: f64,
        #[serde(default)]
        causal: bool,
    },
    Conv2d {
        input: String,
        weight: String,
        output: String,
        cin: u64,
        cout: u64,
        h: u64,
        w: u64,
        kh: u64,
        kw: u64,
    },
    MlaDecode {
        q: String,
        c: String,
        w_uk: String,
        w_uv: String,
        output: String,
        heads: u64,
        t: u64,
        dc: u64,
        dh: u64,
        dv: u64,
        scale: f64,
    },
    Gelu {
        input: String,
        output: String,
        #[serde(default)]
        approximate: GeluApprox,
    },
    /// `x * clamp(x / 6 + 1/2, 0, 1)` elementwise (hard swish).
    Hardswish {
        input: String,
        output: String,
        #[serde(default)]
        sixth: Sixth,
    },
    /// `2^(scale * clamp(x, 0, 1) + shift)` elementwise (the power of two of libdevice expf's
    /// range reduction, kernels/adversarial/idioms).
    Exp2 {
        input: String,
        output: String,
        scale: f64,
        shift: f64,
    },
}

/// Which `1/6` a hard swish scales by: the exact one (`relu6(x + 3) / 6`) or the f32 literal
/// `0f3E2AAAAB` that `x * (1.0f / 6.0f)` compiles to (a different real function).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sixth {
    #[default]
    Exact,
    F32,
}

/// Which GELU: `none` (exact, with erf) or `tanh` (the tanh approximation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GeluApprox {
    #[default]
    None,
    Tanh,
}

/// A constant of the operator, or the name of a symbolic scalar of the spec that holds it.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Number {
    Value(f64),
    Symbolic(String),
}

/// An `X.expect.toml` file.
#[derive(Debug, Clone, Deserialize)]
pub struct Expect {
    /// `safe`, `unsupported`, `invalid` (input outside PTX or the spec format, at one of
    /// `lines`), or a finding kind name (`race`, `out_of_bounds`, ...).
    pub verdict: String,
    #[serde(default)]
    pub lines: Vec<u32>,
    /// Finding kinds that may be reported beside the verdict's (a barrier bug that is both an
    /// over-full barrier and, in the executor's schedule, a deadlock).
    #[serde(default)]
    pub also: Vec<String>,
    /// The `[reference]` table: an [`Reference`] plus an optional `wrong = true` marking a
    /// kernel that deliberately does not compute it (a value-bug twin).
    reference: Option<toml::Table>,
}

impl Expect {
    pub fn load(path: &Path) -> Result<Expect, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The documented operator, if any.
    pub fn reference(&self) -> Result<Option<Reference>, String> {
        self.reference
            .as_ref()
            .map(|t| {
                let mut t = t.clone();
                t.remove("wrong");
                Reference::deserialize(t).map_err(|e| format!("[reference]: {e}"))
            })
            .transpose()
    }

    /// Whether the kernel deliberately computes something else than its `[reference]`.
    pub fn wrong(&self) -> bool {
        self.reference
            .as_ref()
            .and_then(|t| t.get("wrong"))
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
    }

    /// Checks an analysis result against the expectation; `Err` says what differs.
    ///
    /// A finding verdict needs every finding to be of that kind and at least one of them to
    /// name an expected line; race findings must name only expected lines (both accesses).
    pub fn matches(&self, result: &Result<Outcome, Error>) -> Result<(), String> {
        match (self.verdict.as_str(), result) {
            ("safe", Ok(o)) if o.is_safe() => Ok(()),
            ("safe", Ok(o)) => Err(format!(
                "expected safe, got {} findings: {}",
                o.findings.len(),
                first(o)
            )),
            ("unsupported", Err(e)) if e.class() == ErrorClass::Unsupported => {
                self.error_at_lines("unsupported", e)
            }
            ("invalid", Err(e)) if e.class() == ErrorClass::InvalidInput => {
                self.error_at_lines("invalid", e)
            }
            ("resource_limit", Err(e)) if e.class() == ErrorClass::ResourceLimit => Ok(()),
            (v, Err(e)) => Err(format!("expected {v}, got error: {e}")),
            (v, Ok(o)) => {
                let kind = kind_named(v).ok_or_else(|| format!("unknown verdict {v:?}"))?;
                if o.findings.is_empty() {
                    return Err(format!("expected {v}, got no finding"));
                }
                let also = self
                    .also
                    .iter()
                    .map(|a| kind_named(a).ok_or_else(|| format!("unknown kind {a:?} in also")))
                    .collect::<Result<Vec<_>, _>>()?;
                if let Some(f) = o
                    .findings
                    .iter()
                    .find(|f| f.kind != kind && !also.contains(&f.kind))
                {
                    return Err(format!("expected only {v} findings, got {f}"));
                }
                let named = |f: &kcert_checker::exec::Finding| {
                    f.kind == kind && f.lines().iter().any(|l| self.lines.contains(l))
                };
                if !o.findings.iter().any(named) {
                    return Err(format!(
                        "no {v} finding names a line of {:?}: {}",
                        self.lines,
                        first(o)
                    ));
                }
                // Every race names expected lines; the findings `also` admits name their own.
                if kind == FindingKind::DataRace {
                    for f in o.findings.iter().filter(|f| f.kind == kind) {
                        if !f.lines().iter().all(|l| self.lines.contains(l)) {
                            return Err(format!(
                                "race finding names a line outside {:?}: {f}",
                                self.lines
                            ));
                        }
                    }
                }
                Ok(())
            }
        }
    }
}

impl Expect {
    /// Whether an error of the expected class names one of the expected lines.
    fn error_at_lines(&self, verdict: &str, e: &Error) -> Result<(), String> {
        let msg = e.to_string();
        if self
            .lines
            .iter()
            .any(|l| msg.contains(&format!("line {l}:")))
        {
            Ok(())
        } else {
            Err(format!(
                "{verdict}, but not at lines {:?}: {msg}",
                self.lines
            ))
        }
    }
}

/// An `OPT-vs-REF.pair.expect.toml` file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairExpect {
    /// `equivalent`, `not_equivalent`, the safety finding that refutes first, or `invalid`:
    /// the pair (or a kernel) is refused as invalid input, exit 3 (e.g. a link that names a
    /// tensor twice); then `invalid` holds a fragment of the expected message.
    pub verdict: String,
    /// A `not_equivalent` pair of two correct kernels of two variants of one operator (the
    /// instances' `[reference]` tables differ, e.g. `approximate = "none"` / `"tanh"`) that are
    /// close to each other: its refutation must be certified by interval evaluation, since no
    /// "far beyond rounding" threshold separates them (kernels/README.md, "Pairs").
    #[serde(default)]
    pub different_operators: bool,
    /// With `verdict = "invalid"`: text the refusal's message must contain.
    #[serde(default)]
    pub invalid: Option<String>,
    /// With `verdict = "equivalent"`: the proof names fp-nondeterministic writes (unordered
    /// writes equal over the reals whose bits may differ); without it, it must name none.
    #[serde(default)]
    pub fp_nondeterministic: bool,
}

impl PairExpect {
    /// The verdict as [`crate::corpus::verdict_name`] spells it.
    pub fn expected(&self) -> String {
        if self.fp_nondeterministic {
            format!("{}+fp_nondeterministic", self.verdict)
        } else {
            self.verdict.clone()
        }
    }

    pub fn load(path: &Path) -> Result<PairExpect, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        PairExpect::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn parse(text: &str) -> Result<PairExpect, String> {
        let e: PairExpect = toml::from_str(text).map_err(|e| e.to_string())?;
        if e.fp_nondeterministic && e.verdict != "equivalent" {
            return Err(
                "fp_nondeterministic = true goes with verdict = \"equivalent\" only".into(),
            );
        }
        if e.invalid.is_some() != (e.verdict == "invalid") {
            return Err(
                "`invalid = \"...\"` (the expected message) goes with verdict = \"invalid\" only"
                    .into(),
            );
        }
        Ok(e)
    }

    /// Checks a refusal of the pair as invalid input (`kcert prove`'s exit 3) against the
    /// expectation; `Err` says what differs.
    pub fn matches_invalid(&self, message: &str) -> Result<(), String> {
        match &self.invalid {
            Some(want) if message.contains(want.as_str()) => Ok(()),
            Some(want) => Err(format!("refused, but without {want:?}: {message}")),
            None => Err(format!(
                "expected {}, got invalid input: {message}",
                self.verdict
            )),
        }
    }
}

fn first(o: &Outcome) -> String {
    o.findings
        .first()
        .map(|f| f.to_string())
        .unwrap_or_default()
}

/// The finding kind with this expectation name.
pub fn kind_named(name: &str) -> Option<FindingKind> {
    FindingKind::ALL.into_iter().find(|k| k.name() == name)
}

/// Expected outputs of `r` on concrete `inputs`: parameter index -> element values.
pub fn evaluate(
    r: &Reference,
    spec: &KernelSpec,
    inputs: &Inputs,
) -> Result<BTreeMap<usize, Vec<f64>>, String> {
    let tensor = |name: &str| -> Result<(usize, Vec<f64>), String> {
        let (i, t) = spec
            .tensor_by_name(name)
            .ok_or_else(|| format!("no tensor {name}"))?;
        let data = inputs.get(&i).map(|d| {
            d.iter()
                .map(|&b| crate::inputs::decode(b, t.dtype))
                .collect()
        });
        Ok((i, data.unwrap_or_default()))
    };
    let out_index = |name: &str| {
        spec.tensor_by_name(name)
            .map(|(i, _)| i)
            .ok_or_else(|| format!("no tensor {name}"))
    };
    let out_len = |name: &str| {
        spec.tensor_by_name(name)
            .map(|(_, t)| t.elements() as usize)
            .unwrap_or(0)
    };
    // The value a symbolic scalar holds in `inputs`.
    let symbolic = |name: &str| -> Result<f64, String> {
        let i = spec
            .symbolic_by_name(name)
            .ok_or_else(|| format!("no symbolic scalar {name}"))?;
        let dtype = spec.leaf_input(i).map(|l| l.0).ok_or("not a scalar")?;
        let bits = inputs
            .get(&i)
            .and_then(|d| d.first())
            .ok_or_else(|| format!("no value for {name}"))?;
        Ok(crate::inputs::decode(*bits, dtype))
    };
    let number = |n: &Number| match n {
        Number::Value(v) => Ok(*v),
        Number::Symbolic(name) => symbolic(name),
    };
    let mut res = BTreeMap::new();
    match r {
        Reference::Gemm {
            a,
            b,
            c,
            m,
            n,
            k,
            alpha,
            beta,
        } => {
            let (_, av) = tensor(a)?;
            let (_, bv) = tensor(b)?;
            let (_, cv) = tensor(c)?;
            let (alpha, beta) = (symbolic(alpha)?, symbolic(beta)?);
            let ab = reference::matmul(&av, &bv, *m as usize, *n as usize, *k as usize);
            if cv.len() != ab.len() {
                return Err(format!("{c} holds {} elements, not m x n", cv.len()));
            }
            res.insert(
                out_index(c)?,
                ab.iter()
                    .zip(&cv)
                    .map(|(p, q)| alpha * p + beta * q)
                    .collect(),
            );
        }
        Reference::BlockSum {
            input,
            output,
            chunk,
        } => {
            let (_, x) = tensor(input)?;
            let blocks = out_len(output);
            if x.len() < blocks * *chunk as usize {
                return Err(format!(
                    "{input} is shorter than {blocks} chunks of {chunk}"
                ));
            }
            res.insert(
                out_index(output)?,
                reference::block_sum(&x, *chunk as usize, blocks),
            );
        }
        Reference::ColumnSum {
            input,
            output,
            rows,
            cols,
        } => {
            let (_, x) = tensor(input)?;
            let (rows, cols) = (*rows as usize, *cols as usize);
            if x.len() < rows * cols {
                return Err(format!("{input} is shorter than {rows} x {cols}"));
            }
            let sums = (0..cols)
                .map(|c| (0..rows).map(|r| x[r * cols + c]).sum())
                .collect();
            res.insert(out_index(output)?, sums);
        }
        Reference::Matmul {
            a,
            b,
            c,
            m,
            n,
            k,
            relu,
        } => {
            let (_, av) = tensor(a)?;
            let (_, bv) = tensor(b)?;
            let mut cv = reference::matmul(&av, &bv, *m as usize, *n as usize, *k as usize);
            if *relu {
                cv.iter_mut().for_each(|v| *v = v.max(0.0));
            }
            res.insert(out_index(c)?, cv);
        }
        Reference::Relu {
            input,
            output,
            written,
        } => {
            let (_, x) = tensor(input)?;
            let n = written.map_or(x.len(), |w| w as usize);
            res.insert(
                out_index(output)?,
                x.iter().take(n).map(|v| v.max(0.0)).collect(),
            );
        }
        Reference::WarpSum { input, output } => {
            let (_, x) = tensor(input)?;
            res.insert(
                out_index(output)?,
                reference::block_sum(&x, 32, out_len(output)),
            );
        }
        Reference::TotalSum { input, output } => {
            // An inout output accumulates: out[0] = its initial value + sum(x).
            let (_, x) = tensor(input)?;
            let (_, init) = tensor(output)?;
            let start = init.first().copied().unwrap_or(0.0);
            res.insert(out_index(output)?, vec![start + x.iter().sum::<f64>()]);
        }
        Reference::Copy {
            input,
            output,
            written,
        } => {
            let (_, mut x) = tensor(input)?;
            x.truncate(written.map_or(x.len(), |w| w as usize));
            res.insert(out_index(output)?, x);
        }
        Reference::Vadd { x, y, output } => {
            let (_, a) = tensor(x)?;
            let (_, b) = tensor(y)?;
            res.insert(
                out_index(output)?,
                a.iter().zip(&b).map(|(p, q)| p + q).collect(),
            );
        }
        Reference::Axpy {
            x,
            y,
            output,
            alpha,
        } => {
            let (_, a) = tensor(x)?;
            let (_, b) = tensor(y)?;
            res.insert(
                out_index(output)?,
                a.iter().zip(&b).map(|(p, q)| alpha * p + q).collect(),
            );
        }
        Reference::Matvec {
            a,
            x,
            output,
            rows,
            cols,
        } => {
            let (_, av) = tensor(a)?;
            let (_, xv) = tensor(x)?;
            let (r, c) = (*rows as usize, *cols as usize);
            if av.len() < r * c || xv.len() < c {
                return Err(format!("{a} / {x} are shorter than {r} x {c} / {c}"));
            }
            res.insert(out_index(output)?, reference::matmul(&av, &xv, r, 1, c));
        }
        Reference::RowSum {
            input,
            output,
            rows,
            cols,
        } => {
            let (_, x) = tensor(input)?;
            let (r, c) = (*rows as usize, *cols as usize);
            if x.len() < r * c {
                return Err(format!("{input} is shorter than {r} x {c}"));
            }
            res.insert(out_index(output)?, reference::block_sum(&x, c, r));
        }
        Reference::BiasAdd {
            input,
            bias,
            output,
            rows,
            cols,
        } => {
            let (_, x) = tensor(input)?;
            let (_, b) = tensor(bias)?;
            let (r, c) = (*rows as usize, *cols as usize);
            if x.len() < r * c || b.len() < c {
                return Err(format!("{input} / {bias} are shorter than {r} x {c} / {c}"));
            }
            res.insert(
                out_index(output)?,
                (0..r * c).map(|i| x[i] + b[i % c]).collect(),
            );
        }
        Reference::Softmax {
            input,
            output,
            rows,
            cols,
            scale,
        } => {
            let (_, x) = tensor(input)?;
            let s = scale.as_deref().map(symbolic).transpose()?.unwrap_or(1.0);
            let x: Vec<f64> = x.iter().map(|v| s * v).collect();
            let c = *cols as usize;
            let mut o = Vec::with_capacity(x.len());
            for r in 0..*rows as usize {
                let row = &x[r * c..(r + 1) * c];
                let m = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let s: f64 = row.iter().map(|v| (v - m).exp()).sum();
                o.extend(row.iter().map(|v| (v - m).exp() / s));
            }
            res.insert(out_index(output)?, o);
        }
        Reference::Layernorm {
            input,
            gamma,
            beta,
            output,
            rows,
            cols,
            eps,
        } => {
            let (_, x) = tensor(input)?;
            let (_, g) = tensor(gamma)?;
            let (_, b) = tensor(beta)?;
            res.insert(
                out_index(output)?,
                reference::layernorm(&x, &g, &b, *rows as usize, *cols as usize, number(eps)?),
            );
        }
        Reference::Rmsnorm {
            input,
            gamma,
            output,
            rows,
            cols,
            eps,
        } => {
            let (_, x) = tensor(input)?;
            let (_, g) = tensor(gamma)?;
            res.insert(
                out_index(output)?,
                reference::rmsnorm(&x, &g, *rows as usize, *cols as usize, *eps),
            );
        }
        Reference::Attention {
            q,
            k,
            v,
            output,
            tq,
            tk,
            d,
            scale,
            causal,
        } => {
            let (_, qv) = tensor(q)?;
            let (_, kv) = tensor(k)?;
            let (_, vv) = tensor(v)?;
            res.insert(
                out_index(output)?,
                reference::attention(
                    &qv,
                    &kv,
                    &vv,
                    *tq as usize,
                    *tk as usize,
                    *d as usize,
                    *scale,
                    *causal,
                ),
            );
        }
        Reference::Conv2d {
            input,
            weight,
            output,
            cin,
            cout,
            h,
            w,
            kh,
            kw,
        } => {
            let (_, x) = tensor(input)?;
            let (_, wt) = tensor(weight)?;
            let u = |v: &u64| *v as usize;
            res.insert(
                out_index(output)?,
                reference::conv2d(&x, &wt, u(cin), u(cout), u(h), u(w), u(kh), u(kw)),
            );
        }
        Reference::MlaDecode {
            q,
            c,
            w_uk,
            w_uv,
            output,
            heads,
            t,
            dc,
            dh,
            dv,
            scale,
        } => {
            let (_, qv) = tensor(q)?;
            let (_, cv) = tensor(c)?;
            let (_, uk) = tensor(w_uk)?;
            let (_, uv) = tensor(w_uv)?;
            let u = |v: &u64| *v as usize;
            res.insert(
                out_index(output)?,
                reference::mla_decode(
                    &qv,
                    &cv,
                    &uk,
                    &uv,
                    u(heads),
                    u(t),
                    u(dc),
                    u(dh),
                    u(dv),
                    *scale,
                ),
            );
        }
        Reference::Gelu {
            input,
            output,
            approximate,
        } => {
            let (_, x) = tensor(input)?;
            let tanh = *approximate == GeluApprox::Tanh;
            res.insert(
                out_index(output)?,
                x.iter().map(|&v| reference::gelu(v, tanh)).collect(),
            );
        }
        Reference::Hardswish {
            input,
            output,
            sixth,
        } => {
            let (_, x) = tensor(input)?;
            let k = match sixth {
                Sixth::Exact => 1.0 / 6.0,
                Sixth::F32 => f64::from(1.0f32 / 6.0),
            };
            res.insert(
                out_index(output)?,
                x.iter()
                    .map(|&v| v * (v * k + 0.5).clamp(0.0, 1.0))
                    .collect(),
            );
        }
        Reference::Exp2 {
            input,
            output,
            scale,
            shift,
        } => {
            let (_, x) = tensor(input)?;
            res.insert(
                out_index(output)?,
                x.iter()
                    .map(|&v| (scale * v.clamp(0.0, 1.0) + shift).exp2())
                    .collect(),
            );
        }
        Reference::Transpose {
            input,
            output,
            rows,
            cols,
        } => {
            let (_, x) = tensor(input)?;
            let (r, c) = (*rows as usize, *cols as usize);
            let mut o = vec![0.0; r * c];
            for i in 0..r {
                for j in 0..c {
                    o[j * r + i] = x[i * c + j];
                }
            }
            res.insert(out_index(output)?, o);
        }
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_can_be_expected_invalid_with_its_message() {
        let e = PairExpect::parse("verdict = \"invalid\"\ninvalid = \"linked twice\"\n").unwrap();
        assert!(
            e.matches_invalid("[[inputs]] #2: reference tensor x is linked twice")
                .is_ok()
        );
        assert!(e.matches_invalid("differ in shape").is_err());
        // The message goes with the verdict, both ways.
        assert!(PairExpect::parse("verdict = \"invalid\"\n").is_err());
        assert!(PairExpect::parse("verdict = \"equivalent\"\ninvalid = \"x\"\n").is_err());
        // Other verdicts never match a refusal.
        let e = PairExpect::parse("verdict = \"equivalent\"\n").unwrap();
        assert!(e.matches_invalid("linked twice").is_err());
    }

    #[test]
    fn an_instance_can_be_expected_invalid_at_a_line() {
        use kcert_checker::exec::ExecError;
        let e: Expect = toml::from_str("verdict = \"invalid\"\nlines = [44]\n").unwrap();
        let at = |line: u32| Error::Exec {
            path: "k.ptx".into(),
            err: ExecError::Invalid {
                line,
                msg: "barrier count".into(),
            },
        };
        assert!(e.matches(&Err(at(44))).is_ok());
        assert!(e.matches(&Err(at(45))).is_err());
        let unsupported = Error::Exec {
            path: "k.ptx".into(),
            err: ExecError::Unsupported {
                line: 44,
                what: "x".into(),
            },
        };
        assert!(e.matches(&Err(unsupported)).is_err());
    }
}
