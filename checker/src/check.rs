//! The checker's algorithm: re-derive every claim of a certificate from the PTX with this
//! crate's own semantics, replay every proof step, never search. One success path (all of
//! [`check`]'s steps pass); every other outcome is a [`Reject`] naming the first failure.

use crate::cert::{self, Certificate, Claim, Kernel};
use crate::equiv;
use crate::exec::{Config, DEFAULT_MAX_WORK, ExecError};
use crate::pair::{PairSpec, SpecTexts};
use crate::rules::Replay;
use std::path::Path;

/// Rule work allowed per output element.
pub const ELEMENT_BUDGET: u64 = 1 << 26;

/// Bounds on one re-check, set by the checker's user, never by the certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Work one kernel's run may do ([`crate::exec::Outcome::work`]), whatever the certificate
    /// declares.
    pub max_work: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_work: DEFAULT_MAX_WORK,
        }
    }
}

/// The work a kernel's re-check may take: what the certificate declares, plus a quarter and
/// 2^20 so that a prover counting slightly differently stays accepted, and never past `cap`.
pub fn work_limit(declared: u64, cap: u64) -> u64 {
    declared
        .saturating_add(declared / 4)
        .saturating_add(1 << 20)
        .min(cap)
}

/// What an accepted certificate establishes.
#[derive(Debug, Clone, PartialEq)]
pub struct Verified {
    pub claims: Vec<Claim>,
    pub reference: String,
    pub optimized: String,
    /// The CTAs every claim is about, per kernel ([`crate::spec::KernelSpec::scope`]).
    pub scope: [String; 2],
    /// Per input link whose tensors differ in size: what each kernel read.
    pub sized_reads: Vec<String>,
    /// Output elements shown equal.
    pub elements: u64,
    pub steps: usize,
    /// Work each kernel's run took here (reference, optimized; 0: not run).
    pub work: [u64; 2],
    /// Seconds the semantic self-check took (a tracked share of the check).
    pub selfcheck_seconds: f64,
}

/// The first reason a certificate is rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Reject {
    #[error("{0}")]
    Hash(String),
    #[error("spec: {0}")]
    Spec(String),
    #[error("claims: {0}")]
    Claims(String),
    #[error("{0}")]
    Side(#[from] equiv::SideError),
    /// A kernel reads a size-differing linked input past the part the link makes shared.
    #[error("pair link: {0}")]
    Link(String),
    #[error("claim Safe({0:?}) does not hold: {1}")]
    Unsafe(Kernel, String),
    #[error("output link {output}: element {element} is written by the {by:?} kernel only")]
    Footprint {
        output: u32,
        element: u64,
        by: Kernel,
    },
    #[error("output link {0}: {1}")]
    Coverage(u32, String),
    #[error(
        "resource limit: the {kernel:?} kernel did more than {limit} units of work{}",
        if limit < cap {
            format!(", past the {declared} the certificate declares (plus a margin)")
        } else {
            format!(
                ", the checker's cap (the certificate declares {declared}); raise it with --max-work"
            )
        }
    )]
    Work {
        kernel: Kernel,
        declared: u64,
        limit: u64,
        cap: u64,
    },
    /// The terms do not describe what the kernels compute (`selfcheck`).
    #[error("{0}")]
    SelfCheck(String),
    #[error("step {index} (output link {output}, element {element}): {msg}")]
    Step {
        index: usize,
        output: u32,
        element: u64,
        msg: String,
    },
}

fn launch(k: &crate::spec::KernelSpec) -> String {
    format!(
        "{} grid {:?} block {:?} dynamic shared {} B",
        k.entry, k.grid, k.block, k.dynamic_shared
    )
}

/// Checks `cert` against the two PTX texts it is about, within the default [`Limits`].
pub fn check(cert: &Certificate, ref_ptx: &str, opt_ptx: &str) -> Result<Verified, Reject> {
    check_with(cert, ref_ptx, opt_ptx, &Limits::default())
}

/// [`check`] within `limits`.
pub fn check_with(
    cert: &Certificate,
    ref_ptx: &str,
    opt_ptx: &str,
    limits: &Limits,
) -> Result<Verified, Reject> {
    // 1. The certificate is about exactly these files.
    if cert::sha256(ref_ptx.as_bytes()) != cert.ref_ptx_sha256 {
        return Err(Reject::Hash(format!(
            "the reference PTX's SHA-256 is not {}",
            cert::hex(&cert.ref_ptx_sha256)
        )));
    }
    if cert::sha256(opt_ptx.as_bytes()) != cert.opt_ptx_sha256 {
        return Err(Reject::Hash(format!(
            "the optimized PTX's SHA-256 is not {}",
            cert::hex(&cert.opt_ptx_sha256)
        )));
    }
    if cert::spec_digest(&cert.pair_spec, &cert.ref_spec, &cert.opt_spec) != cert.spec_sha256 {
        return Err(Reject::Hash(
            "the embedded specs do not match their SHA-256".into(),
        ));
    }
    let texts = SpecTexts {
        pair: cert.pair_spec.clone(),
        reference: cert.ref_spec.clone(),
        optimized: cert.opt_spec.clone(),
    };
    let pair = PairSpec::from_texts(texts, Path::new("."), Path::new(".")).map_err(Reject::Spec)?;

    // 2. The claims are well formed: sorted, distinct, and equivalence rests on both safety claims.
    if !cert.claims.windows(2).all(|w| w[0] < w[1]) || cert.claims.is_empty() {
        return Err(Reject::Claims(
            "claims must be non-empty, sorted and distinct".into(),
        ));
    }
    let claimed = |c: Claim| cert.claims.contains(&c);
    let equiv_claims: Vec<(u32, u64, u64)> = cert
        .claims
        .iter()
        .filter_map(|c| match *c {
            Claim::Equivalent {
                output,
                elements,
                total,
            } => Some((output, elements, total)),
            Claim::Safe(_) | Claim::FpNondeterministic { .. } => None,
        })
        .collect();
    let equiv: Vec<u32> = equiv_claims.iter().map(|c| c.0).collect();
    if let Some(o) = equiv.iter().find(|&&o| o as usize >= pair.outputs.len()) {
        return Err(Reject::Claims(format!("output link {o} does not exist")));
    }
    if equiv.windows(2).any(|w| w[0] == w[1]) {
        return Err(Reject::Claims(
            "two equivalence claims about one output link".into(),
        ));
    }
    let both_safe =
        claimed(Claim::Safe(Kernel::Reference)) && claimed(Claim::Safe(Kernel::Optimized));
    if !equiv.is_empty() && !both_safe {
        return Err(Reject::Claims(
            "equivalence needs both kernels' safety claims".into(),
        ));
    }

    // 3. Safety, re-derived by execution of every kernel a claim is about.
    // Each run stops shortly past the work the certificate declares, and at the checker's cap.
    let cap = limits.max_work;
    let limit = |i: usize| work_limit(cert.work[i], cap);
    let config = |i: usize| Config {
        max_ctas: u64::MAX,
        max_work: limit(i),
        max_steps_per_thread: limit(i),
        ..Config::default()
    };
    let configs = [config(0), config(1)];
    let want = [
        claimed(Claim::Safe(Kernel::Reference)),
        claimed(Claim::Safe(Kernel::Optimized)),
    ];
    let mut run = equiv::run_pair_with(&pair, [ref_ptx, opt_ptx], want, [&configs[0], &configs[1]])
        .map_err(|e| match e {
            equiv::SideError::Exec(kernel, ExecError::Work { limit, .. }) => {
                let i = usize::from(kernel == Kernel::Optimized);
                Reject::Work {
                    kernel,
                    declared: cert.work[i],
                    limit,
                    cap,
                }
            }
            other => Reject::Side(other),
        })?;
    for (kernel, wanted) in [Kernel::Reference, Kernel::Optimized].into_iter().zip(want) {
        // A claimed kernel that did not run has not been checked: never let that pass.
        match run.side(kernel) {
            None if wanted => {
                return Err(Reject::Claims(format!(
                    "the {kernel:?} kernel's safety claim was not re-derived"
                )));
            }
            Some(side) => {
                if let Some(why) = side.unsafety() {
                    return Err(Reject::Unsafe(kernel, why));
                }
                // The fp-nondeterministic lines are named exactly: none hidden, none invented.
                let found = side.fp_nondeterministic_lines();
                let named = cert::fp_nondeterministic_lines(&cert.claims, kernel);
                if found != named {
                    return Err(Reject::Claims(format!(
                        "the {kernel:?} kernel's fp-nondeterministic writes are at PTX lines \
                         {found:?}, the certificate names {named:?}"
                    )));
                }
            }
            None => {}
        }
    }

    // 3a. Linked inputs of different sizes are read only where both tensors have elements.
    if let Some(why) = equiv::sized_overrun(&pair, &run) {
        return Err(Reject::Link(why));
    }

    // 3b. The semantic self-check: every output term agrees with the bit-exact interpreter
    // on inputs derived from the digest, within a bound on rounding.
    let started = std::time::Instant::now();
    crate::selfcheck::check_pair(&pair, &run, &cert.spec_sha256, [&configs[0], &configs[1]])
        .map_err(|e| Reject::SelfCheck(e.to_string()))?;
    let selfcheck_seconds = started.elapsed().as_secs_f64();

    // 4. Equivalence: footprints, then every written element covered by exactly one valid step.
    let mut elements = 0u64;
    if equiv.is_empty() && !cert.steps.is_empty() {
        return Err(Reject::Claims("steps without an equivalence claim".into()));
    }
    if !equiv.is_empty() {
        let (Some(r), Some(o)) = (run.side(Kernel::Reference), run.side(Kernel::Optimized)) else {
            return Err(Reject::Claims("equivalence needs both kernels run".into()));
        };
        let mut covered: Vec<Vec<bool>> = Vec::new();
        let mut footprints = Vec::new();
        for (n, (rp, op)) in pair.outputs.iter().enumerate() {
            let (fr, fo) = (r.footprint(*rp), o.footprint(*op));
            if let Some(&(_, elements, total)) = equiv_claims.iter().find(|c| c.0 == n as u32) {
                if let Some((element, by)) = equiv::footprint_mismatch(&fr, &fo) {
                    return Err(Reject::Footprint {
                        output: n as u32,
                        element,
                        by,
                    });
                }
                // The claim states its extent, and that extent is what the kernels wrote.
                let size = match r.spec.params.get(*rp) {
                    Some(crate::spec::Binding::Tensor(t)) => t.elements(),
                    _ => 0,
                };
                if fr.is_empty() {
                    return Err(Reject::Coverage(
                        n as u32,
                        format!(
                            "neither kernel writes any of its {size} elements: an equivalence over 0 elements claims nothing"
                        ),
                    ));
                }
                if total != size || elements != fr.len() as u64 {
                    return Err(Reject::Coverage(
                        n as u32,
                        format!(
                            "the claim covers {elements} of {total} elements, the kernels write {} of {size}",
                            fr.len()
                        ),
                    ));
                }
            }
            // Coverage is kept per written element (the footprint is sorted), so memory follows
            // what the kernels wrote, not what a certificate or spec claims.
            covered.push(vec![false; fr.len()]);
            footprints.push(fr);
        }
        let mut work = Vec::new();
        for (index, step) in cert.steps.iter().enumerate() {
            let out = step.output;
            let bad = |element: u64, msg: String| Reject::Step {
                index,
                output: out,
                element,
                msg,
            };
            if !equiv.contains(&out) {
                return Err(bad(
                    step.first,
                    "cites an output link without an equivalence claim".into(),
                ));
            }
            let (rp, op) = pair.outputs[out as usize];
            let end = step
                .first
                .checked_add(step.count)
                .ok_or_else(|| bad(step.first, "range overflows".into()))?;
            if step.count == 0 {
                return Err(bad(step.first, "empty range".into()));
            }
            for e in step.first..end {
                let slot = footprints[out as usize]
                    .binary_search(&e)
                    .map_err(|_| bad(e, "element is not written by the kernels".into()))?;
                let cov = &mut covered[out as usize];
                if cov[slot] {
                    return Err(bad(e, "element already covered by an earlier step".into()));
                }
                cov[slot] = true;
                let lt = run
                    .element_term(Kernel::Reference, rp, e)
                    .map_err(|m| bad(e, m))?;
                let ot = run
                    .element_term(Kernel::Optimized, op, e)
                    .map_err(|m| bad(e, m))?;
                let (Some(lt), Some(ot)) = (lt, ot) else {
                    return Err(bad(e, "element is not written".into()));
                };
                work.push((index, out, e, step.rule, lt, ot));
                elements += 1;
            }
        }
        // The rules, once every element's terms exist (taking them may intern constants), with
        // normal-form tables shared across elements.
        let mut replay = Replay::new(run.view(), ELEMENT_BUDGET);
        for (index, output, element, rule, lt, ot) in work {
            replay.apply(rule, lt, ot).map_err(|msg| Reject::Step {
                index,
                output,
                element,
                msg,
            })?;
        }
        for &n in &equiv {
            if let Some((e, _)) = footprints[n as usize]
                .iter()
                .zip(&covered[n as usize])
                .find(|(_, c)| !**c)
            {
                return Err(Reject::Coverage(
                    n,
                    format!("element {e} is written but no step proves it"),
                ));
            }
        }
    }

    Ok(Verified {
        claims: cert.claims.clone(),
        reference: launch(&pair.reference),
        optimized: launch(&pair.optimized),
        scope: [pair.reference.scope(), pair.optimized.scope()],
        sized_reads: equiv::sized_read_lines(&pair, &run),
        elements,
        steps: cert.steps.len(),
        work: [Kernel::Reference, Kernel::Optimized]
            .map(|k| run.side(k).map_or(0, |s| s.outcome.work)),
        selfcheck_seconds,
    })
}
