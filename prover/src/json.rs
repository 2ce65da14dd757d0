//! `--format json`: the one machine-readable report of `kcert prove`, `analyze` and `corpus`
//! (and, hand-written, of `kcert-check`). The schema is docs/kcert-output.schema.json,
//! described in docs/json-schema.md; [`SCHEMA_VERSION`] changes with any incompatible change.

use crate::corpus::Row;
use crate::prove::{Outcome, Refutation};
use kcert_checker::cert::{Certificate, Claim};
use kcert_checker::exec::{Config, Finding, Outcome as RunOutcome};
use kcert_checker::spec::{Binding, KernelSpec};
use serde_json::{Value, json};

/// The version of docs/kcert-output.schema.json these objects follow.
pub const SCHEMA_VERSION: u32 = 1;

/// The generic verdict of an exit code (DESIGN.md's outcomes).
pub fn verdict_of_code(code: i32) -> &'static str {
    match code {
        0 => "proved",
        1 => "refuted",
        2 => "unknown",
        _ => "invalid",
    }
}

/// The fields every result object has; the caller fills in the rest.
fn base(command: &str, subject: &str, code: i32, message: &str) -> serde_json::Map<String, Value> {
    let v = json!({
        "schema_version": SCHEMA_VERSION,
        "tool": "kcert",
        "command": command,
        "record": "result",
        "subject": subject,
        "verdict": verdict_of_code(code),
        "exit_code": code,
        "message": message,
        "scope": {"kernels": []},
        "claims": [],
        "findings": [],
        "timings": {},
        "limits_hit": [],
    });
    match v {
        Value::Object(m) => m,
        _ => unreachable!("json! of an object literal is an object"),
    }
}

/// A finding with its PTX lines, `.loc` source lines and threads.
pub fn finding(f: &Finding, kernel: Option<&str>) -> Value {
    let sites: Vec<Value> = f
        .sites
        .iter()
        .map(|s| {
            json!({
                "ptx_line": s.line,
                "source": s.source,
                "cta": s.cta,
                "thread": s.tid,
                "action": s.action,
            })
        })
        .collect();
    json!({
        "kind": f.kind.name(),
        "kernel": kernel,
        "location": f.location,
        "detail": f.detail,
        "sites": sites,
    })
}

fn kernel_scope(side: &str, spec: &KernelSpec, executed: Option<u64>) -> Value {
    json!({
        "side": side,
        "entry": spec.entry,
        "ptx": spec.ptx.display().to_string(),
        "grid": spec.grid,
        "block": spec.block,
        "ctas_total": spec.ctas(),
        "ctas_executed": executed,
    })
}

fn limit(name: &str, value: u64, flag: &str) -> Value {
    json!({"limit": name, "value": value, "flag": flag})
}

/// `kcert analyze`: the verdict of one instance, or why there is none.
pub fn analyze(
    subject: &str,
    spec: Option<&KernelSpec>,
    run: Result<&RunOutcome, &str>,
    code: i32,
    config: &Config,
    seconds: f64,
) -> Value {
    let message = match run {
        Ok(o) if o.findings.is_empty() && o.coverage.complete() => "safe".to_string(),
        Ok(o) if o.findings.is_empty() => format!(
            "no finding in the {} of {} CTAs executed; raise --max-ctas to check every CTA",
            o.coverage.executed.len(),
            o.coverage.total
        ),
        Ok(o) => format!("{} distinct findings", o.findings.len()),
        Err(e) => e.to_string(),
    };
    let mut m = base("analyze", subject, code, &message);
    if let Some(spec) = spec {
        let executed = run.ok().map(|o| o.coverage.executed.len() as u64);
        m.insert(
            "scope".into(),
            json!({"kernels": [kernel_scope("instance", spec, executed)]}),
        );
    }
    let mut limits = Vec::new();
    match run {
        Ok(o) => {
            m.insert(
                "findings".into(),
                o.findings.iter().map(|f| finding(f, None)).collect(),
            );
            if !o.coverage.complete() {
                limits.push(limit("max_ctas", config.max_ctas, "--max-ctas"));
            }
            m.insert("lane_instructions".into(), json!(o.lane_instructions));
        }
        Err(e) if e.contains("units of work") || e.contains("--max-work") => {
            limits.push(limit("max_work", config.max_work, "--max-work"));
        }
        Err(_) => {}
    }
    m.insert("limits_hit".into(), limits.into());
    m.insert("timings".into(), json!({"analyze_s": seconds}));
    Value::Object(m)
}

/// Claims of a certificate, each output link by its tensor names.
fn claims(cert: &Certificate) -> Vec<Value> {
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
    let name = |s: &KernelSpec, i: usize| match s.params.get(i) {
        Some(Binding::Tensor(t)) => t.name.clone(),
        _ => "?".into(),
    };
    cert.claims
        .iter()
        .map(|c| match *c {
            Claim::Safe(k) => json!({"kind": "safe", "kernel": format!("{k:?}").to_lowercase()}),
            Claim::Equivalent {
                output,
                elements,
                total,
            } => {
                let link = pair
                    .as_ref()
                    .and_then(|p| {
                        let (r, o) = *p.outputs.get(output as usize)?;
                        Some(format!(
                            "{} == {}",
                            name(&p.reference, r),
                            name(&p.optimized, o)
                        ))
                    })
                    .unwrap_or_else(|| format!("link {output}"));
                json!({"kind": "equivalent", "output": link, "elements": elements, "total": total})
            }
            Claim::FpNondeterministic { kernel, line } => json!({
                "kind": "fp_nondeterministic",
                "kernel": format!("{kernel:?}").to_lowercase(),
                "line": line
            }),
        })
        .collect()
}

/// What one `kcert prove` run reports.
pub struct ProveReport<'a> {
    pub subject: &'a str,
    /// The pair, when it could be read.
    pub pair: Option<&'a kcert_checker::pair::PairSpec>,
    /// The outcome, or the reason there is none (invalid input).
    pub outcome: Result<&'a Outcome, &'a str>,
    pub code: i32,
    pub message: &'a str,
    /// `--max-work`, for a limit hit.
    pub max_work: u64,
    pub seconds: f64,
    /// Path and size of the certificate written.
    pub certificate: Option<(&'a str, usize)>,
}

/// `kcert prove`'s result object.
pub fn prove(r: &ProveReport) -> Value {
    let ProveReport {
        subject,
        pair,
        outcome,
        code,
        message,
        max_work,
        seconds,
        certificate,
    } = *r;
    let mut m = base("prove", subject, code, message);
    if let Some(p) = pair {
        m.insert(
            "scope".into(),
            json!({"kernels": [
                kernel_scope("reference", &p.reference, None),
                kernel_scope("optimized", &p.optimized, None),
            ]}),
        );
    }
    match outcome {
        Ok(Outcome::Proved { cert, .. }) => {
            m.insert("claims".into(), claims(cert).into());
        }
        Ok(Outcome::Refuted(r)) => {
            let f = match r {
                Refutation::Unsafe {
                    kernel, findings, ..
                } => {
                    let k = format!("{kernel:?}").to_lowercase();
                    findings.iter().map(|f| finding(f, Some(&k))).collect()
                }
                Refutation::Footprint {
                    output,
                    element,
                    by,
                } => vec![json!({
                    "kind": "footprint_mismatch",
                    "kernel": format!("{by:?}").to_lowercase(),
                    "location": format!("{output}[{element}]"),
                    "detail": format!("written by the {by:?} kernel only"),
                    "sites": [],
                })],
                Refutation::Value {
                    output,
                    element,
                    reference,
                    optimized,
                    ..
                } => vec![json!({
                    "kind": "value_mismatch",
                    "kernel": null,
                    "location": format!("{output}[{element}]"),
                    "detail": format!("reference: {reference}; optimized: {optimized}"),
                    "sites": [],
                })],
            };
            m.insert("findings".into(), f.into());
        }
        Ok(Outcome::Unknown(why)) if why.contains("--max-work") => {
            m.insert(
                "limits_hit".into(),
                vec![limit("max_work", max_work, "--max-work")].into(),
            );
        }
        _ => {}
    }
    m.insert("timings".into(), json!({"prove_s": seconds}));
    if let Some((path, bytes)) = certificate {
        m.insert("certificate".into(), json!({"path": path, "bytes": bytes}));
    }
    Value::Object(m)
}

/// The generic verdict of a corpus row's verdict name (`.pair.expect.toml`'s vocabulary).
fn corpus_verdict(v: &str) -> &'static str {
    match v {
        "equivalent" => "proved",
        "invalid" => "invalid",
        "unknown" | "resource_limit" => "unknown",
        _ => "refuted",
    }
}

/// One JSON Lines object per pair of `kcert corpus --format json`.
pub fn corpus_row(r: &Row) -> Value {
    let verdict = corpus_verdict(&r.verdict);
    let code = match verdict {
        "proved" => 0,
        "refuted" => 1,
        "unknown" => 2,
        _ => 3,
    };
    let mut m = base("corpus", &r.pair, code, &r.verdict);
    m.insert("verdict".into(), verdict.into());
    m.insert("outcome".into(), r.verdict.clone().into());
    m.insert("expected".into(), r.expected.clone().into());
    m.insert("as_expected".into(), r.as_expected.into());
    m.insert("class".into(), json!(r.class));
    m.insert("certificate_bytes".into(), json!(r.cert_bytes));
    if r.verdict == "resource_limit" {
        m.insert(
            "limits_hit".into(),
            vec![limit(
                "max_work",
                kcert_checker::exec::DEFAULT_MAX_WORK,
                "--max-work",
            )]
            .into(),
        );
    }
    let mut t = serde_json::Map::new();
    t.insert("prove_s".into(), r.prove_s.into());
    if let Some(c) = r.check_s {
        t.insert("check_s".into(), c.into());
    }
    if let Some(c) = r.selfcheck_s {
        t.insert("selfcheck_s".into(), c.into());
    }
    m.insert("timings".into(), Value::Object(t));
    Value::Object(m)
}

/// The last line of `kcert corpus --format json`.
pub fn corpus_summary(rows: &[Row]) -> Value {
    let check: f64 = rows.iter().filter_map(|r| r.check_s).sum();
    let prove: f64 = rows.iter().map(|r| r.prove_s).sum();
    let own: f64 = rows.iter().filter_map(|r| r.selfcheck_s).sum();
    let ok = rows.iter().filter(|r| r.as_expected).count();
    json!({
        "schema_version": SCHEMA_VERSION,
        "tool": "kcert",
        "command": "corpus",
        "record": "summary",
        "pairs": rows.len(),
        "as_expected": ok,
        "exit_code": if ok == rows.len() { 0 } else { 1 },
        "timings": {"prove_s": prove, "check_s": check, "selfcheck_s": own},
    })
}
