//! `kcert`: analyze kernel instances, run them concretely, measure the executor.

use clap::{Parser, Subcommand};
use kcert::verdict::{self, exit};
use kcert_checker::exec::{Config, Mode};
use kcert_checker::instance::Instance;
use kcert_checker::spec::Binding;
use kcert_checker::{errln, out, outln};
use std::path::PathBuf;
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

#[derive(Subcommand)]
enum Cmd {
    /// Safety analysis of one kernel instance: races, barriers, bounds, uninitialized reads.
    /// Exit 0: proved safe; 1: finding; 2: unsupported, partial or limit; 3: invalid input.
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
    },
    /// Run an instance on concrete inputs with the interpreter and print or write its outputs.
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
    },
    /// For every pair in kernels/pairs: verdict, prove time, check time, certificate bytes.
    Corpus {
        #[arg(long, default_value = "kernels")]
        kernels: PathBuf,
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
    let cli = Cli::parse();
    let code = match cli.cmd {
        Cmd::Analyze {
            spec,
            max_ctas,
            show,
            max_work,
        } => analyze(spec, max_ctas, show, max_work),
        Cmd::Run {
            spec,
            seed,
            inputs,
            scalars,
            out,
            show,
        } => run(spec, seed, inputs, scalars, out, show),
        Cmd::Bench { kernels, k } => bench(kernels, k),
        Cmd::Prove {
            pair,
            output,
            max_work,
        } => prove(pair, output, max_work),
        Cmd::Corpus { kernels } => corpus(kernels),
        Cmd::LeanExport { cert, ptx, output } => lean_export(cert, ptx, output),
    };
    ExitCode::from(code as u8)
}

fn analyze(path: PathBuf, max_ctas: u64, show: usize, max_work: u64) -> i32 {
    let inst = match Instance::load(&path) {
        Ok(i) => i,
        Err(e) => return fail(&e),
    };
    let config = Config {
        max_ctas,
        max_work,
        max_steps_per_thread: max_work,
        ..Config::default()
    };
    match inst.run(Mode::Symbolic, &Default::default(), &config) {
        Ok(o) => {
            let (text, code) = verdict::render(&path.display().to_string(), &inst.spec, &o, show);
            out!("{text}");
            code
        }
        Err(e) => fail(&e),
    }
}

fn fail(e: &kcert_checker::instance::Error) -> i32 {
    let code = verdict::exit_code_of_error(e);
    let what = if code == exit::INVALID {
        "invalid input"
    } else {
        "unknown"
    };
    let hint = match e {
        kcert_checker::instance::Error::Exec {
            err: kcert_checker::exec::ExecError::Work { .. },
            ..
        } => "; raise the limit with --max-work",
        _ => "",
    };
    errln!("kcert: {what}: {e}{hint}");
    code
}

fn run(
    path: PathBuf,
    seed: u64,
    given: Vec<String>,
    scalars: Vec<String>,
    out: Option<PathBuf>,
    show: usize,
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
    let o = match inst.run(Mode::Concrete, &inputs, &Config::default()) {
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
    if o.findings.is_empty() {
        exit::PROVED
    } else {
        exit::REFUTED
    }
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
            kcert_checker::cert::Claim::Safe(_) => None,
        })
        .collect();
    let scope = pair.as_ref().filter(|p| p.scoped()).map(|p| p.scope());
    let for_all = pair
        .as_ref()
        .map_or_else(|| "all inputs".to_string(), |p| p.for_all());
    (lines, partial, scope, for_all)
}

fn prove(pair: PathBuf, output: PathBuf, max_work: u64) -> i32 {
    use kcert::prove::{Options, Outcome, Refutation};
    let options = Options { max_work };
    let outcome = match kcert::prove::prove_with(&pair, &options) {
        Ok(o) => o,
        Err(e) => {
            errln!("kcert: invalid input: {}", e.0);
            return exit::INVALID;
        }
    };
    match outcome {
        Outcome::Proved {
            cert,
            elements,
            reads,
        } => {
            let bytes = match cert.to_bytes() {
                Ok(b) => b,
                Err(e) => {
                    errln!("kcert: {e}");
                    return exit::UNKNOWN;
                }
            };
            if let Err(e) = std::fs::write(&output, &bytes) {
                errln!("kcert: cannot write {}: {e}", output.display());
                return exit::INVALID;
            }
            let (lines, partial, scope, for_all) = coverage_lines(&cert);
            if let Some(scope) = &scope {
                outln!(
                    "PROVED {} (SCOPED): proved only for the CTAs the specs name ({scope}): both kernels safe there, {elements} output elements they write equal for {}; nothing is claimed for the rest of the grid ({} steps)",
                    pair.display(),
                    for_all,
                    cert.steps.len()
                );
            } else if partial {
                outln!(
                    "PROVED {} (PARTIAL): both kernels safe; outputs equal for {} only on the {elements} elements both write ({} steps)",
                    pair.display(),
                    for_all,
                    cert.steps.len()
                );
            } else {
                outln!(
                    "PROVED {}: both kernels safe, {elements} output elements equal for {}, every element of every output ({} steps)",
                    pair.display(),
                    for_all,
                    cert.steps.len()
                );
            }
            for l in lines.iter().chain(&reads) {
                outln!("  {l}");
            }
            outln!(
                "  certificate: {} ({} bytes)",
                output.display(),
                bytes.len()
            );
            exit::PROVED
        }
        Outcome::Refuted(r) => {
            out!("REFUTED {}: ", pair.display());
            match r {
                Refutation::Unsafe { kernel, report } => {
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
                } => {
                    outln!("{output}[{element}] differs");
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
                            outln!(
                                "    the concrete interpreter (fp32) computes {r} (reference) vs {o} (optimized), difference {:e}",
                                r - o
                            );
                        }
                        Some(w) => match w.exact {
                            Some((x, y)) => outln!(
                                "  counterexample (seed {}: every linked input element k/8, k in -8..=8): exact values {x} vs {y} \
                                 (difference {}); the concrete interpreter computes {} vs {}",
                                w.seed,
                                x - y,
                                w.interpreted.0,
                                w.interpreted.1
                            ),
                            None => outln!(
                                "  evidence (seed {}: random inputs in [-4, 4)): the concrete interpreter computes {} vs {}, \
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

fn corpus(kernels: PathBuf) -> i32 {
    match kcert::corpus::report(&kernels) {
        Ok(rows) => {
            out!("{}", kcert::corpus::render(&rows));
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
                PathBuf::from(&c.ref_ptx_path),
                PathBuf::from(&c.opt_ptx_path),
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
