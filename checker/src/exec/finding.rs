//! Safety findings: what went wrong, where, and for which threads. Every finding carries the
//! PTX lines involved so that a person (and the tests) can point at the bug.

use crate::lower::Space;
use crate::ptx::Line;
use std::fmt;

/// The kinds of violation the safety analysis reports (DESIGN.md, claims 1-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FindingKind {
    /// Two threads access one location, one writes, and no barrier orders them.
    DataRace,
    /// Two unordered writes of values equal over the reals whose bits may differ (another
    /// rounding, approximation or conversion path): which one lands is unspecified in floating
    /// point. Not a race over the reals, never silenced as benign.
    FpNondeterministic,
    /// Threads of a CTA wait at different barriers, or some exited while others wait.
    BarrierDivergence,
    /// Threads wait forever (a named barrier whose count is never reached).
    Deadlock,
    /// A warp collective (`shfl.sync`, `bar.warp.sync`) not executed by every lane its mask names.
    CollectiveMismatch,
    /// An access outside every tensor, the declared shared memory, or the thread's local memory.
    OutOfBounds,
    /// An access not aligned to its size.
    Misaligned,
    /// A read of shared memory or of an output tensor before anything was written there.
    UninitializedRead,
    /// A write to a tensor declared `in`.
    WriteToInput,
    /// A thread executes `trap` (`__trap()`): the launch aborts.
    Trap,
    /// A thread fails an `assert` (calls `__assertfail`): the launch aborts.
    Assertion,
}

impl FindingKind {
    /// Every kind, in report order.
    pub const ALL: [FindingKind; 11] = [
        FindingKind::DataRace,
        FindingKind::FpNondeterministic,
        FindingKind::BarrierDivergence,
        FindingKind::Deadlock,
        FindingKind::CollectiveMismatch,
        FindingKind::OutOfBounds,
        FindingKind::Misaligned,
        FindingKind::UninitializedRead,
        FindingKind::WriteToInput,
        FindingKind::Trap,
        FindingKind::Assertion,
    ];

    /// The name used in spec expectation files and reports.
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::DataRace => "race",
            FindingKind::FpNondeterministic => "fp_nondeterministic",
            FindingKind::BarrierDivergence => "barrier_divergence",
            FindingKind::Deadlock => "deadlock",
            FindingKind::CollectiveMismatch => "collective_mismatch",
            FindingKind::OutOfBounds => "out_of_bounds",
            FindingKind::Misaligned => "misaligned",
            FindingKind::UninitializedRead => "uninitialized_read",
            FindingKind::WriteToInput => "write_to_input",
            FindingKind::Trap => "trap",
            FindingKind::Assertion => "assertion",
        }
    }
}

/// One thread's part in a finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    pub line: Line,
    /// `file:line` from `.loc`, when the PTX has it.
    pub source: Option<String>,
    pub cta: [u32; 3],
    pub tid: [u32; 3],
    /// What the thread did there: "writes", "reads", "waits at bar.sync 0", ...
    pub action: String,
}

/// A violation with evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: FindingKind,
    /// The location, e.g. `shared[0x40]` or `out[3] (element [0, 3])`.
    pub location: Option<String>,
    pub space: Option<Space>,
    pub sites: Vec<Site>,
    pub detail: String,
}

impl Finding {
    /// The distinct PTX lines involved, sorted.
    pub fn lines(&self) -> Vec<Line> {
        let mut l: Vec<Line> = self.sites.iter().map(|s| s.line).collect();
        l.sort_unstable();
        l.dedup();
        l
    }
}

fn dims(d: [u32; 3]) -> String {
    match d {
        [x, 0, 0] => format!("{x}"),
        [x, y, z] => format!("({x},{y},{z})"),
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind.name())?;
        if let Some(loc) = &self.location {
            write!(f, " on {loc}")?;
        }
        writeln!(f, ": {}", self.detail)?;
        for s in &self.sites {
            write!(f, "    PTX line {:>5}", s.line)?;
            if let Some(src) = &s.source {
                write!(f, " ({src})")?;
            }
            writeln!(
                f,
                ": block {} thread {} {}",
                dims(s.cta),
                dims(s.tid),
                s.action
            )?;
        }
        Ok(())
    }
}
