//! The corpus report: every pair of kernels/pairs proved, its certificate checked, and the
//! figures DESIGN.md tracks (prove time, check time, certificate size) printed per pair.

use crate::prove::{self, Outcome, Refutation};
use kcert_checker::check;
use std::path::Path;
use std::time::Instant;

/// One pair's figures.
#[derive(Debug, Clone)]
pub struct Row {
    pub pair: String,
    pub expected: String,
    pub verdict: String,
    pub as_expected: bool,
    pub prove_s: f64,
    pub check_s: Option<f64>,
    pub cert_bytes: Option<usize>,
    /// The adversarial class (`kernels/adversarial/<class>/`) of the optimized kernel, if any.
    pub class: Option<String>,
    /// Seconds of the check spent in the semantic self-check.
    pub selfcheck_s: Option<f64>,
}

/// The adversarial class of a pair: the directory under `kernels/adversarial/` that either
/// instance's spec lives in.
fn adversarial_class(pair_file: &Path) -> Option<String> {
    let text = std::fs::read_to_string(pair_file).ok()?;
    let table = text.parse::<toml::Table>().ok()?;
    ["optimized", "reference"].iter().find_map(|side| {
        let spec = table.get(*side)?.as_str()?;
        let rest = spec.split("adversarial/").nth(1)?;
        rest.split('/').next().map(String::from)
    })
}

/// The verdict name of a prove outcome, as in `.pair.expect.toml`.
pub fn verdict_name(o: &Outcome) -> String {
    match o {
        Outcome::Proved { cert, .. }
            if cert
                .claims
                .iter()
                .any(|c| matches!(c, kcert_checker::cert::Claim::FpNondeterministic { .. })) =>
        {
            "equivalent+fp_nondeterministic".into()
        }
        Outcome::Proved { .. } => "equivalent".into(),
        Outcome::Refuted(Refutation::Unsafe { report, .. }) => report
            .split([' ', ':'])
            .next()
            .unwrap_or("unsafe")
            .to_string(),
        Outcome::Refuted(Refutation::Value {
            literals: Some(_), ..
        }) => "literals_differ".into(),
        Outcome::Refuted(_) => "not_equivalent".into(),
        Outcome::Unknown(why) if why.contains("resource limit") => "resource_limit".into(),
        Outcome::Unknown(_) => "unknown".into(),
    }
}

pub fn report(kernels: &Path) -> Result<Vec<Row>, String> {
    let dir = kernels.join("pairs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".pair.toml"))
        .collect();
    files.sort();
    let mut rows = Vec::new();
    for f in files {
        let expect_path = f.with_extension("expect.toml");
        let expected = crate::expect::PairExpect::load(&expect_path)
            .map(|e| e.expected())
            .unwrap_or_else(|_| "?".into());
        let start = Instant::now();
        let proved = prove::prove(&f);
        let prove_s = start.elapsed().as_secs_f64();
        let outcome = match proved {
            Ok(o) => o,
            // Refused as invalid input: as expected only for an `invalid` pair.
            Err(_) => {
                rows.push(Row {
                    class: adversarial_class(&f),
                    selfcheck_s: None,
                    as_expected: expected == "invalid",
                    pair: pair_name(&f),
                    expected,
                    verdict: "invalid".into(),
                    prove_s,
                    check_s: None,
                    cert_bytes: None,
                });
                continue;
            }
        };
        let verdict = verdict_name(&outcome);
        let (mut check_s, mut cert_bytes, mut selfcheck_s) = (None, None, None);
        let mut checked_ok = true;
        if let Outcome::Proved { cert, .. } = &outcome {
            let bytes = cert.to_bytes().map_err(|e| e.to_string())?;
            cert_bytes = Some(bytes.len());
            let read = |p: &str| std::fs::read_to_string(p).map_err(|e| format!("{p}: {e}"));
            let start = Instant::now();
            let decoded =
                kcert_checker::cert::Certificate::from_bytes(&bytes).map_err(|e| e.to_string())?;
            let result = check::check(
                &decoded,
                &read(&decoded.ref_ptx_path)?,
                &read(&decoded.opt_ptx_path)?,
            );
            check_s = Some(start.elapsed().as_secs_f64());
            selfcheck_s = result.as_ref().ok().map(|v| v.selfcheck_seconds);
            checked_ok = result.is_ok();
        }
        rows.push(Row {
            class: adversarial_class(&f),
            selfcheck_s,
            as_expected: verdict == expected && checked_ok,
            pair: pair_name(&f),
            expected,
            verdict,
            prove_s,
            check_s,
            cert_bytes,
        });
    }
    Ok(rows)
}

/// `OPT-vs-REF` of a pair file.
fn pair_name(f: &Path) -> String {
    f.file_name()
        .map(|n| n.to_string_lossy().replace(".pair.toml", ""))
        .unwrap_or_default()
}

pub fn render(rows: &[Row]) -> String {
    let mut s = format!(
        "{:<48} {:<16} {:<16} {:>9} {:>9} {:>7} {:>9}\n",
        "pair", "expected", "verdict", "prove s", "check s", "ratio", "cert B"
    );
    for r in rows {
        let check = r
            .check_s
            .map(|c| format!("{c:.3}"))
            .unwrap_or_else(|| "-".into());
        let ratio = r
            .check_s
            .map(|c| format!("{:.2}", c / r.prove_s.max(1e-9)))
            .unwrap_or_else(|| "-".into());
        let bytes = r
            .cert_bytes
            .map(|b| b.to_string())
            .unwrap_or_else(|| "-".into());
        let mark = if r.as_expected {
            ""
        } else {
            "  <-- NOT AS EXPECTED"
        };
        s.push_str(&format!(
            "{:<48} {:<16} {:<16} {:>9.3} {:>9} {:>7} {:>9}{mark}\n",
            r.pair, r.expected, r.verdict, r.prove_s, check, ratio, bytes
        ));
    }
    let ok = rows.iter().filter(|r| r.as_expected).count();
    s.push_str(&format!("{ok} of {} pairs as expected\n", rows.len()));
    let check: f64 = rows.iter().filter_map(|r| r.check_s).sum();
    let own: f64 = rows.iter().filter_map(|r| r.selfcheck_s).sum();
    s.push_str(&format!(
        "semantic self-check: {own:.2} s of {check:.2} s of checking ({:.1}%)\n",
        100.0 * own / check.max(1e-9)
    ));
    s.push_str(&render_adversarial(rows));
    s
}

/// Where a pair's verdict falls in the adversarial table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    ProvedTrue,
    RefutedTrue,
    Declined,
    False,
}

/// Proof-checker-arena style: a proof or refutation that matches the stated truth, a decline
/// (unknown, invalid input, resource limit: never a pass), or a false verdict (a proof of a
/// pair that is not equivalent, a refutation of one that is, or a finding of the wrong kind).
pub fn standing(r: &Row) -> Standing {
    let declined = |v: &str| matches!(v, "unknown" | "invalid" | "resource_limit");
    // A proof that names fp-nondeterministic writes is a proof over the reals.
    let proved = |v: &str| matches!(v, "equivalent" | "equivalent+fp_nondeterministic");
    if proved(&r.verdict) && r.verdict == r.expected && r.as_expected {
        Standing::ProvedTrue
    } else if declined(&r.verdict) {
        Standing::Declined
    } else if r.verdict == r.expected && r.as_expected {
        Standing::RefutedTrue
    } else {
        Standing::False
    }
}

/// The adversarial family's table: per class, how many verdicts were true, declined, false.
pub fn render_adversarial(rows: &[Row]) -> String {
    let mut classes: Vec<&str> = rows.iter().filter_map(|r| r.class.as_deref()).collect();
    classes.sort_unstable();
    classes.dedup();
    if classes.is_empty() {
        return String::new();
    }
    let mut s = format!(
        "\nadversarial family (kernels/adversarial/):\n{:<14} {:>7} {:>14} {:>14} {:>9} {:>7}\n",
        "class", "pairs", "proved, true", "refuted, true", "declined", "FALSE"
    );
    for c in classes.iter().copied().chain(std::iter::once("all")) {
        let of: Vec<&Row> = rows
            .iter()
            .filter(|r| r.class.as_deref() == Some(c) || (c == "all" && r.class.is_some()))
            .collect();
        let n = |st: Standing| of.iter().filter(|r| standing(r) == st).count();
        let counts = [
            of.len(),
            n(Standing::ProvedTrue),
            n(Standing::RefutedTrue),
            n(Standing::Declined),
            n(Standing::False),
        ];
        s.push_str(&format!(
            "{:<14} {:>7} {:>14} {:>14} {:>9} {:>7}\n",
            c, counts[0], counts[1], counts[2], counts[3], counts[4]
        ));
    }
    s
}
