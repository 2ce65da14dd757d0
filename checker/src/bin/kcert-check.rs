//! `kcert-check`: re-validates certificates with the trusted checker alone.
//!
//! ```text
//! kcert-check CERT... [--ptx REF.ptx OPT.ptx] [--spec PAIR.toml] [--explain]
//!             [--require safety|equivalence|full-equivalence] [--max-work N]
//! ```
//! Without `--ptx`, each certificate's recorded PTX paths are read (relative to the working
//! directory). Prints one ACCEPT or REJECT line per certificate, saying what is established.
//! Exit 0 when every certificate is accepted with an equivalence claim on every output link;
//! 2 when all are accepted but one claims safety only (for some output link); 1 when one is
//! rejected (also when it lacks what `--require` demands); 3 when an input cannot be read.

use kcert_checker::cert::{self, Certificate, Claim};
use kcert_checker::check::{self, Limits};
use kcert_checker::pair::PairSpec;
use kcert_checker::{errln, outln};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: kcert-check CERT... [--ptx REF.ptx OPT.ptx] [--spec PAIR.toml] [--explain] \
                     [--require safety|equivalence|full-equivalence] [--max-work N]";

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
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        certs: Vec::new(),
        ptx: None,
        spec: None,
        explain: false,
        require: Require::Safety,
        limits: Limits::default(),
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
            Some("-h" | "--help") => return Err(USAGE.into()),
            _ => a.certs.push(arg.into()),
        }
    }
    if a.certs.is_empty() {
        return Err(format!("no certificate given ({USAGE})"));
    }
    if a.certs.len() > 1 && (a.ptx.is_some() || a.spec.is_some()) {
        return Err("--ptx and --spec apply to a single certificate".into());
    }
    Ok(a)
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

fn claim_text(c: &Claim, pair: &PairSpec) -> String {
    match *c {
        Claim::Safe(k) => format!(
            "{k:?} kernel is race-free, barrier-correct and memory-safe, for {}",
            match k {
                kcert_checker::cert::Kernel::Reference => pair.reference.scope(),
                kcert_checker::cert::Kernel::Optimized => pair.optimized.scope(),
            }
        ),
        Claim::Equivalent {
            output,
            elements,
            total,
        } if elements == total => format!(
            "outputs equal for {}: {}, all {total} of {total} elements",
            pair.for_all(),
            link_text(output, pair)
        ),
        Claim::Equivalent {
            output,
            elements,
            total,
        } if pair.output_is_inout(output as usize) => format!(
            "outputs equal for {}: {} (inout), {elements} of {total} elements written by both; the other {} are written by neither and keep their initial value, the same linked input on both sides",
            pair.for_all(),
            link_text(output, pair),
            total - elements
        ),
        Claim::Equivalent {
            output,
            elements,
            total,
        } => format!(
            "PARTIAL: {} for {} on {elements} of {total} elements only; {} not written by either kernel",
            link_text(output, pair),
            pair.for_all(),
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
            Claim::Equivalent { .. } => None,
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

/// Checks one certificate; `Ok(None)` means rejected (and printed).
fn one(path: &PathBuf, args: &Args) -> Result<Option<Strength>, String> {
    let bytes = read(path)?;
    let name = path.display();
    let cert = match Certificate::from_bytes(&bytes) {
        Ok(c) => c,
        Err(e) => {
            outln!("REJECT {name}: {e}");
            return Ok(None);
        }
    };
    if args.explain {
        outln!("{}", explain(&cert));
    }
    let (rp, op) = match &args.ptx {
        Some((r, o)) => (r.clone(), o.clone()),
        None => (
            PathBuf::from(&cert.ref_ptx_path),
            PathBuf::from(&cert.opt_ptx_path),
        ),
    };
    let text = |p: &PathBuf| -> Result<String, String> {
        String::from_utf8(read(p)?).map_err(|_| format!("{}: not UTF-8", p.display()))
    };
    let (rt, ot) = (text(&rp)?, text(&op)?);
    if let Some(spec) = &args.spec {
        let p = PairSpec::load(spec)?;
        if (
            p.texts.pair.as_str(),
            p.texts.reference.as_str(),
            p.texts.optimized.as_str(),
        ) != (
            cert.pair_spec.as_str(),
            cert.ref_spec.as_str(),
            cert.opt_spec.as_str(),
        ) {
            outln!(
                "REJECT {name}: the specs given with --spec differ from the ones the certificate was made for"
            );
            return Ok(None);
        }
    }
    let v = match check::check_with(&cert, &rt, &ot, &args.limits) {
        Ok(v) => v,
        Err(e) => {
            outln!("REJECT {name}: {e}");
            return Ok(None);
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
    if let Some(why) = unmet(args.require, strength) {
        outln!(
            "REJECT {name}: --require {}: {why}; the certificate establishes {what}",
            match args.require {
                Require::Safety => "safety",
                Require::Equivalence => "equivalence",
                Require::FullEquivalence => "full-equivalence",
            }
        );
        return Ok(None);
    }
    outln!("ACCEPT {name}: {what}");
    outln!("  reference: {} ({})", v.reference, rp.display());
    outln!("  optimized: {} ({})", v.optimized, op.display());
    outln!(
        "  scope: reference {}; optimized {}",
        v.scope[0],
        v.scope[1]
    );
    for l in &v.sized_reads {
        outln!("  {l}");
    }
    for c in &v.claims {
        outln!("  claim: {}", claim_text(c, &pair));
    }
    outln!(
        "  {} output elements proved by {} steps; {} + {} units of work re-executed",
        v.elements,
        v.steps,
        v.work[0],
        v.work[1]
    );
    Ok(Some(strength))
}

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
        Ok(a) => a,
        Err(e) => {
            errln!("kcert-check: {e}");
            return ExitCode::from(3);
        }
    };
    // The weakest result decides: a rejection, then safety only, then equivalence.
    let mut weakest = Some(Strength::Full);
    for c in &args.certs {
        match one(c, &args) {
            Ok(s) => weakest = weakest.min(s),
            Err(e) => {
                errln!("kcert-check: {e}");
                return ExitCode::from(3);
            }
        }
    }
    ExitCode::from(match weakest {
        None => 1,
        Some(Strength::Safety) => 2,
        Some(Strength::Partial | Strength::Full) => 0,
    })
}
