//! Executing both kernels of a pair into one hash-consed arena and lining up their outputs:
//! shared by the prover (to find proofs) and the checker (to replay them), so both see exactly
//! the same terms. Input tensors linked by the pair spec get the same name in `Node::Input`
//! (the link index), so the same computation in both kernels is the same term id.

use crate::cert::Kernel;
use crate::exec::{self, Config, Finding, FindingKind, Mode, Outcome, Val};
use crate::lower::{self, Program};
use crate::pair::PairSpec;
use crate::ptx;
use crate::rules::ring::Side;
use crate::spec::{Binding, KernelSpec};
use crate::term::{Dyadic, TermArena, TermId};

/// One kernel of a pair, executed symbolically (its terms live in [`PairRun::arena`]).
#[derive(Debug)]
pub struct SideRun {
    pub spec: KernelSpec,
    pub program: Program,
    pub outcome: Outcome,
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

/// Both kernels' runs (a side is `None` when it was not asked for) and their shared arena.
#[derive(Debug)]
pub struct PairRun {
    pub arena: TermArena,
    pub reference: Option<SideRun>,
    pub optimized: Option<SideRun>,
    /// `Node::Input` tensor name -> pair input link (names past the links are unlinked tensors).
    pub inputs: Vec<Option<u32>>,
}

/// Runs the requested sides of `pair` on the given PTX texts.
pub fn run_pair(
    pair: &PairSpec,
    texts: [&str; 2],
    want: [bool; 2],
    config: &Config,
) -> Result<PairRun, SideError> {
    run_pair_with(pair, texts, want, [config, config])
}

/// [`run_pair`] with a configuration per side (reference, optimized): the checker bounds each
/// kernel's work by what the certificate declares for it.
pub fn run_pair_with(
    pair: &PairSpec,
    texts: [&str; 2],
    want: [bool; 2],
    configs: [&Config; 2],
) -> Result<PairRun, SideError> {
    let links = pair.inputs.len() as u32;
    // Leaf ordinals of a side, as the executor numbers them: its tensors, then its symbolic
    // scalars, each in parameter order.
    let leaves = |s: &KernelSpec| -> Vec<usize> {
        let tensors = s.tensors().map(|(i, _)| i);
        tensors.chain(s.symbolics().map(|(i, _)| i)).collect()
    };
    let (nr, no) = (
        leaves(&pair.reference).len() as u32,
        leaves(&pair.optimized).len() as u32,
    );
    let mut inputs: Vec<Option<u32>> = (0..links).map(Some).collect();
    inputs.extend(std::iter::repeat_n(None, (nr + no) as usize));
    // Name every leaf ordinal of a side: its link, or a private name past the links.
    let names = |spec: &KernelSpec, kernel: Kernel| -> Vec<u32> {
        let mut out = Vec::new();
        for param in leaves(spec) {
            let link = pair
                .inputs
                .iter()
                .position(|(r, o)| param == if kernel == Kernel::Reference { *r } else { *o });
            let private =
                links + out.len() as u32 + if kernel == Kernel::Optimized { nr } else { 0 };
            out.push(link.map(|l| l as u32).unwrap_or(private));
        }
        out
    };
    let mut arena = TermArena::new();
    let mut runs = [None, None];
    for (i, (kernel, spec)) in [
        (Kernel::Reference, &pair.reference),
        (Kernel::Optimized, &pair.optimized),
    ]
    .into_iter()
    .enumerate()
    {
        if !want[i] {
            continue;
        }
        let module = ptx::parse(texts[i]).map_err(|e| SideError::Parse(kernel, e))?;
        let program =
            lower::lower(&module, &spec.entry).map_err(|e| SideError::Lower(kernel, e))?;
        let mut outcome = exec::run_in(
            &program,
            spec,
            Mode::Symbolic,
            &Default::default(),
            configs[i],
            arena,
            &names(spec, kernel),
        )
        .map_err(|e| SideError::Exec(kernel, e))?;
        arena = std::mem::take(&mut outcome.arena);
        runs[i] = Some(SideRun {
            spec: spec.clone(),
            program,
            outcome,
        });
    }
    let [reference, optimized] = runs;
    Ok(PairRun {
        arena,
        reference,
        optimized,
        inputs,
    })
}

impl SideRun {
    /// Why the kernel is not safe over the reals: the first finding other than an
    /// fp-nondeterministic write (those are named claims, see [`Self::fp_nondeterministic_lines`]),
    /// or a note that the grid was not executed whole (unless the spec names the CTAs to
    /// execute, and exactly those ran: then every claim is about them only,
    /// [`KernelSpec::scope`]): both void the one-schedule semantics that equivalence rests on.
    pub fn unsafety(&self) -> Option<String> {
        if let Some(f) = self
            .outcome
            .findings
            .iter()
            .find(|f| f.kind != FindingKind::FpNondeterministic)
        {
            return Some(f.to_string());
        }
        let c = &self.outcome.coverage;
        if let Some(named) = &self.spec.ctas {
            return (c.executed != *named).then(|| {
                format!(
                    "the CTAs executed are not the {} the spec names",
                    named.len()
                )
            });
        }
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

    /// Sorted, distinct PTX lines of the writes in fp-nondeterministic findings.
    pub fn fp_nondeterministic_lines(&self) -> Vec<u32> {
        let mut lines: Vec<u32> = self
            .outcome
            .findings
            .iter()
            .filter(|f| f.kind == FindingKind::FpNondeterministic)
            .flat_map(|f| f.sites.iter().map(|s| s.line))
            .collect();
        lines.sort_unstable();
        lines.dedup();
        lines
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

impl PairRun {
    pub fn side(&self, k: Kernel) -> Option<&SideRun> {
        match k {
            Kernel::Reference => self.reference.as_ref(),
            Kernel::Optimized => self.optimized.as_ref(),
        }
    }

    /// The view rules work on.
    pub fn view(&self) -> Side<'_> {
        Side {
            arena: &self.arena,
            inputs: &self.inputs,
        }
    }

    /// The element value of output tensor `param` of side `k` as a term (concrete stores
    /// become constants).
    pub fn element_term(
        &mut self,
        k: Kernel,
        param: usize,
        element: u64,
    ) -> Result<Option<TermId>, String> {
        let run = match k {
            Kernel::Reference => self.reference.as_ref(),
            Kernel::Optimized => self.optimized.as_ref(),
        }
        .ok_or("that kernel was not run")?;
        let Some(v) = run
            .outcome
            .outputs
            .get(&param)
            .and_then(|m| m.get(&element))
            .copied()
        else {
            return Ok(None);
        };
        let dtype = match run.spec.params.get(param) {
            Some(Binding::Tensor(t)) => t.dtype,
            _ => return Err(format!("parameter {param} is not a tensor")),
        };
        match v {
            Val::Term(t) | Val::Int { term: t, .. } => Ok(Some(t)),
            Val::Bits(b) => {
                use crate::ptx::ScalarType as S;
                let d = match dtype {
                    // An integer element is the integer its dtype reads the bits as.
                    S::S32 => Some(Dyadic::from_i64(i64::from(b as u32 as i32))),
                    S::S64 => Some(Dyadic::from_i64(b as i64)),
                    S::U32 => Some(Dyadic::from_u64(u64::from(b as u32))),
                    S::U64 => Some(Dyadic::from_u64(b)),
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
                self.arena.constant(d).map(Some).map_err(|e| e.to_string())
            }
            Val::Cond(_)
            | Val::Undef
            | Val::Unordered
            | Val::Pair(..)
            | Val::Word { .. }
            | Val::Pending
            | Val::Frag(_)
            | Val::Addr { .. } => Err(format!("element {element} holds no number")),
            Val::Rounded { .. } | Val::Pow2 { .. } => Err(format!(
                "element {element} holds libdevice expf's rounded exponent, never compensated \
                 (floor has no real reading)"
            )),
        }
    }
}

/// How the kernels read each input link whose two tensors differ in size: per such link, its
/// reference name, and per side the elements read (`lo..hi`, `None`: none) and the size.
#[allow(clippy::type_complexity)]
pub fn sized_reads(
    pair: &PairSpec,
    run: &PairRun,
) -> Vec<(String, [(Option<(u64, u64)>, u64); 2])> {
    let mut out = Vec::new();
    for &(rp, op) in &pair.inputs {
        let (Some((_, rn)), Some((_, on))) =
            (pair.reference.leaf_input(rp), pair.optimized.leaf_input(op))
        else {
            continue;
        };
        if rn == on {
            continue;
        }
        let reads =
            |k: Kernel, p: usize| run.side(k).and_then(|s| s.outcome.reads.get(&p).copied());
        out.push((
            pair.reference.param_name(rp),
            [
                (reads(Kernel::Reference, rp), rn),
                (reads(Kernel::Optimized, op), on),
            ],
        ));
    }
    out
}

/// One line per input link of different sizes: what each kernel read.
pub fn sized_read_lines(pair: &PairSpec, run: &PairRun) -> Vec<String> {
    let side = |(r, n): (Option<(u64, u64)>, u64)| match r {
        Some((lo, hi)) => format!("elements {lo}..{hi} of {n}"),
        None => format!("none of its {n} elements"),
    };
    sized_reads(pair, run)
        .into_iter()
        .map(|(name, [r, o])| {
            format!(
                "input {name}: linked tensors of {} and {} elements, the common {} are the same data; the reference reads {}, the optimized {}",
                r.1,
                o.1,
                r.1.min(o.1),
                side(r),
                side(o)
            )
        })
        .collect()
}

/// The first read, by a kernel that ran, of an element of a size-differing input link past
/// the part both tensors have (where the link says nothing about the data), as a message.
pub fn sized_overrun(pair: &PairSpec, run: &PairRun) -> Option<String> {
    for (name, sides) in sized_reads(pair, run) {
        let common = sides[0].1.min(sides[1].1);
        for (k, (reads, n)) in [Kernel::Reference, Kernel::Optimized]
            .into_iter()
            .zip(sides)
        {
            if let Some((_, hi)) = reads
                && hi > common
            {
                return Some(format!(
                    "input {name}: the {k:?} kernel reads element {} of its {n}-element tensor, past the {common} elements the two linked tensors share (the link makes only those the same data)",
                    hi - 1
                ));
            }
        }
    }
    None
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
