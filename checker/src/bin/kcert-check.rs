//! `kcert-check`: re-validates certificates with the trusted checker alone.
//!
//! ```text
//! kcert-check CERT... [--ptx REF.ptx OPT.ptx] [--spec PAIR.toml] [--explain]
//! ```
//! Without `--ptx`, each certificate's recorded PTX paths are read (relative to the working
//! directory). Prints one ACCEPT or REJECT line per certificate. Exit 0 when every certificate
//! is accepted, 1 when one is rejected, 3 when an argument or file cannot be read.

use kcert_checker::cert::{self, Certificate, Claim};
use kcert_checker::check;
use kcert_checker::pair::PairSpec;
use kcert_checker::{errln, outln};
use std::path::PathBuf;
use std::process::ExitCode;

struct Args {
    certs: Vec<PathBuf>,
    ptx: Option<(PathBuf, PathBuf)>,
    spec: Option<PathBuf>,
    explain: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        certs: Vec::new(),
        ptx: None,
        spec: None,
        explain: false,
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
            Some("-h" | "--help") => {
                return Err("usage: kcert-check CERT... [--ptx REF.ptx OPT.ptx] [--spec PAIR.toml] [--explain]".into());
            }
            _ => a.certs.push(arg.into()),
        }
    }
    if a.certs.is_empty() {
        return Err("no certificate given (usage: kcert-check CERT... [--ptx REF OPT] [--spec PAIR] [--explain])".into());
    }
    if a.certs.len() > 1 && (a.ptx.is_some() || a.spec.is_some()) {
        return Err("--ptx and --spec apply to a single certificate".into());
    }
    Ok(a)
}

fn read(p: &PathBuf) -> Result<Vec<u8>, String> {
    std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))
}

fn claim_text(c: &Claim, pair: Option<&PairSpec>) -> String {
    match c {
        Claim::Safe(k) => format!("{k:?} kernel is race-free, barrier-correct and memory-safe"),
        Claim::Equivalent(n) => {
            let names = pair.and_then(|p| {
                let (r, o) = p.outputs.get(*n as usize)?;
                let name = |s: &kcert_checker::spec::KernelSpec, i: usize| match s.params.get(i) {
                    Some(kcert_checker::spec::Binding::Tensor(t)) => t.name.clone(),
                    _ => "?".into(),
                };
                Some(format!(
                    "{} == {}",
                    name(&p.reference, *r),
                    name(&p.optimized, *o)
                ))
            });
            format!(
                "outputs equal for all inputs: {}",
                names.unwrap_or_else(|| format!("link {n}"))
            )
        }
    }
}

/// Checks one certificate; `Ok(false)` means rejected (and printed).
fn one(path: &PathBuf, args: &Args) -> Result<bool, String> {
    let bytes = read(path)?;
    let name = path.display();
    let cert = match Certificate::from_bytes(&bytes) {
        Ok(c) => c,
        Err(e) => {
            outln!("REJECT {name}: {e}");
            return Ok(false);
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
            return Ok(false);
        }
    }
    match check::check(&cert, &rt, &ot) {
        Ok(v) => {
            let pair = PairSpec::from_texts(
                kcert_checker::pair::SpecTexts {
                    pair: cert.pair_spec.clone(),
                    reference: cert.ref_spec.clone(),
                    optimized: cert.opt_spec.clone(),
                },
                ".".as_ref(),
                ".".as_ref(),
            )
            .ok();
            outln!("ACCEPT {name}");
            outln!("  reference: {} ({})", v.reference, rp.display());
            outln!("  optimized: {} ({})", v.optimized, op.display());
            for c in &v.claims {
                outln!("  claim: {}", claim_text(c, pair.as_ref()));
            }
            outln!(
                "  {} output elements proved by {} steps",
                v.elements,
                v.steps
            );
            Ok(true)
        }
        Err(e) => {
            outln!("REJECT {name}: {e}");
            Ok(false)
        }
    }
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
        "{{\n  \"format_version\": {},\n  \"spec_sha256\": \"{}\",\n  \"reference_ptx\": {{\"path\": {}, \"sha256\": \"{}\"}},\n  \"optimized_ptx\": {{\"path\": {}, \"sha256\": \"{}\"}},\n  \"pair_spec\": {},\n  \"reference_spec\": {},\n  \"optimized_spec\": {},\n  \"claims\": [{}],\n  \"steps\": [{}]\n}}",
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
        steps.join(", ")
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
    let mut all = true;
    for c in &args.certs {
        match one(c, &args) {
            Ok(ok) => all &= ok,
            Err(e) => {
                errln!("kcert-check: {e}");
                return ExitCode::from(3);
            }
        }
    }
    ExitCode::from(if all { 0 } else { 1 })
}
