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
}

/// The verdict name of a prove outcome, as in `.pair.expect.toml`.
pub fn verdict_name(o: &Outcome) -> String {
    match o {
        Outcome::Proved { .. } => "equivalent".into(),
        Outcome::Refuted(Refutation::Unsafe { report, .. }) => report
            .split([' ', ':'])
            .next()
            .unwrap_or("unsafe")
            .to_string(),
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
        let expected = std::fs::read_to_string(&expect_path)
            .ok()
            .and_then(|t| t.parse::<toml::Table>().ok())
            .and_then(|t| t.get("verdict").and_then(|v| v.as_str()).map(String::from))
            .unwrap_or_else(|| "?".into());
        let start = Instant::now();
        let proved = prove::prove(&f);
        let prove_s = start.elapsed().as_secs_f64();
        let outcome = match proved {
            Ok(o) => o,
            // Refused as invalid input: as expected only for an `invalid` pair.
            Err(_) => {
                rows.push(Row {
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
        let (mut check_s, mut cert_bytes) = (None, None);
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
            checked_ok = result.is_ok();
        }
        rows.push(Row {
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
    s
}
