//! Execution of a kernel instance under the canonical schedule (DESIGN.md, "One schedule is
//! enough"): within a CTA every thread runs until it blocks at a barrier or warp collective or
//! exits; blocked warp collectives and barriers are then resolved, and the round repeats. CTAs run
//! one after another. Control flow and addresses are concrete in every run; float values are
//! concrete bits (the interpreter) or terms (the symbolic executor).
//!
//! Along the way the executor checks the safety claims: races ([`race`]), barrier divergence and
//! deadlock, warp collectives, bounds and alignment, uninitialized reads ([`finding`]).

pub(crate) mod access;
pub mod fault;
pub mod finding;
mod ieee;
mod ifconv;
mod ints;
mod libdevice;
pub mod memory;
pub mod race;
mod step;
mod tensor_core;
pub mod value;
mod wmma;

pub use finding::{Finding, FindingKind, Site};
pub(crate) use step::{from_f64, to_f64};
pub use value::Val;

use crate::lower::{Op, Program, Space};
use crate::ptx::{Line, ScalarType};
use crate::spec::{Binding, KernelSpec, Role};
use crate::term::{TermArena, TermId};
use memory::{Region, TENSOR_STRIDE};
use race::Clocks;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Why execution stopped without a verdict. Findings are not errors: they are results.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecError {
    /// Outside the modeled fragment, e.g. a branch on tensor data.
    #[error("line {line}: unsupported: {what}")]
    Unsupported { line: Line, what: String },
    /// The kernel or launch is ill-formed (e.g. reads a register never written).
    #[error("line {line}: invalid: {msg}")]
    Invalid { line: Line, msg: String },
    /// The launch does not fit the entry (parameter count, block shape, shared size).
    #[error("launch does not fit the kernel: {0}")]
    Launch(String),
    /// A resource bound was hit; the message says which and how to raise it.
    #[error("resource limit: {0}")]
    Limit(String),
    /// The run's work budget ([`Config::max_work`]) is spent: its own variant, so that each
    /// front end can name the flag that raises it.
    #[error(
        "resource limit: more than {limit} units of work (lane-instructions and term comparisons) executed, stopped at line {line}; the kernel may not terminate"
    )]
    Work { limit: u64, line: Line },
}

/// How float values are represented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// IEEE arithmetic on bit patterns, as the GPU does (up to approximate instructions).
    Concrete,
    /// Real-valued terms over the input tensors.
    Symbolic,
}

/// Concrete tensor contents, per parameter index, as element bit patterns.
pub type Inputs = HashMap<usize, Vec<u64>>;

/// Bounds on the work one run may do.
#[derive(Debug, Clone)]
pub struct Config {
    /// CTAs executed at most; larger grids get an explicit partial verdict.
    pub max_ctas: u64,
    /// Instructions one thread may execute (catches runaway loops). Every command sets it to
    /// its `--max-work`, the flag its message names.
    pub max_steps_per_thread: u64,
    /// Work the whole run may do, all CTAs together ([`Outcome::work`]): what bounds the time
    /// a run takes, endless loops included ([`ExecError::Work`]).
    pub max_work: u64,
    /// Where the run publishes its work count now and then, for a progress message.
    pub progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
    /// Distinct findings kept.
    pub max_findings: usize,
}

/// The default work bound: 2^28 units, about 20 times the largest corpus kernel
/// (matmul_naive_128, 12.3 M lane-instructions) and seconds of symbolic execution.
pub const DEFAULT_MAX_WORK: u64 = 1 << 28;

impl Default for Config {
    fn default() -> Self {
        Config {
            max_ctas: 4096,
            max_steps_per_thread: 1 << 28,
            max_work: DEFAULT_MAX_WORK,
            progress: None,
            max_findings: 64,
        }
    }
}

/// Which CTAs were executed: every verdict states its scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    pub executed: Vec<[u32; 3]>,
    pub total: u64,
    /// `executed` is the list the spec names (`ctas`): the run's scope, not a shortfall.
    pub named: bool,
}

impl Coverage {
    pub fn complete(&self) -> bool {
        self.executed.len() as u64 == self.total
    }

    /// Whether every CTA of the run's scope ran: the whole grid, or the CTAs the spec names.
    pub fn in_scope(&self) -> bool {
        self.named || self.complete()
    }
}

/// The result of a run: findings, what was covered, and the final contents of output tensors.
#[derive(Debug)]
pub struct Outcome {
    pub findings: Vec<Finding>,
    pub coverage: Coverage,
    /// Per output (`out`/`inout`) tensor parameter: element index -> value.
    pub outputs: BTreeMap<usize, BTreeMap<u64, Val>>,
    pub arena: TermArena,
    /// Per `in`/`inout` tensor parameter: the elements of its initial contents that were read,
    /// as `lo..hi` (the lowest and one past the highest), for pairs whose linked tensors differ
    /// in size. Tensors never read are absent.
    pub reads: BTreeMap<usize, (u64, u64)>,
    pub lane_instructions: u64,
    /// Units of work done: one per lane-instruction, plus one per term node visited when a
    /// store is compared with the value already there (up to 4096 per store), so that the
    /// budget bounds time even where terms grow.
    pub work: u64,
}

impl Outcome {
    /// True when no finding was made and the whole scope ran (the grid, or the CTAs the spec
    /// names: a verdict then states that scope, [`KernelSpec::scope`]).
    pub fn is_safe(&self) -> bool {
        self.findings.is_empty() && self.coverage.in_scope()
    }
}

/// A bound tensor's memory.
pub(crate) struct TensorMem {
    pub param: usize,
    pub name: String,
    pub elem_bytes: u64,
    pub shape: Vec<u64>,
    pub role: Role,
    pub region: Region,
    /// Concrete initial contents (concrete mode, `in`/`inout` tensors).
    pub data: Option<Vec<u64>>,
    /// The tensor's name in input terms: its ordinal among tensors, unless renamed by
    /// [`run_in`].
    pub ordinal: u32,
    /// Whether elements are floats (f16, bf16, f32, f64); only those become input terms.
    pub is_float: bool,
    /// Whether elements are bfloat16: the upper half of an f32 with the same value.
    pub is_bf16: bool,
    /// Whether anything was stored here in this launch.
    pub written: bool,
    /// Granules read through `ld.global.nc`, with the first such read (CTA, thread, pc):
    /// a write to one of them at any time of the launch is a finding.
    pub nc_reads: HashMap<u64, ([u32; 3], [u32; 3], u32), crate::term::FxBuildHasher>,
    /// Id of the leaf of element 0 when all leaves were interned consecutively up front.
    pub input_base: Option<crate::term::TermId>,
    /// For an initialized module variable (`Space::Global` or `Space::Const`): its space.
    /// Its bytes are concrete data from the PTX, stored before the launch; it is read-only
    /// here (a store to it is refused) and never an output.
    pub module: Option<Space>,
    /// Whether the spec fixes the contents (`init`): then `data` holds them in every mode,
    /// and unwritten elements of an output are part of its final contents.
    pub init: bool,
    /// For integer tensors: the signedness and bits of an element and the interval its
    /// symbolic values lie in (the declared `range`, else the dtype's).
    pub int: Option<(crate::lower::IntTy, ints::Range)>,
    /// Elements of the initial contents read so far, `lo..hi` (see [`Outcome::reads`]).
    pub reads: Option<(u64, u64)>,
}

/// A symbolic scalar parameter: the leaf its `ld.param` reads.
pub(crate) struct SymbolicMem {
    pub param: usize,
    pub name: String,
    pub dtype: ScalarType,
    /// Its name in `Node::Input` (index 0): after the tensors' ordinals, unless renamed by
    /// [`run_in`].
    pub ordinal: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Ready,
    Exited,
    /// Waiting at a CTA barrier.
    Bar,
    /// Waiting at a warp collective.
    Warp,
}

/// A lane blocked at a warp collective.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Collective {
    WarpSync,
    Shfl {
        mode: crate::lower::ShflMode,
        a: Val,
        b: u32,
        c: u32,
        dst: u32,
        dst_pred: Option<u32>,
    },
    /// `vote.sync`: this lane's predicate (concrete) and destination register.
    Vote {
        mode: crate::lower::VoteMode,
        p: bool,
        dst: u32,
    },
    /// `mma.sync`: this lane's A, B and C fragment registers (unused slots `Undef`).
    Mma {
        a: [Val; 4],
        b: [Val; 2],
        c: [Val; 4],
    },
    /// `ldmatrix`: the row address this lane supplies.
    Ldmatrix {
        addr: access::Ptr,
    },
    /// `wmma.load`/`wmma.store`: the matrix address and stride this lane supplies (PTX requires
    /// them equal across the warp); zero for `wmma.mma`.
    Wmma {
        addr: access::Ptr,
        stride: u64,
    },
    /// `activemask.b32`: this lane's destination and its branch history ([`Thread::path`]).
    ActiveMask {
        dst: u32,
        path: u64,
    },
}

/// Whether two lanes' collectives complete as one: the same kind and, where the kind has
/// one, the same mode (lanes may meet at different instructions on sm_70 and later). Tensor-core
/// collectives take their shape and types from the instruction, so they need the same one.
fn same_collective(a: &WarpWait, b: &WarpWait) -> bool {
    match (&a.what, &b.what) {
        (Collective::WarpSync, Collective::WarpSync) => true,
        (Collective::Shfl { mode: m, .. }, Collective::Shfl { mode: n, .. }) => m == n,
        (Collective::Vote { mode: m, .. }, Collective::Vote { mode: n, .. }) => m == n,
        (Collective::Mma { .. }, Collective::Mma { .. })
        | (Collective::Ldmatrix { .. }, Collective::Ldmatrix { .. })
        | (Collective::Wmma { .. }, Collective::Wmma { .. }) => a.pc == b.pc,
        _ => false,
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct WarpWait {
    pub(crate) pc: u32,
    mask: u32,
    pub(crate) what: Collective,
}

pub(crate) struct Thread {
    pub tid: [u32; 3],
    pub linear: u32,
    pub pc: u32,
    pub regs: Vec<Val>,
    status: Status,
    warp_wait: Option<WarpWait>,
    /// The `exit`/`ret` that ended the thread.
    exit_pc: u32,
    pub local: Region,
    steps: u64,
    /// `cp.async` copies issued and not yet committed to a group.
    async_open: Vec<tensor_core::AsyncCopy>,
    /// Committed `cp.async` groups not yet waited for, oldest first.
    async_groups: std::collections::VecDeque<Vec<tensor_core::AsyncCopy>>,
    /// A hash of every conditional branch decision so far (pc, taken): lanes of a warp with
    /// equal paths took the same way through the code, which `activemask` needs.
    pub path: u64,
    /// For a register holding an undefined value: the line where the never-written value it
    /// comes from was read, so that the sink it reaches can name both lines. Only pure
    /// operations (the one way a register becomes undefined after a write) keep it.
    pub undef_from: HashMap<crate::lower::Reg, crate::ptx::Line>,
}

impl Thread {
    /// Blocks the thread at a warp collective until `resolve_warps` completes it.
    fn wait_collective(&mut self, pc: u32, mask: u32, what: Collective) {
        self.status = Status::Warp;
        self.warp_wait = Some(WarpWait { pc, mask, what });
    }
}

struct Arrival {
    tid: u32,
    pc: u32,
    count: Option<u32>,
    wait: bool,
    /// Executed by an aligned barrier instruction (see `Op::Bar`).
    aligned: bool,
    row: Vec<u32>,
}

pub(crate) struct Cta {
    pub id: [u32; 3],
    pub linear: u32,
    pub threads: Vec<Thread>,
    pub clocks: Clocks,
    pub shared: Region,
    bars: BTreeMap<u32, Vec<Arrival>>,
    /// Per barrier id: the threads of its first completed instance since the last whole-CTA
    /// barrier completed with nothing else pending (see [`Machine::resolve_barriers`]).
    members: BTreeMap<u32, Vec<u32>>,
    /// Per (barrier id, arrive-only thread): the instance that took the thread's last
    /// `bar.arrive` there, as the epoch of one of its waiters just after it completed (`None`:
    /// nobody waited). The thread's next arrival at that id must come after that completion in
    /// every schedule.
    completed: BTreeMap<(u32, u32), Option<race::Epoch>>,
    /// Source granules of `cp.async` copies issued and not yet waited for, by (tensor,
    /// granule index): the issuing thread, the pc, and how many copies read it. The
    /// hardware reads a source at some moment between the issue and the wait, so any write
    /// there meanwhile (even one that restores the value) makes the copied value unknown.
    inflight: BTreeMap<(usize, u64), (u32, u32, u32)>,
    /// Some write hit an in-flight source (reported).
    source_written: bool,
}

/// Global state of one run.
pub(crate) struct Machine<'a> {
    pub prog: &'a Program,
    pub spec: &'a KernelSpec,
    pub mode: Mode,
    pub config: &'a Config,
    pub tensors: Vec<TensorMem>,
    pub symbolics: Vec<SymbolicMem>,
    /// Parameter values as bit patterns (tensor bases, scalars, scratch pointers).
    pub param_bits: Vec<u64>,
    /// The region a pointer parameter's value is the start of ([`value::Base`]); `None` for
    /// scalars.
    pub param_base: Vec<Option<u32>>,
    pub arena: TermArena,
    pub findings: Vec<Finding>,
    seen: HashSet<(FindingKind, Vec<Line>)>,
    pub lane_instructions: u64,
    /// Term nodes visited comparing stored values (part of [`Outcome::work`]).
    pub compared: u64,
    shared_bytes: u64,
    /// The tensor index of each initialized module variable, by variable index.
    pub(crate) module_tensor: HashMap<u32, usize>,
    /// Granule of shared memory: 1 byte when the program has a 1-byte shared or generic
    /// access (a `bool` field of a shared struct), so that writes to neighbouring bytes are
    /// not a race and to the same byte are; 2 bytes otherwise (fewer cells to check).
    shared_granule: u64,
    /// Whether a register may be read before it is written from an instruction on, per
    /// (instruction, register): asked by if-conversion ([`ifconv`]).
    live: HashMap<(u32, u32), bool>,
    /// The matrices behind `wmma` fragment handles ([`Val::Frag`]), by id.
    frags: Vec<wmma::Fragment>,
    /// Executions of libdevice expf's rounding `fma.rm` so far: the next [`Val::Rounded`] id.
    rounded_count: u32,
    /// The interval of every integer term ([`Val::Int`]) of this run.
    pub(crate) int_ranges: HashMap<TermId, ints::Range, crate::term::FxBuildHasher>,
}

/// Runs `prog` under the launch `spec`.
pub fn run(
    prog: &Program,
    spec: &KernelSpec,
    mode: Mode,
    inputs: &Inputs,
    config: &Config,
) -> Result<Outcome, ExecError> {
    run_in(prog, spec, mode, inputs, config, TermArena::new(), &[])
}

/// Runs `prog` building terms in `arena`, which may already hold another kernel's terms: both
/// kernels of a pair share one hash-consed arena, so identical computations get identical ids.
/// `input_ids[k]` names tensor ordinal `k` in `Node::Input` (missing entries: the ordinal).
pub fn run_in(
    prog: &Program,
    spec: &KernelSpec,
    mode: Mode,
    inputs: &Inputs,
    config: &Config,
    arena: TermArena,
    input_ids: &[u32],
) -> Result<Outcome, ExecError> {
    let mut m = Machine::new(prog, spec, mode, inputs, config)?;
    m.arena = arena;
    for s in &mut m.symbolics {
        if let Some(&id) = input_ids.get(s.ordinal as usize) {
            s.ordinal = id;
        }
    }
    for t in &mut m.tensors {
        if let Some(&id) = input_ids.get(t.ordinal as usize) {
            t.ordinal = id;
        }
        // Interning every leaf of a small input tensor first gives them consecutive (and
        // small) ids: loads become arithmetic, and accumulation chains always have their
        // newest child in the accumulator, which keeps interning off the hash table.
        let n: u64 = t.shape.iter().product();
        if mode == Mode::Symbolic
            && t.role != Role::Out
            && t.is_float
            && !t.init
            && n <= DENSE_ELEMENTS
        {
            t.input_base = m
                .arena
                .intern_inputs(t.ordinal, n)
                .map_err(|e| ExecError::Limit(e.to_string()))?;
        }
    }
    // CTAs a spec names are its scope: exactly those run, whatever `max_ctas` says.
    let ctas = match &spec.ctas {
        Some(list) => list.clone(),
        None => select_ctas(spec.grid, config.max_ctas),
    };
    for &id in &ctas {
        m.run_cta(id).map_err(|e| m.name_symbolics(e))?;
    }
    let outputs = m.collect_outputs()?;
    let reads = m
        .tensors
        .iter()
        .filter_map(|t| Some((t.param, t.reads?)))
        .collect();
    Ok(Outcome {
        findings: m.findings,
        coverage: Coverage {
            executed: ctas,
            total: spec.ctas(),
            named: spec.ctas.is_some(),
        },
        outputs,
        arena: m.arena,
        reads,
        lane_instructions: m.lane_instructions,
        work: m.lane_instructions + m.compared,
    })
}

/// All CTAs when they fit the limit; otherwise the first and last ones (where boundary bugs
/// live), never silently fewer than the report says.
fn select_ctas(grid: [u32; 3], max: u64) -> Vec<[u32; 3]> {
    let total = grid.iter().map(|&g| u64::from(g)).product::<u64>();
    let linear: Vec<u64> = if total <= max {
        (0..total).collect()
    } else {
        let head = max.div_ceil(2);
        (0..head).chain(total - (max - head)..total).collect()
    };
    linear
        .into_iter()
        .map(|l| {
            let x = (l % u64::from(grid[0])) as u32;
            let y = ((l / u64::from(grid[0])) % u64::from(grid[1])) as u32;
            let z = (l / (u64::from(grid[0]) * u64::from(grid[1]))) as u32;
            [x, y, z]
        })
        .collect()
}

/// Why a binding does not fit the parameter it binds, beyond size (checked before): a
/// scalar's dtype must be of the parameter's kind, float or integer, since the executor reads
/// its bits as the PTX type (an `s32` 2 bound to `.param .f32` would compute with 2.8e-45).
/// Untyped parameters (`.bN`, byte arrays) take any binding of their size; pointers (tensors,
/// scratch) need an integer parameter.
fn binding_mismatch(b: &Binding, p: &crate::lower::ParamInfo) -> Option<String> {
    use crate::ptx::ScalarType::{B8, B16, B32, B64};
    if p.array || matches!(p.ty, B8 | B16 | B32 | B64) {
        return None;
    }
    let (what, float, dtype) = match b {
        Binding::Tensor(_) => ("a tensor (a pointer)", false, None),
        Binding::Scratch => ("a scratch pointer", false, None),
        Binding::Scalar { dtype, .. } => ("a scalar", dtype.is_float(), Some(*dtype)),
        Binding::Symbolic { dtype, .. } => ("a symbolic scalar", true, Some(*dtype)),
    };
    let fits = match dtype {
        Some(d) if d.is_float() => d == p.ty,
        _ => float == p.ty.is_float(),
    };
    (!fits).then(|| {
        let as_written = dtype.map_or(String::new(), |d| format!(" of dtype {}", d.suffix()));
        format!(
            "{what}{as_written} is bound to PTX parameter {} declared .param .{} (PTX line {}); \
             the spec's dtype must be the parameter's type",
            p.name,
            p.ty.suffix(),
            p.line
        )
    })
}

/// Tensors up to this many elements get dense per-element side tables.
pub(crate) const DENSE_ELEMENTS: u64 = 1 << 22;

/// Shared memory a CTA may use (sm_90 maximum).
const MAX_SHARED: u64 = 227 * 1024;

impl<'a> Machine<'a> {
    fn new(
        prog: &'a Program,
        spec: &'a KernelSpec,
        mode: Mode,
        inputs: &Inputs,
        config: &'a Config,
    ) -> Result<Self, ExecError> {
        if prog.params.len() != spec.params.len() {
            return Err(ExecError::Launch(format!(
                "{}: params: entry {} has {} parameters, the spec binds {}",
                spec.origin,
                prog.name,
                prog.params.len(),
                spec.params.len()
            )));
        }
        if let Some(req) = prog.reqntid
            && req != spec.block
        {
            return Err(ExecError::Launch(format!(
                "entry requires block {req:?} (.reqntid), spec has {:?}",
                spec.block
            )));
        }
        if let Some(max) = prog.maxntid {
            let n = |d: [u32; 3]| d.iter().map(|&x| u64::from(x)).product::<u64>();
            if n(spec.block) > n(max) {
                return Err(ExecError::Launch(format!(
                    "block {:?} exceeds .maxntid {max:?}",
                    spec.block
                )));
            }
        }
        // Saturating: a crafted static size near 2^64 is refused below, never wrapped.
        let shared_bytes = prog
            .dynamic_shared_offset
            .saturating_add(u64::from(spec.dynamic_shared));
        let shared_bytes = if spec.dynamic_shared == 0 {
            prog.static_shared
        } else {
            shared_bytes
        };
        // CUDA's per-thread local memory limit; beyond it the PTX cannot be launched.
        if prog.local_bytes > 512 * 1024 {
            return Err(ExecError::Launch(format!(
                "{} bytes of local memory per thread exceed 512 KiB",
                prog.local_bytes
            )));
        }
        if shared_bytes > MAX_SHARED {
            return Err(ExecError::Launch(format!(
                "{shared_bytes} bytes of shared memory exceed {MAX_SHARED}"
            )));
        }
        let mut tensors = Vec::new();
        let mut param_bits = Vec::new();
        let mut param_base = Vec::new();
        let mut symbolics = Vec::new();
        let n_tensors = spec.tensors().count() as u32;
        for (i, (b, p)) in spec.params.iter().zip(&prog.params).enumerate() {
            let want = match b {
                Binding::Tensor(_) | Binding::Scratch => 8,
                Binding::Scalar { dtype, .. } | Binding::Symbolic { dtype, .. } => dtype.size(),
            };
            if p.bytes != want {
                return Err(ExecError::Launch(format!(
                    "{}:{}: params[{i}]: PTX parameter {} (PTX line {}) is {} bytes, the spec binds {want} bytes",
                    spec.origin,
                    spec.param_lines.get(i).copied().unwrap_or(0),
                    p.name,
                    p.line,
                    p.bytes
                )));
            }
            if let Some(why) = binding_mismatch(b, p) {
                return Err(ExecError::Launch(format!(
                    "{}:{}: params[{i}]: {why}",
                    spec.origin,
                    spec.param_lines.get(i).copied().unwrap_or(0)
                )));
            }
            let ordinal = tensors.len() as u64;
            param_base.push(match b {
                Binding::Tensor(_) => Some(ordinal as u32),
                Binding::Scratch => Some(value::Base::SCRATCH | i as u32),
                Binding::Scalar { .. } | Binding::Symbolic { .. } => None,
            });
            param_bits.push(match b {
                Binding::Tensor(t) => {
                    let data = match (mode, t.role) {
                        // Contents the spec fixes are the same in every run, whatever the
                        // caller passes.
                        _ if t.init.is_some() => t.init.map(|i| i.contents(t.elements(), t.dtype)),
                        (Mode::Concrete, Role::In | Role::Inout) => {
                            let d = inputs.get(&i).cloned().ok_or_else(|| {
                                ExecError::Launch(format!("no input data for tensor {}", t.name))
                            })?;
                            if d.len() as u64 != t.elements() {
                                return Err(ExecError::Launch(format!(
                                    "input {} has {} elements, shape needs {}",
                                    t.name,
                                    d.len(),
                                    t.elements()
                                )));
                            }
                            Some(d)
                        }
                        _ => None,
                    };
                    let elem = u64::from(t.dtype.size());
                    tensors.push(TensorMem {
                        param: i,
                        name: t.name.clone(),
                        elem_bytes: elem,
                        shape: t.shape.clone(),
                        role: t.role,
                        region: Region::tensor(t.bytes(), elem),
                        written: false,
                        nc_reads: HashMap::default(),
                        input_base: None,
                        module: None,
                        reads: None,
                        data,
                        ordinal: ordinal as u32,
                        is_float: matches!(
                            t.dtype,
                            ScalarType::F16 | ScalarType::Bf16 | ScalarType::F32 | ScalarType::F64
                        ),
                        is_bf16: t.dtype == ScalarType::Bf16,
                        init: t.init.is_some(),
                        int: crate::spec::int_bounds(t.dtype).map(|whole| {
                            let ty = crate::lower::IntTy {
                                bits: (t.dtype.size() * 8) as u8,
                                signed: matches!(
                                    t.dtype,
                                    ScalarType::S8
                                        | ScalarType::S16
                                        | ScalarType::S32
                                        | ScalarType::S64
                                ),
                            };
                            let r = t
                                .range
                                .map_or(whole, |(lo, hi)| (i128::from(lo), i128::from(hi)));
                            (ty, r)
                        }),
                    });
                    (ordinal + 1) * TENSOR_STRIDE
                }
                Binding::Scalar { bits, .. } => *bits,
                Binding::Symbolic { name, dtype, .. } => {
                    symbolics.push(SymbolicMem {
                        param: i,
                        name: name.clone(),
                        dtype: *dtype,
                        ordinal: n_tensors + symbolics.len() as u32,
                    });
                    // The interpreter needs a value: the caller's, one element at the
                    // parameter's index. Symbolic runs read the leaf instead (`ld.param`).
                    match mode {
                        Mode::Concrete => match inputs.get(&i).map(Vec::as_slice) {
                            Some([v]) => *v,
                            _ => {
                                return Err(ExecError::Launch(format!(
                                    "no value for symbolic scalar {name}"
                                )));
                            }
                        },
                        Mode::Symbolic => 0,
                    }
                }
                // An address in no tensor: any access through it is out of bounds.
                Binding::Scratch => TENSOR_STRIDE / 2 + i as u64 * 0x1000,
            });
        }
        // Initialized module variables are regions after the spec's tensors, holding their
        // bytes from the start (`var_addr` gives their addresses).
        let mut module_tensor = HashMap::new();
        for (i, v) in prog.vars.iter().enumerate() {
            let (Some(init), Space::Global | Space::Const) = (&v.init, v.space) else {
                continue;
            };
            let n = init.len() as u64;
            let mut region = Region::tensor(n, 1);
            for (b, &byte) in init.iter().enumerate() {
                region.store(b as u64, 1, Val::Bits(u64::from(byte)));
            }
            module_tensor.insert(i as u32, tensors.len());
            tensors.push(TensorMem {
                param: usize::MAX,
                name: v.name.clone(),
                elem_bytes: 1,
                shape: vec![n],
                role: Role::In,
                region,
                written: false,
                nc_reads: HashMap::default(),
                input_base: None,
                module: Some(v.space),
                init: false,
                int: None,
                reads: None,
                data: None,
                ordinal: u32::MAX,
                is_float: false,
                is_bf16: false,
            });
        }
        Ok(Machine {
            prog,
            spec,
            mode,
            config,
            tensors,
            module_tensor,
            symbolics,
            param_bits,
            param_base,
            arena: TermArena::new(),
            findings: Vec::new(),
            seen: HashSet::new(),
            lane_instructions: 0,
            compared: 0,
            shared_bytes,
            shared_granule: if prog.insts.iter().any(|i| {
                matches!(
                    i.op,
                    Op::Ld {
                        space: Space::Shared | Space::Generic,
                        elem_bytes: 1,
                        ..
                    } | Op::St {
                        space: Space::Shared | Space::Generic,
                        elem_bytes: 1,
                        ..
                    }
                )
            }) {
                1
            } else {
                2
            },
            live: HashMap::new(),
            frags: Vec::new(),
            rounded_count: 0,
            int_ranges: HashMap::default(),
        })
    }

    /// An unsupported construct in a kernel with symbolic scalars names them: they are
    /// real-valued leaves, so an integer, address, branch or loop bound made from one is
    /// refused like one made from tensor data.
    fn name_symbolics(&self, e: ExecError) -> ExecError {
        match e {
            ExecError::Unsupported { line, what } if !self.symbolics.is_empty() => {
                let names: Vec<&str> = self.symbolics.iter().map(|s| s.name.as_str()).collect();
                ExecError::Unsupported {
                    line,
                    what: format!(
                        "{what}; tensor data here includes symbolic scalar {}: a symbolic \
                         scalar is a real-valued leaf, usable as a float operand only, never as \
                         an integer, address, branch or loop bound",
                        names.join(" or ")
                    ),
                }
            }
            other => other,
        }
    }

    /// Records a finding once per (kind, lines).
    pub(crate) fn report(&mut self, f: Finding) {
        let key = (f.kind, f.lines());
        if self.findings.len() < self.config.max_findings && self.seen.insert(key) {
            self.findings.push(f);
        }
    }

    /// Records a finding at one thread's instruction (no memory location).
    pub(crate) fn report_at(
        &mut self,
        kind: FindingKind,
        (cta, tid, pc): ([u32; 3], [u32; 3], u32),
        action: String,
        detail: String,
    ) {
        let site = self.site(cta, tid, pc, action);
        self.report(Finding {
            kind,
            location: None,
            space: None,
            sites: vec![site],
            detail,
        });
    }

    pub(crate) fn site(&self, cta: [u32; 3], tid: [u32; 3], pc: u32, action: String) -> Site {
        let inst = &self.prog.insts[pc as usize];
        Site {
            line: inst.line,
            source: self
                .prog
                .source_of(pc as usize)
                .map(|(f, l)| format!("{f}:{l}")),
            cta,
            tid,
            action,
        }
    }

    fn run_cta(&mut self, id: [u32; 3]) -> Result<(), ExecError> {
        let [bx, by, bz] = self.spec.block;
        let n = (bx * by * bz) as usize;
        let g = self.spec.grid;
        let linear = id[0] + g[0] * (id[1] + g[1] * id[2]);
        let mut threads = Vec::with_capacity(n);
        for l in 0..n as u32 {
            threads.push(Thread {
                tid: [l % bx, (l / bx) % by, l / (bx * by)],
                linear: l,
                pc: 0,
                regs: vec![Val::Undef; self.prog.regs.len()],
                status: Status::Ready,
                warp_wait: None,
                exit_pc: 0,
                local: Region::sparse(self.prog.local_bytes, 2),
                steps: 0,
                async_open: Vec::new(),
                async_groups: Default::default(),
                path: 0,
                undef_from: HashMap::new(),
            });
        }
        let mut cta = Cta {
            id,
            linear,
            threads,
            clocks: Clocks::new(linear, n),
            shared: Region::dense(self.shared_bytes, self.shared_granule),
            bars: BTreeMap::new(),
            members: BTreeMap::new(),
            completed: BTreeMap::new(),
            inflight: BTreeMap::new(),
            source_written: false,
        };
        loop {
            for t in 0..n {
                if cta.threads[t].status == Status::Ready {
                    self.run_thread(&mut cta, t)?;
                }
            }
            if cta.threads.iter().all(|t| t.status == Status::Exited) {
                if let Some((_, arrivals)) = cta.bars.iter().find(|(_, a)| !a.is_empty()) {
                    let sites = arrivals
                        .iter()
                        .take(4)
                        .map(|a| {
                            self.site(id, cta.threads[a.tid as usize].tid, a.pc, "arrives".into())
                        })
                        .collect();
                    self.report(Finding {
                        kind: FindingKind::Deadlock,
                        location: None,
                        space: None,
                        sites,
                        detail:
                            "bar.arrive on a barrier that never completes before every thread exits"
                                .into(),
                    });
                }
                return Ok(());
            }
            match self.resolve_warps(&mut cta)? {
                Resolved::Progress => continue,
                // The finding is recorded; the rest of this CTA has no defined meaning.
                Resolved::Abort => return Ok(()),
                Resolved::Stuck => {}
            }
            if self.resolve_barriers(&mut cta)? {
                continue;
            }
            self.report_stuck(&cta);
            return Ok(());
        }
    }

    /// Completes every warp collective whose lanes have all arrived.
    fn resolve_warps(&mut self, cta: &mut Cta) -> Result<Resolved, ExecError> {
        let mut progress = false;
        let n = cta.threads.len();
        for w0 in (0..n).step_by(32) {
            let lanes = w0..(w0 + 32).min(n);
            for l in lanes.clone() {
                let Some(ww) = cta.threads[l].warp_wait else {
                    continue;
                };
                if cta.threads[l].status != Status::Warp {
                    continue;
                }
                let me = (l - w0) as u32;
                let members: Vec<usize> = lanes
                    .clone()
                    .filter(|&k| ww.mask >> (k - w0) & 1 == 1)
                    .collect();
                if let Collective::ActiveMask { path, .. } = ww.what {
                    match self.active_mask_ready(cta, &members, ww.pc, path) {
                        Some(true) => {
                            self.complete_active_mask(cta, &members, ww.mask);
                            progress = true;
                        }
                        Some(false) => {}
                        None => {
                            return Err(ExecError::Unsupported {
                                line: self.prog.insts[ww.pc as usize].line,
                                what: "activemask where the lanes of the warp are not all at \
                                       it on one path (after divergence or an early exit the \
                                       active set depends on the hardware's scheduling)"
                                    .into(),
                            });
                        }
                    }
                    continue;
                }
                let exists = |k: u32| (w0 + k as usize) < n;
                let bad = |why: String, m: &mut Machine| {
                    m.report_at(
                        FindingKind::CollectiveMismatch,
                        (cta.id, cta.threads[l].tid, ww.pc),
                        format!("executes a warp collective with mask {:#x}", ww.mask),
                        why,
                    );
                };
                if ww.mask >> me & 1 == 0 || (0..32).any(|k| ww.mask >> k & 1 == 1 && !exists(k)) {
                    bad(
                        format!(
                            "lane {me} is not in its own mask or the mask names lanes that do not exist"
                        ),
                        self,
                    );
                    return Ok(Resolved::Abort);
                }
                let arrived = |k: usize| {
                    let t = &cta.threads[k];
                    t.status == Status::Warp && t.warp_wait.is_some_and(|o| o.mask == ww.mask)
                };
                let all_here = members.iter().all(|&k| {
                    arrived(k)
                        && cta.threads[k]
                            .warp_wait
                            .is_some_and(|o| same_collective(&o, &ww))
                });
                if !all_here && members.iter().all(|&k| arrived(k)) {
                    // Every lane of the mask is at a collective with this mask, but not at the
                    // same one: PTX gives that no meaning, and completing it with one lane's
                    // mode would compute what other lanes' instructions do not (found by the
                    // Lean model, `Kcert.Warp.VoteModes`).
                    let other = members
                        .iter()
                        .filter_map(|&k| cta.threads[k].warp_wait)
                        .find(|o| !same_collective(o, &ww))
                        .map_or(0, |o| self.prog.insts[o.pc as usize].line);
                    bad(
                        format!(
                            "the lanes of mask {:#x} are at different warp collectives (this one and line {other})",
                            ww.mask
                        ),
                        self,
                    );
                    return Ok(Resolved::Abort);
                }
                if !all_here {
                    if let Some(&k) = members
                        .iter()
                        .find(|&&k| cta.threads[k].status == Status::Exited)
                    {
                        let exit_line = self.prog.insts[cta.threads[k].exit_pc as usize].line;
                        bad(
                            format!(
                                "lane {} named in the mask exited (line {exit_line})",
                                k - w0
                            ),
                            self,
                        );
                        return Ok(Resolved::Abort);
                    }
                    continue;
                }
                self.complete_collective(cta, &members, w0)?;
                progress = true;
            }
        }
        Ok(if progress {
            Resolved::Progress
        } else {
            Resolved::Stuck
        })
    }

    /// Whether every lane of the warp waits at this `activemask` (same pc, same path):
    /// `Some(true)`; `Some(false)` while some lane is still at another warp collective;
    /// `None` when a lane exited, waits at a barrier or at another dynamic `activemask`.
    fn active_mask_ready(&self, cta: &Cta, members: &[usize], pc: u32, path: u64) -> Option<bool> {
        let mut all = true;
        for &k in members {
            let th = &cta.threads[k];
            match (th.status, th.warp_wait) {
                (
                    Status::Warp,
                    Some(WarpWait {
                        pc: p,
                        what: Collective::ActiveMask { path: q, .. },
                        ..
                    }),
                ) if p == pc && q == path => {}
                (Status::Warp, Some(WarpWait { what, .. }))
                    if !matches!(what, Collective::ActiveMask { .. }) =>
                {
                    all = false
                }
                (Status::Ready, _) => all = false,
                _ => return None,
            }
        }
        Some(all)
    }

    /// Gives every lane of the warp the warp's mask and lets it go on. `activemask` does
    /// not order memory.
    fn complete_active_mask(&mut self, cta: &mut Cta, members: &[usize], mask: u32) {
        for &k in members {
            let th = &mut cta.threads[k];
            if let Some(WarpWait {
                what: Collective::ActiveMask { dst, .. },
                ..
            }) = th.warp_wait
            {
                th.regs[dst as usize] = Val::Bits(u64::from(mask));
            }
            th.status = Status::Ready;
            th.warp_wait = None;
        }
    }

    fn complete_collective(
        &mut self,
        cta: &mut Cta,
        members: &[usize],
        w0: usize,
    ) -> Result<(), ExecError> {
        let waits: Vec<(usize, WarpWait)> = members
            .iter()
            .filter_map(|&k| Some((k, cta.threads[k].warp_wait?)))
            .collect();
        match waits.first().map(|(_, w)| w.what) {
            Some(Collective::WarpSync) => {
                // bar.warp.sync orders memory among its lanes, like a barrier.
                let rows: Vec<(u32, Vec<u32>)> = members
                    .iter()
                    .map(|&k| (k as u32, cta.clocks.row(k as u32)))
                    .collect();
                let ids: Vec<u32> = members.iter().map(|&k| k as u32).collect();
                cta.clocks.barrier(&rows, &ids);
            }
            Some(Collective::Shfl { .. }) => {
                let values: HashMap<u32, Val> = waits
                    .iter()
                    .filter_map(|(k, w)| match w.what {
                        Collective::Shfl { a, .. } => Some(((k - w0) as u32, a)),
                        _ => None,
                    })
                    .collect();
                for (k, w) in &waits {
                    let Collective::Shfl {
                        mode,
                        b,
                        c,
                        dst,
                        dst_pred,
                        ..
                    } = w.what
                    else {
                        continue;
                    };
                    let lane = (k - w0) as u32;
                    let (src, ok) = step::shfl_source(mode, lane, b, c);
                    let val = match values.get(&src) {
                        Some(v) => *v,
                        None => {
                            self.report_at(
                                FindingKind::CollectiveMismatch,
                                (cta.id, cta.threads[*k].tid, w.pc),
                                format!("reads lane {src}"),
                                format!("shfl source lane {src} is not in the mask {:#x}", w.mask),
                            );
                            Val::Bits(0)
                        }
                    };
                    let th = &mut cta.threads[*k];
                    th.regs[dst as usize] = val;
                    if let Some(p) = dst_pred {
                        th.regs[p as usize] = Val::Bits(u64::from(ok));
                    }
                }
            }
            Some(Collective::Vote { mode, .. }) => {
                // Every member's predicate; vote.sync does not order memory (like shfl).
                let (mut voters, mut ballot) = (0u64, 0u64);
                for (k, w) in &waits {
                    if let Collective::Vote { p, .. } = w.what {
                        voters |= 1 << (k - w0);
                        ballot |= u64::from(p) << (k - w0);
                    }
                }
                let v = match mode {
                    crate::lower::VoteMode::Ballot => ballot,
                    crate::lower::VoteMode::Any => u64::from(ballot != 0),
                    crate::lower::VoteMode::All => u64::from(ballot == voters),
                    crate::lower::VoteMode::Uni => u64::from(ballot == 0 || ballot == voters),
                };
                for (k, w) in &waits {
                    if let Collective::Vote { dst, .. } = w.what {
                        cta.threads[*k].regs[dst as usize] = Val::Bits(v);
                    }
                }
            }
            Some(Collective::Mma { .. }) => self.complete_mma(cta, &waits, w0)?,
            Some(Collective::Ldmatrix { .. }) => self.complete_ldmatrix(cta, &waits)?,
            Some(Collective::Wmma { .. }) => self.complete_wmma(cta, &waits, w0)?,
            // Completed by `complete_active_mask` before this is reached.
            Some(Collective::ActiveMask { .. }) | None => {}
        }
        for &k in members {
            let th = &mut cta.threads[k];
            th.status = Status::Ready;
            th.warp_wait = None;
        }
        Ok(())
    }

    /// Completes every CTA barrier that has its thread count.
    fn resolve_barriers(&mut self, cta: &mut Cta) -> Result<bool, ExecError> {
        let n = cta.threads.len() as u32;
        let mut progress = false;
        let ids: Vec<u32> = cta.bars.keys().copied().collect();
        for id in ids {
            let Some(arrivals) = cta.bars.get(&id) else {
                continue;
            };
            let Some(first) = arrivals.first() else {
                continue;
            };
            let expected = first.count.unwrap_or(n) as usize;
            if arrivals.len() < expected {
                continue;
            }
            // Which threads meet at one instance of a barrier must not depend on the schedule,
            // or the executor's instance (the first `count` arrivals in its thread order) may
            // order accesses that another schedule leaves unordered (found by the Lean model,
            // `Kcert.Race.overfullExec_check`). Sufficient: no instance finds more arrivals
            // pending than its count, and every instance of an id has the threads of its first
            // one (so the k-th instance is every member's k-th arrival in every schedule).
            if arrivals.len() > expected {
                let a = &arrivals[expected];
                let at = (cta.id, cta.threads[a.tid as usize].tid, a.pc);
                let pending = arrivals.len();
                self.report_at(
                    FindingKind::BarrierDivergence,
                    at,
                    format!("arrives at barrier {id} while it is full"),
                    format!(
                        "barrier {id} has {pending} arrivals pending for a count of {expected}: which of them complete it depends on the schedule"
                    ),
                );
            }
            let done: Vec<Arrival> = cta
                .bars
                .get_mut(&id)
                .map(|a| a.drain(..expected).collect())
                .unwrap_or_default();
            let mut who: Vec<u32> = done.iter().map(|a| a.tid).collect();
            who.sort_unstable();
            let members = cta.members.entry(id).or_insert_with(|| who.clone());
            if *members != who || who.windows(2).any(|w| w[0] == w[1]) {
                let a = &done[0];
                self.report_at(
                    FindingKind::BarrierDivergence,
                    (cta.id, cta.threads[a.tid as usize].tid, a.pc),
                    format!("arrives at barrier {id}"),
                    format!(
                        "an instance of barrier {id} joins other threads than its first instance (or one thread twice): which threads meet at it may depend on the schedule"
                    ),
                );
            }
            // A whole-CTA instance that every thread waits at, with nothing else pending,
            // starts afresh: no thread is past it before all arrive, so later instances cannot
            // mix with earlier ones. A thread that only signals it (`bar.arrive`) goes on at
            // once, and its later arrivals can meet earlier instances on the GPU (found by the
            // Lean model, `Kcert.Members.clearExec_members`; kernel misc/bar_clear_members).
            if who.len() == cta.threads.len()
                && done.iter().all(|a| a.wait)
                && cta.bars.values().all(Vec::is_empty)
            {
                cta.members.clear();
            }
            if let Some(other) = done.iter().find(|a| a.count != first_count(&done)) {
                let s1 = self.site(
                    cta.id,
                    cta.threads[done[0].tid as usize].tid,
                    done[0].pc,
                    format!("arrives at barrier {id} with count {:?}", done[0].count),
                );
                let s2 = self.site(
                    cta.id,
                    cta.threads[other.tid as usize].tid,
                    other.pc,
                    format!("arrives at barrier {id} with count {:?}", other.count),
                );
                self.report(Finding {
                    kind: FindingKind::BarrierDivergence,
                    location: None,
                    space: None,
                    sites: vec![s1, s2],
                    detail: format!("barrier {id} used with different thread counts"),
                });
            }
            // PTX ISA 9.7.13.1: "Instruction barrier{.cta} has optional .aligned modifier.
            // When specified, it indicates that all threads in CTA will execute the same
            // barrier{.cta} instruction. In conditionally executed code, an aligned
            // barrier{.cta} instruction should only be used if it is known that all threads in
            // CTA evaluate the condition identically, otherwise behavior is undefined." and
            // "bar{.cta}.sync is equivalent to barrier{.cta}.sync.aligned". So a whole-CTA
            // instance with an aligned arrival must have every arrival at one instruction.
            // Without `.aligned` (sm_70 and later) the instance is counted per barrier id from
            // whichever instructions: "Different warps may execute different forms of the
            // barrier{.cta} instruction using the same barrier name and thread count", and the
            // convergence rule ("All threads in warp ... must execute barrier{.cta}
            // instruction in convergence") is stated for sm_6x only. Counted instances
            // (producer/consumer, the ISA's own bar.arrive/bar.sync example) may span
            // instructions across warps, but an aligned one never splits a warp.
            let mut pair = None;
            if done[0].count.is_none()
                && let Some(x) = done.iter().find(|a| a.aligned)
                && let Some(y) = done.iter().find(|a| a.pc != x.pc)
            {
                pair = Some((x, y));
            }
            // Per warp: its first arrival, and whether any of its arrivals is aligned.
            let mut warps: BTreeMap<u32, (&Arrival, bool)> = BTreeMap::new();
            for a in &done {
                let w = warps.entry(a.tid / 32).or_insert((a, false));
                w.1 |= a.aligned;
            }
            // A warp whose lanes are at different instructions: (one lane, another, aligned).
            let split = done.iter().find_map(|a| {
                let (first, aligned) = warps.get(&(a.tid / 32))?;
                (first.pc != a.pc).then_some((*first, a, *aligned))
            });
            if pair.is_none()
                && let Some((x, y, true)) = split
            {
                pair = Some((x, y));
            }
            if let Some((a, b)) = pair {
                let warp = if a.tid / 32 == b.tid / 32 {
                    "lanes of one warp"
                } else {
                    "threads of one CTA"
                };
                let s1 = self.site(
                    cta.id,
                    cta.threads[a.tid as usize].tid,
                    a.pc,
                    format!("waits at barrier {id}"),
                );
                let s2 = self.site(
                    cta.id,
                    cta.threads[b.tid as usize].tid,
                    b.pc,
                    format!("waits at barrier {id}"),
                );
                self.report(Finding {
                    kind: FindingKind::BarrierDivergence,
                    location: None,
                    space: None,
                    sites: vec![s1, s2],
                    detail: format!(
                        "{warp} wait at different aligned barrier instructions (bar.sync is barrier.sync.aligned) for barrier {id}: PTX ISA 9.7.13.1 says an aligned barrier indicates that all threads in CTA will execute the same barrier instruction, otherwise behavior is undefined; barrier.sync without .aligned (sm_70+) may be reached from different instructions"
                    ),
                });
            } else if let Some((_, b, false)) = split {
                // Lanes of one warp at different non-aligned instructions: the ISA states the
                // convergence rule for sm_6x only, and says each thread waits "for all
                // non-exited threads from its warp" without saying whether a lane at another
                // instruction of the same barrier counts. Not modeled: declined, never assumed.
                return Err(ExecError::Unsupported {
                    line: self.prog.insts[b.pc as usize].line,
                    what: format!(
                        "lanes of one warp at different barrier.sync instructions for barrier {id} (the PTX ISA does not say whether a split warp's arrivals make one warp arrival)"
                    ),
                });
            }
            let rows: Vec<(u32, Vec<u32>)> = done.iter().map(|a| (a.tid, a.row.clone())).collect();
            let waiters: Vec<u32> = done.iter().filter(|a| a.wait).map(|a| a.tid).collect();
            // Waiters contribute their current rows (they are blocked, so unchanged since arrival).
            cta.clocks.barrier(&rows, &waiters);
            // A waiter's next arrival comes after the completion (it was blocked until then);
            // an arrive-only thread's must be ordered after a waiter's first step past it.
            let seen = waiters.first().map(|&w| cta.clocks.epoch(w, done[0].pc));
            for a in &done {
                if a.wait {
                    cta.completed.remove(&(id, a.tid));
                } else {
                    cta.completed.insert((id, a.tid), seen);
                }
            }
            for w in waiters {
                cta.threads[w as usize].status = Status::Ready;
            }
            progress = true;
        }
        Ok(progress)
    }

    /// Nothing can run: say who waits where, and who exited.
    fn report_stuck(&mut self, cta: &Cta) {
        let exited: Vec<&Thread> = cta
            .threads
            .iter()
            .filter(|t| t.status == Status::Exited)
            .collect();
        let waiting: Vec<&Thread> = cta
            .threads
            .iter()
            .filter(|t| matches!(t.status, Status::Bar | Status::Warp))
            .collect();
        let mut sites = Vec::new();
        // Group waiting threads by pc, one site per distinct instruction (up to 4).
        let mut by_pc: BTreeMap<u32, (usize, &Thread)> = BTreeMap::new();
        for t in &waiting {
            let pc = t.pc.saturating_sub(1);
            by_pc.entry(pc).or_insert((0, t)).0 += 1;
        }
        for (pc, (count, t)) in by_pc.iter().take(4) {
            sites.push(self.site(
                cta.id,
                t.tid,
                *pc,
                format!("waits ({count} threads wait here)"),
            ));
        }
        let full_barrier_waiters = cta.bars.values().flatten().any(|a| a.count.is_none());
        let kind = if !exited.is_empty() && full_barrier_waiters {
            let t = exited[0];
            sites.push(self.site(
                cta.id,
                t.tid,
                t.exit_pc,
                format!("exited ({} threads exited)", exited.len()),
            ));
            FindingKind::BarrierDivergence
        } else if by_pc.len() > 1 {
            FindingKind::BarrierDivergence
        } else {
            FindingKind::Deadlock
        };
        let detail = format!(
            "{} threads of block {:?} can never leave their barrier ({} exited)",
            waiting.len(),
            cta.id,
            exited.len()
        );
        self.report(Finding {
            kind,
            location: None,
            space: None,
            sites,
            detail,
        });
    }

    /// Every written element of every output tensor. A granule holding part of a wider value
    /// is an error, never skipped: the footprint must account for every byte written
    /// ([`Machine::whole_elements`] refuses such stores where they happen, with the line).
    fn collect_outputs(&self) -> Result<BTreeMap<usize, BTreeMap<u64, Val>>, ExecError> {
        let mut out = BTreeMap::new();
        for t in &self.tensors {
            if t.role == Role::In {
                continue;
            }
            let mut vals = BTreeMap::new();
            for (g, cell) in t.region.cells() {
                if cell.part != 0 || u64::from(cell.width) != t.elem_bytes {
                    return Err(ExecError::Launch(format!(
                        "element {g} of output {} holds part {} of a {}-byte value, not a whole {}-byte element",
                        t.name, cell.part, cell.width, t.elem_bytes
                    )));
                }
                vals.insert(g, cell.val);
            }
            // The caller's contents stay where nothing was written: they are output too.
            if t.init
                && let Some(d) = &t.data
            {
                for (i, &b) in d.iter().enumerate() {
                    vals.entry(i as u64).or_insert(Val::Bits(b));
                }
            }
            out.insert(t.param, vals);
        }
        Ok(out)
    }
}

/// What resolving blocked warp collectives achieved.
enum Resolved {
    Progress,
    Stuck,
    /// An ill-formed collective was reported; the CTA cannot continue meaningfully.
    Abort,
}

fn first_count(done: &[Arrival]) -> Option<u32> {
    done.first().and_then(|a| a.count)
}

impl Space {
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Const => "const",
            Space::Generic => "generic",
        }
    }
}
