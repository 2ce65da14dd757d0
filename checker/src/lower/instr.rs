//! One lowering function per PTX instruction family (PTX ISA 9.7), dispatched from
//! [`lower_instruction`]. Each takes the modifiers it understands; the rest are rejected.

use super::ir::*;
use super::mods::Mods;
use super::{LowerError, Scope, VarRef, invalid, unsupported};
use crate::ptx::{AddressBase, FloatLit, Instruction, Line, Operand, ScalarType};

/// Float rounding modes: values are reals, so rounding is abstracted from the value (DESIGN.md)
/// and recorded beside it ([`FloatMods`]).
const FLOAT_ROUNDING: &[&str] = &["rn", "rz", "rm", "rp"];

/// The rounding modifiers of a float instruction: one of `.rn/.rz/.rm/.rp`, or (where
/// `approx` allows it) `.approx`/`.full`, else `default`; and `.ftz`. What is not taken here
/// is left for [`Mods::finish`] to refuse by name.
fn float_mods(
    m: &mut Mods,
    line: Line,
    default: RoundMode,
    approx: bool,
) -> Result<FloatMods, LowerError> {
    let rounding = m.take_any(FLOAT_ROUNDING);
    let approximate = if approx {
        m.take_any(&["approx", "full"])
    } else {
        None
    };
    let mode = match (rounding, approximate) {
        (Some(_), Some(_)) => {
            return Err(invalid(
                line,
                "a rounding mode and .approx/.full on one instruction",
            ));
        }
        (Some("rz"), None) => RoundMode::Rz,
        (Some("rm"), None) => RoundMode::Rm,
        (Some("rp"), None) => RoundMode::Rp,
        (Some(_), None) => RoundMode::Rn,
        (None, Some("approx")) => RoundMode::Approx,
        (None, Some(_)) => RoundMode::Full,
        (None, None) => default,
    };
    let ftz = m.take("ftz");
    Ok(FloatMods { mode, ftz })
}
/// Cache and eviction hints do not change the values a race-free kernel reads.
const CACHE_HINTS: &[&str] = &[
    "ca",
    "cg",
    "cs",
    "lu",
    "cv",
    "wb",
    "wt",
    "nc",
    "weak",
    "volatile",
    "L1::no_allocate",
    "L1::evict_normal",
    "L1::evict_unchanged",
    "L1::evict_first",
    "L1::evict_last",
    "L2::evict_normal",
    "L2::evict_first",
    "L2::evict_last",
    "L2::64B",
    "L2::128B",
    "L2::256B",
];

/// What kind of value an operand must provide.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// An integer or untyped bit pattern of this many bits.
    Bits(u8),
    Float(FloatTy),
    Pred,
}

impl Kind {
    fn bits(self) -> u8 {
        match self {
            Kind::Bits(b) => b,
            Kind::Float(f) => f.bits(),
            Kind::Pred => 1,
        }
    }
}

#[derive(Clone, Copy)]
struct Ctx<'a> {
    scope: &'a Scope,
    line: Line,
    i: &'a Instruction,
    /// ld, st and cvt may name registers wider than their type (PTX ISA 6.4.2, "Operand Size
    /// Exceeding Instruction-Type Size"); every other instruction needs the type's size.
    wide: bool,
}

impl Ctx<'_> {
    fn operand(&self, n: usize) -> Result<&Operand, LowerError> {
        self.i.operands.get(n).ok_or_else(|| {
            invalid(
                self.line,
                format!("`{}` is missing operand {}", self.i.opcode, n + 1),
            )
        })
    }

    fn arity(&self, n: usize) -> Result<(), LowerError> {
        if self.i.operands.len() != n {
            return Err(invalid(
                self.line,
                format!(
                    "`{}` takes {n} operands, found {}",
                    self.i.opcode,
                    self.i.operands.len()
                ),
            ));
        }
        Ok(())
    }

    fn reg_named(&self, name: &str) -> Result<Reg, LowerError> {
        match self.scope.regs.get(name) {
            Some(&r) => Ok(r),
            None if special(name).is_some() => Err(invalid(
                self.line,
                format!("special register {name} is read-only"),
            )),
            None => Err(invalid(self.line, format!("undeclared register {name}"))),
        }
    }

    /// This context, letting registers be wider than the type where `wide` holds.
    fn widened(&self, wide: bool) -> Self {
        Ctx {
            wide: self.wide || wide,
            ..*self
        }
    }

    /// Refuses a register whose declared size the instruction does not accept: ptxas rejects
    /// such PTX, and executing it would give a meaning to text no assembler takes.
    fn sized(&self, name: &str, r: Reg, kind: Kind) -> Result<(), LowerError> {
        let have = self
            .scope
            .reg_info
            .get(r as usize)
            .map_or(0, |info| info.bits);
        let want = kind.bits();
        if have == want || (self.wide && want > 1 && have > want) {
            return Ok(());
        }
        Err(invalid(
            self.line,
            format!(
                "register {name} has {have} bits where `{}` takes a {want}-bit operand",
                self.i.opcode
            ),
        ))
    }

    /// A register named by `name`, of a size that fits `kind`.
    fn reg_as(&self, name: &str, kind: Kind) -> Result<Reg, LowerError> {
        let r = self.reg_named(name)?;
        self.sized(name, r, kind)?;
        Ok(r)
    }

    /// The destination register `n`, of a size that fits `kind`.
    fn dst_as(&self, n: usize, kind: Kind) -> Result<Reg, LowerError> {
        match self.operand(n)? {
            Operand::Reg(name) => self.reg_as(name, kind),
            other => Err(invalid(
                self.line,
                format!("destination must be a register, found {other:?}"),
            )),
        }
    }

    fn src(&self, n: usize, kind: Kind) -> Result<Src, LowerError> {
        self.src_of(self.operand(n)?, kind)
    }

    fn src_of(&self, op: &Operand, kind: Kind) -> Result<Src, LowerError> {
        Ok(match (op, kind) {
            (Operand::Reg(name), _) => match special(name) {
                Some(s) => s.map_err(|what| unsupported(self.line, what))?,
                None => Src::Reg(self.reg_as(name, kind)?),
            },
            (Operand::NotReg(name), Kind::Pred) => Src::NotReg(self.reg_as(name, kind)?),
            (Operand::Int(v), Kind::Bits(b)) => Src::Imm(mask(*v as u64, b)),
            (Operand::Int(v), Kind::Pred) => Src::Imm(u64::from(*v != 0)),
            (Operand::Float(lit), Kind::Float(ty)) => {
                Src::Imm(float_bits(*lit, ty).ok_or_else(|| {
                    unsupported(
                        self.line,
                        format!("float literal {lit:?} for a {ty:?} operand"),
                    )
                })?)
            }
            // `mov.b32 %f1, 0fFF800000`: a float literal as a raw bit pattern.
            (Operand::Float(FloatLit::F32(b)), Kind::Bits(32)) => Src::Imm(u64::from(*b)),
            (Operand::Float(FloatLit::F64(b)), Kind::Bits(64)) => Src::Imm(*b),
            // `WARP_SZ`, PTX's predefined identifier for the warp size (ISA 4.4; CUDA's
            // `warpSize`): 32 on every target. A reserved name, never a variable.
            (Operand::Symbol(name), Kind::Bits(_)) if name == "WARP_SZ" => Src::Imm(32),
            (Operand::Symbol(name), Kind::Bits(_)) => match self.scope.vars.get(name) {
                Some(VarRef::Space(_, var)) => Src::Var(*var),
                Some(VarRef::Param(_)) => {
                    return Err(unsupported(
                        self.line,
                        format!("the address of parameter {name}"),
                    ));
                }
                Some(VarRef::Unmodeled(sp)) => {
                    return Err(unsupported(self.line, unmodeled_var(name, *sp)));
                }
                Some(VarRef::Refused(i)) => {
                    return Err(unsupported(self.line, self.refused_var(name, *i)));
                }
                Some(VarRef::Text) => {
                    return Err(unsupported(
                        self.line,
                        format!(
                            "string constant {name} used as data (only its address, passed to \
                             printf or assert, is modelled)"
                        ),
                    ));
                }
                None => return Err(invalid(self.line, format!("unknown symbol {name}"))),
            },
            (op, kind) => {
                return Err(invalid(
                    self.line,
                    format!("operand {op:?} cannot be used as a {kind:?} value"),
                ));
            }
        })
    }

    /// Why module variable `name` (refused at its declaration) has no model.
    fn refused_var(&self, name: &str, i: u32) -> String {
        let why = self
            .scope
            .refused
            .get(i as usize)
            .map_or("", |s| s.as_str());
        format!("module variable {name}, whose declaration is refused ({why})")
    }

    fn addr(&self, n: usize, space: Space) -> Result<Addr, LowerError> {
        let Operand::Address(a) = self.operand(n)? else {
            return Err(invalid(self.line, "expected an address operand `[...]`"));
        };
        let mut wrap32 = false;
        let base = match &a.base {
            AddressBase::Reg(name) => {
                let r = self.reg_named(name)?;
                wrap32 = self
                    .scope
                    .reg_info
                    .get(r as usize)
                    .is_some_and(|i| i.bits == 32);
                Src::Reg(r)
            }
            AddressBase::Absolute(v) => Src::Imm(*v as u64),
            AddressBase::Symbol(name) => match self.scope.vars.get(name) {
                Some(VarRef::Space(sp, var)) if *sp == space => Src::Var(*var),
                Some(VarRef::Space(sp, _)) => {
                    return Err(unsupported(
                        self.line,
                        format!("{name} is in {sp:?} space, accessed as {space:?}"),
                    ));
                }
                Some(VarRef::Param(_)) => {
                    return Err(invalid(
                        self.line,
                        format!("parameter {name} outside ld.param"),
                    ));
                }
                Some(VarRef::Unmodeled(sp)) => {
                    return Err(unsupported(self.line, unmodeled_var(name, *sp)));
                }
                Some(VarRef::Refused(i)) => {
                    return Err(unsupported(self.line, self.refused_var(name, *i)));
                }
                Some(VarRef::Text) => {
                    return Err(unsupported(
                        self.line,
                        format!(
                            "string constant {name} used as data (only its address, passed to \
                             printf or assert, is modelled)"
                        ),
                    ));
                }
                None => return Err(invalid(self.line, format!("unknown symbol {name}"))),
            },
        };
        Ok(Addr {
            base,
            offset: a.offset,
            wrap32,
        })
    }
}

/// Why a module variable has no model: `.global`/`.const` ones without an initializer (their
/// initial contents are not taken as zero here), `.tex` and the like.
fn unmodeled_var(name: &str, sp: crate::ptx::StateSpace) -> String {
    match sp {
        crate::ptx::StateSpace::Global | crate::ptx::StateSpace::Const => format!(
            "module variable {name} in {sp:?} space without an initializer (its initial \
             contents are not modeled)"
        ),
        _ => format!("module variable {name} in {sp:?} space"),
    }
}

fn mask(v: u64, bits: u8) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// Converts a literal to the bit pattern of `ty`; decimal literals are f64 and are rounded to
/// the instruction's type as ptxas does.
fn float_bits(lit: FloatLit, ty: FloatTy) -> Option<u64> {
    let v = match lit {
        FloatLit::F32(b) => f64::from(f32::from_bits(b)),
        FloatLit::F64(b) => f64::from_bits(b),
    };
    match ty {
        FloatTy::F32 => Some(u64::from((v as f32).to_bits())),
        FloatTy::F64 => Some(v.to_bits()),
        FloatTy::F16 | FloatTy::Bf16 => None,
    }
}

/// Special registers; `Some(Err)` for the nondeterministic ones.
fn special(name: &str) -> Option<Result<Src, String>> {
    let (base, dim) = match name.split_once('.') {
        Some((b, d)) => (b, Some(d)),
        None => (name, None),
    };
    let d = match dim {
        Some("x") => 0,
        Some("y") => 1,
        Some("z") => 2,
        Some(_) => return None,
        None => 3,
    };
    let s = match (base, d) {
        ("%tid", 0..=2) => Special::Tid(d),
        ("%ntid", 0..=2) => Special::Ntid(d),
        ("%ctaid", 0..=2) => Special::Ctaid(d),
        ("%nctaid", 0..=2) => Special::Nctaid(d),
        ("%laneid", 3) => Special::LaneId,
        (
            "%warpid" | "%nwarpid" | "%smid" | "%nsmid" | "%clock" | "%clock64" | "%globaltimer"
            | "%gridid",
            _,
        ) => {
            return Some(Err(format!(
                "special register {name} (its value depends on the hardware schedule)"
            )));
        }
        _ if base.starts_with("%envreg")
            || base.starts_with("%cluster")
            || base.starts_with("%lanemask") =>
        {
            return Some(Err(format!("special register {name}")));
        }
        _ => return None,
    };
    Some(Ok(Src::Special(s)))
}

fn int_ty(t: ScalarType) -> Option<IntTy> {
    use ScalarType::*;
    let (bits, signed) = match t {
        S8 => (8, true),
        S16 => (16, true),
        S32 => (32, true),
        S64 => (64, true),
        U8 | B8 => (8, false),
        U16 | B16 => (16, false),
        U32 | B32 => (32, false),
        U64 | B64 => (64, false),
        _ => return None,
    };
    Some(IntTy { bits, signed })
}

/// The binary float operation an arithmetic opcode names.
fn float_op(name: &str) -> Option<FloatOp> {
    Some(match name {
        "add" => FloatOp::Add,
        "sub" => FloatOp::Sub,
        "mul" => FloatOp::Mul,
        "div" => FloatOp::Div,
        "min" => FloatOp::Min,
        "max" => FloatOp::Max,
        _ => return None,
    })
}

/// The half format of a packed type (`.f16x2`, `.bf16x2`).
fn packed_ty(t: ScalarType) -> Option<FloatTy> {
    match t {
        ScalarType::F16x2 => Some(FloatTy::F16),
        ScalarType::Bf16x2 => Some(FloatTy::Bf16),
        _ => None,
    }
}

/// A packed half operation on 32-bit registers; `srcs` operands from operand 1 on.
fn packed(
    cx: &Ctx,
    op: PackedOp,
    ty: FloatTy,
    rnd: FloatMods,
    srcs: usize,
) -> Result<Op, LowerError> {
    let k = Kind::Bits(32);
    let src = |i: usize| {
        if i <= srcs {
            cx.src(i, k)
        } else {
            Ok(Src::Imm(0))
        }
    };
    Ok(Op::Packed {
        op,
        ty,
        rnd,
        dst: cx.dst_as(0, k)?,
        a: src(1)?,
        b: src(2)?,
        c: src(3)?,
    })
}

pub(super) fn float_ty(t: ScalarType) -> Option<FloatTy> {
    match t {
        ScalarType::F16 => Some(FloatTy::F16),
        ScalarType::Bf16 => Some(FloatTy::Bf16),
        ScalarType::F32 => Some(FloatTy::F32),
        ScalarType::F64 => Some(FloatTy::F64),
        _ => None,
    }
}

fn ty_of(t: ScalarType, line: Line) -> Result<Ty, LowerError> {
    if let Some(i) = int_ty(t) {
        return Ok(Ty::Int(i));
    }
    float_ty(t)
        .map(Ty::Float)
        .ok_or_else(|| unsupported(line, format!("type .{t:?}").to_lowercase()))
}

fn kind_of(ty: Ty) -> Kind {
    match ty {
        Ty::Int(i) => Kind::Bits(i.bits),
        Ty::Float(f) => Kind::Float(f),
    }
}

/// Lowers one instruction.
pub(super) fn lower_instruction(scope: &Scope, i: &Instruction) -> Result<Inst, LowerError> {
    let cx = Ctx {
        scope,
        line: i.line,
        i,
        wide: false,
    };
    let guard = match &i.guard {
        Some(g) => Some((cx.reg_as(&g.reg, Kind::Pred)?, g.negated)),
        None => None,
    };
    let mut m = Mods::new(i);
    let op = match i.opcode.as_str() {
        "mov" => lower_mov(&cx, &mut m)?,
        "add" | "sub" | "mul" | "div" | "rem" | "min" | "max" | "and" | "or" | "xor" | "shl"
        | "shr" => lower_binary(&cx, &mut m)?,
        "mad" | "fma" => lower_mad(&cx, &mut m)?,
        "not" | "neg" | "abs" | "popc" | "clz" | "brev" | "cnot" => lower_unary(&cx, &mut m)?,
        "rcp" | "sqrt" | "rsqrt" | "ex2" | "lg2" | "sin" | "cos" | "tanh" => {
            lower_float_fn(&cx, &mut m)?
        }
        "bfe" => {
            cx.arity(4)?;
            let ty = int_ty(m.one_type()?)
                .ok_or_else(|| invalid(i.line, "bfe needs an integer type"))?;
            Op::Bfe {
                ty,
                dst: cx.dst_as(0, Kind::Bits(ty.bits))?,
                a: cx.src(1, Kind::Bits(ty.bits))?,
                pos: cx.src(2, Kind::Bits(32))?,
                len: cx.src(3, Kind::Bits(32))?,
            }
        }
        "bfi" => {
            cx.arity(5)?;
            let t = m.one_type()?;
            let bits = match t {
                ScalarType::B32 => 32,
                ScalarType::B64 => 64,
                _ => return Err(invalid(i.line, "bfi takes .b32 or .b64")),
            };
            Op::Bfi {
                bits,
                dst: cx.dst_as(0, Kind::Bits(bits))?,
                a: cx.src(1, Kind::Bits(bits))?,
                b: cx.src(2, Kind::Bits(bits))?,
                pos: cx.src(3, Kind::Bits(32))?,
                len: cx.src(4, Kind::Bits(32))?,
            }
        }
        "prmt" => {
            if let Some(mode) = m.take_any(&["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"]) {
                return Err(unsupported(
                    i.line,
                    format!("prmt mode .{mode} (only the default byte selector is modeled)"),
                ));
            }
            if m.one_type()? != ScalarType::B32 {
                return Err(invalid(i.line, "prmt takes .b32"));
            }
            cx.arity(4)?;
            let k = Kind::Bits(32);
            Op::Prmt {
                dst: cx.dst_as(0, k)?,
                a: cx.src(1, k)?,
                b: cx.src(2, k)?,
                c: cx.src(3, k)?,
            }
        }
        "activemask" => {
            if m.one_type()? != ScalarType::B32 {
                return Err(invalid(i.line, "activemask takes .b32"));
            }
            cx.arity(1)?;
            Op::ActiveMask {
                dst: cx.dst_as(0, Kind::Bits(32))?,
            }
        }
        "setp" => lower_setp(&cx, &mut m)?,
        "copysign" => lower_copysign(&cx, &mut m)?,
        "selp" => {
            cx.arity(4)?;
            let t = m.one_type()?;
            let ty = ty_of(t, i.line)?;
            let k = kind_of(ty);
            let (bits, float) = match ty {
                Ty::Int(it) => (it.bits, None),
                Ty::Float(f) => (f.bits(), Some(f)),
            };
            Op::Selp {
                bits,
                float,
                dst: cx.dst_as(0, k)?,
                a: cx.src(1, k)?,
                b: cx.src(2, k)?,
                p: cx.src(3, Kind::Pred)?,
            }
        }
        "cvt" => lower_cvt(&cx, &mut m)?,
        "cvta" => {
            cx.arity(2)?;
            let to_generic = !m.take("to");
            let space = take_space(&mut m, i.line)?
                .ok_or_else(|| invalid(i.line, "cvta needs a state space"))?;
            let t = m.one_type()?;
            if !matches!(t, ScalarType::U32 | ScalarType::U64) {
                return Err(invalid(i.line, "cvta takes .u32 or .u64"));
            }
            Op::Cvta {
                to_generic,
                space,
                dst: cx.dst_as(0, Kind::Bits((t.size() * 8) as u8))?,
                src: cx.src(1, Kind::Bits((t.size() * 8) as u8))?,
            }
        }
        "ld" | "st" => lower_ld_st(&cx, &mut m)?,
        "bra" => {
            cx.arity(1)?;
            // `.uni` asserts non-divergence, a performance hint; each thread branches on its own.
            m.take("uni");
            let Operand::Symbol(label) = cx.operand(0)? else {
                return Err(invalid(i.line, "bra needs a label"));
            };
            let target = *scope
                .labels
                .get(label)
                .ok_or_else(|| invalid(i.line, format!("unknown label {label}")))?;
            Op::Bra { target }
        }
        "ret" | "exit" => {
            cx.arity(0)?;
            m.take("uni");
            Op::Exit
        }
        "trap" => {
            cx.arity(0)?;
            Op::Trap { assertion: false }
        }
        // The inliner leaves only calls of `__assertfail` (lower/inline.rs).
        "call" => match i.operands.as_slice() {
            [Operand::Symbol(f), Operand::Vector(_)] if f == super::inline::ASSERTFAIL => {
                m.take("uni");
                Op::Trap { assertion: true }
            }
            _ => return Err(unsupported(i.line, "this call")),
        },
        "bar" | "barrier" => lower_bar(&cx, &mut m)?,
        "atom" | "red" => lower_atom(&cx, &mut m)?,
        "shfl" => lower_shfl(&cx, &mut m)?,
        "vote" => lower_vote(&cx, &mut m)?,
        "mma" => lower_mma(&cx, &mut m)?,
        "ldmatrix" => lower_ldmatrix(&cx, &mut m)?,
        "wmma" => lower_wmma(&cx, &mut m)?,
        "cp" => lower_cp_async(&cx, &mut m)?,
        other => return Err(unsupported(i.line, format!("instruction `{other}`"))),
    };
    m.finish()?;
    Ok(Inst {
        guard,
        op,
        line: i.line,
        loc: i.loc,
    })
}

fn take_space(m: &mut Mods, line: Line) -> Result<Option<Space>, LowerError> {
    Ok(
        match m.take_any(&[
            "global",
            "shared",
            "shared::cta",
            "local",
            "param",
            "const",
            "shared::cluster",
            "tex",
        ]) {
            None => None,
            Some("global") => Some(Space::Global),
            Some("shared" | "shared::cta") => Some(Space::Shared),
            Some("local") => Some(Space::Local),
            Some("const") => Some(Space::Const),
            Some("param") => Some(Space::Generic), // marker, handled by the caller
            Some(other) => return Err(unsupported(line, format!("state space .{other}"))),
        },
    )
}

fn lower_mov(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    cx.arity(2)?;
    let t = m.one_type()?;
    let bits = if t == ScalarType::Pred {
        1
    } else {
        (t.size() * 8) as u8
    };
    let kind = match (t, float_ty(t)) {
        (ScalarType::Pred, _) => Kind::Pred,
        (_, Some(f)) => Kind::Float(f),
        _ => Kind::Bits(bits),
    };
    match (cx.operand(0)?, cx.operand(1)?) {
        (Operand::Vector(dsts), src) => {
            let piece_bits = bits / u8::try_from(dsts.len()).unwrap_or(u8::MAX).max(1);
            // Byte pieces may sit in `.b8` registers or wider ones (nvcc keeps bytes in 16-bit
            // registers).
            let pcx = cx.widened(piece_bits == 8);
            let dsts = dsts
                .iter()
                .map(|d| match d {
                    Operand::Sink => Ok(None),
                    Operand::Reg(n) => Ok(Some((n, cx.reg_named(n)?))),
                    o => Err(invalid(cx.line, format!("bad unpack destination {o:?}"))),
                })
                .collect::<Result<Vec<_>, _>>()?;
            if ![2, 4].contains(&dsts.len()) || !matches!(piece_bits, 8 | 16 | 32) {
                return Err(invalid(cx.line, "mov unpack needs 2 or 4 pieces"));
            }
            let dsts = dsts
                .into_iter()
                .map(|d| match d {
                    Some((n, r)) => pcx.sized(n, r, Kind::Bits(piece_bits)).map(|()| Some(r)),
                    None => Ok(None),
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Op::Unpack {
                dsts,
                src: cx.src_of(src, Kind::Bits(bits))?,
                piece_bits,
            })
        }
        (_, Operand::Vector(srcs)) => {
            let piece_bits = bits / u8::try_from(srcs.len()).unwrap_or(u8::MAX).max(1);
            if ![2, 4].contains(&srcs.len()) || !matches!(piece_bits, 8 | 16 | 32) {
                return Err(invalid(cx.line, "mov pack needs 2 or 4 pieces"));
            }
            let pcx = cx.widened(piece_bits == 8);
            let srcs = srcs
                .iter()
                .map(|s| pcx.src_of(s, Kind::Bits(piece_bits)))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Op::Pack {
                dst: cx.dst_as(0, Kind::Bits(bits))?,
                srcs,
                piece_bits,
            })
        }
        (_, Operand::Symbol(name)) if name != "WARP_SZ" => match cx.scope.vars.get(name) {
            Some(VarRef::Space(_, var)) => Ok(Op::VarAddr {
                dst: cx.dst_as(0, Kind::Bits(bits))?,
                var: *var,
            }),
            Some(VarRef::Unmodeled(sp)) => Err(unsupported(cx.line, unmodeled_var(name, *sp))),
            Some(VarRef::Refused(i)) => Err(unsupported(cx.line, cx.refused_var(name, *i))),
            // A string constant's address only travels to printf or assert, which ignore it:
            // an undefined value, so that any other use of it is reported.
            Some(VarRef::Text) if bits == 64 => Ok(Op::Undef {
                dst: cx.dst_as(0, Kind::Bits(bits))?,
            }),
            _ => Err(unsupported(cx.line, format!("mov of symbol {name}"))),
        },
        (_, src) => Ok(Op::Mov {
            dst: cx.dst_as(0, kind)?,
            src: cx.src_of(src, kind)?,
            bits,
        }),
    }
}

fn lower_binary(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    let line = cx.line;
    let name = cx.i.opcode.as_str();
    cx.arity(3)?;
    let int_mode = m.take_any(&["lo", "hi", "wide"]);
    let t = m.one_type()?;
    if t == ScalarType::Pred {
        let op = match name {
            "and" => BoolOp::And,
            "or" => BoolOp::Or,
            "xor" => BoolOp::Xor,
            _ => return Err(invalid(line, format!("{name}.pred"))),
        };
        return Ok(Op::PredLogic {
            op,
            dst: cx.dst_as(0, Kind::Pred)?,
            a: cx.src(1, Kind::Pred)?,
            b: cx.src(2, Kind::Pred)?,
        });
    }
    if int_mode.is_some() && (packed_ty(t).is_some() || float_ty(t).is_some()) {
        return Err(no_int_mode(line, name));
    }
    // min and max round nothing; add, sub, mul round to nearest unless told otherwise; only
    // div has approximate forms.
    let default = if matches!(name, "min" | "max") {
        RoundMode::Exact
    } else {
        RoundMode::Rn
    };
    if let Some(f) = packed_ty(t) {
        let rnd = float_mods(m, line, default, false)?;
        // No packed half division in PTX.
        let op = float_op(name)
            .filter(|&o| o != FloatOp::Div)
            .ok_or_else(|| unsupported(line, format!("{name} on packed {t:?}")))?;
        return packed(cx, PackedOp::Bin(op), f, rnd, 2);
    }
    if let Some(f) = float_ty(t) {
        let rnd = float_mods(m, line, default, name == "div")?;
        // Scalar .f16/.bf16 add, sub, mul, min, max (cuda_fp16.h / cuda_bf16.h `__hadd` ...):
        // real arithmetic like f32, the rounding recorded. PTX has no half division.
        if matches!(f, FloatTy::F16 | FloatTy::Bf16) && name == "div" {
            return Err(unsupported(line, format!("div on {f:?}")));
        }
        let op = float_op(name).ok_or_else(|| invalid(line, format!("{name} on a float type")))?;
        let k = Kind::Float(f);
        return Ok(Op::Float {
            op,
            ty: f,
            rnd,
            dst: cx.dst_as(0, k)?,
            a: cx.src(1, k)?,
            b: cx.src(2, k)?,
        });
    }
    let ty = int_ty(t).ok_or_else(|| unsupported(line, format!("{name} on type {t:?}")))?;
    let k = Kind::Bits(ty.bits);
    let mul_wide = name == "mul" && int_mode == Some("wide");
    let dst = cx.dst_as(0, if mul_wide { Kind::Bits(ty.bits * 2) } else { k })?;
    let a = cx.src(1, k)?;
    // Shift amounts are always .u32.
    let b = cx.src(
        2,
        if matches!(name, "shl" | "shr") {
            Kind::Bits(32)
        } else {
            k
        },
    )?;
    let op = match (name, int_mode) {
        ("mul", Some("wide")) => return Ok(Op::MulWide { ty, dst, a, b }),
        ("mul", Some("lo")) => IntOp::MulLo,
        ("mul", Some("hi")) => IntOp::MulHi,
        ("mul", _) => return Err(invalid(line, "integer mul needs .lo, .hi or .wide")),
        (_, Some(mode)) => return Err(unsupported(line, format!("modifier .{mode} on {name}"))),
        ("add", _) => IntOp::Add,
        ("sub", _) => IntOp::Sub,
        ("div", _) => IntOp::Div,
        ("rem", _) => IntOp::Rem,
        ("min", _) => IntOp::Min,
        ("max", _) => IntOp::Max,
        ("and", _) => IntOp::And,
        ("or", _) => IntOp::Or,
        ("xor", _) => IntOp::Xor,
        ("shl", _) => IntOp::Shl,
        ("shr", _) => IntOp::Shr,
        _ => return Err(invalid(line, format!("{name} on an integer type"))),
    };
    Ok(Op::Int { op, ty, dst, a, b })
}

/// `.lo`/`.hi`/`.wide` select integer product halves; on a float type the PTX is invalid, and
/// taking it as plain float arithmetic would give a meaning to text no assembler accepts.
fn no_int_mode(line: Line, name: &str) -> LowerError {
    invalid(
        line,
        format!("{name} on a float type takes no .lo/.hi/.wide"),
    )
}

fn lower_mad(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    cx.arity(4)?;
    let mode = m.take_any(&["lo", "hi", "wide"]);
    let t = m.one_type()?;
    if mode.is_some() && (packed_ty(t).is_some() || float_ty(t).is_some()) {
        return Err(no_int_mode(cx.line, cx.i.opcode.as_str()));
    }
    if let Some(f) = packed_ty(t) {
        let rnd = float_mods(m, cx.line, RoundMode::Rn, false)?;
        return packed(cx, PackedOp::Fma, f, rnd, 3);
    }
    if let Some(f) = float_ty(t) {
        let rnd = float_mods(m, cx.line, RoundMode::Rn, false)?;
        // fma.rn{.ftz}{.sat}.{f16,bf16} (`__hfma`) is a real a*b+c like f32's; `.relu` and
        // `.sat` clamp and are not taken here, so `finish` rejects them.
        let k = Kind::Float(f);
        return Ok(Op::Fma {
            ty: f,
            rnd,
            dst: cx.dst_as(0, k)?,
            a: cx.src(1, k)?,
            b: cx.src(2, k)?,
            c: cx.src(3, k)?,
        });
    }
    let ty = int_ty(t).ok_or_else(|| unsupported(cx.line, format!("mad on {t:?}")))?;
    let mode = match mode {
        Some("lo") => MadMode::Lo,
        Some("hi") => MadMode::Hi,
        Some("wide") => MadMode::Wide,
        _ => return Err(invalid(cx.line, "integer mad needs .lo, .hi or .wide")),
    };
    let k = Kind::Bits(ty.bits);
    let kc = if mode == MadMode::Wide {
        Kind::Bits(ty.bits * 2)
    } else {
        k
    };
    Ok(Op::Mad {
        mode,
        ty,
        dst: cx.dst_as(0, kc)?,
        a: cx.src(1, k)?,
        b: cx.src(2, k)?,
        c: cx.src(3, kc)?,
    })
}

fn lower_unary(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    cx.arity(2)?;
    let name = cx.i.opcode.as_str();
    let t = m.one_type()?;
    if t == ScalarType::Pred && name == "not" {
        return Ok(Op::PredLogic {
            op: BoolOp::Xor,
            dst: cx.dst_as(0, Kind::Pred)?,
            a: cx.src(1, Kind::Pred)?,
            b: Src::Imm(1),
        });
    }
    let sign_op = match name {
        "neg" => Some(FloatUnOp::Neg),
        "abs" => Some(FloatUnOp::Abs),
        _ => None,
    };
    if let Some(f) = packed_ty(t) {
        let ftz = m.take("ftz");
        let rnd = FloatMods {
            ftz,
            ..FloatMods::EXACT
        };
        let op = sign_op.ok_or_else(|| invalid(cx.line, format!("{name} on packed {t:?}")))?;
        return packed(cx, PackedOp::Un(op), f, rnd, 1);
    }
    if let Some(f) = float_ty(t) {
        let ftz = m.take("ftz");
        let rnd = FloatMods {
            ftz,
            ..FloatMods::EXACT
        };
        let op = sign_op.ok_or_else(|| invalid(cx.line, format!("{name} on a float type")))?;
        return Ok(Op::FloatUn {
            op,
            ty: f,
            rnd,
            dst: cx.dst_as(0, Kind::Float(f))?,
            a: cx.src(1, Kind::Float(f))?,
        });
    }
    let ty = int_ty(t).ok_or_else(|| unsupported(cx.line, format!("{name} on {t:?}")))?;
    let op = match name {
        "not" => IntUnOp::Not,
        "neg" => IntUnOp::Neg,
        "abs" => IntUnOp::Abs,
        "popc" => IntUnOp::Popc,
        "clz" => IntUnOp::Clz,
        "brev" => IntUnOp::Brev,
        "cnot" => IntUnOp::Cnot,
        _ => return Err(invalid(cx.line, name.to_string())),
    };
    Ok(Op::IntUn {
        op,
        ty,
        dst: cx.dst_as(0, Kind::Bits(ty.bits))?,
        a: cx.src(1, Kind::Bits(ty.bits))?,
    })
}

fn lower_float_fn(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    cx.arity(2)?;
    // rcp and sqrt come rounded (`.rn`...) or approximate; the others only approximate.
    let default = if matches!(cx.i.opcode.as_str(), "rcp" | "sqrt") {
        RoundMode::Rn
    } else {
        RoundMode::Approx
    };
    let rnd = float_mods(m, cx.line, default, true)?;
    let t = m.one_type()?;
    let f = float_ty(t)
        .ok_or_else(|| invalid(cx.line, format!("{} needs a float type", cx.i.opcode)))?;
    if f != FloatTy::F32 && f != FloatTy::F64 {
        return Err(unsupported(cx.line, format!("{} on {f:?}", cx.i.opcode)));
    }
    let op = match cx.i.opcode.as_str() {
        "rcp" => FloatUnOp::Rcp,
        "sqrt" => FloatUnOp::Sqrt,
        "rsqrt" => FloatUnOp::Rsqrt,
        "ex2" => FloatUnOp::Ex2,
        "lg2" => FloatUnOp::Lg2,
        "sin" => FloatUnOp::Sin,
        "cos" => FloatUnOp::Cos,
        _ => FloatUnOp::Tanh,
    };
    Ok(Op::FloatUn {
        op,
        ty: f,
        rnd,
        dst: cx.dst_as(0, Kind::Float(f))?,
        a: cx.src(1, Kind::Float(f))?,
    })
}

/// `copysign.{f32,f64} d, a, b`: |b| with the sign bit of `a` (no other modifiers).
fn lower_copysign(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    cx.arity(3)?;
    let t = m.one_type()?;
    let f = match float_ty(t) {
        Some(f @ (FloatTy::F32 | FloatTy::F64)) => f,
        _ => return Err(invalid(cx.line, "copysign takes .f32 or .f64")),
    };
    let k = Kind::Float(f);
    Ok(Op::Float {
        op: FloatOp::CopySign,
        ty: f,
        rnd: FloatMods::EXACT,
        dst: cx.dst_as(0, k)?,
        a: cx.src(1, k)?,
        b: cx.src(2, k)?,
    })
}

fn lower_setp(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    let line = cx.line;
    let t = m.one_type()?;
    let ty = ty_of(t, line)?;
    let is_float = matches!(ty, Ty::Float(_));
    m.ignore(&["ftz"]);
    // Unordered float comparisons equal ordered ones on reals, which are never NaN; the
    // concrete interpreter follows the unordered result on NaN (`unordered`).
    let c = m
        .take_any(&[
            "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu",
            "gtu", "geu", "num", "nan",
        ])
        .ok_or_else(|| invalid(line, "setp needs a comparison"))?;
    let (cmp, unsigned) = match c {
        "eq" | "equ" => (Cmp::Eq, false),
        "ne" | "neu" => (Cmp::Ne, false),
        "lt" | "ltu" => (Cmp::Lt, false),
        "le" | "leu" => (Cmp::Le, false),
        "gt" | "gtu" => (Cmp::Gt, false),
        "ge" | "geu" => (Cmp::Ge, false),
        "num" => (Cmp::Num, false),
        "nan" => (Cmp::Nan, false),
        "lo" => (Cmp::Lt, true),
        "ls" => (Cmp::Le, true),
        "hi" => (Cmp::Gt, true),
        _ => (Cmp::Ge, true),
    };
    let unordered = (c.ends_with('u') && c.len() == 3) || c == "nan";
    if (unordered || c == "num") && !is_float {
        return Err(invalid(
            line,
            format!("float comparison .{c} on an integer type"),
        ));
    }
    let ty = match ty {
        Ty::Int(it) if unsigned => Ty::Int(IntTy {
            signed: false,
            ..it
        }),
        other => other,
    };
    let bool_op = match m.take_any(&["and", "or", "xor"]) {
        Some("and") => Some(BoolOp::And),
        Some("or") => Some(BoolOp::Or),
        Some(_) => Some(BoolOp::Xor),
        None => None,
    };
    let n = cx.i.operands.len();
    if n != 3 + usize::from(bool_op.is_some()) {
        return Err(invalid(
            line,
            format!(
                "setp takes {} operands, found {n}",
                3 + usize::from(bool_op.is_some())
            ),
        ));
    }
    let (dst, dst_not) = match cx.operand(0)? {
        Operand::Reg(r) => (cx.reg_as(r, Kind::Pred)?, None),
        Operand::Vector(v) => match v.as_slice() {
            [Operand::Reg(p), Operand::Reg(q)] => {
                (cx.reg_as(p, Kind::Pred)?, Some(cx.reg_as(q, Kind::Pred)?))
            }
            _ => return Err(invalid(line, "setp destination must be p or p|q")),
        },
        _ => return Err(invalid(line, "setp destination must be a predicate")),
    };
    let k = kind_of(ty);
    let combine = match bool_op {
        Some(op) => Some((op, cx.src(3, Kind::Pred)?)),
        None => None,
    };
    Ok(Op::Setp {
        cmp,
        unordered,
        ty,
        dst,
        dst_not,
        a: cx.src(1, k)?,
        b: cx.src(2, k)?,
        combine,
    })
}

fn lower_cvt(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    let line = cx.line;
    let cx = &cx.widened(true);
    let types = m.take_types();
    if let [
        to @ (ScalarType::F16x2 | ScalarType::Bf16x2),
        ScalarType::F32,
    ] = types.as_slice()
    {
        // Two floats rounded into one packed register; values are reals, so the rounding is
        // dropped like every other float rounding.
        cx.arity(3)?;
        if m.take("relu") || m.take("satfinite") {
            return Err(unsupported(line, "cvt.relu / .satfinite to packed halves"));
        }
        let rnd = float_mods(m, line, RoundMode::Rn, false)?;
        let to = if *to == ScalarType::F16x2 {
            FloatTy::F16
        } else {
            FloatTy::Bf16
        };
        return Ok(Op::CvtPack {
            to,
            rnd,
            dst: cx.dst_as(0, Kind::Bits(32))?,
            a: cx.src(1, Kind::Float(FloatTy::F32))?,
            b: cx.src(2, Kind::Float(FloatTy::F32))?,
        });
    }
    cx.arity(2)?;
    let [to, from] = types.as_slice() else {
        return Err(invalid(line, "cvt needs a destination and a source type"));
    };
    let to_ty = ty_of(*to, line)?;
    let from_ty = ty_of(*from, line)?;
    let ftz = m.take("ftz");
    let round = match m.take_any(&["rni", "rzi", "rmi", "rpi"]) {
        Some("rni") => Some(IntRound::Nearest),
        Some("rzi") => Some(IntRound::Zero),
        Some("rmi") => Some(IntRound::Down),
        Some("rpi") => Some(IntRound::Up),
        _ => None,
    };
    // The rounding of a float result: recorded in the term, followed by the interpreter.
    let mode = match m.take_any(FLOAT_ROUNDING) {
        Some("rz") => RoundMode::Rz,
        Some("rm") => RoundMode::Rm,
        Some("rp") => RoundMode::Rp,
        Some(_) => RoundMode::Rn,
        None => RoundMode::Exact,
    };
    let rnd = FloatMods { mode, ftz };
    if m.take("sat") {
        // Float to the same float type: a clamp to [0, 1] (`__saturatef`, libdevice's range
        // reductions). Saturating into another type (integer ranges, or a clamp combined with
        // a conversion) is not modelled.
        return match (from_ty, to_ty, round) {
            (Ty::Float(f), Ty::Float(g), None) if f == g => Ok(Op::FloatUn {
                op: FloatUnOp::Sat,
                ty: f,
                rnd,
                dst: cx.dst_as(0, Kind::Float(f))?,
                a: cx.src(1, Kind::Float(f))?,
            }),
            _ => Err(unsupported(
                line,
                "cvt.sat into another type (only a float clamped in its own type is modelled)",
            )),
        };
    }
    match (from_ty, to_ty, round) {
        (Ty::Float(_), Ty::Int(_), None) => {
            return Err(invalid(
                line,
                "float-to-integer cvt needs .rni, .rzi, .rmi or .rpi",
            ));
        }
        (Ty::Float(a), Ty::Float(b), Some(_)) if a == b => {}
        (_, _, Some(_)) if !matches!(from_ty, Ty::Float(_)) => {
            return Err(invalid(line, "integer rounding on a cvt from an integer"));
        }
        (Ty::Float(a), Ty::Float(b), Some(_)) if a != b => {
            return Err(invalid(
                line,
                "integer rounding on a float-to-float cvt of different widths",
            ));
        }
        _ => {}
    }
    let k = kind_of(from_ty);
    Ok(Op::Cvt {
        from: from_ty,
        to: to_ty,
        round,
        rnd,
        dst: cx.dst_as(0, kind_of(to_ty))?,
        src: cx.src(1, k)?,
    })
}

fn lower_ld_st(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    let line = cx.line;
    let cx = &cx.widened(true);
    let is_ld = cx.i.opcode == "ld";
    cx.arity(2)?;
    m.ignore(CACHE_HINTS);
    if let Some(sem) = m.take_any(&["relaxed", "acquire", "release", "mmio"]) {
        return Err(unsupported(
            line,
            format!("memory-model qualifier .{sem} (atomics are not modeled yet)"),
        ));
    }
    let is_param = cx.i.mods.iter().any(|x| x == "param");
    let nc = cx.i.mods.iter().any(|x| x == "nc");
    let space = take_space(m, line)?;
    if nc && (!is_ld || space != Some(Space::Global)) {
        return Err(invalid(line, "`.nc` is defined for ld.global only"));
    }
    let vec = m.take_vector();
    let t = m.one_type()?;
    let elem_bytes = u8::try_from(t.size()).map_err(|_| invalid(line, "element too large"))?;
    if t == ScalarType::Pred || t == ScalarType::B128 {
        return Err(unsupported(line, format!("{} of type {t:?}", cx.i.opcode)));
    }
    // `ld.s8`/`ld.s16`/`ld.s32` sign-extend into a wider register (PTX ISA 9.7.9.8, `ld`).
    let signed = is_ld && matches!(t, ScalarType::S8 | ScalarType::S16 | ScalarType::S32);
    let float = float_ty(t).filter(|f| matches!(f, FloatTy::F32 | FloatTy::F64));
    let kind = match float {
        Some(f) => Kind::Float(f),
        None => Kind::Bits(elem_bytes * 8),
    };
    // A call site's `.param` variable (or an inlined callee's parameter) lives in the thread's
    // local memory (see `lower`); only an entry's own parameters are read with `LdParam`.
    let call_var = matches!(
        cx.operand(if is_ld { 1 } else { 0 })?,
        Operand::Address(crate::ptx::Address { base: AddressBase::Symbol(n), .. })
            if matches!(cx.scope.vars.get(n), Some(VarRef::Space(Space::Local, _)))
    );
    if is_param && !call_var {
        if !is_ld {
            return Err(unsupported(line, "st.param into an entry parameter"));
        }
        if vec != 1 {
            return Err(unsupported(line, "vector ld.param of an entry parameter"));
        }
        let Operand::Address(a) = cx.operand(1)? else {
            return Err(invalid(line, "ld.param needs an address"));
        };
        let AddressBase::Symbol(name) = &a.base else {
            return Err(unsupported(
                line,
                "ld.param through a register (parameter addresses)",
            ));
        };
        let Some(VarRef::Param(param)) = cx.scope.vars.get(name) else {
            return Err(invalid(
                line,
                format!("{name} is not a parameter of this entry"),
            ));
        };
        let offset =
            u32::try_from(a.offset).map_err(|_| invalid(line, "negative parameter offset"))?;
        return Ok(Op::LdParam {
            dst: cx.dst_as(0, kind)?,
            param: *param,
            offset,
            bytes: elem_bytes,
        });
    }
    let space = if call_var {
        Space::Local
    } else {
        space.unwrap_or(Space::Generic)
    };
    if space == Space::Const && !is_ld {
        return Err(invalid(line, "st.const: constant memory is read-only"));
    }
    let (data, addr_n) = if is_ld { (0, 1) } else { (1, 0) };
    let addr = cx.addr(addr_n, space)?;
    let items: Vec<&Operand> = match cx.operand(data)? {
        Operand::Vector(v) => v.iter().collect(),
        o => vec![o],
    };
    if items.len() != usize::from(vec) {
        return Err(invalid(
            line,
            format!("vector width {vec} but {} operands", items.len()),
        ));
    }
    if is_ld {
        let dsts = items
            .iter()
            .map(|d| match d {
                Operand::Sink => Ok(None),
                Operand::Reg(n) => cx.reg_as(n, kind).map(Some),
                o => Err(invalid(line, format!("bad load destination {o:?}"))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Op::Ld {
            space,
            elem_bytes,
            float,
            dsts,
            addr,
            nc,
            signed,
        })
    } else {
        let srcs = items
            .iter()
            .map(|s| cx.src_of(s, kind))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Op::St {
            space,
            elem_bytes,
            float,
            srcs,
            addr,
        })
    }
}

/// `atom{.sem}{.scope}{.space}.add.type d, [a], b` and `red{.sem}{.scope}{.space}.add.type [a], b`
/// (PTX ISA 9.7.13.5-6). Only relaxed addition is modeled: other operations and acquire/release
/// semantics are rejected by name.
fn lower_atom(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    let line = cx.line;
    let is_atom = cx.i.opcode == "atom";
    m.take("relaxed");
    if let Some(sem) = m.take_any(&["acquire", "release", "acq_rel"]) {
        return Err(unsupported(line, format!("atomic memory order .{sem}")));
    }
    let cta_scope = match m.take_any(&["cta", "gpu", "sys", "cluster"]) {
        Some("cta") => true,
        Some("cluster") => return Err(unsupported(line, "atomic scope .cluster")),
        _ => false,
    };
    let space = take_space(m, line)?.unwrap_or(Space::Generic);
    if space == Space::Const {
        return Err(invalid(
            line,
            "atomics on .const: constant memory is read-only",
        ));
    }
    if !m.take("add") {
        let op = cx.i.mods.iter().find(|x| {
            [
                "min", "max", "exch", "cas", "inc", "dec", "and", "or", "xor",
            ]
            .contains(&x.as_str())
        });
        return Err(unsupported(
            line,
            format!(
                "atomic operation .{}",
                op.map(String::as_str).unwrap_or("?")
            ),
        ));
    }
    let t = m.one_type()?;
    let ty = ty_of(t, line)?;
    if matches!(ty, Ty::Float(FloatTy::F16 | FloatTy::Bf16))
        || matches!(ty, Ty::Int(IntTy { bits: 8 | 16, .. }))
    {
        return Err(unsupported(line, format!("atomic add on {t:?}")));
    }
    cx.arity(if is_atom { 3 } else { 2 })?;
    let (dst, a, b) = if is_atom {
        (Some(cx.dst_as(0, kind_of(ty))?), 1, 2)
    } else {
        (None, 0, 1)
    };
    Ok(Op::AtomAdd {
        space,
        cta_scope,
        ty,
        dst,
        addr: cx.addr(a, space)?,
        src: cx.src(b, kind_of(ty))?,
    })
}

fn lower_bar(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    let line = cx.line;
    if cx.i.opcode == "bar" && m.take("warp") {
        if !m.take("sync") {
            return Err(unsupported(line, "bar.warp without .sync"));
        }
        cx.arity(1)?;
        return Ok(Op::WarpSync {
            mask: cx.src(0, Kind::Bits(32))?,
        });
    }
    // `.aligned` promises all threads execute the same barrier instruction; the deadlock and
    // divergence checks verify that rather than assume it. `bar` is always aligned (PTX ISA
    // 9.7.13.1: "bar{.cta}.sync is equivalent to barrier{.cta}.sync.aligned").
    let aligned = m.take("aligned") || cx.i.opcode == "bar";
    let wait = match m.take_any(&["sync", "arrive", "red", "cta", "cluster"]) {
        Some("sync") => true,
        Some("arrive") => false,
        Some(other) => return Err(unsupported(line, format!("barrier variant .{other}"))),
        None => return Err(invalid(line, "bar needs .sync or .arrive")),
    };
    let n = cx.i.operands.len();
    if !(1..=2).contains(&n) || (!wait && n != 2) {
        return Err(invalid(
            line,
            format!(
                "{} takes 1 or 2 operands (arrive needs 2), found {n}",
                cx.i.opcode
            ),
        ));
    }
    let id = cx.src(0, Kind::Bits(32))?;
    let count = if n == 2 {
        Some(cx.src(1, Kind::Bits(32))?)
    } else {
        None
    };
    // As ptxas: barriers count whole warps (a register count is checked when executed).
    if let Some(Src::Imm(c)) = count
        && (c == 0 || !c.is_multiple_of(32))
    {
        return Err(invalid(
            line,
            format!(
                "{}.{} thread count {c}: the number of threads participating in a barrier \
                 must be a non-zero multiple of the warp size (32)",
                cx.i.opcode,
                if wait { "sync" } else { "arrive" }
            ),
        ));
    }
    Ok(Op::Bar {
        id,
        count,
        wait,
        aligned,
    })
}

fn lower_shfl(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    let line = cx.line;
    if !m.take("sync") {
        return Err(unsupported(
            line,
            "shfl without .sync (deprecated, undefined on sm_70+)",
        ));
    }
    let mode = match m.take_any(&["up", "down", "bfly", "idx"]) {
        Some("up") => ShflMode::Up,
        Some("down") => ShflMode::Down,
        Some("bfly") => ShflMode::Bfly,
        Some(_) => ShflMode::Idx,
        None => return Err(invalid(line, "shfl needs .up, .down, .bfly or .idx")),
    };
    if m.one_type()? != ScalarType::B32 {
        return Err(invalid(line, "shfl.sync takes .b32"));
    }
    cx.arity(5)?;
    let (dst, dst_pred) = match cx.operand(0)? {
        Operand::Reg(r) => (cx.reg_as(r, Kind::Bits(32))?, None),
        Operand::Vector(v) => match v.as_slice() {
            [Operand::Reg(d), Operand::Reg(p)] => (
                cx.reg_as(d, Kind::Bits(32))?,
                Some(cx.reg_as(p, Kind::Pred)?),
            ),
            _ => return Err(invalid(line, "shfl destination must be d or d|p")),
        },
        _ => return Err(invalid(line, "shfl destination must be a register")),
    };
    Ok(Op::Shfl {
        mode,
        dst,
        dst_pred,
        a: cx.src(1, Kind::Bits(32))?,
        b: cx.src(2, Kind::Bits(32))?,
        c: cx.src(3, Kind::Bits(32))?,
        mask: cx.src(4, Kind::Bits(32))?,
    })
}

/// `vote.sync.MODE.TYPE d, {!}p, membermask` (PTX ISA 9.7.13.9); the deprecated form without
/// `.sync` is refused like `shfl`'s.
fn lower_vote(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    let line = cx.line;
    if !m.take("sync") {
        return Err(unsupported(
            line,
            "vote without .sync (deprecated, undefined on sm_70+)",
        ));
    }
    let mode = match m.take_any(&["ballot", "any", "all", "uni"]) {
        Some("ballot") => VoteMode::Ballot,
        Some("any") => VoteMode::Any,
        Some("all") => VoteMode::All,
        Some(_) => VoteMode::Uni,
        None => return Err(invalid(line, "vote needs .ballot, .any, .all or .uni")),
    };
    match (mode, m.one_type()?) {
        (VoteMode::Ballot, ScalarType::B32) => {}
        (VoteMode::Ballot, _) => return Err(invalid(line, "vote.ballot takes .b32")),
        (_, ScalarType::Pred) => {}
        _ => return Err(invalid(line, "vote.any/.all/.uni take .pred")),
    }
    cx.arity(3)?;
    let dst_kind = if matches!(mode, VoteMode::Ballot) {
        Kind::Bits(32)
    } else {
        Kind::Pred
    };
    Ok(Op::Vote {
        mode,
        dst: cx.dst_as(0, dst_kind)?,
        p: cx.src(1, Kind::Pred)?,
        mask: cx.src(2, Kind::Bits(32))?,
    })
}

impl Ctx<'_> {
    /// A `{%r1, %r2, ...}` operand of exactly `n` registers.
    fn reg_vector(&self, k: usize, n: usize, what: &str) -> Result<Vec<Reg>, LowerError> {
        match self.operand(k)? {
            Operand::Vector(v) if v.len() == n => v
                .iter()
                .map(|o| match o {
                    Operand::Reg(name) => self.reg_named(name),
                    o => Err(invalid(
                        self.line,
                        format!("{what} must be registers, found {o:?}"),
                    )),
                })
                .collect(),
            o => Err(invalid(
                self.line,
                format!("{what} must be a vector of {n} registers, found {o:?}"),
            )),
        }
    }

    /// A `{...}` source operand of exactly `n` values of `kind`.
    fn src_vector(
        &self,
        k: usize,
        n: usize,
        kind: Kind,
        what: &str,
    ) -> Result<Vec<Src>, LowerError> {
        match self.operand(k)? {
            Operand::Vector(v) if v.len() == n => v.iter().map(|o| self.src_of(o, kind)).collect(),
            o => Err(invalid(
                self.line,
                format!("{what} must be a vector of {n} values, found {o:?}"),
            )),
        }
    }
}

/// `mma.sync.aligned.{m16n8k8,m16n8k16}.row.col.f32.{f16,bf16}.{f16,bf16}.f32` (PTX ISA
/// 9.7.14.5.14). Other shapes, layouts and types are rejected by name.
fn lower_mma(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    let line = cx.line;
    // Every modifier of mma is positional (ISA 9.7.14.5.14:
    // `.sync.aligned.shape.alayout.blayout.dtype.atype.btype.ctype`), so the whole list is
    // read in that order before its parts are taken.
    let order = cx.i.mods.iter().map(String::as_str).collect::<Vec<_>>();
    let positional = matches!(
        order.as_slice(),
        [
            "sync",
            "aligned",
            "m16n8k8" | "m16n8k16",
            "row",
            "col",
            _,
            _,
            _,
            _
        ]
    );
    if !positional {
        return Err(unsupported(
            line,
            format!(
                "mma modifiers `.{}` (only `.sync.aligned.{{m16n8k8,m16n8k16}}.row.col` followed by four types)",
                order.join(".")
            ),
        ));
    }
    if !(m.take("sync") && m.take("aligned")) {
        return Err(unsupported(line, "mma without .sync.aligned"));
    }
    let shape = match m.take_any(&["m16n8k8", "m16n8k16"]) {
        Some("m16n8k8") => MmaShape::M16n8k8,
        Some(_) => MmaShape::M16n8k16,
        None => return Err(unsupported(line, "mma shape other than m16n8k8 / m16n8k16")),
    };
    // The layouts follow the shape, A's then B's (ISA 9.7.14.5.14); m16n8k8 and m16n8k16
    // on f16/bf16 define only `.row.col`, so any other order or repetition is refused.
    if !m.take_seq(&["row", "col"]) {
        return Err(unsupported(line, "mma layouts other than .row.col"));
    }
    if m.take_any(&["row", "col"]).is_some() {
        return Err(invalid(line, "mma takes exactly one .row.col layout pair"));
    }
    let types = m.take_types();
    let ab = match types.as_slice() {
        [
            ScalarType::F32,
            ScalarType::F16,
            ScalarType::F16,
            ScalarType::F32,
        ] => FloatTy::F16,
        [
            ScalarType::F32,
            ScalarType::Bf16,
            ScalarType::Bf16,
            ScalarType::F32,
        ] => FloatTy::Bf16,
        t => {
            return Err(unsupported(
                line,
                format!("mma types {t:?} (only .f32.f16.f16.f32 and .f32.bf16.bf16.f32)"),
            ));
        }
    };
    cx.arity(4)?;
    let (na, nb) = match shape {
        MmaShape::M16n8k8 => (2, 1),
        MmaShape::M16n8k16 => (4, 2),
    };
    Ok(Op::Mma {
        shape,
        ab,
        dsts: cx.reg_vector(0, 4, "mma destinations")?,
        a: cx.src_vector(1, na, Kind::Bits(32), "mma operand A")?,
        b: cx.src_vector(2, nb, Kind::Bits(32), "mma operand B")?,
        c: cx.src_vector(3, 4, Kind::Float(FloatTy::F32), "mma operand C")?,
    })
}

/// `ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16` (PTX ISA 9.7.14.5.15).
fn lower_ldmatrix(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    let line = cx.line;
    if !(m.take("sync") && m.take("aligned")) {
        return Err(unsupported(line, "ldmatrix without .sync.aligned"));
    }
    if !m.take("m8n8") {
        return Err(unsupported(line, "ldmatrix shape other than .m8n8"));
    }
    let n = match m.take_any(&["x1", "x2", "x4"]) {
        Some("x1") => 1,
        Some("x2") => 2,
        Some(_) => 4,
        None => return Err(invalid(line, "ldmatrix needs .x1, .x2 or .x4")),
    };
    let trans = m.take("trans");
    let space = match take_space(m, line)? {
        None => Space::Generic,
        Some(Space::Shared) => Space::Shared,
        Some(other) => {
            return Err(invalid(
                line,
                format!("ldmatrix reads shared memory, not {other:?}"),
            ));
        }
    };
    if m.one_type()? != ScalarType::B16 {
        return Err(unsupported(line, "ldmatrix element type other than .b16"));
    }
    cx.arity(2)?;
    Ok(Op::Ldmatrix {
        space,
        trans,
        dsts: cx.reg_vector(0, n, "ldmatrix destinations")?,
        addr: cx.addr(1, space)?,
    })
}

/// `wmma.{load.a,load.b,load.c,mma,store.d}.sync.aligned` at shape m16n16k16 with f16/bf16
/// inputs and f32 accumulators (PTX ISA 9.7.14.4). Other shapes and types are rejected by name.
fn lower_wmma(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    let line = cx.line;
    let what = m.take_any(&["load", "mma", "store"]);
    let role = match what {
        Some("load") => match m.take_any(&["a", "b", "c"]) {
            Some("a") => Some(FragRole::A),
            Some("b") => Some(FragRole::B),
            Some(_) => Some(FragRole::Acc),
            None => return Err(invalid(line, "wmma.load needs .a, .b or .c")),
        },
        Some("store") => {
            if !m.take("d") {
                return Err(invalid(line, "wmma.store needs .d"));
            }
            None
        }
        Some(_) => None,
        None => return Err(unsupported(line, "wmma other than load, mma and store")),
    };
    if !(m.take("sync") && m.take("aligned")) {
        return Err(unsupported(line, "wmma without .sync.aligned"));
    }
    let mut layout = || match m.take_any(&["row", "col"]) {
        Some("row") => Ok(MatLayout::Row),
        Some(_) => Ok(MatLayout::Col),
        None => Err(invalid(line, "wmma needs a .row or .col layout")),
    };
    let first = layout()?;
    let second = if what == Some("mma") {
        Some(layout()?)
    } else {
        None
    };
    if !m.take("m16n16k16") {
        return Err(unsupported(line, "wmma shape other than .m16n16k16"));
    }
    // Registers per lane: f16 A/B fragments hold 16 halves (8 registers; PTX leaves which
    // elements, possibly repeated), bf16 ones 8 (4 registers), f32 accumulators 8.
    let input_regs = |t: FloatTy| if t == FloatTy::F16 { 8 } else { 4 };
    if what == Some("mma") {
        let ab = match m.take_types().as_slice() {
            [ScalarType::F32, ScalarType::F32] => FloatTy::F16,
            [
                ScalarType::F32,
                ScalarType::Bf16,
                ScalarType::Bf16,
                ScalarType::F32,
            ] => FloatTy::Bf16,
            t => {
                return Err(unsupported(
                    line,
                    format!("wmma.mma types {t:?} (only .f32.f32 on f16 and .f32.bf16.bf16.f32)"),
                ));
            }
        };
        cx.arity(4)?;
        let n = input_regs(ab);
        return Ok(Op::WmmaMma {
            a_layout: first,
            b_layout: second.unwrap_or(MatLayout::Row),
            ab,
            dsts: cx.reg_vector(0, 8, "wmma.mma destinations")?,
            a: cx.reg_vector(1, n, "wmma.mma operand A")?,
            b: cx.reg_vector(2, n, "wmma.mma operand B")?,
            c: cx.reg_vector(3, 8, "wmma.mma operand C")?,
        });
    }
    let space = match take_space(m, line)? {
        None => Space::Generic,
        Some(s @ (Space::Global | Space::Shared)) => s,
        Some(other) => {
            return Err(unsupported(line, format!("wmma on {other:?} memory")));
        }
    };
    let ty = match (m.one_type()?, role) {
        (ScalarType::F16, Some(FragRole::A | FragRole::B)) => FloatTy::F16,
        (ScalarType::Bf16, Some(FragRole::A | FragRole::B)) => FloatTy::Bf16,
        (ScalarType::F32, Some(FragRole::Acc) | None) => FloatTy::F32,
        (t, _) => {
            return Err(unsupported(
                line,
                format!("wmma .{t:?} fragments of this kind (f16/bf16 inputs, f32 accumulators)"),
            ));
        }
    };
    if cx.i.operands.len() != 3 {
        return Err(unsupported(
            line,
            "wmma load/store without an explicit stride operand",
        ));
    }
    let stride = cx.src(2, Kind::Bits(32))?;
    Ok(match role {
        Some(role) => {
            let n = if role == FragRole::Acc {
                8
            } else {
                input_regs(ty)
            };
            Op::WmmaLoad {
                role,
                layout: first,
                ty,
                space,
                dsts: cx.reg_vector(0, n, "wmma.load destinations")?,
                addr: cx.addr(1, space)?,
                stride,
            }
        }
        None => Op::WmmaStore {
            layout: first,
            space,
            addr: cx.addr(0, space)?,
            srcs: cx.reg_vector(1, 8, "wmma.store sources")?,
            stride,
        },
    })
}

/// `cp.async.{ca,cg}.shared{::cta}.global{.L2::*} [dst], [src], size{, src_size}`,
/// `cp.async.commit_group`, `cp.async.wait_group n`, `cp.async.wait_all` (PTX ISA 9.7.9.25).
fn lower_cp_async(cx: &Ctx, m: &mut Mods) -> Result<Op, LowerError> {
    let line = cx.line;
    if !m.take("async") {
        return Err(unsupported(
            line,
            "cp without .async (bulk and tensor copies)",
        ));
    }
    if m.take("commit_group") {
        cx.arity(0)?;
        return Ok(Op::CpAsyncCommit);
    }
    if m.take("wait_group") {
        cx.arity(1)?;
        let Operand::Int(n) = cx.operand(0)? else {
            return Err(invalid(
                line,
                "cp.async.wait_group needs an integer constant",
            ));
        };
        let n = u32::try_from(*n).map_err(|_| invalid(line, "negative wait_group count"))?;
        return Ok(Op::CpAsyncWait { pending: Some(n) });
    }
    if m.take("wait_all") {
        cx.arity(0)?;
        return Ok(Op::CpAsyncWait { pending: None });
    }
    if m.take("mbarrier") {
        return Err(unsupported(
            line,
            "cp.async.mbarrier.arrive (mbarrier completion)",
        ));
    }
    let cg = match m.take_any(&["ca", "cg"]) {
        Some(level) => level == "cg",
        None => return Err(invalid(line, "cp.async needs .ca or .cg")),
    };
    // The prefetch size and L2 eviction hints do not change what is copied; `.L2::cache_hint`
    // adds a trailing 64-bit cache-policy operand, which is checked and dropped.
    m.ignore(&["L2::64B", "L2::128B", "L2::256B"]);
    let hint = m.take("L2::cache_hint");
    if take_space(m, line)? != Some(Space::Shared) || take_space(m, line)? != Some(Space::Global) {
        return Err(invalid(line, "cp.async copies .shared from .global"));
    }
    let mut n = cx.i.operands.len();
    if hint {
        if n < 4 {
            return Err(invalid(
                line,
                "cp.async.L2::cache_hint needs a cache-policy operand",
            ));
        }
        n -= 1;
        cx.src(n, Kind::Bits(64))?;
    }
    if !(3..=4).contains(&n) {
        return Err(invalid(
            line,
            format!(
                "cp.async takes 3 or 4 operands (and a cache policy with .L2::cache_hint), found {n}"
            ),
        ));
    }
    let bytes = match cx.operand(2)? {
        Operand::Int(b @ (4 | 8 | 16)) => *b as u8,
        o => {
            return Err(invalid(
                line,
                format!("cp.async size must be 4, 8 or 16, found {o:?}"),
            ));
        }
    };
    if cg && bytes != 16 {
        return Err(invalid(line, "cp.async.cg copies 16 bytes"));
    }
    // The fourth operand is either the source size (an integer) or the ignore-src predicate
    // (PTX ISA 9.7.9.25): a predicate register, possibly negated.
    let is_pred = |o: &Operand| match o {
        Operand::NotReg(_) => true,
        Operand::Reg(r) => cx
            .scope
            .regs
            .get(r)
            .and_then(|&i| cx.scope.reg_info.get(i as usize))
            .is_some_and(|info| info.bits == 1),
        _ => false,
    };
    let (src_bytes, ignore_src) = match n {
        4 if is_pred(cx.operand(3)?) => (None, Some(cx.src(3, Kind::Pred)?)),
        4 => (Some(cx.src(3, Kind::Bits(32))?), None),
        _ => (None, None),
    };
    Ok(Op::CpAsync {
        dst: cx.addr(0, Space::Shared)?,
        src: cx.addr(1, Space::Global)?,
        bytes,
        src_bytes,
        ignore_src,
    })
}

/// The PTX forms of issue 16 item 5 and the near misses each reading must refuse (tiny
/// hand-written PTX, parser-level; the kernels in kernels/adversarial/forms are nvcc output).
#[cfg(test)]
mod forms_tests {
    use super::*;
    use crate::lower::lower;

    /// The program of a minimal entry with module-scope `vars` and the body `insts`.
    fn program(vars: &str, insts: &str) -> Result<Program, LowerError> {
        let text = format!(
            ".version 8.0\n.target sm_80\n.address_size 64\n{vars}\n.visible .entry k()\n{{\n\
             .reg .pred %p<4>;\n.reg .b16 %rs<4>;\n.reg .b32 %r<20>;\n.reg .f32 %f<20>;\n\
             .reg .b64 %rd<4>;\n{insts}\nret;\n}}\n"
        );
        lower(&crate::ptx::parse(&text).expect("parses"), "k")
    }

    fn lower_one(inst: &str) -> Result<Op, LowerError> {
        program("", inst).map(|p| p.insts[0].op.clone())
    }

    fn is_invalid(r: Result<Op, LowerError>) -> bool {
        matches!(r, Err(LowerError::Invalid { .. }))
    }

    fn is_unsupported(r: Result<Op, LowerError>) -> bool {
        matches!(r, Err(LowerError::Unsupported { .. }))
    }

    #[test]
    fn setp_num_and_nan_are_float_comparisons_with_their_nan_result() {
        let unordered_of = |s: &str| match lower_one(s) {
            Ok(Op::Setp { cmp, unordered, .. }) => (cmp, unordered),
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(
            unordered_of("setp.num.f32 %p1, %f1, %f1;"),
            (Cmp::Num, false)
        );
        assert_eq!(
            unordered_of("setp.nan.f32 %p1, %f1, %f2;"),
            (Cmp::Nan, true)
        );
        assert_eq!(unordered_of("setp.equ.f32 %p1, %f1, %f2;"), (Cmp::Eq, true));
        assert_eq!(unordered_of("setp.neu.f32 %p1, %f1, %f2;"), (Cmp::Ne, true));
        assert_eq!(unordered_of("setp.ne.f32 %p1, %f1, %f2;"), (Cmp::Ne, false));
        // Triton's `x != x`: a float comparison of a .b32 register.
        assert_eq!(
            unordered_of("setp.num.f32 %p1, %r1, %r1;"),
            (Cmp::Num, false)
        );
        // Near misses: on integers, with a missing operand, with an unknown comparison.
        assert!(is_invalid(lower_one("setp.nan.s32 %p1, %r1, %r2;")));
        assert!(is_invalid(lower_one("setp.num.u32 %p1, %r1, %r2;")));
        assert!(is_invalid(lower_one("setp.num.f32 %p1, %f1;")));
        assert!(lower_one("setp.isnan.f32 %p1, %f1, %f2;").is_err());
    }

    #[test]
    fn warp_sz_is_32() {
        assert!(matches!(
            lower_one("mov.u32 %r1, WARP_SZ;"),
            Ok(Op::Mov {
                src: Src::Imm(32),
                bits: 32,
                ..
            })
        ));
        assert!(matches!(
            lower_one("rem.u32 %r2, %r1, WARP_SZ;"),
            Ok(Op::Int {
                b: Src::Imm(32),
                ..
            })
        ));
        // Any other bare name is a symbol that must be declared.
        assert!(lower_one("mov.u32 %r1, WARP_SIZE;").is_err());
    }

    #[test]
    fn prmt_default_mode_only_with_four_operands() {
        assert!(matches!(
            lower_one("prmt.b32 %r1, %r2, %r3, 21520;"),
            Ok(Op::Prmt {
                c: Src::Imm(21520),
                ..
            })
        ));
        assert!(matches!(
            lower_one("prmt.b32 %r1, %r2, %r3, %r4;"),
            Ok(Op::Prmt { .. })
        ));
        for mode in ["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"] {
            assert!(
                is_unsupported(lower_one(&format!("prmt.b32.{mode} %r1, %r2, %r3, %r4;"))),
                "{mode}"
            );
        }
        assert!(is_invalid(lower_one("prmt.b16 %rs1, %rs2, %rs3, %r4;")));
        assert!(is_invalid(lower_one("prmt.b32 %r1, %r2, %r3;")));
        assert!(is_invalid(lower_one("prmt.b32 %r1, %r2, %r3, %r4, %r5;")));
        assert!(lower_one("prmt.b32 %rd1, %r2, %r3, %r4;").is_err());
    }

    #[test]
    fn activemask_takes_one_b32_destination() {
        assert!(matches!(
            lower_one("activemask.b32 %r1;"),
            Ok(Op::ActiveMask { .. })
        ));
        assert!(is_invalid(lower_one("activemask.b32;")));
        assert!(is_invalid(lower_one("activemask.b32 %r1, %r2;")));
        assert!(is_invalid(lower_one("activemask.b64 %rd1;")));
        assert!(lower_one("activemask.b32 %rd1;").is_err());
    }

    #[test]
    fn cp_async_fourth_operand_is_a_size_or_the_ignore_src_predicate() {
        let fill = |s: &str| match lower_one(s) {
            Ok(Op::CpAsync {
                src_bytes,
                ignore_src,
                ..
            }) => (src_bytes, ignore_src),
            other => panic!("{s}: {other:?}"),
        };
        let p1 = Some(Src::Reg(1));
        assert_eq!(
            fill("cp.async.cg.shared.global [%r1], [%rd1], 16, %p1;"),
            (None, p1)
        );
        assert_eq!(
            fill("cp.async.ca.shared.global [%r1], [%rd1], 8, !%p1;"),
            (None, Some(Src::NotReg(1)))
        );
        assert_eq!(
            fill("cp.async.cg.shared.global [%r1], [%rd1], 16, 8;"),
            (Some(Src::Imm(8)), None)
        );
        assert!(matches!(
            fill("cp.async.cg.shared.global [%r1], [%rd1], 16, %r2;"),
            (Some(Src::Reg(_)), None)
        ));
        // A cache policy only with .L2::cache_hint, after the optional fourth operand.
        assert_eq!(
            fill("cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16, %p1, %rd2;"),
            (None, p1)
        );
        assert_eq!(
            fill("cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16, %rd2;"),
            (None, None)
        );
        assert!(is_invalid(lower_one(
            "cp.async.cg.shared.global [%r1], [%rd1], 16, %p1, %rd2;"
        )));
        assert!(is_invalid(lower_one(
            "cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16;"
        )));
        assert!(is_invalid(lower_one(
            "cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16, %p1, %r2;"
        )));
        assert!(is_invalid(lower_one(
            "cp.async.cg.shared.global [%r1], [%rd1], 8, %p1;"
        )));
    }

    #[test]
    fn byte_loads_say_whether_they_sign_extend() {
        let signed = |s: &str| match lower_one(s) {
            Ok(Op::Ld {
                elem_bytes: 1,
                signed,
                ..
            }) => signed,
            other => panic!("{s}: {other:?}"),
        };
        assert!(signed("ld.shared.s8 %rs1, [%r1];"));
        assert!(!signed("ld.shared.u8 %rs1, [%r1];"));
        assert!(!signed("ld.shared.b8 %rs1, [%r1+4];"));
        assert!(signed("ld.shared.s8 %r2, [%r1];"));
        assert!(matches!(
            lower_one("st.shared.u8 [%r1], %rs1;"),
            Ok(Op::St { elem_bytes: 1, .. })
        ));
        // A vector of bytes needs as many destinations as its width.
        assert!(is_invalid(lower_one("ld.shared.v2.u8 {%rs1}, [%r1];")));
    }

    #[test]
    fn module_variables_with_initializers_are_data() {
        let p = program(
            ".const .align 4 .b8 c[8] = {0, 0, 128, 63};\n.global .align 4 .u32 g = 1000;\n\
             .global .align 4 .f32 h[2] = {0f3F800000, 1.5};",
            "mov.u64 %rd1, c;\nld.const.f32 %f1, [%rd1+4];\nld.global.u32 %r1, [g];\n\
             ld.global.f32 %f2, [h+4];",
        )
        .expect("lowers");
        let init = |name: &str| {
            p.vars
                .iter()
                .find(|v| v.name == name)
                .and_then(|v| v.init.clone())
        };
        assert_eq!(init("c"), Some(vec![0, 0, 128, 63, 0, 0, 0, 0]));
        assert_eq!(init("g"), Some(1000u32.to_le_bytes().to_vec()));
        let mut h = 1.0f32.to_le_bytes().to_vec();
        h.extend(1.5f32.to_le_bytes());
        assert_eq!(init("h"), Some(h));
        assert!(matches!(
            p.insts[1].op,
            Op::Ld {
                space: Space::Const,
                ..
            }
        ));
    }

    #[test]
    fn module_variable_near_misses_are_refused() {
        let err = |vars: &str, insts: &str| program(vars, insts).err();
        // An item that does not fit its element, more items than elements.
        assert!(matches!(
            err(".const .b8 c[2] = {256};", "mov.u64 %rd1, c;"),
            Some(LowerError::Invalid { .. })
        ));
        assert!(matches!(
            err(".const .b8 c[2] = {1, 2, 3};", "mov.u64 %rd1, c;"),
            Some(LowerError::Invalid { .. })
        ));
        // A float literal for an integer element; an address initializer.
        assert!(matches!(
            err(".global .u32 g = 0f3F800000;", "mov.u64 %rd1, g;"),
            Some(LowerError::Unsupported { .. })
        ));
        assert!(matches!(
            err(
                ".global .u32 x = 1;\n.global .u64 q = generic(x);",
                "mov.u64 %rd1, q;"
            ),
            Some(LowerError::Unsupported { .. })
        ));
        // An entry that does not use such a variable still lowers.
        assert!(
            err(
                ".global .u32 x = 1;\n.global .u64 q = generic(x);",
                "mov.u64 %rd1, x;"
            )
            .is_none()
        );
        // Without an initializer: not taken as zero, refused where used, saying why.
        match err(".global .align 4 .u32 g;", "mov.u64 %rd1, g;") {
            Some(LowerError::Unsupported { what, .. }) => {
                assert!(what.contains("without an initializer"), "{what}")
            }
            other => panic!("{other:?}"),
        }
        // Constant memory is read-only; atomics on it are not PTX.
        assert!(matches!(
            err(".const .b8 c[4] = {1};", "st.const.u32 [c], %r1;"),
            Some(LowerError::Invalid { .. })
        ));
        assert!(matches!(
            err(
                ".const .b8 c[4] = {1};",
                "atom.const.add.u32 %r1, [c], %r2;"
            ),
            Some(LowerError::Invalid { .. })
        ));
    }
}
