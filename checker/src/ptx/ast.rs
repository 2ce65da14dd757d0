//! The syntax tree of a PTX module, as close to the text as possible.
//!
//! The parser does not interpret opcodes: an instruction is its guard, its opcode split at the
//! dots, and its operands. `lower` gives each opcode and modifier its meaning and rejects, by
//! name and line, every one it does not model (PTX ISA 9.7). Keeping the parser generic keeps the
//! trusted front end small.

/// Line numbers are 1-based, as editors and `.loc` show them.
pub type Line = u32;

/// A whole `.ptx` file.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    /// `.version MAJOR.MINOR`.
    pub version: Option<(u32, u32)>,
    /// `.target sm_80, debug` split at commas.
    pub target: Vec<String>,
    /// `.address_size 64`; PTX defaults to 32 when absent.
    pub address_size: Option<u32>,
    /// Module-scope `.global`, `.const`, `.shared` (including `.extern .shared`) variables.
    pub vars: Vec<VarDecl>,
    /// `.entry` kernels and `.func` device functions, in file order.
    pub functions: Vec<Function>,
    /// Names of `.extern .func` declarations (functions without a body here: `vprintf`,
    /// `__assertfail`).
    pub externs: Vec<String>,
    /// `.file N "path"` directives, for mapping `.loc` back to source files.
    pub files: Vec<FileDecl>,
}

/// `.file 1 "/path/kernel.cu"` (timestamps and sizes after the path are dropped).
#[derive(Debug, Clone, PartialEq)]
pub struct FileDecl {
    pub index: u32,
    pub path: String,
    pub line: Line,
}

/// `.visible .entry name(params) directives { body }` or a `.func`.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    pub name: String,
    /// True for `.entry`, false for `.func`.
    pub is_entry: bool,
    pub params: Vec<Param>,
    /// `.func` return parameters `(.param .b32 retval)`; empty for entries.
    pub returns: Vec<Param>,
    /// `.reqntid`, `.maxntid`, `.minnctapersm`, `.maxnreg`, ... between the signature and the body.
    pub directives: Vec<PerfDirective>,
    /// The body with nested `{ }` scopes flattened, in order.
    pub body: Vec<Statement>,
    /// Line of the `.entry`/`.func` keyword.
    pub line: Line,
}

/// `.param .u64 .ptr .global .align 16 name` or `.param .align 8 .b8 name[16]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: ScalarType,
    /// `.align N` when written.
    pub align: Option<u32>,
    /// `[N]` for byte-array parameters (structs passed by value).
    pub array_len: Option<u32>,
    /// `.ptr` attributes, e.g. `.global` / `.shared` after `.ptr`, kept as written.
    pub ptr_space: Option<StateSpace>,
    pub line: Line,
}

/// A performance-tuning directive on a function with its integer arguments, e.g.
/// `.reqntid 128, 1, 1` is `{ name: "reqntid", args: [128, 1, 1] }`.
#[derive(Debug, Clone, PartialEq)]
pub struct PerfDirective {
    pub name: String,
    pub args: Vec<u64>,
    pub line: Line,
}

/// One item of a function body.
#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    /// `$L__BB0_2:`
    Label { name: String, line: Line },
    /// `.reg .b32 %r<12>;` or `.reg .pred p;`
    Reg(RegDecl),
    /// Function-scope `.shared`, `.local`, `.const`, `.global` variable.
    Var(VarDecl),
    /// An instruction, with the most recent `.loc` before it (if any).
    Instr(Instruction),
}

/// `.reg .f32 %f<5>;` declares `%f0`..`%f4`; `.reg .b64 %rd;` declares exactly `%rd`.
#[derive(Debug, Clone, PartialEq)]
pub struct RegDecl {
    pub ty: ScalarType,
    /// The name or, with `count`, the prefix.
    pub name: String,
    /// `<N>` in a parameterized declaration.
    pub count: Option<u32>,
    /// `.v2`/`.v4` vector registers (rare): the vector width.
    pub vector: Option<u32>,
    pub line: Line,
}

/// A variable in an addressable state space.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    pub space: StateSpace,
    pub is_extern: bool,
    pub align: Option<u32>,
    pub ty: ScalarType,
    /// `.v2`/`.v4` element vector width, when written.
    pub vector: Option<u32>,
    pub name: String,
    /// Array dimensions in order; `None` for an unsized `[]` (used by `.extern .shared`).
    pub dims: Vec<Option<u64>>,
    /// `= { 1, 2, ... }` or `= 5` initializers, flattened.
    pub init: Vec<Operand>,
    pub line: Line,
}

/// The state spaces of PTX ISA 5.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StateSpace {
    Reg,
    Sreg,
    Const,
    Global,
    Local,
    Param,
    Shared,
    /// `.shared::cta` is `Shared`; `.shared::cluster` is kept apart so lowering can reject it.
    SharedCluster,
    Tex,
}

/// Fundamental types of PTX ISA 5.2.1, plus `.pred`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScalarType {
    S8,
    S16,
    S32,
    S64,
    U8,
    U16,
    U32,
    U64,
    B8,
    B16,
    B32,
    B64,
    B128,
    F16,
    F16x2,
    Bf16,
    Bf16x2,
    F32,
    F64,
    Pred,
}

impl ScalarType {
    /// Parses a type suffix without its dot (`"f32"`).
    pub fn from_suffix(s: &str) -> Option<ScalarType> {
        use ScalarType::*;
        Some(match s {
            "s8" => S8,
            "s16" => S16,
            "s32" => S32,
            "s64" => S64,
            "u8" => U8,
            "u16" => U16,
            "u32" => U32,
            "u64" => U64,
            "b8" => B8,
            "b16" => B16,
            "b32" => B32,
            "b64" => B64,
            "b128" => B128,
            "f16" => F16,
            "f16x2" => F16x2,
            "bf16" => Bf16,
            "bf16x2" => Bf16x2,
            "f32" => F32,
            "f64" => F64,
            "pred" => Pred,
            _ => return None,
        })
    }

    /// The type suffix without its dot, as PTX and spec files write it (`f32`).
    pub fn suffix(self) -> &'static str {
        use ScalarType::*;
        match self {
            S8 => "s8",
            S16 => "s16",
            S32 => "s32",
            S64 => "s64",
            U8 => "u8",
            U16 => "u16",
            U32 => "u32",
            U64 => "u64",
            B8 => "b8",
            B16 => "b16",
            B32 => "b32",
            B64 => "b64",
            B128 => "b128",
            F16 => "f16",
            F16x2 => "f16x2",
            Bf16 => "bf16",
            Bf16x2 => "bf16x2",
            F32 => "f32",
            F64 => "f64",
            Pred => "pred",
        }
    }

    /// Whether values of this type are floating point (packed halves included).
    pub fn is_float(self) -> bool {
        use ScalarType::*;
        matches!(self, F16 | F16x2 | Bf16 | Bf16x2 | F32 | F64)
    }

    /// Size in bytes; `.pred` counts as 1 (it is never stored).
    pub fn size(self) -> u32 {
        use ScalarType::*;
        match self {
            S8 | U8 | B8 | Pred => 1,
            S16 | U16 | B16 | F16 | Bf16 => 2,
            S32 | U32 | B32 | F32 | F16x2 | Bf16x2 => 4,
            S64 | U64 | B64 | F64 => 8,
            B128 => 16,
        }
    }
}

/// `@%p` or `@!%p` in front of an instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guard {
    pub negated: bool,
    pub reg: String,
}

/// A source position from the most recent `.loc file line col`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceLoc {
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

/// `@%p1 ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4+16];`
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    pub guard: Option<Guard>,
    /// The part before the first dot: `ld`.
    pub opcode: String,
    /// The dot-separated rest, without dots, in order: `["global", "nc", "v4", "f32"]`.
    /// `::` stays inside a modifier: `shared::cta` is one modifier.
    pub mods: Vec<String>,
    pub operands: Vec<Operand>,
    pub line: Line,
    pub loc: Option<SourceLoc>,
}

/// An instruction operand (PTX ISA 6.4).
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// A register, including special registers with their component: `%r3`, `%tid.x`, `%laneid`.
    Reg(String),
    /// `!%p` (negated predicate source).
    NotReg(String),
    /// An integer literal (decimal, hex `0x`, octal `0`, binary `0b`, optional `U` suffix),
    /// with a leading `-` folded in, as the 64-bit two's-complement pattern.
    Int(i64),
    /// `0fXXXXXXXX` (f32 bits) or a decimal float literal / `0dXXXXXXXXXXXXXXXX` (f64 bits).
    Float(FloatLit),
    /// A label, variable, parameter or function name used as a value (`bra $L__BB0_2`,
    /// `mov.u64 %rd1, smem;`).
    Symbol(String),
    /// `[base+offset]`.
    Address(Address),
    /// `generic(var)+8`, only in variable initializers: the generic address of a variable, which
    /// nvcc writes for pointer-valued globals (`__device__ int *p = &x;`).
    GenericAddress(Address),
    /// `{%f1, %f2, _, %f4}`.
    Vector(Vec<Operand>),
    /// `_` (a discarded destination).
    Sink,
}

/// PTX float literals are exact bit patterns; a decimal literal means the nearest f64.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FloatLit {
    F32(u32),
    F64(u64),
}

/// `[%rd1+16]`, `[smem+-4]`, `[%r2]`, `[0x100]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Address {
    pub base: AddressBase,
    pub offset: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AddressBase {
    Reg(String),
    Symbol(String),
    /// An absolute address `[0x100]`; the offset is then 0.
    Absolute(i64),
}
