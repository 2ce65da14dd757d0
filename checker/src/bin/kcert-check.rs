//! `kcert-check`: re-validates certificates with the trusted checker alone.
//!
//! ```text
//! kcert-check CERT... [--ptx REF.ptx OPT.ptx] [--spec PAIR.toml] [--explain]
//!             [--require safety|equivalence|full-equivalence] [--max-work N]
//!             [--format text|json] [--help] [--version]
//! ```
//! Without `--ptx`, the PTX files are those of `--spec`'s pair when given, else the paths each
//! certificate records, relative to the certificate ([`cert::resolve_ptx`]). Prints one ACCEPT
//! or REJECT line per certificate (with `--format json`, one JSON object per certificate, the
//! schema of docs/json-schema.md). Exit 0 when every certificate is accepted with an
//! equivalence claim on every output link; 2 when all are accepted but one claims safety only
//! (for some output link); 1 when one is rejected (also when it lacks what `--require`
//! demands); 3 when an input cannot be read; 64 (EX_USAGE) for a malformed command line.

use kcert_checker::cert::{self, Certificate, Claim};
use kcert_checker::check::{self, Limits};
use kcert_checker::pair::PairSpec;
use kcert_checker::{errln, outln};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: kcert-check CERT... [--ptx REF.ptx OPT.ptx] [--spec PAIR.toml] [--explain] \
                     [--require safety|equivalence|full-equivalence] [--max-work N] [--format text|json]";

const HELP: &str = "Re-checks kcert certificates with the trusted checker alone.

Options:
  --ptx REF.ptx OPT.ptx   the two PTX files (default: --spec's, else the paths the certificate
                          records, relative to the certificate)
  --spec PAIR.toml        the pair the certificate must be about (its specs, byte for byte)
  --explain               print the certificate as JSON first
  --require LEVEL         safety (default), equivalence or full-equivalence
  --max-work N            work one kernel's re-execution may do (default 2^28)
  --format text|json      one line per certificate, or one JSON object per certificate
                          (docs/json-schema.md)
  -h, --help              this text
  -V, --version           the version

Exit: 0 accepted with equivalence; 2 accepted, safety only; 1 rejected; 3 unreadable input;
64 usage error.";

/// Exit code of a malformed command line (BSD sysexits' EX_USAGE), apart from the verdicts.
const EXIT_USAGE: u8 = 64;

/// What a pipeline demands of every certificate beyond being valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Require {
    /// Any valid certificate.
    Safety,
    /// An equivalence claim on every output link (a partial footprint stated as such).
    Equivalence,
    /// An equivalence claim on every output link, covering every element of its tensor.
    FullEquivalence,
}

struct Args {
    certs: Vec<PathBuf>,
    ptx: Option<(PathBuf, PathBuf)>,
    spec: Option<PathBuf>,
    explain: bool,
    require: Require,
    limits: Limits,
    json: bool,
}

/// What the command line asks for: a check, or help or the version (exit 0).
enum Parsed {
    Check(Args),
    Help,
    Version,
}

fn parse_args() -> Result<Parsed, String> {
    let mut a = Args {
        certs: Vec::new(),
        ptx: None,
        spec: None,
        explain: false,
        require: Require::Safety,
        limits: Limits::default(),
        json: false,
    };
    let mut it = std::env::args_os().skip(1);
    while let Some(arg) = it.next() {
        match arg.to_str() {
            Some("--ptx") => {
                let (Some(r), Some(o)) = (it.next(), it.next()) else {
                    return Err("--ptx takes two files: REF.ptx OPT.ptx".into());
                };
                a.ptx = Some((r.into(), o.into()));
            }
            Some("--spec") => {
                a.spec = Some(it.next().ok_or("--spec takes a pair spec file")?.into())
            }
            Some("--explain") => a.explain = true,
            Some("--require") => {
                a.require = match it.next().as_ref().and_then(|v| v.to_str()) {
                    Some("safety") => Require::Safety,
                    Some("equivalence") => Require::Equivalence,
                    Some("full-equivalence") => Require::FullEquivalence,
                    _ => {
                        return Err(
                            "--require takes safety, equivalence or full-equivalence".into()
                        );
                    }
                }
            }
            Some("--max-work") => {
                let n = it
                    .next()
                    .as_ref()
                    .and_then(|v| v.to_str()?.parse::<u64>().ok());
                a.limits.max_work = n
                    .filter(|&n| n > 0)
                    .ok_or("--max-work takes a positive integer")?;
            }
            Some("--format") => {
                a.json = match it.next().as_ref().and_then(|v| v.to_str()) {
                    Some("text") => false,
                    Some("json") => true,
                    _ => return Err("--format takes text or json".into()),
                }
            }
            Some("-h" | "--help") => return Ok(Parsed::Help),
            Some("-V" | "--version") => return Ok(Parsed::Version),
            // `--` ends the options: what follows is certificates, whatever their names.
            Some("--") => a.certs.extend(it.by_ref().map(PathBuf::from)),
            Some(flag) if flag.starts_with('-') && flag.len() > 1 => {
                return Err(format!("unknown option {flag}"));
            }
            _ => a.certs.push(arg.into()),
        }
    }
    if a.certs.is_empty() {
        return Err("no certificate given".into());
    }
    if a.certs.len() > 1 && (a.ptx.is_some() || a.spec.is_some()) {
        return Err("--ptx and --spec apply to a single certificate".into());
    }
    Ok(Parsed::Check(a))
}

fn read(p: &PathBuf) -> Result<Vec<u8>, String> {
    std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))
}

/// `REF == OPT` for output link `n`, by tensor names.
fn link_text(n: u32, pair: &PairSpec) -> String {
    let name = |s: &kcert_checker::spec::KernelSpec, i: usize| match s.params.get(i) {
        Some(kcert_checker::spec::Binding::Tensor(t)) => t.name.clone(),
        _ => "?".into(),
    };
    match pair.outputs.get(n as usize) {
        Some((r, o)) => format!(
            "{} == {}",
            name(&pair.reference, *r),
            name(&pair.optimized, *o)
        ),
        None => format!("link {n}"),
    }
}

/// The PTX lines of kernel `k`'s fp-nondeterministic writes that the claims name.
fn fp_lines(claims: &[Claim], k: kcert_checker::cert::Kernel) -> Vec<String> {
    cert::fp_nondeterministic_lines(claims, k)
        .iter()
        .map(u32::to_string)
        .collect()
}

fn claim_text(c: &Claim, claims: &[Claim], pair: &PairSpec) -> String {
    let scope = |k| match k {
        kcert_checker::cert::Kernel::Reference => pair.reference.scope(),
        kcert_checker::cert::Kernel::Optimized => pair.optimized.scope(),
    };
    // "all inputs", the symbolic scalars' every value, and the fixed contents (init).
    let for_all = format!("{}{}", pair.for_all(), pair.data_note());
    match *c {
        Claim::Safe(k) if fp_lines(claims, k).is_empty() => format!(
            "{k:?} kernel is race-free, barrier-correct and memory-safe, for {}",
            scope(k)
        ),
        Claim::Safe(k) => format!(
            "{k:?} kernel is race-free over the reals, barrier-correct and memory-safe, for {}; \
             its unordered writes at PTX lines {} are fp-nondeterministic (equal over the \
             reals, their bits may differ, so which one lands is unspecified)",
            scope(k),
            fp_lines(claims, k).join(", ")
        ),
        Claim::FpNondeterministic { kernel, line } => {
            format!("fp-nondeterministic write: {kernel:?} kernel, PTX line {line}")
        }
        Claim::Equivalent {
            output,
            elements,
            total,
        } if elements == total => format!(
            "outputs equal for {for_all}: {}, all {total} of {total} elements",
            link_text(output, pair)
        ),
        Claim::Equivalent {
            output,
            elements,
            total,
        } if pair.output_is_inout(output as usize) => format!(
            "outputs equal for {for_all}: {} (inout), {elements} of {total} elements written by both; the other {} are written by neither and keep their initial value, the same linked input on both sides",
            link_text(output, pair),
            total - elements
        ),
        Claim::Equivalent {
            output,
            elements,
            total,
        } => format!(
            "PARTIAL: {} for {for_all} on {elements} of {total} elements only; {} not written by either kernel",
            link_text(output, pair),
            total - elements
        ),
    }
}

/// How much an accepted certificate establishes, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    /// Some output link has no equivalence claim.
    Safety,
    /// Every output link has one; some covers part of its tensor.
    Partial,
    /// Every output link, every element.
    Full,
}

/// The summary after ACCEPT, and how much it establishes.
fn summary(claims: &[Claim], pair: &PairSpec) -> (String, Strength) {
    let links = pair.outputs.len() as u32;
    let missing: Vec<String> = (0..links)
        .filter(|n| !claims.iter().any(|c| c.equivalence() == Some(*n)))
        .map(|n| link_text(n, pair))
        .collect();
    let safe: Vec<String> = claims
        .iter()
        .filter_map(|c| match c {
            Claim::Safe(k) => Some(format!("{k:?}")),
            Claim::Equivalent { .. } | Claim::FpNondeterministic { .. } => None,
        })
        .collect();
    let safety = match safe.len() {
        2 => "safety of both kernels".to_string(),
        _ => format!("safety of the {} kernel only", safe.join(", ")),
    };
    if missing.len() == links as usize {
        return (
            format!("SAFETY ONLY, no equivalence claim: {safety}"),
            Strength::Safety,
        );
    }
    if !missing.is_empty() {
        return (
            format!(
                "SAFETY ONLY for output {} (no equivalence claim), equivalence of the other outputs, {safety}",
                missing.join(", ")
            ),
            Strength::Safety,
        );
    }
    let partial = claims.iter().any(|c| {
        matches!(c, Claim::Equivalent { output, elements, total }
            if elements < total && !pair.output_is_inout(*output as usize))
    });
    if pair.scoped() {
        // Nothing is established for the CTAs the specs leave out.
        return (
            format!(
                "SCOPED: proved only for the named CTAs ({}), {} and {safety} there; nothing about the rest of the grid",
                pair.scope(),
                if partial {
                    "PARTIAL equivalence"
                } else {
                    "equivalence of every element they write"
                }
            ),
            Strength::Partial,
        );
    }
    if partial {
        (
            format!(
                "PARTIAL equivalence (some output elements are written by neither kernel) and {safety}"
            ),
            Strength::Partial,
        )
    } else {
        (
            format!("equivalence of every output element and {safety}"),
            Strength::Full,
        )
    }
}

/// Why a valid certificate does not meet `--require`, if it does not.
fn unmet(require: Require, strength: Strength) -> Option<&'static str> {
    match (require, strength) {
        (Require::Equivalence | Require::FullEquivalence, Strength::Safety) => Some(
            "the certificate lacks an equivalence claim for some output link (it claims safety only there)",
        ),
        (Require::FullEquivalence, Strength::Partial) => Some(
            "an equivalence claim covers only part of its output tensor (elements written by neither kernel), or only the CTAs a spec names",
        ),
        _ => None,
    }
}

/// The outcome of one certificate, printed as text or JSON.
struct Report {
    /// `None`: rejected.
    strength: Option<Strength>,
    /// The ACCEPT summary or the REJECT reason.
    message: String,
    claims: Vec<Claim>,
    pair: Option<PairSpec>,
    /// `(side, entry, ptx path)` of the kernels checked.
    kernels: Vec<(&'static str, String, String)>,
    detail: Option<String>,
    /// `(limit, value, flag)` when the reason is a resource limit.
    limit: Option<(&'static str, u64, &'static str)>,
}

impl Report {
    fn rejected(message: String) -> Report {
        Report {
            strength: None,
            message,
            claims: Vec::new(),
            pair: None,
            kernels: Vec::new(),
            detail: None,
            limit: None,
        }
    }
}

/// Checks one certificate; `Err` means an input cannot be read.
fn one(path: &PathBuf, args: &Args) -> Result<Report, String> {
    let bytes = read(path)?;
    let cert = match Certificate::from_bytes(&bytes) {
        Ok(c) => c,
        Err(e) => return Ok(Report::rejected(e.to_string())),
    };
    if args.explain {
        outln!("{}", explain(&cert));
    }
    let given = match &args.spec {
        Some(spec) => Some(PairSpec::load(spec)?),
        None => None,
    };
    let (rp, op) = match (&args.ptx, &given) {
        (Some((r, o)), _) => (r.clone(), o.clone()),
        (None, Some(p)) => (p.reference.ptx.clone(), p.optimized.ptx.clone()),
        (None, None) => (
            cert::resolve_ptx(path, &cert.ref_ptx_path)?,
            cert::resolve_ptx(path, &cert.opt_ptx_path)?,
        ),
    };
    let text = |p: &PathBuf| -> Result<String, String> {
        String::from_utf8(read(p)?).map_err(|_| format!("{}: not UTF-8", p.display()))
    };
    let (rt, ot) = (text(&rp)?, text(&op)?);
    if let Some(p) = &given
        && (
            p.texts.pair.as_str(),
            p.texts.reference.as_str(),
            p.texts.optimized.as_str(),
        ) != (
            cert.pair_spec.as_str(),
            cert.ref_spec.as_str(),
            cert.opt_spec.as_str(),
        )
    {
        return Ok(Report::rejected(
            "the specs given with --spec differ from the ones the certificate was made for".into(),
        ));
    }
    let v = match check::check_with(&cert, &rt, &ot, &args.limits) {
        Ok(v) => v,
        Err(e) => {
            let limit = matches!(e, check::Reject::Work { .. }).then_some((
                "max_work",
                args.limits.max_work,
                "--max-work",
            ));
            let mut r = Report::rejected(e.to_string());
            r.limit = limit;
            return Ok(r);
        }
    };
    // The checker parsed these specs already; failing now would be a checker bug.
    let pair = PairSpec::from_texts(
        kcert_checker::pair::SpecTexts {
            pair: cert.pair_spec.clone(),
            reference: cert.ref_spec.clone(),
            optimized: cert.opt_spec.clone(),
        },
        ".".as_ref(),
        ".".as_ref(),
    )?;
    let (what, strength) = summary(&v.claims, &pair);
    let kernels = vec![
        ("reference", v.reference.clone(), rp.display().to_string()),
        ("optimized", v.optimized.clone(), op.display().to_string()),
    ];
    if let Some(why) = unmet(args.require, strength) {
        let mut r = Report::rejected(format!(
            "--require {}: {why}; the certificate establishes {what}",
            match args.require {
                Require::Safety => "safety",
                Require::Equivalence => "equivalence",
                Require::FullEquivalence => "full-equivalence",
            }
        ));
        r.claims = v.claims;
        r.pair = Some(pair);
        r.kernels = kernels;
        return Ok(r);
    }
    let mut detail = format!("scope: reference {}; optimized {}", v.scope[0], v.scope[1]);
    for l in &v.sized_reads {
        detail.push_str(
            "
  ",
        );
        detail.push_str(l);
    }
    detail.push_str(&format!(
        "
  {} output elements proved by {} steps; {} + {} units of work re-executed",
        v.elements, v.steps, v.work[0], v.work[1]
    ));
    Ok(Report {
        strength: Some(strength),
        message: format!("{what}{}", pair.data_note()),
        claims: v.claims,
        pair: Some(pair),
        kernels,
        detail: Some(detail),
        limit: None,
    })
}

fn print_text(name: &str, r: &Report) {
    if r.strength.is_none() {
        outln!("REJECT {name}: {}", r.message);
        return;
    }
    outln!("ACCEPT {name}: {}", r.message);
    for (side, entry, ptx) in &r.kernels {
        outln!("  {side}: {entry} ({ptx})");
    }
    if let Some(pair) = &r.pair {
        for c in &r.claims {
            outln!("  claim: {}", claim_text(c, &r.claims, pair));
        }
    }
    if let Some(d) = &r.detail {
        outln!("  {d}");
    }
}

/// The exit code one certificate alone would give.
fn code_of(s: Option<Strength>) -> u8 {
    match s {
        None => 1,
        Some(Strength::Safety) => 2,
        Some(Strength::Partial | Strength::Full) => 0,
    }
}

/// One object of docs/kcert-output.schema.json (hand-written: the checker has no JSON crate).
fn report_json(name: &str, r: Option<&Report>, error: Option<&str>, seconds: f64) -> String {
    let (verdict, code) = match r.map(|r| r.strength) {
        Some(Some(_)) => ("accepted", code_of(r.and_then(|r| r.strength))),
        Some(None) => ("rejected", 1),
        None => ("invalid", 3),
    };
    let strength = match r.and_then(|r| r.strength) {
        Some(Strength::Full) => "\"full\"",
        Some(Strength::Partial) => "\"partial\"",
        Some(Strength::Safety) => "\"safety\"",
        None => "null",
    };
    let message = r.map_or(error.unwrap_or(""), |r| r.message.as_str());
    let claims: Vec<String> = match r {
        Some(r) => r
            .claims
            .iter()
            .map(|c| match *c {
                Claim::Safe(k) => format!(
                    "{{\"kind\": \"safe\", \"kernel\": \"{}\"}}",
                    format!("{k:?}").to_lowercase()
                ),
                Claim::Equivalent {
                    output,
                    elements,
                    total,
                } => format!(
                    "{{\"kind\": \"equivalent\", \"output\": {}, \"elements\": {elements}, \"total\": {total}}}",
                    json_str(&r.pair.as_ref().map_or(format!("link {output}"), |p| link_text(output, p)))
                ),
                Claim::FpNondeterministic { kernel, line } => format!(
                    "{{\"kind\": \"fp_nondeterministic\", \"kernel\": \"{}\", \"line\": {line}}}",
                    format!("{kernel:?}").to_lowercase()
                ),
            })
            .collect(),
        None => Vec::new(),
    };
    let kernels: Vec<String> = r
        .map(|r| {
            r.kernels
                .iter()
                .map(|(side, entry, ptx)| {
                    format!(
                        "{{\"side\": \"{side}\", \"entry\": {}, \"ptx\": {}}}",
                        json_str(entry),
                        json_str(ptx)
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let limits: Vec<String> = r
        .and_then(|r| r.limit)
        .map(|(l, v, f)| format!("{{\"limit\": \"{l}\", \"value\": {v}, \"flag\": \"{f}\"}}"))
        .into_iter()
        .collect();
    format!(
        "{{\"schema_version\": {SCHEMA_VERSION}, \"tool\": \"kcert-check\", \"command\": \"check\", \
         \"record\": \"result\", \"subject\": {}, \"verdict\": \"{verdict}\", \"exit_code\": {code}, \
         \"strength\": {strength}, \"message\": {}, \"scope\": {{\"kernels\": [{}]}}, \"claims\": [{}], \
         \"findings\": [], \"timings\": {{\"check_s\": {seconds:.6}}}, \"limits_hit\": [{}]}}",
        json_str(name),
        json_str(message),
        kernels.join(", "),
        claims.join(", "),
        limits.join(", ")
    )
}

/// The version of docs/kcert-output.schema.json this binary writes.
const SCHEMA_VERSION: u32 = 1;

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The certificate as JSON, for a person (hand-written to keep the checker's dependencies small).
fn explain(c: &Certificate) -> String {
    let claims: Vec<String> = c
        .claims
        .iter()
        .map(|cl| json_str(&format!("{cl:?}")))
        .collect();
    let steps: Vec<String> = c
        .steps
        .iter()
        .map(|s| {
            format!(
                "{{\"output\": {}, \"first\": {}, \"count\": {}, \"rule\": {}}}",
                s.output,
                s.first,
                s.count,
                json_str(&format!("{:?}", s.rule))
            )
        })
        .collect();
    format!(
        "{{\n  \"format_version\": {},\n  \"spec_sha256\": \"{}\",\n  \"reference_ptx\": {{\"path\": {}, \"sha256\": \"{}\"}},\n  \"optimized_ptx\": {{\"path\": {}, \"sha256\": \"{}\"}},\n  \"pair_spec\": {},\n  \"reference_spec\": {},\n  \"optimized_spec\": {},\n  \"claims\": [{}],\n  \"steps\": [{}],\n  \"work\": [{}, {}]\n}}",
        cert::VERSION,
        cert::hex(&c.spec_sha256),
        json_str(&c.ref_ptx_path),
        cert::hex(&c.ref_ptx_sha256),
        json_str(&c.opt_ptx_path),
        cert::hex(&c.opt_ptx_sha256),
        json_str(&c.pair_spec),
        json_str(&c.ref_spec),
        json_str(&c.opt_spec),
        claims.join(", "),
        steps.join(", "),
        c.work[0],
        c.work[1]
    )
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(Parsed::Check(a)) => a,
        Ok(Parsed::Help) => {
            outln!("{USAGE}\n\n{HELP}");
            return ExitCode::SUCCESS;
        }
        Ok(Parsed::Version) => {
            outln!("kcert-check {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            errln!("kcert-check: {e}\n{USAGE}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    // The weakest result decides: a rejection, then safety only, then equivalence.
    let mut weakest = Some(Strength::Full);
    for c in &args.certs {
        let name = c.display().to_string();
        let start = std::time::Instant::now();
        match one(c, &args) {
            Ok(r) => {
                weakest = weakest.min(r.strength);
                if args.json {
                    let t = start.elapsed().as_secs_f64();
                    outln!("{}", report_json(&name, Some(&r), None, t));
                } else {
                    print_text(&name, &r);
                }
            }
            Err(e) => {
                if args.json {
                    let t = start.elapsed().as_secs_f64();
                    outln!("{}", report_json(&name, None, Some(&e), t));
                }
                errln!("kcert-check: {e}");
                return ExitCode::from(3);
            }
        }
    }
    ExitCode::from(code_of(weakest))
}
