//! `kcert`: analyze kernel instances, run them concretely, measure the executor.

use clap::{Parser, Subcommand, ValueEnum};
use kcert::verdict::{self, exit};
use kcert_checker::cert::Kernel;
use kcert_checker::exec::{Config, Mode};
use kcert_checker::instance::Instance;
use kcert_checker::spec::Binding;
use kcert_checker::{errln, out, outln};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "kcert",
    version,
    about = "Prove GPU kernels safe (and, later, equivalent) from their PTX"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

/// How a command reports: text for people, or one JSON object (docs/json-schema.md).
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Subcommand)]
enum Cmd {
    /// Safety analysis of one kernel instance: races, barriers, bounds, uninitialized reads.
    /// Exit 0: proved safe; 1: finding; 2: unsupported, partial or limit; 3: invalid input;
    /// 64: usage error.
    Analyze {
        /// The instance spec (TOML).
        spec: PathBuf,
        /// Execute at most this many CTAs; larger grids get a partial (UNKNOWN) verdict.
        #[arg(long, default_value_t = 4096)]
        max_ctas: u64,
        /// Findings printed in full.
        #[arg(long, default_value_t = 8)]
        show: usize,
        /// Work the run may do: lane-instructions plus term comparisons, all CTAs together.
        #[arg(long, default_value_t = kcert_checker::exec::DEFAULT_MAX_WORK)]
        max_work: u64,
        /// text, or one JSON object (docs/json-schema.md).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Run an instance on concrete inputs with the interpreter and print or write its outputs.
    /// Exit 0: every CTA ran; 1: finding; 2: the grid was run in part (--max-ctas) or a limit;
    /// 3: invalid input.
    Run {
        spec: PathBuf,
        /// Seed of the random inputs (uniform in [-1, 1)), for tensors not given by --input.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// NAME=FILE: raw little-endian contents of input tensor NAME.
        #[arg(long = "input", value_name = "NAME=FILE")]
        inputs: Vec<String>,
        /// The value of a symbolic scalar (otherwise a seeded random one, which is printed).
        #[arg(long = "scalar", value_name = "NAME=VALUE")]
        scalars: Vec<String>,
        /// Write each output tensor as raw little-endian bytes to DIR/NAME.bin.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Output elements printed per tensor.
        #[arg(long, default_value_t = 8)]
        show: usize,
        /// Execute at most this many CTAs; a larger grid is run in part and exits 2.
        #[arg(long, default_value_t = 4096)]
        max_ctas: u64,
        /// Work the run may do: lane-instructions, all CTAs together (and any one thread).
        #[arg(long, default_value_t = kcert_checker::exec::DEFAULT_MAX_WORK)]
        max_work: u64,
    },
    /// Prove an optimized kernel equivalent to its reference (and both safe); write a
    /// certificate. Exit 0: proved; 1: refuted (with evidence); 2: unknown; 3: invalid input.
    Prove {
        /// The pair spec (TOML).
        pair: PathBuf,
        /// Where to write the certificate.
        #[arg(short, long)]
        output: PathBuf,
        /// Work each kernel's symbolic run may do: lane-instructions plus term comparisons.
        #[arg(long, default_value_t = kcert_checker::exec::DEFAULT_MAX_WORK)]
        max_work: u64,
        /// text, or one JSON object (docs/json-schema.md).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// For every pair in kernels/pairs: verdict, prove time, check time, certificate bytes.
    /// Exit 0: every pair as expected; 1: some pair not; 3: no corpus.
    Corpus {
        #[arg(long, default_value = "kernels")]
        kernels: PathBuf,
        /// text, or JSON Lines: one object per pair, then a summary object.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Write a certificate's equivalence part in the plain exchange format read by the Lean
    /// model's executable (lean/exec, `kcert-lean-check`). Exit 0: written; 3: invalid input.
    LeanExport {
        /// The certificate.
        cert: PathBuf,
        /// The two PTX files (default: the paths the certificate records).
        #[arg(long, num_args = 2, value_names = ["REF", "OPT"])]
        ptx: Option<Vec<PathBuf>>,
        /// Where to write the exchange file.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Symbolic execution throughput on the corpus' tiled matmuls (64x64 tile, K=4096).
    Bench {
        /// The kernels/ directory.
        #[arg(long, default_value = "kernels")]
        kernels: PathBuf,
        #[arg(long, default_value_t = 4096)]
        k: u64,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            // Help and version are answers; anything else is a usage error, with its own code
            // (clap's default, 2, is a verdict here: unknown).
            let code = match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => exit::PROVED,
                _ => exit::USAGE,
            };
            let _ = e.print();
            return ExitCode::from(code as u8);
        }
    };
    let code = match cli.cmd {
        Cmd::Analyze {
            spec,
            max_ctas,
            show,
            max_work,
            format,
        } => analyze(spec, max_ctas, show, max_work, format),
        Cmd::Run {
            spec,
            seed,
            inputs,
            scalars,
            out,
            show,
            max_ctas,
            max_work,
        } => run(spec, seed, inputs, scalars, out, show, (max_ctas, max_work)),
        Cmd::Bench { kernels, k } => bench(kernels, k),
        Cmd::Prove {
            pair,
            output,
            max_work,
            format,
        } => prove(pair, output, max_work, format),
        Cmd::Corpus { kernels, format } => corpus(kernels, format),
        Cmd::LeanExport { cert, ptx, output } => lean_export(cert, ptx, output),
    };
    ExitCode::from(code as u8)
}

fn analyze(path: PathBuf, max_ctas: u64, show: usize, max_work: u64, format: Format) -> i32 {
    let start = std::time::Instant::now();
    let subject = path.display().to_string();
    let config = Config {
        max_ctas,
        max_work,
        max_steps_per_thread: max_work,
        ..Config::default()
    };
    let json = |spec, run, code| {
        let v = kcert::json::analyze(
            &subject,
            spec,
            run,
            code,
            &config,
            start.elapsed().as_secs_f64(),
        );
        outln!("{v}");
        code
    };
    let inst = match Instance::load(&path) {
        Ok(i) => i,
        Err(e) if format == Format::Json => {
            return json(None, Err(&fail_text(&e)), verdict::exit_code_of_error(&e));
        }
        Err(e) => return fail(&e),
    };
    match inst.run(Mode::Symbolic, &Default::default(), &config) {
        Ok(o) => {
            let (text, code) = verdict::render(&subject, &inst.spec, &o, show);
            if format == Format::Json {
                return json(Some(&inst.spec), Ok(&o), code);
            }
            out!("{text}");
            code
        }
        Err(e) if format == Format::Json => json(
            Some(&inst.spec),
            Err(&fail_text(&e)),
            verdict::exit_code_of_error(&e),
        ),
        Err(e) => fail(&e),
    }
}

/// An error's message, with the flag that raises the limit it hit.
fn fail_text(e: &kcert_checker::instance::Error) -> String {
    let hint = match e {
        kcert_checker::instance::Error::Exec {
            err: kcert_checker::exec::ExecError::Work { .. },
            ..
        } => "; raise the limit with --max-work",
        _ => "",
    };
    format!("{e}{hint}")
}

fn fail(e: &kcert_checker::instance::Error) -> i32 {
    let code = verdict::exit_code_of_error(e);
    let what = if code == exit::INVALID {
        "invalid input"
    } else {
        "unknown"
    };
    errln!("kcert: {what}: {}", fail_text(e));
    code
}

fn run(
    path: PathBuf,
    seed: u64,
    given: Vec<String>,
    scalars: Vec<String>,
    out: Option<PathBuf>,
    show: usize,
    (max_ctas, max_work): (u64, u64),
) -> i32 {
    let inst = match Instance::load(&path) {
        Ok(i) => i,
        Err(e) => return fail(&e),
    };
    let mut inputs = kcert::inputs::random(&inst.spec, seed);
    for g in &given {
        let Some((name, file)) = g.split_once('=') else {
            errln!("kcert: invalid input: --input takes NAME=FILE, got {g:?}");
            return exit::INVALID;
        };
        match kcert::inputs::read_tensor(&inst.spec, name, file.as_ref()) {
            Ok((i, data)) => {
                inputs.insert(i, data);
            }
            Err(e) => {
                errln!("kcert: invalid input: {e}");
                return exit::INVALID;
            }
        }
    }
    let mut chosen = std::collections::HashSet::new();
    for g in &scalars {
        match kcert::inputs::scalar_value(&inst.spec, g) {
            Ok((i, bits, _)) => {
                inputs.insert(i, vec![bits]);
                chosen.insert(i);
            }
            Err(e) => {
                errln!("kcert: invalid input: {e}");
                return exit::INVALID;
            }
        }
    }
    // Say which value each symbolic scalar took, and where it came from.
    for (i, name) in inst.spec.symbolics() {
        let dtype = match inst.spec.params.get(i) {
            Some(Binding::Symbolic { dtype, .. }) => *dtype,
            _ => continue,
        };
        let v = inputs
            .get(&i)
            .and_then(|d| d.first())
            .map_or(f64::NAN, |&b| kcert::inputs::decode(b, dtype));
        let from = if chosen.contains(&i) {
            "given with --scalar".to_string()
        } else {
            format!("seeded random, seed {seed}; set it with --scalar {name}=VALUE")
        };
        outln!("symbolic scalar {name} = {v} ({from})");
    }
    let config = Config {
        max_ctas,
        max_work,
        max_steps_per_thread: max_work,
        ..Config::default()
    };
    let o = match inst.run(Mode::Concrete, &inputs, &config) {
        Ok(o) => o,
        Err(e) => return fail(&e),
    };
    for f in &o.findings {
        kcert_checker::out!("warning: {f}");
    }
    for (param, vals) in &o.outputs {
        let Some(Binding::Tensor(t)) = inst.spec.params.get(*param) else {
            continue;
        };
        outln!(
            "{} ({} of {} elements written):",
            t.name,
            vals.len(),
            t.elements()
        );
        for (i, v) in vals.iter().take(show) {
            let text = match v.bits() {
                Some(b) => format!("{}", kcert::inputs::decode(b, t.dtype)),
                None => format!("{v:?}"),
            };
            outln!("  [{i}] = {text}");
        }
        if let Some(dir) = &out {
            let w = t.dtype.size() as usize;
            let mut bytes = vec![0u8; (t.elements() as usize) * w];
            for (i, v) in vals {
                let b = v.bits().unwrap_or(0).to_le_bytes();
                let at = *i as usize * w;
                bytes[at..at + w].copy_from_slice(&b[..w]);
            }
            let file = dir.join(format!("{}.bin", t.name));
            if let Err(e) = std::fs::create_dir_all(dir).and_then(|_| std::fs::write(&file, bytes))
            {
                errln!("kcert: cannot write {}: {e}", file.display());
                return exit::INVALID;
            }
        }
    }
    if !o.findings.is_empty() {
        return exit::REFUTED;
    }
    if !o.coverage.complete() {
        errln!(
            "kcert: unknown: only {} of the grid's {} CTAs ran (--max-ctas {max_ctas}); the \
             elements the others write are missing above; raise --max-ctas to run the whole grid",
            o.coverage.executed.len(),
            o.coverage.total
        );
        return exit::UNKNOWN;
    }
    exit::PROVED
}

fn bench(kernels: PathBuf, k: u64) -> i32 {
    match kcert::bench::default_suite(&kernels, k) {
        Ok(ms) => {
            for m in ms {
                outln!(
                    "{}: {} lane-instructions in {:.3} s = {:.1} M lane-instructions/s ({} terms, {} findings)",
                    m.name,
                    m.lane_instructions,
                    m.seconds,
                    m.rate() / 1e6,
                    m.terms,
                    m.findings
                );
            }
            exit::PROVED
        }
        Err(e) => {
            errln!("kcert bench: {e}");
            exit::INVALID
        }
    }
}

/// One line per output link of a proved pair: how much of the tensor the claim covers; whether
/// some claim is partial; the scope when a spec names its CTAs.
fn coverage_lines(
    cert: &kcert_checker::cert::Certificate,
) -> (Vec<String>, bool, Option<String>, String) {
    let pair = kcert_checker::pair::PairSpec::from_texts(
        kcert_checker::pair::SpecTexts {
            pair: cert.pair_spec.clone(),
            reference: cert.ref_spec.clone(),
            optimized: cert.opt_spec.clone(),
        },
        ".".as_ref(),
        ".".as_ref(),
    )
    .ok();
    let name = |n: u32| {
        let (rp, _) = *pair.as_ref()?.outputs.get(n as usize)?;
        match pair.as_ref()?.reference.params.get(rp)? {
            Binding::Tensor(t) => Some(t.name.clone()),
            _ => None,
        }
    };
    let mut partial = false;
    let lines = cert
        .claims
        .iter()
        .filter_map(|c| match *c {
            kcert_checker::cert::Claim::Equivalent {
                output,
                elements,
                total,
            } => {
                let inout = pair
                    .as_ref()
                    .is_some_and(|p| p.output_is_inout(output as usize));
                partial |= elements < total && !inout;
                let out = name(output).unwrap_or_else(|| format!("output link {output}"));
                Some(if elements < total && inout {
                    format!(
                        "{out} (inout): {elements} of {total} elements written by both and proved equal; the other {} are written by neither and keep their initial value, the same linked input on both sides",
                        total - elements
                    )
                } else if elements < total {
                    format!(
                        "{out}: proved for {elements} of {total} elements; {} not written by either kernel",
                        total - elements
                    )
                } else {
                    format!("{out}: all {total} of {total} elements")
                })
            }
            kcert_checker::cert::Claim::FpNondeterministic { .. } => None,
            kcert_checker::cert::Claim::Safe(_) => None,
        })
        .collect::<Vec<_>>();
    let scope = pair.as_ref().filter(|p| p.scoped()).map(|p| p.scope());
    let for_all = pair
        .as_ref()
        .map_or_else(|| "all inputs".to_string(), |p| p.for_all());
    let mut lines = lines;
    for kernel in [Kernel::Reference, Kernel::Optimized] {
        let at: Vec<String> = kcert_checker::cert::fp_nondeterministic_lines(&cert.claims, kernel)
            .iter()
            .map(u32::to_string)
            .collect();
        if !at.is_empty() {
            lines.push(format!(
                "fp-nondeterministic: the {kernel:?} kernel's unordered writes at PTX lines {} \
                 store values equal over the reals whose bits may differ between runs",
                at.join(", ")
            ));
        }
    }
    (lines, partial, scope, for_all)
}

/// `to` relative to directory `from`, both made absolute against the working directory and
/// read lexically (`..` for each component of `from` past the common part); absolute when the
/// two share nothing below the root.
fn relative_to(from: &Path, to: &Path) -> String {
    let norm = |p: &Path| -> Vec<String> {
        let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        let mut parts: Vec<String> = Vec::new();
        for c in abs.components() {
            match c {
                std::path::Component::ParentDir => {
                    parts.pop();
                }
                std::path::Component::CurDir => {}
                other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
            }
        }
        parts
    };
    let (f, t) = (norm(from), norm(to));
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    // Sharing only the root (or a drive): the absolute path says more than a climb to `/`.
    if common <= 1 {
        return t.join("/").replacen("//", "/", 1);
    }
    let mut out: Vec<String> = vec!["..".into(); f.len() - common];
    out.extend(t[common..].iter().cloned());
    out.join("/")
}

/// Writes the certificate to `output`, its PTX paths made relative to the certificate's
/// directory (so that it checks from anywhere beside its PTX); its size, or the exit code.
fn write_cert(
    cert: &mut kcert_checker::cert::Certificate,
    pair: &kcert_checker::pair::PairSpec,
    output: &Path,
) -> Result<usize, i32> {
    let dir = output.parent().unwrap_or(Path::new(""));
    cert.ref_ptx_path = relative_to(dir, &pair.reference.ptx);
    cert.opt_ptx_path = relative_to(dir, &pair.optimized.ptx);
    let bytes = match cert.to_bytes() {
        Ok(b) => b,
        Err(e) => {
            errln!("kcert: {e}");
            return Err(exit::UNKNOWN);
        }
    };
    if let Err(e) = std::fs::write(output, &bytes) {
        errln!("kcert: cannot write {}: {e}", output.display());
        return Err(exit::INVALID);
    }
    Ok(bytes.len())
}

fn prove(pair: PathBuf, output: PathBuf, max_work: u64, format: Format) -> i32 {
    use kcert::prove::{Options, Outcome, Refutation};
    let start = std::time::Instant::now();
    let options = Options { max_work };
    let subject = pair.display().to_string();
    let loaded = kcert::prove::prove_with(&pair, &options).and_then(|o| {
        // Loaded again (cheap) for the certificate's paths and the report's scope.
        let p = kcert_checker::pair::PairSpec::load(&pair).map_err(kcert::prove::Invalid)?;
        Ok((o, p))
    });
    let (mut outcome, spec) = match loaded {
        Ok(x) => x,
        Err(kcert::prove::Invalid(e)) => {
            if format == Format::Json {
                let v = kcert::json::prove(&kcert::json::ProveReport {
                    subject: &subject,
                    pair: None,
                    outcome: Err(&e),
                    code: exit::INVALID,
                    message: &e,
                    max_work,
                    seconds: start.elapsed().as_secs_f64(),
                    certificate: None,
                });
                outln!("{v}");
            } else {
                errln!("kcert: invalid input: {e}");
            }
            return exit::INVALID;
        }
    };
    let written = match &mut outcome {
        Outcome::Proved { cert, .. } => match write_cert(cert, &spec, &output) {
            Ok(n) => Some(n),
            Err(code) => return code,
        },
        _ => None,
    };
    if format == Format::Json {
        let (code, message) = match &outcome {
            Outcome::Proved { elements, .. } => (
                exit::PROVED,
                format!("both kernels safe, {elements} output elements equal for all inputs"),
            ),
            Outcome::Refuted(r) => (
                exit::REFUTED,
                match r {
                    Refutation::Unsafe { kernel, .. } => {
                        format!("the {kernel:?} kernel is unsafe")
                    }
                    Refutation::Footprint {
                        output,
                        element,
                        by,
                    } => format!("{output}[{element}] is written by the {by:?} kernel only"),
                    Refutation::Value {
                        output, element, ..
                    } => format!("{output}[{element}] differs"),
                },
            ),
            Outcome::Unknown(why) => (exit::UNKNOWN, why.clone()),
        };
        let cert_path = output.display().to_string();
        let v = kcert::json::prove(&kcert::json::ProveReport {
            subject: &subject,
            pair: Some(&spec),
            outcome: Ok(&outcome),
            code,
            message: &message,
            max_work,
            seconds: start.elapsed().as_secs_f64(),
            certificate: written.map(|n| (cert_path.as_str(), n)),
        });
        outln!("{v}");
        return code;
    }
    match outcome {
        Outcome::Proved {
            cert,
            elements,
            reads,
        } => {
            let bytes_len = written.unwrap_or(0);
            let (lines, partial, scope, for_all) = coverage_lines(&cert);
            let fp = cert
                .claims
                .iter()
                .any(|c| matches!(c, kcert_checker::cert::Claim::FpNondeterministic { .. }));
            let safe = if fp {
                "both kernels safe over the reals (with fp-nondeterministic writes, below)"
            } else {
                "both kernels safe"
            };
            let note = kcert_checker::pair::PairSpec::load(&pair)
                .map(|p| p.data_note())
                .unwrap_or_default();
            let for_all = format!("{for_all}{note}");
            if let Some(scope) = &scope {
                outln!(
                    "PROVED {} (SCOPED): proved only for the CTAs the specs name ({scope}): {safe} there, {elements} output elements they write equal for {}; nothing is claimed for the rest of the grid ({} steps)",
                    pair.display(),
                    for_all,
                    cert.steps.len()
                );
            } else if partial {
                outln!(
                    "PROVED {} (PARTIAL): {safe}; outputs equal for {} only on the {elements} elements both write ({} steps)",
                    pair.display(),
                    for_all,
                    cert.steps.len()
                );
            } else {
                outln!(
                    "PROVED {}: {safe}, {elements} output elements equal for {}, every element of every output ({} steps)",
                    pair.display(),
                    for_all,
                    cert.steps.len()
                );
            }
            for l in lines.iter().chain(&reads) {
                outln!("  {l}");
            }
            outln!("  certificate: {} ({bytes_len} bytes)", output.display());
            exit::PROVED
        }
        Outcome::Refuted(r) => {
            out!("REFUTED {}: ", pair.display());
            match r {
                Refutation::Unsafe { kernel, report, .. } => {
                    out!("the {kernel:?} kernel is unsafe\n  {report}")
                }
                Refutation::Footprint {
                    output,
                    element,
                    by,
                } => {
                    outln!("{output}[{element}] is written by the {by:?} kernel only")
                }
                Refutation::Value {
                    output,
                    element,
                    reference,
                    optimized,
                    witness,
                    literals,
                } => {
                    match &literals {
                        Some(pairs) => {
                            outln!(
                                "{output}[{element}] differs, ONLY IN LITERALS: the two kernels perform the same operations on the \
                                 same inputs; their normal forms become equal once these literal pairs are identified:"
                            );
                            for p in pairs {
                                outln!(
                                    "  literal {:e} (reference) vs {:e} (optimized): relative difference {:.1e}",
                                    p.reference,
                                    p.optimized,
                                    p.relative
                                );
                            }
                        }
                        None => outln!("{output}[{element}] differs"),
                    }
                    outln!("  reference: {reference}");
                    outln!("  optimized: {optimized}");
                    match witness {
                        Some(kcert::prove::Counterexample {
                            certified: Some(c),
                            interpreted: (r, o),
                            ..
                        }) => {
                            let shown: Vec<String> = c
                                .point
                                .iter()
                                .take(8)
                                .map(|(n, v)| format!("{n} = {v}"))
                                .collect();
                            let more = c.point.len().saturating_sub(shown.len());
                            let more = if more > 0 {
                                format!(" and {more} more")
                            } else {
                                String::new()
                            };
                            let (a, b) = (c.reference, c.optimized);
                            let gap = (b.lo - a.hi).max(a.lo - b.hi);
                            outln!(
                                "  certified counterexample at {}{more} (the input elements {output}[{element}] reads):",
                                shown.join(", ")
                            );
                            outln!(
                                "    reference value in [{:e}, {:e}]\n    optimized value in [{:e}, {:e}]",
                                a.lo,
                                a.hi,
                                b.lo,
                                b.hi
                            );
                            outln!(
                                "    difference (reference - optimized) in [{:e}, {:e}]: the real values differ by at least {gap:e} \
                                 (rigorous interval evaluation of both terms, outward rounding; not rounding error)",
                                a.lo - b.hi,
                                a.hi - b.lo
                            );
                            let below = if r == o {
                                " (the difference is below f32 rounding at this input)"
                            } else {
                                ""
                            };
                            outln!(
                                "    the concrete interpreter (fp32) computes {r} (reference) vs {o} (optimized), difference {:e}{below}",
                                r - o
                            );
                        }
                        Some(w) => match w.exact {
                            Some((x, y)) => outln!(
                                "  counterexample (seed {}: every linked float input element k/8, k in -8..=8, integer inputs seeded in their ranges): exact values {x} vs {y} \
                                 (difference {}); the concrete interpreter computes {} vs {}",
                                w.seed,
                                x - y,
                                w.interpreted.0,
                                w.interpreted.1
                            ),
                            None => outln!(
                                "  evidence (seed {}: random float inputs in [-4, 4), integer inputs in their ranges): the concrete interpreter computes {} vs {}, \
                                 far beyond rounding (a numeric witness, not an exact one)",
                                w.seed,
                                w.interpreted.0,
                                w.interpreted.1
                            ),
                        },
                        None => outln!(
                            "  (the two normal forms differ as polynomials; no seeded input separated them within budget)"
                        ),
                    }
                    if literals.is_some() {
                        return exit::LITERALS;
                    }
                }
            }
            exit::REFUTED
        }
        Outcome::Unknown(why) => {
            outln!("UNKNOWN {}: {why}", pair.display());
            exit::UNKNOWN
        }
    }
}

fn corpus(kernels: PathBuf, format: Format) -> i32 {
    match kcert::corpus::report(&kernels) {
        Ok(rows) => {
            if format == Format::Json {
                for r in &rows {
                    outln!("{}", kcert::json::corpus_row(r));
                }
                outln!("{}", kcert::json::corpus_summary(&rows));
            } else {
                out!("{}", kcert::corpus::render(&rows));
            }
            if rows.iter().all(|r| r.as_expected) {
                exit::PROVED
            } else {
                exit::REFUTED
            }
        }
        Err(e) => {
            errln!("kcert corpus: {e}");
            exit::INVALID
        }
    }
}

fn lean_export(cert: PathBuf, ptx: Option<Vec<PathBuf>>, output: PathBuf) -> i32 {
    let go = || -> Result<String, String> {
        let read = |p: &PathBuf| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
        let c = kcert_checker::cert::Certificate::from_bytes(&read(&cert)?)
            .map_err(|e| format!("{}: {e}", cert.display()))?;
        let paths = match ptx {
            Some(v) => (v[0].clone(), v[1].clone()),
            None => (
                kcert_checker::cert::resolve_ptx(&cert, &c.ref_ptx_path)?,
                kcert_checker::cert::resolve_ptx(&cert, &c.opt_ptx_path)?,
            ),
        };
        let text = |p: &PathBuf| {
            String::from_utf8(read(p)?).map_err(|_| format!("{}: not UTF-8", p.display()))
        };
        let x = kcert::lean_export::export(&c, &text(&paths.0)?, &text(&paths.1)?)?;
        std::fs::write(&output, &x.text).map_err(|e| format!("{}: {e}", output.display()))?;
        Ok(format!(
            "wrote {}: {} nodes, {} element terms, largest unfolded term {} nodes",
            output.display(),
            x.nodes,
            x.elements,
            x.max_tree
        ))
    };
    match go() {
        Ok(msg) => {
            outln!("{msg}");
            exit::PROVED
        }
        Err(e) => {
            errln!("kcert: invalid input: {e}");
            exit::INVALID
        }
    }
}
