//! The core IR: a few dozen typed operations with registers resolved to indices, labels to
//! instruction indices and variables to offsets. `exec` is one match over [`Op`].

use crate::ptx::{Line, SourceLoc};

/// A register index into [`Program::regs`].
pub type Reg = u32;

/// Special registers (PTX ISA 10). Others (`%clock`, `%warpid`, `%smid`) are nondeterministic
/// and rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    LaneId,
}

/// An instruction source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Src {
    Reg(Reg),
    /// A literal as the bit pattern of the instruction's type (float literals are converted to
    /// the instruction's float width at lowering).
    Imm(u64),
    Special(Special),
    /// A predicate register read negated (`!%p`).
    NotReg(Reg),
    /// The address of variable [`Program::vars`]`[i]` in its own space (a symbol operand).
    Var(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntTy {
    pub bits: u8,
    pub signed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatTy {
    F16,
    Bf16,
    F32,
    F64,
}

impl FloatTy {
    /// Significand bits, the hidden one included: integers up to 2^this are exact.
    pub fn significand_bits(self) -> u32 {
        match self {
            FloatTy::F16 => 11,
            FloatTy::Bf16 => 8,
            FloatTy::F32 => 24,
            FloatTy::F64 => 53,
        }
    }

    pub fn bits(self) -> u8 {
        match self {
            FloatTy::F16 | FloatTy::Bf16 => 16,
            FloatTy::F32 => 32,
            FloatTy::F64 => 64,
        }
    }
}

pub use crate::term::RoundMode;

/// The modifiers that decide a float result's bits but not its real value: the rounding mode
/// (or `.approx`/`.full`) and `.ftz`. The symbolic executor records them in the term
/// ([`crate::term::Node::Round`]); the interpreter follows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FloatMods {
    pub mode: RoundMode,
    pub ftz: bool,
}

impl FloatMods {
    /// Round to nearest, no flushing: `add.f32`, `fma.rn.f32`.
    pub const RN: FloatMods = FloatMods {
        mode: RoundMode::Rn,
        ftz: false,
    };
    /// No rounding (`neg`, `abs`, `min`, `max`, `copysign`, widening conversions).
    pub const EXACT: FloatMods = FloatMods {
        mode: RoundMode::Exact,
        ftz: false,
    };
}

/// A value type for conversions and comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    Int(IntTy),
    Float(FloatTy),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntOp {
    Add,
    Sub,
    MulLo,
    MulHi,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Min,
    Max,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntUnOp {
    Not,
    Neg,
    Abs,
    Popc,
    Clz,
    Brev,
    Cnot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
    Min,
    Max,
    /// `copysign d, a, b`: |b| with the sign of `a` (PTX ISA 9.7.3.3); the operands are
    /// `a` (sign) then `b` (magnitude), as in PTX.
    CopySign,
}

/// The scalar operation a packed `.f16x2`/`.bf16x2` instruction applies to each half.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PackedOp {
    Bin(FloatOp),
    Fma,
    Un(FloatUnOp),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatUnOp {
    Neg,
    Abs,
    Rcp,
    Sqrt,
    Rsqrt,
    Ex2,
    Lg2,
    Sin,
    Cos,
    Tanh,
    /// `cvt.sat.fXX.fXX`: clamp to [0, 1] (NaN to 0), the real `min(max(x, 0), 1)`.
    Sat,
}

/// Comparison of `setp` (ISA 9.7.3.x); `lo/ls/hi/hs` are the unsigned ones and are folded into
/// `Lt/Le/Gt/Ge` on an unsigned type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `.num`: true on every ordered pair (neither operand NaN); floats only.
    Num,
    /// `.nan`: false on every ordered pair, so with `unordered` it holds exactly when an
    /// operand is NaN; floats only.
    Nan,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

/// Float-to-integer rounding of `cvt` (the only rounding the real-valued model keeps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntRound {
    Nearest,
    Zero,
    Down,
    Up,
}

/// Addressable state spaces the executor models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Space {
    Global,
    Shared,
    Local,
    /// Module `.const` variables (read-only; laid out in the global address space like
    /// module `.global` variables, so a generic address reaches them the same way).
    Const,
    /// No state space: resolved from the address window at run time.
    Generic,
}

/// `[base + offset]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Addr {
    pub base: Src,
    pub offset: i64,
    /// Whether the base is a 32-bit register: the sum is then taken modulo 2^32, as the
    /// hardware forms a 32-bit `.shared`/`.local` address.
    pub wrap32: bool,
}

/// What `vote.sync` computes over the predicates of its lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VoteMode {
    /// `.ballot.b32`: bit `l` set when lane `l`'s predicate holds.
    Ballot,
    /// `.any.pred`, `.all.pred`, `.uni.pred` (all lanes equal).
    Any,
    All,
    Uni,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

/// One lowered operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// Bit copy of `bits` bits (also predicates, with `bits == 1`).
    Mov {
        dst: Reg,
        src: Src,
        bits: u8,
    },
    /// `mov.b64 %rd, {%r1, %r2}`: concatenation, first source in the low bits.
    Pack {
        dst: Reg,
        srcs: Vec<Src>,
        piece_bits: u8,
    },
    /// `mov.b64 {%r1, %r2}, %rd`.
    Unpack {
        dsts: Vec<Option<Reg>>,
        src: Src,
        piece_bits: u8,
    },
    Int {
        op: IntOp,
        ty: IntTy,
        dst: Reg,
        a: Src,
        b: Src,
    },
    /// `mul.wide`: the product of two `ty` values in twice the width.
    MulWide {
        ty: IntTy,
        dst: Reg,
        a: Src,
        b: Src,
    },
    /// `mad.lo`/`mad.hi`/`mad.wide`: `a*b + c` with the product part selected like `mul`.
    Mad {
        mode: MadMode,
        ty: IntTy,
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    IntUn {
        op: IntUnOp,
        ty: IntTy,
        dst: Reg,
        a: Src,
    },
    /// `bfe`: extract `len` bits at `pos`, sign-extended for signed types.
    Bfe {
        ty: IntTy,
        dst: Reg,
        a: Src,
        pos: Src,
        len: Src,
    },
    /// `bfi.bN d, a, b, pos, len`: `b` with bits `pos..pos+len` replaced by the low `len` bits
    /// of `a` (PTX ISA 9.7.1.x; `pos` and `len` taken modulo 256, bits past N dropped).
    Bfi {
        bits: u8,
        dst: Reg,
        a: Src,
        b: Src,
        pos: Src,
        len: Src,
    },
    /// `prmt.b32 d, a, b, c` in the default mode: byte `i` of `d` is byte `c[4i+2:4i]` of the
    /// eight bytes `b:a` (`a` low), or that byte's sign bit replicated when `c[4i+3]` is set
    /// (PTX ISA 9.7.8.x, `prmt`). The other modes are refused at lowering.
    Prmt {
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    Setp {
        cmp: Cmp,
        /// The result when an operand is NaN (`equ`, `neu`, ..., `nan`: true; the ordered
        /// comparisons and `num`: false). Only concrete runs see NaN: a real is never NaN.
        unordered: bool,
        ty: Ty,
        dst: Reg,
        dst_not: Option<Reg>,
        a: Src,
        b: Src,
        combine: Option<(BoolOp, Src)>,
    },
    /// `selp`: `p ? a : b`.
    Selp {
        bits: u8,
        float: Option<FloatTy>,
        dst: Reg,
        a: Src,
        b: Src,
        p: Src,
    },
    PredLogic {
        op: BoolOp,
        dst: Reg,
        a: Src,
        b: Src,
    },
    Float {
        op: FloatOp,
        ty: FloatTy,
        rnd: FloatMods,
        dst: Reg,
        a: Src,
        b: Src,
    },
    /// `{add,sub,mul,min,max,fma,neg,abs}.{f16x2,bf16x2}` (`__hadd2`, `__hfma2`, ...): `op`
    /// on the low halves and on the high halves of 32-bit registers, each half a real like a
    /// scalar `ty` value. Sources past the operation's arity are `Src::Imm(0)`.
    Packed {
        op: PackedOp,
        ty: FloatTy,
        rnd: FloatMods,
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    Fma {
        ty: FloatTy,
        rnd: FloatMods,
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    FloatUn {
        op: FloatUnOp,
        ty: FloatTy,
        rnd: FloatMods,
        dst: Reg,
        a: Src,
    },
    Cvt {
        from: Ty,
        to: Ty,
        round: Option<IntRound>,
        rnd: FloatMods,
        dst: Reg,
        src: Src,
    },
    /// A load of `dsts.len()` consecutive elements of `elem_bytes` each.
    Ld {
        space: Space,
        elem_bytes: u8,
        float: Option<FloatTy>,
        dsts: Vec<Option<Reg>>,
        addr: Addr,
        /// `ld.global.nc`: the non-coherent path, which needs data that the kernel never
        /// writes (a write anywhere in the launch is a finding).
        nc: bool,
        /// `ld.s8`/`ld.s16`/`ld.s32`: the loaded element is sign-extended to the destination
        /// register (PTX ISA 9.7.9.8, `ld`), which a plain copy of its bits would zero-extend.
        signed: bool,
    },
    St {
        space: Space,
        elem_bytes: u8,
        float: Option<FloatTy>,
        srcs: Vec<Src>,
        addr: Addr,
    },
    /// `atom.add` (with `dst`) / `red.add` (without): `[addr] += src`, atomically. The old
    /// value the atomic returns depends on the order of the atomics and may not be read.
    AtomAdd {
        space: Space,
        /// `.cta` scope: atomic only with respect to the threads of one CTA.
        cta_scope: bool,
        ty: Ty,
        dst: Option<Reg>,
        addr: Addr,
        src: Src,
    },
    /// `ld.param`: bytes `offset..offset+bytes` of parameter `param`.
    LdParam {
        dst: Reg,
        param: u32,
        offset: u32,
        bytes: u8,
    },
    /// The address of variable [`Program::vars`]`[var]`, in its own space (`mov.u32 %r, smem;`).
    VarAddr {
        dst: Reg,
        var: u32,
    },
    /// `cvta`: generic <-> space-specific addresses.
    Cvta {
        to_generic: bool,
        space: Space,
        dst: Reg,
        src: Src,
    },
    Bra {
        target: u32,
    },
    Exit,
    /// `trap`, or a call of `__assertfail` (`assertion`): a thread that executes it aborts the
    /// launch, which is a finding.
    Trap {
        assertion: bool,
    },
    /// `dst` becomes undefined: the address of a string constant (see `lower::VarRef::Text`).
    Undef {
        dst: Reg,
    },
    /// `bar.sync`/`barrier.sync` (wait) or `bar.arrive` (no wait), with barrier id and count.
    /// `aligned`: `bar`, or `barrier` with `.aligned` (or any `barrier` on a target below sm_70):
    /// every thread of the CTA executes the same barrier instruction.
    Bar {
        id: Src,
        count: Option<Src>,
        wait: bool,
        aligned: bool,
    },
    /// `bar.warp.sync mask`.
    WarpSync {
        mask: Src,
    },
    Shfl {
        mode: ShflMode,
        dst: Reg,
        dst_pred: Option<Reg>,
        a: Src,
        b: Src,
        c: Src,
        mask: Src,
    },
    /// `activemask.b32 d`: the lanes of the warp executing this instruction together. The
    /// executor gives it a value only where that set is not up to the hardware's scheduling:
    /// every lane of the warp here, at one dynamic point (the same branch decisions so far,
    /// none on tensor data);
    /// then it is every lane of the warp. Elsewhere it is refused with its line.
    ActiveMask {
        dst: Reg,
    },
    /// `vote.sync.{ballot.b32,any.pred,all.pred,uni.pred} d, {!}p, mask`: a warp collective
    /// over the lanes' predicates (which must not depend on tensor data).
    Vote {
        mode: VoteMode,
        dst: Reg,
        p: Src,
        mask: Src,
    },
    /// `cvt.rn.{f16x2,bf16x2}.f32 d, a, b`: `a` goes to the upper half, `b` to the lower.
    CvtPack {
        to: FloatTy,
        rnd: FloatMods,
        dst: Reg,
        a: Src,
        b: Src,
    },
    /// `mma.sync.aligned.SHAPE.row.col.f32.T.T.f32 {d}, {a}, {b}, {c}` with `T` f16 or bf16: a
    /// warp collective over all 32 lanes (PTX ISA 9.7.14.5, fragment layouts per lane).
    Mma {
        shape: MmaShape,
        ab: FloatTy,
        dsts: Vec<Reg>,
        a: Vec<Src>,
        b: Vec<Src>,
        c: Vec<Src>,
    },
    /// `ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16`: a warp collective; lanes
    /// `8i..8i+7` give the row addresses of matrix `i`.
    Ldmatrix {
        space: Space,
        trans: bool,
        dsts: Vec<Reg>,
        addr: Addr,
    },
    /// `wmma.load.{a,b,c}.sync.aligned.{row,col}.m16n16k16{.space}.{f16,bf16,f32} {r}, [p], s`:
    /// a warp collective loading one 16x16 matrix whose elements PTX spreads over the lanes'
    /// registers in an unspecified layout (PTX ISA 9.7.14.4). The registers receive opaque
    /// fragment handles, never numbers: see `exec::wmma`.
    WmmaLoad {
        role: FragRole,
        layout: MatLayout,
        ty: FloatTy,
        space: Space,
        dsts: Vec<Reg>,
        addr: Addr,
        stride: Src,
    },
    /// `wmma.mma.sync.aligned.{alayout}.{blayout}.m16n16k16.f32{.T.T}.f32 {d}, {a}, {b}, {c}`
    /// with f16 or bf16 inputs and f32 accumulators.
    WmmaMma {
        a_layout: MatLayout,
        b_layout: MatLayout,
        ab: FloatTy,
        dsts: Vec<Reg>,
        a: Vec<Reg>,
        b: Vec<Reg>,
        c: Vec<Reg>,
    },
    /// `wmma.store.d.sync.aligned.{row,col}.m16n16k16{.space}.f32 [p], {d}, s`.
    WmmaStore {
        layout: MatLayout,
        space: Space,
        srcs: Vec<Reg>,
        addr: Addr,
        stride: Src,
    },
    /// `cp.async.{ca,cg}.shared.global [dst], [src], bytes{, src_bytes | ignore_src}`: an
    /// asynchronous copy whose destination is written at the `cp.async.wait_group` that
    /// completes it. Bytes past `src_bytes` are filled with zeros; a true `ignore_src`
    /// predicate reads no source byte and fills the whole destination with zeros.
    CpAsync {
        dst: Addr,
        src: Addr,
        bytes: u8,
        src_bytes: Option<Src>,
        ignore_src: Option<Src>,
    },
    /// `cp.async.commit_group`.
    CpAsyncCommit,
    /// `cp.async.wait_group n` (`Some(n)`: wait until at most `n` groups are pending) or
    /// `cp.async.wait_all` (`None`: commit, then wait for every group).
    CpAsyncWait {
        pending: Option<u32>,
    },
}

/// Which operand of a `wmma.mma` a fragment is: A (16 x k), B (k x 16), or an accumulator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FragRole {
    A,
    B,
    Acc,
}

/// How a `wmma` matrix lies in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatLayout {
    Row,
    Col,
}

/// Shape of a warp-level `mma.sync` on 16-bit float inputs with an f32 accumulator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MmaShape {
    M16n8k8,
    M16n8k16,
}

impl MmaShape {
    /// The reduction depth K.
    pub fn k(self) -> usize {
        match self {
            MmaShape::M16n8k8 => 8,
            MmaShape::M16n8k16 => 16,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MadMode {
    Lo,
    Hi,
    Wide,
}

/// A lowered instruction with its guard and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Inst {
    /// `(predicate register, negated)`.
    pub guard: Option<(Reg, bool)>,
    pub op: Op,
    pub line: Line,
    pub loc: Option<SourceLoc>,
}

/// One register's declared name and size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegInfo {
    pub name: String,
    /// 1 for predicates.
    pub bits: u8,
    /// The float type of a register declared `.f16`/`.bf16`/`.f32`/`.f64` (`None` for integer,
    /// untyped `.bN` and predicate registers).
    pub float: Option<FloatTy>,
}

/// A `.shared`, `.local` or initialized module `.global`/`.const` variable: one region that
/// addresses derived from it must stay in.
/// All `.extern .shared` declarations name one variable, the dynamic area (`bytes: None`:
/// the launch's dynamic shared size).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarInfo {
    pub name: String,
    pub space: Space,
    /// Where the executor places it in its space (not where ptxas does).
    pub offset: u64,
    pub bytes: Option<u64>,
    /// The contents of a module `.global`/`.const` variable, from its initializer (bytes past
    /// the initializer are zero); `None` for shared and local variables.
    pub init: Option<Vec<u8>>,
}

/// An entry parameter's name, size in bytes, declared type and line: what a spec's binding
/// is checked against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamInfo {
    pub name: String,
    pub bytes: u32,
    /// The declared element type (`.param .f32 x` is `F32`).
    pub ty: crate::ptx::ScalarType,
    /// `[N]`: a byte array (a struct passed by value), untyped whatever its element type.
    pub array: bool,
    pub line: u32,
}

/// A lowered `.entry`, independent of any launch.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    pub name: String,
    pub regs: Vec<RegInfo>,
    pub params: Vec<ParamInfo>,
    pub vars: Vec<VarInfo>,
    pub insts: Vec<Inst>,
    /// Bytes of static `.shared` variables; dynamic shared memory starts at `dynamic_shared_offset`.
    pub static_shared: u64,
    pub dynamic_shared_offset: u64,
    /// Whether the program declares `.extern .shared` (dynamic) memory.
    pub uses_dynamic_shared: bool,
    pub local_bytes: u64,
    /// `.reqntid` (exact block shape required) and `.maxntid`.
    pub reqntid: Option<[u32; 3]>,
    pub maxntid: Option<[u32; 3]>,
    /// `.file` index -> path, for mapping `.loc` to sources.
    pub files: Vec<(u32, String)>,
}

impl Program {
    /// The source file path and line of instruction `pc`, when `.loc` recorded one.
    pub fn source_of(&self, pc: usize) -> Option<(String, u32)> {
        let loc = self.insts.get(pc)?.loc?;
        let file = self
            .files
            .iter()
            .find(|(i, _)| *i == loc.file)
            .map(|(_, p)| p.clone());
        Some((
            file.unwrap_or_else(|| format!("file{}", loc.file)),
            loc.line,
        ))
    }
}
