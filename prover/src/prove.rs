//! `kcert prove`: both safety analyses, then the equality of every output element, then a
//! certificate. Refutations come with evidence: the finding, or the element, both terms, and a
//! concrete input at which the two kernels differ under exact evaluation, confirmed by the
//! concrete interpreter.

use crate::inputs::{Rng, decode, encode};
use crate::interval::{self, Evaluator, IVal, Interval};
use crate::screen::Screen;
use kcert_checker::cert::{self, Certificate, Claim, Kernel, Rule, Step};
use kcert_checker::equiv::{self, PairRun, SideError};
use kcert_checker::exec::{Config, DEFAULT_MAX_WORK, ExecError, FindingKind, Mode};
use kcert_checker::lower::LowerError;
use kcert_checker::pair::PairSpec;
use kcert_checker::rules::coef::Coef;
use kcert_checker::rules::ring::{self, Budget, PolyMap, RingError};
use kcert_checker::rules::{Replay, field};
use kcert_checker::spec::Binding;
use kcert_checker::term::Dyadic;
use std::collections::HashMap;
use std::path::Path;

/// A concrete input where the kernels differ.
#[derive(Debug, Clone)]
pub struct Counterexample {
    /// Exact values of the element on each side (as f64 for display), when the terms are
    /// polynomials; `None` for evidence from the interpreter alone (far beyond rounding).
    pub exact: Option<(f64, f64)>,
    /// What the concrete interpreter computed for the element on each side.
    pub interpreted: (f64, f64),
    /// The seed of the input assignment (every linked input element is k/8, k in -8..=8).
    pub seed: u64,
    /// For a difference certified by interval arithmetic: the input and the two enclosures.
    pub certified: Option<Certified>,
}

/// An input at which the two real-valued terms of an element are enclosed, by rigorous interval
/// evaluation ([`crate::interval`]), in disjoint intervals: the real values differ, whatever
/// the rounding. The interpreter's results at the same input are the counterexample's
/// `interpreted` (they differ too, or the witness is not reported).
#[derive(Debug, Clone)]
pub struct Certified {
    /// Every input element the element's terms read, by name, and its value (exact in the
    /// tensor's element type). The interpreter's other input elements hold seeded random values.
    pub point: Vec<(String, f64)>,
    pub reference: Interval,
    pub optimized: Interval,
}

/// Why a pair is not equivalent.
#[derive(Debug, Clone)]
pub enum Refutation {
    /// A safety finding in one kernel: the first, rendered, and all of them (for reports).
    Unsafe {
        kernel: Kernel,
        report: String,
        findings: Vec<kcert_checker::exec::Finding>,
    },
    /// One kernel writes an element the other does not.
    Footprint {
        output: String,
        element: u64,
        by: Kernel,
    },
    /// Different real values.
    Value {
        output: String,
        element: u64,
        reference: String,
        optimized: String,
        witness: Option<Counterexample>,
        /// When the two terms are the same operations on the same inputs and differ only in
        /// literal values, each close: those pairs (the verdict "literals differ").
        literals: Option<Vec<crate::literals::LiteralPair>>,
    },
}

/// The result of `prove`.
#[derive(Debug)]
pub enum Outcome {
    Proved {
        cert: Certificate,
        elements: u64,
        /// Per input link of different sizes: what each kernel read (reported with the proof).
        reads: Vec<String>,
    },
    Refuted(Refutation),
    /// Outside what is decided, or a limit: never a pass.
    Unknown(String),
}

/// Failure to even start (bad files): exit 3.
#[derive(Debug, Clone)]
pub struct Invalid(pub String);

/// Bounds on one proof attempt (the CLI's flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Work each kernel's symbolic run may do (`--max-work`: lane-instructions plus term
    /// comparisons).
    pub max_work: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_work: kcert_checker::exec::DEFAULT_MAX_WORK,
        }
    }
}

/// How often a long proof says on stderr that it is still running.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

fn side_error(e: SideError) -> Result<Outcome, Invalid> {
    let unsupported = match &e {
        SideError::Parse(..) => false,
        SideError::Lower(_, l) => matches!(l, LowerError::Unsupported { .. }),
        SideError::Exec(_, x) => matches!(
            x,
            ExecError::Unsupported { .. } | ExecError::Limit(_) | ExecError::Work { .. }
        ),
    };
    if let SideError::Exec(_, ExecError::Work { .. }) = e {
        return Ok(Outcome::Unknown(format!(
            "{e}; raise the limit with --max-work"
        )));
    }
    if unsupported {
        Ok(Outcome::Unknown(e.to_string()))
    } else {
        Err(Invalid(e.to_string()))
    }
}

fn tensor_name(spec: &kcert_checker::spec::KernelSpec, p: usize) -> String {
    match spec.params.get(p) {
        Some(Binding::Tensor(t)) => t.name.clone(),
        _ => format!("param{p}"),
    }
}

fn tensor_size(spec: &kcert_checker::spec::KernelSpec, p: usize) -> u64 {
    match spec.params.get(p) {
        Some(Binding::Tensor(t)) => t.elements(),
        _ => 0,
    }
}

/// Names input leaves as the reference's tensor and multi-index (`A[3, 17]`), or its
/// symbolic scalar (`alpha`).
fn input_name(pair: &PairSpec) -> impl Fn(u32, u64) -> String + '_ {
    move |link, index| match pair
        .inputs
        .get(link as usize)
        .and_then(|&(rp, _)| pair.reference.params.get(rp))
    {
        Some(Binding::Tensor(t)) => {
            let idx: Vec<String> = t.multi_index(index).iter().map(u64::to_string).collect();
            format!("{}[{}]", t.name, idx.join(", "))
        }
        Some(Binding::Symbolic { name, .. }) => name.clone(),
        _ => format!("in{link}[{index}]"),
    }
}

/// Per input link: the element type, how many leaves the larger side has, and whether the
/// values must be positive (a symbolic scalar declared `positive`).
fn link_leaves(pair: &PairSpec) -> Vec<(kcert_checker::ptx::ScalarType, u64, bool)> {
    pair.inputs
        .iter()
        .map(|&(rp, op)| {
            let (dtype, rn) = pair
                .reference
                .leaf_input(rp)
                .unwrap_or((kcert_checker::ptx::ScalarType::F32, 0));
            let on = pair.optimized.leaf_input(op).map_or(0, |l| l.1);
            let positive = matches!(
                pair.reference.params.get(rp),
                Some(Binding::Symbolic { positive: true, .. })
            );
            (dtype, rn.max(on), positive)
        })
        .collect()
}

/// Lexically normalized path text (`a/b/../c` -> `a/c`), for recording in certificates.
fn clean(p: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir if parts.last().is_some_and(|l| l != "..") => {
                parts.pop();
            }
            std::path::Component::CurDir => {}
            other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    parts.join("/").replace("//", "/")
}

/// Proves the pair at `path`. When the symbolic phase cannot decide, the two kernels are run
/// concretely on seeded random inputs and a difference far beyond rounding is added to the
/// UNKNOWN report as a hint (never as a verdict: it is not certified).
pub fn prove(path: &Path) -> Result<Outcome, Invalid> {
    prove_with(path, &Options::default())
}

/// [`prove`] within `options`; a run that takes long says so on stderr every 10 s.
pub fn prove_with(path: &Path, options: &Options) -> Result<Outcome, Invalid> {
    let pair = PairSpec::load(path).map_err(Invalid)?;
    let progress = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    // Elements decided so far once the rules run (u64::MAX while the kernels execute).
    let decided = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(u64::MAX));
    let (done, wait) = std::sync::mpsc::channel::<()>();
    let watch = {
        let (progress, decided) = (progress.clone(), decided.clone());
        let (name, cap) = (path.display().to_string(), options.max_work);
        std::thread::spawn(move || {
            let start = std::time::Instant::now();
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                wait.recv_timeout(PROGRESS_EVERY)
            {
                let secs = start.elapsed().as_secs_f64();
                match decided.load(std::sync::atomic::Ordering::Relaxed) {
                    u64::MAX => kcert_checker::errln!(
                        "kcert: still proving {name} after {secs:.0} s: executing, the current kernel run \
                         is past {} units of work (it stops at {cap}: --max-work)",
                        progress.load(std::sync::atomic::Ordering::Relaxed)
                    ),
                    n => kcert_checker::errln!(
                        "kcert: still proving {name} after {secs:.0} s: {n} output elements decided"
                    ),
                }
            }
        })
    };
    let result = prove_symbolic(&pair, options, progress, &decided);
    // The watcher ends when the channel closes, whatever happened.
    drop(done);
    let _ = watch.join();
    match result? {
        Outcome::Unknown(why) => {
            let hint = concrete_hint(&pair, options.max_work);
            Ok(Outcome::Unknown(format!("{why}\n  hint: {hint}")))
        }
        other => Ok(other),
    }
}

/// Outputs of side `k` per output link (element -> value) when the linked inputs hold
/// `shared` (one vector per link) and every other input seeded random data, or `None` when
/// the interpreter cannot run it.
fn concrete_outputs(
    pair: &PairSpec,
    seed: u64,
    k: Kernel,
    text: &str,
    shared: &[Vec<f64>],
    max_work: u64,
) -> Option<Vec<std::collections::BTreeMap<u64, f64>>> {
    let spec = if k == Kernel::Reference {
        &pair.reference
    } else {
        &pair.optimized
    };
    let mut inp = crate::inputs::random(spec, seed);
    for (i, &(rp, op)) in pair.inputs.iter().enumerate() {
        let p = if k == Kernel::Reference { rp } else { op };
        // Each side takes the leading part of the link's values its own tensor holds.
        if let Some((dtype, n)) = spec.leaf_input(p) {
            inp.insert(
                p,
                shared[i]
                    .iter()
                    .take(n as usize)
                    .map(|&v| encode(v, dtype))
                    .collect(),
            );
        }
    }
    let module = kcert_checker::ptx::parse(text).ok()?;
    let prog = kcert_checker::lower::lower(&module, &spec.entry).ok()?;
    let config = Config {
        max_work,
        max_steps_per_thread: max_work,
        ..Config::default()
    };
    let out = kcert_checker::exec::run(&prog, spec, Mode::Concrete, &inp, &config).ok()?;
    pair.outputs
        .iter()
        .map(|&(rp, op)| {
            let p = if k == Kernel::Reference { rp } else { op };
            let Some(Binding::Tensor(t)) = spec.params.get(p) else {
                return None;
            };
            let vals = out.outputs.get(&p)?;
            Some(
                vals.iter()
                    .filter_map(|(e, v)| Some((*e, crate::inputs::decode(v.bits()?, t.dtype))))
                    .collect(),
            )
        })
        .collect()
}

/// Seeded random values in [-4, 4) for every element of every linked input (in (0, 4) for a
/// positive symbolic scalar).
fn random_link_values(pair: &PairSpec, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = Rng::new(seed);
    pair.inputs
        .iter()
        .zip(link_leaves(pair))
        .map(
            |(&(rp, _), (_, n, positive))| match pair.reference.params.get(rp) {
                Some(Binding::Tensor(t)) if t.init.is_some() => t
                    .init
                    .map(|i| i.contents(t.elements(), t.dtype))
                    .unwrap_or_default()
                    .into_iter()
                    .map(|b| decode(b, t.dtype))
                    .collect(),
                Some(Binding::Tensor(t)) if kcert_checker::spec::int_bounds(t.dtype).is_some() => {
                    (0..n)
                        .map(|_| crate::inputs::int_value(t, &mut rng))
                        .collect()
                }
                _ => (0..n)
                    .map(|_| {
                        let v = rng.unit() * 4.0;
                        if positive { v.abs().max(0.25) } else { v }
                    })
                    .collect(),
            },
        )
        .collect()
}

/// Whether two interpreter results differ far beyond float rounding. False when either is
/// NaN or infinite: overflow is rounding too, so such a pair is no witness of a difference
/// between real values (see [`hint_difference`] for what a hint says about it).
fn far_apart(a: f64, b: f64) -> bool {
    (a - b).abs() > 1e-3 * (1.0 + a.abs().max(b.abs()))
}

/// What a hint says about the two interpreter results of one element (`b`: `None` when the
/// optimized kernel did not write it): a difference far beyond rounding, a value that is not
/// finite (NaN or infinite on either side, even both alike: the real-valued model does not
/// describe that run, so it is never "no difference"), or `None` when they agree.
fn hint_difference(a: f64, b: Option<f64>) -> Option<&'static str> {
    match b {
        None => Some("the pair is likely not equivalent"),
        Some(b) if !a.is_finite() || !b.is_finite() => Some(
            "a value that is not finite, which the real-valued model does not describe (no \
             evidence of equality)",
        ),
        Some(b) if far_apart(a, b) => Some("the pair is likely not equivalent"),
        Some(_) => None,
    }
}

/// What the interpreter says about the pair, as a sentence: the first linked output element
/// where its two results differ far beyond rounding or are not finite, that they agree, or
/// that it cannot run them (then it says nothing about equality).
fn concrete_hint(pair: &PairSpec, max_work: u64) -> String {
    let cannot = || "the concrete interpreter cannot run both kernels either".to_string();
    let read = |p: &Path| std::fs::read_to_string(p).ok();
    let (Some(rt), Some(ot)) = (read(&pair.reference.ptx), read(&pair.optimized.ptx)) else {
        return cannot();
    };
    for seed in 1..=2u64 {
        let values = random_link_values(pair, seed);
        let r = concrete_outputs(pair, seed, Kernel::Reference, &rt, &values, max_work);
        let o = concrete_outputs(pair, seed, Kernel::Optimized, &ot, &values, max_work);
        let (Some(r), Some(o)) = (r, o) else {
            return cannot();
        };
        for (n, (rm, om)) in r.iter().zip(&o).enumerate() {
            // An inout element a kernel does not write holds its initial value.
            let (mut rm, mut om) = (rm.clone(), om.clone());
            if pair.output_is_inout(n)
                && let Some(init) = pair
                    .inputs
                    .iter()
                    .position(|l| *l == pair.outputs[n])
                    .and_then(|i| values.get(i))
            {
                for (e, &v) in init.iter().enumerate() {
                    rm.entry(e as u64).or_insert(v);
                    om.entry(e as u64).or_insert(v);
                }
            }
            let (rm, om) = (&rm, &om);
            for (e, a) in rm {
                let b = om.get(e).copied();
                if let Some(why) = hint_difference(*a, b) {
                    let name = tensor_name(&pair.reference, pair.outputs[n].0);
                    return format!(
                        "on seeded random inputs (seed {seed}) the concrete interpreter computes {name}[{e}] = {a} (reference) vs {} (optimized): {why}",
                        b.map(|b| b.to_string()).unwrap_or_else(|| "nothing".into())
                    );
                }
            }
            // An element only the optimized kernel wrote.
            if let Some((e, b)) = om.iter().find(|(e, _)| !rm.contains_key(e)) {
                let name = tensor_name(&pair.optimized, pair.outputs[n].1);
                return format!(
                    "on seeded random inputs (seed {seed}) the concrete interpreter computes {name}[{e}] = nothing (reference) vs {b} (optimized): the pair is likely not equivalent"
                );
            }
        }
    }
    "the concrete interpreter finds no difference beyond rounding on seeded random inputs".into()
}

/// Both safety analyses, footprints, then the rules element by element.
fn prove_symbolic(
    pair: &PairSpec,
    options: &Options,
    progress: std::sync::Arc<std::sync::atomic::AtomicU64>,
    decided: &std::sync::atomic::AtomicU64,
) -> Result<Outcome, Invalid> {
    let pair = pair.clone();
    let read =
        |p: &Path| std::fs::read_to_string(p).map_err(|e| Invalid(format!("{}: {e}", p.display())));
    let ref_text = read(&pair.reference.ptx)?;
    let opt_text = read(&pair.optimized.ptx)?;
    // One bound for the whole run and for any one thread: the flag raises both.
    let config = Config {
        max_ctas: u64::MAX,
        max_work: options.max_work,
        max_steps_per_thread: options.max_work,
        progress: Some(progress),
        ..Config::default()
    };
    let mut run = match equiv::run_pair(&pair, [&ref_text, &opt_text], [true, true], &config) {
        Ok(r) => r,
        Err(e) => return side_error(e),
    };
    for kernel in [Kernel::Reference, Kernel::Optimized] {
        let Some(side) = run.side(kernel) else {
            continue;
        };
        // fp-nondeterministic writes are not races over the reals: named claims, not refutations.
        if let Some(f) = side
            .findings()
            .iter()
            .find(|f| f.kind != FindingKind::FpNondeterministic)
        {
            return Ok(Outcome::Refuted(Refutation::Unsafe {
                kernel,
                report: f.to_string(),
                findings: side.findings().to_vec(),
            }));
        }
        if let Some(why) = side.unsafety() {
            return Ok(Outcome::Unknown(format!("{kernel:?} kernel: {why}")));
        }
    }
    let footprints: Vec<(Vec<u64>, Vec<u64>)> = {
        let (Some(r), Some(o)) = (run.side(Kernel::Reference), run.side(Kernel::Optimized)) else {
            return Err(Invalid("a kernel did not run".into()));
        };
        pair.outputs
            .iter()
            .map(|&(rp, op)| (r.footprint(rp), o.footprint(op)))
            .collect()
    };
    // Every link: the same elements written by both kernels, and at least one of them (an
    // equivalence over no element would claim nothing).
    for (n, &(rp, _)) in pair.outputs.iter().enumerate() {
        let (fr, fo) = &footprints[n];
        if let Some((element, by)) = equiv::footprint_mismatch(fr, fo) {
            // An inout element one kernel leaves alone keeps its initial value: if the other
            // writes that value back, the final values agree, so this is no refutation.
            if pair.output_is_inout(n) {
                return Ok(Outcome::Unknown(format!(
                    "inout output {} element {element} is written by the {by:?} kernel only; kcert compares the elements both kernels write, and the other kernel's element keeps its initial value, which the writer may have stored back",
                    tensor_name(&pair.reference, rp)
                )));
            }
            return Ok(Outcome::Refuted(Refutation::Footprint {
                output: tensor_name(&pair.reference, rp),
                element,
                by,
            }));
        }
    }
    for (n, &(rp, _)) in pair.outputs.iter().enumerate() {
        if footprints[n].0.is_empty() {
            return Ok(Outcome::Unknown(format!(
                "output {}: neither kernel writes any of its {} elements, so there is nothing to \
                 compare and no equivalence is claimed",
                tensor_name(&pair.reference, rp),
                tensor_size(&pair.reference, rp)
            )));
        }
    }
    // A link between tensors of different sizes holds only where both read the common part.
    if let Some(why) = equiv::sized_overrun(&pair, &run) {
        let reads = equiv::sized_read_lines(&pair, &run).join("; ");
        return Ok(Outcome::Unknown(format!(
            "{why}; nothing is claimed about data the link does not share ({reads})"
        )));
    }
    let declared =
        [Kernel::Reference, Kernel::Optimized].map(|k| run.side(k).map_or(0, |s| s.outcome.work));
    let mut steps: Vec<Step> = Vec::new();
    let mut elements = 0u64;
    // Every element's two terms first (taking them may intern constants), then the rules with
    // one shared set of normal-form tables.
    let mut work = Vec::new();
    for (n, &(rp, op)) in pair.outputs.iter().enumerate() {
        let (fr, _) = &footprints[n];
        for &e in fr {
            let lt = run
                .element_term(Kernel::Reference, rp, e)
                .map_err(Invalid)?;
            let ot = run
                .element_term(Kernel::Optimized, op, e)
                .map_err(Invalid)?;
            let (Some(lt), Some(ot)) = (lt, ot) else {
                return Err(Invalid(format!("element {e} vanished")));
            };
            work.push((n, rp, e, lt, ot));
        }
    }
    decided.store(0, std::sync::atomic::Ordering::Relaxed);
    let mut replay = Replay::new(run.view(), kcert_checker::check::ELEMENT_BUDGET);
    let mut screen = Screen::new(run.view());
    {
        for (n, rp, e, lt, ot) in work {
            // The cheap rule first: the same operations in the same order.
            let mut decision = decide(&mut replay, &mut screen, lt, ot);
            // The interpreter's witness for a non-exact difference, looked for once.
            let mut numeric = None;
            // The certified search is deterministic and costly (interpreter runs): once.
            let mut certify_tried = false;
            if let Decision::Different { exact: false } = decision {
                numeric = numeric_witness(&pair, n, e, &ref_text, &opt_text);
                if numeric.is_none() {
                    // Close values (an approximation against the exact function): certify.
                    certify_tried = true;
                    numeric = certified_witness(
                        &pair,
                        &run,
                        (n, e),
                        (lt, ot),
                        [&ref_text, &opt_text],
                        true,
                    );
                }
                if numeric.is_none() && replay.side_condition(lt, ot).is_ok() {
                    // The screen's points may be unrepresentative: let the rule decide.
                    decision = match replay.field(lt, ot) {
                        Ok(()) => Decision::Proved(Rule::FieldNormalize),
                        Err(field::FieldError::Different) => Decision::Different { exact: false },
                        Err(other) => Decision::Unknown(other.to_string()),
                    };
                }
            }
            // What no rule decides may still be refuted, by a certified witness only.
            if let Decision::Unknown(_) = decision
                && !certify_tried
                && let Some(w) =
                    certified_witness(&pair, &run, (n, e), (lt, ot), [&ref_text, &opt_text], true)
            {
                numeric = Some(w);
                decision = Decision::Different { exact: false };
            }
            let rule = match decision {
                Decision::Proved(rule) => rule,
                Decision::Different { exact } => {
                    let witness = if exact {
                        counterexample(&pair, &run, n, e, (lt, ot), &ref_text, &opt_text)
                    } else {
                        numeric
                    };
                    let literals = crate::literals::literal_pairs(&run.arena, lt, ot);
                    // Literals rounded two ways differ below f32's rounding: the enclosures
                    // certify the difference without the interpreter seeing it.
                    let witness = match witness {
                        None if literals.is_some() => certified_witness(
                            &pair,
                            &run,
                            (n, e),
                            (lt, ot),
                            [&ref_text, &opt_text],
                            false,
                        ),
                        w => w,
                    };
                    // Integer inputs range over a box: polynomials that differ may still agree
                    // on every integer point of it (x^2 = x on [0, 1]), so only a witness the
                    // interpreter confirms refutes.
                    let int_inputs = pair.inputs.iter().any(|&(rp, _)| {
                        matches!(pair.reference.params.get(rp), Some(Binding::Tensor(t))
                            if t.init.is_none() && kcert_checker::spec::int_bounds(t.dtype).is_some())
                    });
                    let confirmed = witness
                        .as_ref()
                        .is_some_and(|w| w.interpreted.0 != w.interpreted.1);
                    if int_inputs && !confirmed {
                        return Ok(Outcome::Unknown(format!(
                            "output {} element {e}: the polynomials differ but no integer input \
                             in the declared ranges separates the kernels",
                            tensor_name(&pair.reference, rp)
                        )));
                    }
                    if !exact && witness.is_none() {
                        return Ok(Outcome::Unknown(format!(
                            "output {} element {e}: the normal forms differ but no concrete input separates the kernels; \
                             equality may need a rule kcert does not have",
                            tensor_name(&pair.reference, rp)
                        )));
                    }
                    return Ok(Outcome::Refuted(Refutation::Value {
                        output: tensor_name(&pair.reference, rp),
                        element: e,
                        reference: run.arena.render_with(lt, 300, &input_name(&pair)),
                        optimized: run.arena.render_with(ot, 300, &input_name(&pair)),
                        witness,
                        literals,
                    }));
                }
                Decision::Unknown(why) => {
                    return Ok(Outcome::Unknown(format!(
                        "output {} element {e}: {why}",
                        tensor_name(&pair.reference, rp)
                    )));
                }
            };
            elements += 1;
            decided.store(elements, std::sync::atomic::Ordering::Relaxed);
            match steps.last_mut() {
                Some(s) if s.output == n as u32 && s.first + s.count == e && s.rule == rule => {
                    s.count += 1
                }
                _ => steps.push(Step {
                    output: n as u32,
                    first: e,
                    count: 1,
                    rule,
                }),
            }
        }
    }
    let mut claims = vec![
        Claim::Safe(Kernel::Reference),
        Claim::Safe(Kernel::Optimized),
    ];
    for kernel in [Kernel::Reference, Kernel::Optimized] {
        if let Some(side) = run.side(kernel) {
            claims.extend(
                side.fp_nondeterministic_lines()
                    .into_iter()
                    .map(|line| Claim::FpNondeterministic { kernel, line }),
            );
        }
    }
    claims.extend(
        pair.outputs
            .iter()
            .enumerate()
            .map(|(n, &(rp, _))| Claim::Equivalent {
                output: n as u32,
                elements: footprints[n].0.len() as u64,
                total: tensor_size(&pair.reference, rp),
            }),
    );
    claims.sort();
    // The semantic self-check kcert-check runs: a certificate it would reject is not written
    // (refutations need none: their witnesses are certified on their own).
    let digest = {
        let t = &pair.texts;
        cert::spec_digest(&t.pair, &t.reference, &t.optimized)
    };
    if let Err(e) = kcert_checker::selfcheck::check_pair(&pair, &run, &digest, [&config, &config]) {
        return Ok(Outcome::Unknown(e.to_string()));
    }
    let t = &pair.texts;
    let cert = Certificate {
        spec_sha256: cert::spec_digest(&t.pair, &t.reference, &t.optimized),
        ref_ptx_sha256: cert::sha256(ref_text.as_bytes()),
        opt_ptx_sha256: cert::sha256(opt_text.as_bytes()),
        ref_ptx_path: clean(&pair.reference.ptx),
        opt_ptx_path: clean(&pair.optimized.ptx),
        pair_spec: t.pair.clone(),
        ref_spec: t.reference.clone(),
        opt_spec: t.optimized.clone(),
        claims,
        steps,
        work: declared,
    };
    let reads = equiv::sized_read_lines(&pair, &run);
    Ok(Outcome::Proved {
        cert,
        elements,
        reads,
    })
}

/// What the decision procedure concluded for one element.
enum Decision {
    Proved(Rule),
    /// The terms differ: `exact` when as polynomials (so a point separating them exists), else
    /// only as normal forms (a numeric run must confirm before anything is reported).
    Different {
        exact: bool,
    },
    Unknown(String),
}

/// Tries the rules from cheapest to most general.
fn decide(
    replay: &mut Replay,
    screen: &mut Screen,
    lt: kcert_checker::term::TermId,
    ot: kcert_checker::term::TermId,
) -> Decision {
    if let Err(why) = replay.side_condition(lt, ot) {
        return Decision::Unknown(why);
    }
    if replay.congruent(lt, ot).is_ok() {
        return Decision::Proved(Rule::Congruent);
    }
    match replay.ring(lt, ot) {
        Ok(()) => return Decision::Proved(Rule::RingNormalize),
        Err(RingError::Different) => return Decision::Different { exact: true },
        Err(RingError::NotPolynomial(_)) => {}
        Err(other) => return Decision::Unknown(other.to_string()),
    }
    // Before normal forms (which cross-multiply): values far apart mean a witness is likely.
    if screen.far_apart(lt, ot) {
        return Decision::Different { exact: false };
    }
    match replay.field(lt, ot) {
        Ok(()) => Decision::Proved(Rule::FieldNormalize),
        Err(field::FieldError::Different) => Decision::Different { exact: false },
        Err(other) => Decision::Unknown(other.to_string()),
    }
}

/// The first seed where element `element` of output link `output` differs far beyond rounding
/// between the two kernels run concretely.
fn numeric_witness(
    pair: &PairSpec,
    output: usize,
    element: u64,
    ref_text: &str,
    opt_text: &str,
) -> Option<Counterexample> {
    for seed in 1..=4u64 {
        let values = random_link_values(pair, seed);
        let a = *concrete_outputs(
            pair,
            seed,
            Kernel::Reference,
            ref_text,
            &values,
            DEFAULT_MAX_WORK,
        )?
        .get(output)?
        .get(&element)?;
        let b = *concrete_outputs(
            pair,
            seed,
            Kernel::Optimized,
            opt_text,
            &values,
            DEFAULT_MAX_WORK,
        )?
        .get(output)?
        .get(&element)?;
        if far_apart(a, b) {
            return Some(Counterexample {
                exact: None,
                interpreted: (a, b),
                seed,
                certified: None,
            });
        }
    }
    None
}

/// Exact value of a polynomial at `point` (missing variables are an error, as is overflow).
fn eval(p: &PolyMap, point: &HashMap<u64, Coef>) -> Option<Coef> {
    let mut acc = Coef::ZERO;
    for (m, c) in p {
        let mut t = *c;
        for v in m.vars() {
            t = t.checked_mul(*point.get(v)?).ok()?;
        }
        acc = acc.checked_add(t).ok()?;
    }
    Some(acc)
}

/// Searches a few seeded inputs (every linked float input element k/8, k in -8..=8, exact in every
/// float format) for one where the two expansions differ exactly, then runs the interpreter
/// there. `None` when no seed separates them or evaluation overflows.
#[allow(clippy::too_many_arguments)]
fn counterexample(
    pair: &PairSpec,
    run: &PairRun,
    output: usize,
    element: u64,
    (lt, ot): (kcert_checker::term::TermId, kcert_checker::term::TermId),
    ref_text: &str,
    opt_text: &str,
) -> Option<Counterexample> {
    let mut pl = PolyMap::default();
    let mut po = PolyMap::default();
    let big = 1 << 28;
    ring::expand_into(&mut pl, &run.view(), lt, Coef::ONE, &mut Budget::new(big)).ok()?;
    ring::expand_into(&mut po, &run.view(), ot, Coef::ONE, &mut Budget::new(big)).ok()?;
    for seed in 1..=8u64 {
        let mut rng = Rng::new(seed);
        // Values per link, per element.
        let mut values: Vec<Vec<i64>> = Vec::new();
        // Per link: the exponent of its values' scale (-3: k/8; 0: integers, for integer
        // tensors, drawn inside their declared range).
        let mut scale: Vec<i32> = Vec::new();
        for (&(rp, _), (_, n, positive)) in pair.inputs.iter().zip(link_leaves(pair)) {
            match pair.reference.params.get(rp) {
                Some(Binding::Tensor(t)) if kcert_checker::spec::int_bounds(t.dtype).is_some() => {
                    let vs = (0..n)
                        .map(|_| crate::inputs::int_value(t, &mut rng) as i64)
                        .collect();
                    values.push(vs);
                    scale.push(0);
                }
                _ => {
                    values.push(
                        (0..n)
                            .map(|_| {
                                let k = (rng.next_u64() % 17) as i64 - 8;
                                if positive { k.abs().max(1) } else { k }
                            })
                            .collect(),
                    );
                    scale.push(-3);
                }
            }
        }
        let mut point = HashMap::new();
        for (i, vs) in values.iter().enumerate() {
            for (e, &k) in vs.iter().enumerate() {
                let c = Coef::from_dyadic(Dyadic::new(k < 0, k.unsigned_abs(), scale[i])).ok()?;
                point.insert(((i as u64) << 40) | e as u64, c);
            }
        }
        let (a, b) = (eval(&pl, &point)?, eval(&po, &point)?);
        if a == b {
            continue;
        }
        // The same point, as floats (k/8 is exact in every float format), in the interpreter.
        let shared: Vec<Vec<f64>> = values
            .iter()
            .zip(&scale)
            .map(|(vs, &sc)| vs.iter().map(|&v| v as f64 * 2f64.powi(sc)).collect())
            .collect();
        let at = |k: Kernel, text: &str| -> Option<f64> {
            concrete_outputs(pair, seed, k, text, &shared, DEFAULT_MAX_WORK)?
                .get(output)?
                .get(&element)
                .copied()
        };
        let interpreted = (
            at(Kernel::Reference, ref_text)?,
            at(Kernel::Optimized, opt_text)?,
        );
        return Some(Counterexample {
            exact: Some((a.to_f64(), b.to_f64())),
            interpreted,
            seed,
            certified: None,
        });
    }
    None
}

/// Attempts at a certified witness per element, and interpreter runs to confirm one.
const CERTIFY_ATTEMPTS: u64 = 48;
const CERTIFY_CONFIRMATIONS: u32 = 4;

/// Magnitudes tried first, each with both signs: where smooth approximations of one function
/// drift apart (GELU's tanh form is farthest from erf near |x| = 2.7), then smaller ones.
const MAGNITUDES: [f64; 9] = [2.7, 2.5, 2.2, 2.9, 2.0, 3.0, 1.5, 0.9, 0.5];

/// The values of `n` input leaves at witness attempt `k`: structured magnitudes first, then
/// seeded random values of magnitude 2 to 3, in [-4, 4) and in [-1, 1).
fn witness_values(k: u64, n: usize) -> Vec<f64> {
    let structured = 2 * MAGNITUDES.len() as u64;
    if k < structured {
        let sign = if k.is_multiple_of(2) { 1.0 } else { -1.0 };
        return (0..n)
            .map(|i| sign * MAGNITUDES[(k as usize / 2 + i) % MAGNITUDES.len()])
            .collect();
    }
    let mut rng = Rng::new(0xce47_1f1e ^ k);
    (0..n)
        .map(|_| match k % 3 {
            0 => {
                let m = 2.5 + rng.unit() / 2.0;
                if rng.next_u64() & 1 == 0 { m } else { -m }
            }
            1 => rng.unit() * 4.0,
            _ => rng.unit(),
        })
        .collect()
}

/// Searches for an input where element `element` of output link `output` has disjoint interval
/// enclosures on the two sides, and the interpreter's results there differ as well. `None`
/// when no attempt certifies (then nothing is reported as refuted).
fn certified_witness(
    pair: &PairSpec,
    run: &PairRun,
    (output, element): (usize, u64),
    (lt, ot): (kcert_checker::term::TermId, kcert_checker::term::TermId),
    [ref_text, opt_text]: [&str; 2],
    observed: bool,
) -> Option<Counterexample> {
    let leaves = interval::leaves(&run.view(), &[lt, ot])?;
    let dtype = |link: u32| {
        let &(rp, _) = pair.inputs.get(link as usize)?;
        pair.reference.leaf_input(rp).map(|l| l.0)
    };
    let dtypes: Vec<_> = leaves
        .iter()
        .map(|&(l, _)| dtype(l))
        .collect::<Option<_>>()?;
    // An integer leaf's witness value stays inside its declared range (a point outside it
    // is no input the claim is about).
    let int_range = |link: u32| match pair
        .inputs
        .get(link as usize)
        .and_then(|&(rp, _)| pair.reference.params.get(rp))
    {
        Some(Binding::Tensor(t)) if kcert_checker::spec::int_bounds(t.dtype).is_some() => {
            let (lo, hi) = kcert_checker::selfcheck::int_draw_range(t);
            Some((lo as f64, hi as f64))
        }
        _ => None,
    };
    let ranges: Vec<Option<(f64, f64)>> = leaves.iter().map(|&(l, _)| int_range(l)).collect();
    let name = input_name(pair);
    let positive: Vec<bool> = link_leaves(pair).into_iter().map(|l| l.2).collect();
    let mut confirmations = CERTIFY_CONFIRMATIONS;
    for k in 0..CERTIFY_ATTEMPTS {
        // Each value as the tensor's element type holds it, so both evaluations see one input.
        let values: Vec<f64> = witness_values(k, leaves.len())
            .into_iter()
            .zip(&dtypes)
            .zip(&ranges)
            .zip(&leaves)
            .map(|(((v, &d), r), &(l, _))| {
                let v = match r {
                    Some((lo, hi)) => v.round().clamp(*lo, *hi),
                    None if positive.get(l as usize).copied().unwrap_or(false) => v.abs(),
                    None => v,
                };
                decode(encode(v, d), d)
            })
            .collect();
        let point: HashMap<(u32, u64), f64> = leaves.iter().copied().zip(values.clone()).collect();
        let mut ev = Evaluator::new(run.view(), &point);
        let (IVal::Num(a), IVal::Num(b)) = (ev.eval(lt), ev.eval(ot)) else {
            continue;
        };
        if !a.disjoint(b) {
            continue;
        }
        confirmations = confirmations.checked_sub(1)?;
        let seed = k + 1;
        let mut shared = random_link_values(pair, seed);
        for (&(l, i), &v) in leaves.iter().zip(&values) {
            *shared
                .get_mut(l as usize)?
                .get_mut(usize::try_from(i).ok()?)? = v;
        }
        let at = |side: Kernel, text: &str| -> Option<f64> {
            concrete_outputs(pair, seed, side, text, &shared, DEFAULT_MAX_WORK)?
                .get(output)?
                .get(&element)
                .copied()
        };
        let interpreted = (
            at(Kernel::Reference, ref_text)?,
            at(Kernel::Optimized, opt_text)?,
        );
        // Unless asked for (`observed`), the interpreter need not see the difference: the
        // enclosures alone certify that the reals differ (literals rounded two ways).
        if observed && interpreted.0 == interpreted.1 {
            continue;
        }
        return Some(Counterexample {
            exact: None,
            interpreted,
            seed,
            certified: Some(Certified {
                point: leaves
                    .iter()
                    .zip(&values)
                    .map(|(&(l, i), &v)| (name(l, i), v))
                    .collect(),
                reference: a,
                optimized: b,
            }),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{far_apart, hint_difference};

    /// NaN and infinities are differences for a hint, never "no difference beyond rounding",
    /// and never a witness of a real difference either.
    #[test]
    fn non_finite_outputs_are_never_agreement() {
        for (a, b) in [
            (f64::NAN, 1.0),
            (1.0, f64::NAN),
            (f64::NAN, f64::NAN),
            (f64::INFINITY, 1.0),
            (f64::INFINITY, f64::NEG_INFINITY),
            (f64::INFINITY, f64::INFINITY),
        ] {
            let why = hint_difference(a, Some(b)).unwrap_or_default();
            assert!(why.contains("not finite"), "{a} vs {b}: {why:?}");
            assert!(!far_apart(a, b), "{a} vs {b} is no witness");
        }
        assert_eq!(hint_difference(1.0, Some(1.0 + 1e-7)), None);
        assert!(hint_difference(1.0, Some(2.0)).is_some());
        assert!(hint_difference(1.0, None).is_some());
    }
}
