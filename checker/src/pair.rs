//! Pair specs: a reference and an optimized kernel instance, which inputs are the same data,
//! and which outputs must be equal. Format documented in kernels/README.md ("Pairs").

use crate::spec::{KernelSpec, Role};
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPair {
    reference: String,
    optimized: String,
    #[serde(default)]
    inputs: Vec<RawLink>,
    outputs: Vec<RawLink>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLink {
    reference: String,
    optimized: String,
}

/// The exact texts a pair was read from; certificates embed and hash them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecTexts {
    pub pair: String,
    pub reference: String,
    pub optimized: String,
}

/// A validated pair: tensor links are parameter indices on each side.
#[derive(Debug, Clone)]
pub struct PairSpec {
    pub reference: KernelSpec,
    pub optimized: KernelSpec,
    /// `(reference param, optimized param)` of each linked input, in file order.
    pub inputs: Vec<(usize, usize)>,
    /// `(reference param, optimized param)` of each output that must be equal.
    pub outputs: Vec<(usize, usize)>,
    pub texts: SpecTexts,
}

impl PairSpec {
    /// Reads a pair file and the two instance specs it names (relative to it).
    pub fn load(path: &Path) -> Result<PairSpec, String> {
        let read = |p: &Path| {
            std::fs::read_to_string(p).map_err(|e| format!("{}: cannot read: {e}", p.display()))
        };
        let pair = read(path)?;
        let base = path.parent().unwrap_or(Path::new("."));
        let raw: RawPair = toml::from_str(&pair)
            .map_err(|e| format!("{}: {}", path.display(), e.to_string().trim_end()))?;
        let rp = base.join(&raw.reference);
        let op = base.join(&raw.optimized);
        let texts = SpecTexts {
            pair,
            reference: read(&rp)?,
            optimized: read(&op)?,
        };
        let dir = |p: &Path| {
            p.parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("."))
        };
        PairSpec::from_texts(texts, &dir(&rp), &dir(&op))
    }

    /// Builds a pair from its texts; the instance specs' relative paths resolve against the
    /// given directories.
    pub fn from_texts(
        texts: SpecTexts,
        ref_dir: &Path,
        opt_dir: &Path,
    ) -> Result<PairSpec, String> {
        let raw: RawPair = toml::from_str(&texts.pair)
            .map_err(|e| format!("pair spec: {}", e.to_string().trim_end()))?;
        let reference = KernelSpec::parse(&texts.reference, ref_dir)
            .map_err(|e| format!("reference spec: {e}"))?;
        let optimized = KernelSpec::parse(&texts.optimized, opt_dir)
            .map_err(|e| format!("optimized spec: {e}"))?;
        let link = |l: &RawLink, output: bool| -> Result<(usize, usize), String> {
            let (ri, rt) = reference
                .tensor_by_name(&l.reference)
                .ok_or_else(|| format!("reference has no tensor {}", l.reference))?;
            let (oi, ot) = optimized
                .tensor_by_name(&l.optimized)
                .ok_or_else(|| format!("optimized has no tensor {}", l.optimized))?;
            let ok_role = |r: Role| {
                if output {
                    r != Role::In
                } else {
                    r != Role::Out
                }
            };
            if !ok_role(rt.role) || !ok_role(ot.role) {
                return Err(format!(
                    "{} / {}: wrong role for an {}",
                    l.reference,
                    l.optimized,
                    if output { "output" } else { "input" }
                ));
            }
            if rt.elements() != ot.elements() || rt.dtype != ot.dtype {
                return Err(format!(
                    "{} {:?} {:?} and {} {:?} {:?} differ in size or type",
                    l.reference, rt.shape, rt.dtype, l.optimized, ot.shape, ot.dtype
                ));
            }
            Ok((ri, oi))
        };
        let inputs = raw
            .inputs
            .iter()
            .map(|l| link(l, false))
            .collect::<Result<Vec<_>, _>>()?;
        let outputs = raw
            .outputs
            .iter()
            .map(|l| link(l, true))
            .collect::<Result<Vec<_>, _>>()?;
        if outputs.is_empty() {
            return Err("a pair needs at least one [[outputs]] link".into());
        }
        Ok(PairSpec {
            reference,
            optimized,
            inputs,
            outputs,
            texts,
        })
    }
}
