//! The safety verdict of one instance, rendered for people, with DESIGN.md's exit codes.

use kcert_checker::exec::{Finding, FindingKind, Outcome};
use kcert_checker::instance::{Error, ErrorClass};
use kcert_checker::spec::KernelSpec;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Process exit codes, one per outcome.
pub mod exit {
    pub const PROVED: i32 = 0;
    pub const REFUTED: i32 = 1;
    pub const UNKNOWN: i32 = 2;
    pub const INVALID: i32 = 3;
    /// Refuted, and the two kernels differ only in how literals were rounded.
    pub const LITERALS: i32 = 5;
    /// A malformed command line (BSD sysexits' EX_USAGE), apart from every verdict.
    pub const USAGE: i32 = 64;
}

pub fn exit_code_of_error(e: &Error) -> i32 {
    match e.class() {
        ErrorClass::InvalidInput => exit::INVALID,
        ErrorClass::Unsupported | ErrorClass::ResourceLimit => exit::UNKNOWN,
    }
}

fn scope(spec: &KernelSpec, o: &Outcome) -> String {
    let c = &o.coverage;
    let what = if spec.ctas.is_some() {
        spec.scope()
    } else if c.complete() {
        format!("all {} CTAs", c.total)
    } else {
        let first = c.executed.first().copied().unwrap_or_default();
        let last = c.executed.last().copied().unwrap_or_default();
        format!(
            "{} of {} CTAs (from {first:?} to {last:?}, first and last in linear order)",
            c.executed.len(),
            c.total
        )
    };
    format!("grid {:?}, block {:?}: {what}", spec.grid, spec.block)
}

/// Text report and exit code for a safety analysis.
pub fn render(name: &str, spec: &KernelSpec, o: &Outcome, max_shown: usize) -> (String, i32) {
    let mut s = String::new();
    let scope = scope(spec, o);
    if o.findings.is_empty() {
        if spec.ctas.as_ref() == Some(&o.coverage.executed) {
            let _ = writeln!(
                s,
                "SAFE {name} (SCOPED): no data race, barrier divergence, deadlock, warp-collective error, \
                 out-of-bounds, misaligned or uninitialized access in the CTAs the spec names; nothing is \
                 claimed for the rest of the grid\n  scope: {scope}\n  {} lane-instructions executed",
                o.lane_instructions
            );
            return (s, exit::PROVED);
        }
        if o.coverage.complete() {
            let _ = writeln!(
                s,
                "SAFE {name}: no data race, barrier divergence, deadlock, warp-collective error, \
                 out-of-bounds, misaligned or uninitialized access\n  scope: {scope}\n  {} lane-instructions executed",
                o.lane_instructions
            );
            return (s, exit::PROVED);
        }
        let _ = writeln!(
            s,
            "UNKNOWN {name}: no finding in the CTAs executed, but the grid was not executed whole\n  scope: {scope}\n  \
             raise --max-ctas to check every CTA"
        );
        return (s, exit::UNKNOWN);
    }
    let mut counts: BTreeMap<FindingKind, usize> = BTreeMap::new();
    for f in &o.findings {
        *counts.entry(f.kind).or_default() += 1;
    }
    let summary: Vec<String> = counts
        .iter()
        .map(|(k, n)| format!("{n} {}", k.name()))
        .collect();
    // Only fp-nondeterministic writes: safe over the reals, never called race-free.
    let (head, note) = if o
        .findings
        .iter()
        .all(|f| f.kind == FindingKind::FpNondeterministic)
    {
        (
            "FP-NONDETERMINISTIC",
            " (safe over the reals; the bits these writes leave may differ between runs)",
        )
    } else {
        ("UNSAFE", "")
    };
    let _ = writeln!(
        s,
        "{head} {name}: {}{note}\n  scope: {scope}",
        summary.join(", ")
    );
    let shown: Vec<&Finding> = o.findings.iter().take(max_shown).collect();
    for f in &shown {
        let _ = write!(s, "  {f}");
    }
    if o.findings.len() > shown.len() {
        let _ = writeln!(
            s,
            "  ... and {} more distinct findings",
            o.findings.len() - shown.len()
        );
    }
    (s, exit::REFUTED)
}
