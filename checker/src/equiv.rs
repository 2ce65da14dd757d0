//! Executing both kernels of a pair and lining up their outputs: shared by the prover (to find
//! proofs) and the checker (to replay them), so both see exactly the same terms.

use crate::cert::Kernel;
use crate::exec::{self, Config, Finding, Mode, Outcome, Val};
use crate::lower::{self, Program};
use crate::ptx;
use crate::spec::{Binding, KernelSpec};
use crate::term::{Dyadic, TermId};

/// One kernel of a pair, executed symbolically.
#[derive(Debug)]
pub struct SideRun {
    pub spec: KernelSpec,
    pub program: Program,
    pub outcome: Outcome,
    /// Tensor ordinal (as in `Node::Input`) -> index of the pair's input link.
    pub inputs: Vec<Option<u32>>,
}

/// Why a side could not be run to a clean result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SideError {
    #[error("{0:?} kernel: PTX {1}")]
    Parse(Kernel, ptx::ParseError),
    #[error("{0:?} kernel: {1}")]
    Lower(Kernel, lower::LowerError),
    #[error("{0:?} kernel: {1}")]
    Exec(Kernel, exec::ExecError),
}

/// Parses, lowers and symbolically executes one side. `links` are `(param of this side, pair
/// input index)`.
pub fn run_side(
    kernel: Kernel,
    spec: &KernelSpec,
    ptx_text: &str,
    links: &[(usize, u32)],
    config: &Config,
) -> Result<SideRun, SideError> {
    let module = ptx::parse(ptx_text).map_err(|e| SideError::Parse(kernel, e))?;
    let program = lower::lower(&module, &spec.entry).map_err(|e| SideError::Lower(kernel, e))?;
    let outcome = exec::run(&program, spec, Mode::Symbolic, &Default::default(), config)
        .map_err(|e| SideError::Exec(kernel, e))?;
    let mut inputs = Vec::new();
    for (param, b) in spec.params.iter().enumerate() {
        if matches!(b, Binding::Tensor(_)) {
            inputs.push(links.iter().find(|(p, _)| *p == param).map(|(_, i)| *i));
        }
    }
    Ok(SideRun {
        spec: spec.clone(),
        program,
        outcome,
        inputs,
    })
}

impl SideRun {
    /// The first finding, or a note that the grid was not executed whole: both void the
    /// one-schedule semantics that equivalence rests on.
    pub fn unsafety(&self) -> Option<String> {
        if let Some(f) = self.outcome.findings.first() {
            return Some(f.to_string());
        }
        let c = &self.outcome.coverage;
        (!c.complete()).then(|| {
            format!(
                "only {} of {} CTAs were executed",
                c.executed.len(),
                c.total
            )
        })
    }

    pub fn findings(&self) -> &[Finding] {
        &self.outcome.findings
    }

    /// The element value of output tensor `param` as a term (concrete stores become constants).
    pub fn element_term(&mut self, param: usize, element: u64) -> Result<Option<TermId>, String> {
        let Some(v) = self
            .outcome
            .outputs
            .get(&param)
            .and_then(|m| m.get(&element))
            .copied()
        else {
            return Ok(None);
        };
        let dtype = match self.spec.params.get(param) {
            Some(Binding::Tensor(t)) => t.dtype,
            _ => return Err(format!("parameter {param} is not a tensor")),
        };
        match v {
            Val::Term(t) => Ok(Some(t)),
            Val::Bits(b) => {
                use crate::ptx::ScalarType as S;
                let d = match dtype {
                    S::F32 => Dyadic::from_f32_bits(b as u32),
                    S::F64 => Dyadic::from_f64_bits(b),
                    S::F16 => Dyadic::from_f16_bits(b as u16),
                    S::Bf16 => Dyadic::from_bf16_bits(b as u16),
                    other => {
                        return Err(format!(
                            "element {element} holds a {other:?} value; only float outputs are compared"
                        ));
                    }
                };
                let d = d.ok_or_else(|| format!("element {element} is infinite or NaN"))?;
                self.outcome
                    .arena
                    .constant(d)
                    .map(Some)
                    .map_err(|e| e.to_string())
            }
            Val::Cond(_) | Val::Undef => Err(format!("element {element} holds no number")),
        }
    }

    /// Sorted indices of the elements of output `param` that were written.
    pub fn footprint(&self, param: usize) -> Vec<u64> {
        self.outcome
            .outputs
            .get(&param)
            .map(|m| m.keys().copied().collect())
            .unwrap_or_default()
    }
}

/// The first element written by exactly one side, and which side wrote it.
pub fn footprint_mismatch(r: &[u64], o: &[u64]) -> Option<(u64, Kernel)> {
    let (mut i, mut j) = (0, 0);
    while i < r.len() || j < o.len() {
        match (r.get(i), o.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => return Some((*a, Kernel::Reference)),
            (Some(_), Some(b)) => return Some((*b, Kernel::Optimized)),
            (Some(a), None) => return Some((*a, Kernel::Reference)),
            (None, Some(b)) => return Some((*b, Kernel::Optimized)),
            (None, None) => break,
        }
    }
    None
}
