//! The semantics of each core-IR operation: one match in [`Machine::run_thread`].

use super::access::Ptr;
use super::ieee::{self, Exact};
use super::libdevice::{compensated, is_reduction, outside_reduction};
use super::memory::{LOCAL_WINDOW, SHARED_WINDOW, mask};
use super::value::Base;
use super::{Arrival, Collective, Cta, ExecError, FindingKind, Machine, Mode, Status, Thread, Val};
use crate::lower::*;
use crate::ptx::Line;
use crate::term::{CmpOp, Dyadic, Fmt, Func, Node, Rnd, RoundMode, TermId};
use std::cmp::Ordering;

/// The lane-instruction count is published for progress messages every 2^22 instructions.
const PROGRESS_MASK: u64 = (1 << 22) - 1;

/// Per-thread constants for special registers.
pub(super) struct Ids {
    tid: [u32; 3],
    ntid: [u32; 3],
    ctaid: [u32; 3],
    nctaid: [u32; 3],
    lane: u32,
}

impl Ids {
    #[inline(always)]
    fn special(&self, sp: Special) -> u32 {
        match sp {
            Special::Tid(d) => self.tid[d as usize],
            Special::Ntid(d) => self.ntid[d as usize],
            Special::Ctaid(d) => self.ctaid[d as usize],
            Special::Nctaid(d) => self.nctaid[d as usize],
            Special::LaneId => self.lane,
        }
    }
}

/// [`err_undef`] naming, when known, the line where the undefined value was first read.
fn err_undef_from(line: Line, what: &str, from: Option<Line>) -> ExecError {
    match from {
        Some(f) if f != line => ExecError::Invalid {
            line,
            msg: format!(
                "{what} depends on a register that was never written (first read at line {f})"
            ),
        },
        _ => err_undef(line, what),
    }
}

fn err_undef(line: Line, what: &str) -> ExecError {
    ExecError::Invalid {
        line,
        msg: format!(
            "{what} reads a register that was never written (or a value computed from one)"
        ),
    }
}

fn unordered(line: Line) -> ExecError {
    ExecError::Unsupported {
        line,
        what: "use of the value an atomic returned: it depends on the order of the atomics".into(),
    }
}

fn packed(line: Line) -> ExecError {
    ExecError::Unsupported {
        line,
        what: "two packed 16-bit floats used as one number (unpack them with mov.b32 first)".into(),
    }
}

fn word(line: Line) -> ExecError {
    ExecError::Unsupported {
        line,
        what: "a 32-bit word of a double's bit pattern used other than to move it and join it \
               with its other word (bit-level arithmetic on float data)"
            .into(),
    }
}

fn pending(line: Line) -> ExecError {
    ExecError::Invalid {
        line,
        msg: "a cp.async destination reached a register before its wait".into(),
    }
}

/// A fragment register reaching an instruction other than `wmma` and `mov`.
pub(super) fn fragment(line: Line) -> ExecError {
    ExecError::Unsupported {
        line,
        what: "a wmma fragment register used outside wmma: PTX leaves fragment layouts \
               unspecified, so the result would depend on one"
            .into(),
    }
}

/// An address used other than by adding an integer offset, subtracting or comparing two
/// addresses of one region, copying it or accessing memory through it: the result would
/// depend on where memory is placed (see [`Val::Addr`]).
pub(super) fn addr_op(line: Line) -> ExecError {
    ExecError::Unsupported {
        line,
        what: "arithmetic on an address other than adding an offset: its result would depend \
               on where memory is placed"
            .into(),
    }
}

/// Whether an address of region `base` whose bits are `bits` keeps its meaning in a
/// `width`-bit operation: 64-bit ones always; 32-bit ones only for a shared or local variable
/// addressed in its own space (32-bit there), not through a generic window.
fn addr_fits(base: u32, bits: u64, width: u8) -> bool {
    width >= 64
        || (width == 32 && base & Base::VAR != 0 && base & Base::SCRATCH == 0 && bits >> 32 == 0)
}

/// Whether two addresses of region `base` are seen the same way: for a variable, both in its
/// own space or both through the same generic window (the window's place is ours, not the
/// hardware's, so comparing across it would depend on the layout).
fn same_view(base: u32, p: u64, q: u64) -> bool {
    base & Base::VAR == 0 || p >> 56 == q >> 56
}

/// The address `result`, computed in `width` bits from an address of region `base` whose
/// bits were `bits`, if the address survives that (see [`addr_fits`]).
///
/// The view (own space or generic window) is read off the bits elsewhere ([`same_view`], the
/// access's window test), so arithmetic must not move an address from one view to another: on
/// the hardware the windows sit elsewhere, and `sa + 0x7f00...` is not `cvta.shared(sa)`
/// (Lean: `Provenance2.window_const_eq_differs`). Only `cvta` changes the view.
fn addr_in(base: u32, bits: u64, result: u64, width: u8, line: Line) -> Result<Val, ExecError> {
    let result = m(result, width);
    if !addr_fits(base, bits, width) || !same_view(base, bits, result) {
        return Err(addr_op(line));
    }
    Ok(Val::Addr { base, bits: result })
}

pub(super) fn data_int(line: Line) -> ExecError {
    ExecError::Unsupported {
        line,
        what: "integer or address arithmetic on a value that depends on tensor data".into(),
    }
}

fn sext(v: u64, bits: u8) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - u32::from(bits);
        ((v << s) as i64) >> s
    }
}

fn m(v: u64, bits: u8) -> u64 {
    mask(u64::from(bits)) & v
}

/// [`wide`] for the symbolic integers of `exec::ints`.
pub(super) fn wide_of(v: u64, ty: IntTy) -> i128 {
    wide(v, ty)
}

/// Value as a signed or unsigned 128-bit integer.
fn wide(v: u64, ty: IntTy) -> i128 {
    if ty.signed {
        i128::from(sext(v, ty.bits))
    } else {
        i128::from(m(v, ty.bits))
    }
}

/// The source lane and in-range flag of `shfl.sync` (PTX ISA 9.7.9.6).
pub(super) fn shfl_source(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let cval = c & 0x1f;
    let segmask = (c >> 8) & 0x1f;
    let max_lane = (lane & segmask) | (cval & !segmask);
    let min_lane = lane & segmask;
    let (j, ok) = match mode {
        ShflMode::Up => {
            let j = lane as i64 - i64::from(b & 0x1f);
            (j, j >= i64::from(max_lane))
        }
        ShflMode::Down => {
            let j = i64::from(lane) + i64::from(b & 0x1f);
            (j, j <= i64::from(max_lane))
        }
        ShflMode::Bfly => {
            let j = i64::from(lane ^ (b & 0x1f));
            (j, j <= i64::from(max_lane))
        }
        ShflMode::Idx => {
            let j = i64::from(min_lane | ((b & 0x1f) & !segmask));
            (j, j <= i64::from(max_lane))
        }
    };
    if ok { (j as u32, true) } else { (lane, false) }
}

/// The float type under which a data-dependent choice between `x` and `y` is read: the
/// instruction's own float type, or, for untyped `.b32`/`.b64`, f32/f64 when one side is already
/// a real-valued term (terms only ever hold floats). Two bit patterns of an untyped choice could
/// be integers, so they get no float reading.
fn float_view(x: Val, y: Val, float: Option<FloatTy>, bits: u8) -> Option<FloatTy> {
    let term = matches!(x, Val::Term(_)) || matches!(y, Val::Term(_));
    match (float, bits) {
        (Some(f), _) => Some(f),
        (None, 32) if term => Some(FloatTy::F32),
        (None, 64) if term => Some(FloatTy::F64),
        _ => None,
    }
}

/// A source's bits when it is a concrete value, without building an error: the fast path's
/// test.
#[inline(always)]
fn bits_of(th: &Thread, ids: &Ids, s: Src) -> Option<u64> {
    match s {
        Src::Reg(r) => match th.regs[r as usize] {
            Val::Bits(b) => Some(b),
            _ => None,
        },
        Src::Imm(v) => Some(v),
        Src::Special(sp) => Some(u64::from(ids.special(sp))),
        Src::NotReg(_) | Src::Var(_) => None,
    }
}

/// The loop-counter and address arithmetic that dominates execution, on concrete operands:
/// the same results as [`Machine::pure`] computes for these cases (which it handles when
/// this returns `false`), with no error plumbing.
#[inline(always)]
fn fast_int(th: &mut Thread, ids: &Ids, op: &Op) -> bool {
    match *op {
        Op::Int {
            op: op @ (IntOp::Add | IntOp::Sub | IntOp::And | IntOp::Or | IntOp::Xor),
            ty,
            dst,
            a,
            b,
        } => {
            let (Some(x), Some(y)) = (bits_of(th, ids, a), bits_of(th, ids, b)) else {
                return fast_addr(th, ids, op, ty, dst, a, b);
            };
            let r = match op {
                IntOp::Add => x.wrapping_add(y),
                IntOp::Sub => x.wrapping_sub(y),
                IntOp::And => x & y,
                IntOp::Or => x | y,
                _ => x ^ y,
            };
            th.regs[dst as usize] = Val::Bits(m(r, ty.bits));
            true
        }
        Op::Setp {
            cmp,
            unordered: _,
            ty: Ty::Int(it),
            dst,
            dst_not,
            a,
            b,
            combine: None,
        } => {
            let (Some(x), Some(y)) = (bits_of(th, ids, a), bits_of(th, ids, b)) else {
                return false;
            };
            let p = cmp_holds(cmp, wide(x, it).cmp(&wide(y, it)));
            th.regs[dst as usize] = Val::Bits(u64::from(p));
            if let Some(n) = dst_not {
                th.regs[n as usize] = Val::Bits(u64::from(!p));
            }
            true
        }
        _ => false,
    }
}

/// `add`/`sub` of a 64-bit address and a concrete offset register or literal, as
/// [`Machine::pure`] computes it; `false` for every other case (which `pure` handles).
#[inline(always)]
fn fast_addr(th: &mut Thread, ids: &Ids, op: IntOp, ty: IntTy, dst: Reg, a: Src, b: Src) -> bool {
    if ty.bits != 64 {
        return false;
    }
    let Src::Reg(ra) = a else {
        return false;
    };
    let Val::Addr { base, bits } = th.regs[ra as usize] else {
        // `add offset, address` is rare: `pure` takes it.
        return false;
    };
    let Some(o) = bits_of(th, ids, b) else {
        return false;
    };
    let result = match op {
        IntOp::Add => bits.wrapping_add(o),
        IntOp::Sub => bits.wrapping_sub(o),
        _ => return false,
    };
    if !same_view(base, bits, result) {
        // `pure` refuses it with its message.
        return false;
    }
    th.regs[dst as usize] = Val::Addr { base, bits: result };
    true
}

/// The branch history `path` extended by the decision `taken` of the conditional branch at
/// `pc` (a 64-bit FNV-style mix; equal histories give equal paths).
fn mix_path(path: u64, pc: u32, taken: bool) -> u64 {
    let x = (u64::from(pc) << 1 | u64::from(taken)).wrapping_add(1);
    (path ^ x)
        .wrapping_mul(0x0000_0100_0000_01b3)
        .rotate_left(17)
        ^ x
}

/// `prmt.b32` in the default mode on concrete bits (PTX ISA, `prmt`): byte `i` of the result
/// is byte `c[4i+2:4i]` of `b:a`, or its sign replicated when `c[4i+3]` is set.
fn prmt(a: u64, b: u64, c: u64) -> u64 {
    let src = (b & 0xffff_ffff) << 32 | (a & 0xffff_ffff);
    let mut r = 0u64;
    for i in 0..4 {
        let ctl = (c >> (4 * i)) & 0xf;
        let byte = (src >> (8 * (ctl & 7))) & 0xff;
        let byte = if ctl & 8 != 0 {
            if byte & 0x80 != 0 { 0xff } else { 0 }
        } else {
            byte
        };
        r |= byte << (8 * i);
    }
    r
}

/// `bfi.bN`: `b` with bits `pos..pos+len` replaced by the low `len` bits of `a`; `pos` and
/// `len` are taken modulo 256 and bits at or past N are dropped (PTX ISA, `bfi`).
fn bfi(a: u64, b: u64, pos: u64, len: u64, bits: u8) -> u64 {
    let (p, l) = (pos & 0xff, len & 0xff);
    let mut r = m(b, bits);
    for i in 0..l {
        let k = p + i;
        if k >= u64::from(bits) {
            break;
        }
        r = (r & !(1u64 << k)) | (((a >> i) & 1) << k);
    }
    r
}

/// Real-valued order of float literals, with infinities; `None` for NaN.
fn ext(bits: u64, ty: FloatTy) -> Option<(i8, Dyadic)> {
    let (d, inf_neg) = match ty {
        FloatTy::F32 => {
            let b = bits as u32;
            (Dyadic::from_f32_bits(b), b >> 31 == 1)
        }
        FloatTy::F64 => (Dyadic::from_f64_bits(bits), bits >> 63 == 1),
        FloatTy::F16 => (Dyadic::from_f16_bits(bits as u16), bits as u16 >> 15 == 1),
        FloatTy::Bf16 => (Dyadic::from_bf16_bits(bits as u16), bits as u16 >> 15 == 1),
    };
    match d {
        Some(d) => Some((0, d)),
        None if is_nan(bits, ty) => None,
        None => Some((if inf_neg { -1 } else { 1 }, Dyadic::ZERO)),
    }
}

fn is_nan(bits: u64, ty: FloatTy) -> bool {
    match ty {
        FloatTy::F32 => f32::from_bits(bits as u32).is_nan(),
        FloatTy::F64 => f64::from_bits(bits).is_nan(),
        FloatTy::F16 => bits as u16 & 0x7c00 == 0x7c00 && bits as u16 & 0x3ff != 0,
        FloatTy::Bf16 => bits as u16 & 0x7f80 == 0x7f80 && bits as u16 & 0x7f != 0,
    }
}

fn cmp_holds(c: Cmp, o: Ordering) -> bool {
    match c {
        Cmp::Eq => o == Ordering::Equal,
        Cmp::Ne => o != Ordering::Equal,
        Cmp::Lt => o == Ordering::Less,
        Cmp::Le => o != Ordering::Greater,
        Cmp::Gt => o == Ordering::Greater,
        Cmp::Ge => o != Ordering::Less,
        Cmp::Num => true,
        Cmp::Nan => false,
    }
}

pub(crate) fn to_f64(bits: u64, ty: FloatTy) -> f64 {
    match ty {
        FloatTy::F32 => f64::from(f32::from_bits(bits as u32)),
        FloatTy::F64 => f64::from_bits(bits),
        FloatTy::F16 => half_to_f64(bits as u16),
        FloatTy::Bf16 => f64::from(f32::from_bits(u32::from(bits as u16) << 16)),
    }
}

fn half_to_f64(h: u16) -> f64 {
    let sign = if h >> 15 == 1 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let f = f64::from(h & 0x3ff);
    match e {
        0 => sign * f * 2f64.powi(-24),
        0x1f if f == 0.0 => sign * f64::INFINITY,
        0x1f => f64::NAN,
        _ => sign * (1.0 + f / 1024.0) * 2f64.powi(e - 15),
    }
}

/// Round-to-nearest-even conversions from f64 (concrete mode only).
pub(crate) fn from_f64(v: f64, ty: FloatTy) -> u64 {
    match ty {
        FloatTy::F32 => u64::from((v as f32).to_bits()),
        FloatTy::F64 => v.to_bits(),
        FloatTy::F16 => u64::from(f32_to_f16(f64_to_f32_odd(v))),
        FloatTy::Bf16 => {
            let f = f64_to_f32_odd(v);
            if f.is_nan() {
                return 0x7fc0;
            }
            let b = f.to_bits();
            let round = ((b >> 16) & 1) + 0x7fff;
            u64::from((b.wrapping_add(round)) >> 16)
        }
    }
}

/// `v` rounded to f32 *to odd* (an inexact result takes the neighbour with an odd last bit):
/// rounding that to nearest-even at 16-bit precision equals rounding `v` there directly, which
/// rounding to f32 to nearest first would not (double rounding) when `v` is not an f32.
fn f64_to_f32_odd(v: f64) -> f32 {
    let f = v as f32;
    if !f.is_finite() || f64::from(f) == v || f.to_bits() & 1 == 1 {
        return f;
    }
    // Inexact with an even last bit: the other neighbour of `v` (by magnitude) is odd. A
    // result that underflowed to zero has the smallest subnormal as its other neighbour.
    let mag = f.abs().to_bits();
    let mag = if f64::from(f.abs()) < v.abs() {
        mag + 1
    } else {
        mag.saturating_sub(1)
    };
    let sign = if v < 0.0 { 0x8000_0000 } else { 0 };
    f32::from_bits(mag | sign)
}

fn f32_to_f16(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    if x.is_nan() {
        return sign | 0x7e00;
    }
    let a = x.abs();
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < 2f32.powi(-24) * 0.5 {
        return sign;
    }
    // Scale into the integer mantissa grid of the target exponent and round half to even.
    let e = (a.log2().floor() as i32).clamp(-14, 15);
    let scaled = f64::from(a) * 2f64.powi(10 - e);
    let r = scaled.round_ties_even() as u32;
    let (mut mant, mut exp) = (r, e);
    if mant >= 2048 {
        mant >>= 1;
        exp += 1;
    }
    if exp > 15 {
        return sign | 0x7c00;
    }
    if mant < 1024 {
        // Subnormal.
        return sign | mant as u16;
    }
    sign | (((exp + 15) as u16) << 10) | (mant as u16 & 0x3ff)
}

/// Whether every value of `a` is a value of `b` (the conversion cannot round).
fn widens(a: FloatTy, b: FloatTy) -> bool {
    a == b
        || matches!(
            (a, b),
            (FloatTy::F16 | FloatTy::Bf16, FloatTy::F32 | FloatTy::F64)
                | (FloatTy::F32, FloatTy::F64)
        )
}

/// `cvt` between float types in the interpreter: `v` is exactly the source value.
fn float_to_float(v: f64, from: FloatTy, to: FloatTy, rnd: FloatMods) -> u64 {
    match to {
        FloatTy::F64 => v.to_bits(),
        FloatTy::F32 => {
            let v = if rnd.ftz && from == FloatTy::F32 {
                f64::from(ieee::flush32(v as f32))
            } else {
                v
            };
            // `v + 0` rounded as `rnd` says: an f32 sum of one f64 value is that value rounded.
            let rn = v as f32;
            let r = match v.partial_cmp(&f64::from(rn)) {
                Some(side) if side != Ordering::Equal => ieee::step32(rn, rnd.mode, side),
                _ => rn,
            };
            let r = if rnd.ftz { ieee::flush32(r) } else { r };
            u64::from(r.to_bits())
        }
        half => half_rounded(v, half, rnd),
    }
}

/// `cvt` from an integer to a float (the integer is concrete in both modes).
fn int_to_float(v: i128, f: FloatTy, mode: RoundMode, line: Line) -> Result<u64, ExecError> {
    let exact = v.unsigned_abs() < (1u128 << 53);
    match (f, mode) {
        (FloatTy::F32, RoundMode::Rn | RoundMode::Exact) => Ok(u64::from((v as f32).to_bits())),
        (FloatTy::F64, RoundMode::Rn | RoundMode::Exact) => Ok((v as f64).to_bits()),
        (FloatTy::F64, _) if exact => Ok((v as f64).to_bits()),
        (FloatTy::F32 | FloatTy::F16 | FloatTy::Bf16, _) if exact => Ok(float_to_float(
            v as f64,
            FloatTy::F64,
            f,
            FloatMods { mode, ftz: false },
        )),
        _ => Err(ExecError::Unsupported {
            line,
            what: "an integer of 2^53 or more converted with a directed rounding".into(),
        }),
    }
}

/// `ty`, or under the test fault [`Fault::HalfFormat`] the other 16-bit format.
fn fault_format(ty: FloatTy) -> FloatTy {
    use super::fault::{Fault, active};
    match ty {
        FloatTy::F16 if active(Fault::HalfFormat) => FloatTy::Bf16,
        FloatTy::Bf16 if active(Fault::HalfFormat) => FloatTy::F16,
        t => t,
    }
}

/// The term format of a register float type.
pub(super) fn fmt_of(ty: FloatTy) -> Fmt {
    match ty {
        FloatTy::F16 => Fmt::F16,
        FloatTy::Bf16 => Fmt::Bf16,
        FloatTy::F32 => Fmt::F32,
        FloatTy::F64 => Fmt::F64,
    }
}

fn not_interpreted(line: Line) -> ExecError {
    ExecError::Unsupported {
        line,
        what: "a directed rounding the interpreter cannot place exactly (f64 fma, or an error \
               term that underflows)"
            .into(),
    }
}

fn flush_if(ftz: bool, x: f32) -> f32 {
    if ftz { ieee::flush32(x) } else { x }
}

/// `.ftz` on a 16-bit value held as f64: subnormals of its format become zeros.
fn flush16_if(ftz: bool, x: f64, ty: FloatTy) -> f64 {
    let tiny = match ty {
        FloatTy::F16 => 2f64.powi(-14),
        _ => f64::from(f32::MIN_POSITIVE),
    };
    if ftz && x != 0.0 && x.abs() < tiny {
        0f64.copysign(x)
    } else {
        x
    }
}

/// `v` rounded to the 16-bit format `ty` as `rnd` says (flushing subnormal results on `.ftz`).
fn half_rounded(v: f64, ty: FloatTy, rnd: FloatMods) -> u64 {
    let rn = from_f64(v, ty) as u16;
    let h = ieee::directed16(v, rn, ty == FloatTy::Bf16, rnd.mode, |h| {
        to_f64(u64::from(h), ty)
    });
    let h = if rnd.ftz {
        let f = flush16_if(true, to_f64(u64::from(h), ty), ty);
        if f == 0.0 { h & 0x8000 } else { h }
    } else {
        h
    };
    u64::from(h)
}

impl Machine<'_> {
    /// `prmt.b32` on packed 16-bit halves (`Val::Pair`, or concrete bits): a selector whose
    /// two result halves each take one whole source half, in order and without sign
    /// replication (`0x5410`, `0x3276`, `0x1032`, `0x7654`, ...), moves halves, which packs
    /// their terms anew. Any other selector would split a real into bytes: refused.
    fn prmt_halves(&mut self, a: Val, b: Val, sel: u64, line: Line) -> Result<Val, ExecError> {
        let halves = |v: Val| -> Result<[Val; 2], ExecError> {
            match v {
                Val::Bits(x) => Ok([Val::Bits(x & 0xffff), Val::Bits((x >> 16) & 0xffff)]),
                Val::Pair(lo, hi) => Ok([Val::Term(lo), Val::Term(hi)]),
                Val::Undef => Err(err_undef(line, "prmt")),
                Val::Addr { .. } => Err(addr_op(line)),
                _ => Err(ExecError::Unsupported {
                    line,
                    what: "prmt on a value that depends on tensor data and is not a pair of                            16-bit halves"
                        .into(),
                }),
            }
        };
        let [a0, a1] = halves(a)?;
        let [b0, b1] = halves(b)?;
        let src = [a0, a1, b0, b1];
        let mut out = [Val::Undef; 2];
        for (j, slot) in out.iter_mut().enumerate() {
            let lo = (sel >> (8 * j)) & 0xf;
            let hi = (sel >> (8 * j + 4)) & 0xf;
            if lo >= 8 || !lo.is_multiple_of(2) || hi != lo + 1 {
                return Err(ExecError::Unsupported {
                    line,
                    what: format!(
                        "prmt selector {:#06x} on packed 16-bit values: it does not move whole \
                         halves",
                        sel & 0xffff
                    ),
                });
            }
            *slot = src[(lo / 2) as usize];
        }
        self.pack_halves(out[0], out[1], line)
    }

    /// Two 16-bit halves as one 32-bit value: concrete bits when both are, packed terms
    /// otherwise.
    pub(super) fn pack_halves(&mut self, lo: Val, hi: Val, line: Line) -> Result<Val, ExecError> {
        Ok(match (lo, hi) {
            (Val::Bits(lo), Val::Bits(hi)) => Val::Bits(lo | hi << 16),
            _ => Val::Pair(self.half_term(lo, line)?, self.half_term(hi, line)?),
        })
    }

    /// The term of one 16-bit half being packed: a term, or the constant zero (whose bits
    /// mean 0 in every float format; any other constant half has no known format here).
    pub(super) fn half_term(&mut self, v: Val, line: Line) -> Result<TermId, ExecError> {
        match v {
            Val::Term(t) => Ok(t),
            Val::Bits(0) => self.term_of(Val::Bits(0), FloatTy::F32, line),
            // -0.0 in both 16-bit formats, kept apart from +0.0 (see [`Machine::term_of`]).
            Val::Bits(0x8000) => self.term_of(Val::Bits(0x8000_0000), FloatTy::F32, line),
            Val::Bits(_) => Err(ExecError::Unsupported {
                line,
                what: "packing a constant 16-bit pattern of unknown float format with tensor data"
                    .into(),
            }),
            Val::Undef => Err(err_undef(line, "mov (pack)")),
            Val::Addr { .. } => Err(addr_op(line)),
            _ => Err(packed(line)),
        }
    }

    pub(super) fn term_of(&mut self, v: Val, ty: FloatTy, line: Line) -> Result<TermId, ExecError> {
        let node = match v {
            Val::Term(t) if matches!(ty, FloatTy::F16 | FloatTy::Bf16) => {
                // A 16-bit value is read in one format; the other format's reading of its bits
                // is a different number, which the real model does not compute.
                let want = fmt_of(ty);
                return match self.format_of(t) {
                    None => Ok(t),
                    Some(f) if f == want => Ok(t),
                    Some(f) => Err(ExecError::Unsupported {
                        line,
                        what: format!(
                            "a {f:?} value read as {want:?} (a reinterpretation of 16-bit float \
                             bits is not modelled)"
                        ),
                    }),
                };
            }
            Val::Term(t) => return Ok(t),
            // -0.0 is the real 0, but a tree of its own, `-(0)`: a rule that compares trees
            // must not take `x / -0.0` for `x / 0.0` (their bits are -inf and +inf).
            Val::Bits(b) if b != 0 && b == 1 << (ty.bits() - 1) => {
                let zero = self.term_of(Val::Bits(0), ty, line)?;
                Node::Neg(zero)
            }
            Val::Bits(b) => match ext(b, fault_format(ty)) {
                Some((0, d)) => self
                    .arena
                    .constant_node(d)
                    .map_err(|e| ExecError::Limit(e.to_string()))?,
                Some((s, _)) if s < 0 => Node::NegInf,
                Some(_) => Node::PosInf,
                None => {
                    return Err(ExecError::Unsupported {
                        line,
                        what: "a NaN value".into(),
                    });
                }
            },
            Val::Cond(_) => {
                return Err(ExecError::Unsupported {
                    line,
                    what: "a data-dependent predicate used as a number".into(),
                });
            }
            Val::Undef => return Err(err_undef(line, "a float operation")),
            Val::Unordered => return Err(unordered(line)),
            Val::Pair(..) => return Err(packed(line)),
            Val::Word { .. } => return Err(word(line)),
            Val::Pending => return Err(pending(line)),
            Val::Frag(_) => return Err(fragment(line)),
            Val::Addr { .. } => return Err(addr_op(line)),
            Val::Rounded { .. } | Val::Pow2 { .. } => return Err(outside_reduction(line)),
            // Only a conversion (`cvt.rn.f32.s32`) makes a number of an integer: its bits
            // read as a float are another number.
            Val::Int { .. } => {
                return Err(ExecError::Unsupported {
                    line,
                    what: "integer tensor data used as a float without a conversion (its bits \
                           would be read as another number)"
                        .into(),
                });
            }
        };
        self.mk(node)
    }

    fn mk(&mut self, n: Node) -> Result<TermId, ExecError> {
        self.arena
            .intern(n)
            .map_err(|e| ExecError::Limit(format!("{e}; split the launch into smaller ones")))
    }

    fn int(v: Val, line: Line) -> Result<u64, ExecError> {
        match v {
            Val::Bits(b) => Ok(b),
            Val::Undef => Err(err_undef(line, "an integer operation")),
            Val::Addr { .. } => Err(addr_op(line)),
            Val::Rounded { .. } | Val::Pow2 { .. } => Err(outside_reduction(line)),
            _ => Err(data_int(line)),
        }
    }

    pub(super) fn float_bin(
        &mut self,
        op: FloatOp,
        ty: FloatTy,
        rnd: FloatMods,
        a: Val,
        b: Val,
        line: Line,
    ) -> Result<Val, ExecError> {
        if self.mode == Mode::Concrete {
            let (x, y) = (Self::int(a, line)?, Self::int(b, line)?);
            let exact = match op {
                FloatOp::Add => Some(Exact::Add),
                FloatOp::Sub => Some(Exact::Sub),
                FloatOp::Mul => Some(Exact::Mul),
                FloatOp::Div => Some(Exact::Div),
                _ => None,
            };
            if ty == FloatTy::F32 {
                let (x, y) = (f32::from_bits(x as u32), f32::from_bits(y as u32));
                let r = match (op, exact) {
                    (_, Some(e)) => ieee::op32(e, rnd.mode, rnd.ftz, x, y, 0.0)
                        .ok_or_else(|| not_interpreted(line))?,
                    (FloatOp::Min, _) => {
                        flush_if(rnd.ftz, flush_if(rnd.ftz, x).min(flush_if(rnd.ftz, y)))
                    }
                    (FloatOp::Max, _) => {
                        flush_if(rnd.ftz, flush_if(rnd.ftz, x).max(flush_if(rnd.ftz, y)))
                    }
                    // Bit-exact: the sign bit of `a` onto `b`.
                    _ => y.copysign(x),
                };
                return Ok(Val::Bits(u64::from(r.to_bits())));
            }
            let (x, y) = (to_f64(x, ty), to_f64(y, ty));
            if ty == FloatTy::F64 {
                let r = match (op, exact) {
                    (_, Some(e)) => {
                        ieee::op64(e, rnd.mode, x, y, 0.0).ok_or_else(|| not_interpreted(line))?
                    }
                    (FloatOp::Min, _) => x.min(y),
                    (FloatOp::Max, _) => x.max(y),
                    _ => y.copysign(x),
                };
                return Ok(Val::Bits(r.to_bits()));
            }
            // Halves: the exact result in f64 (11- and 8-bit significands), rounded once.
            let (x, y) = (flush16_if(rnd.ftz, x, ty), flush16_if(rnd.ftz, y, ty));
            let r = match op {
                FloatOp::Add => x + y,
                FloatOp::Sub => x - y,
                FloatOp::Mul => x * y,
                FloatOp::Div => x / y,
                FloatOp::Min => x.min(y),
                FloatOp::Max => x.max(y),
                FloatOp::CopySign => y.copysign(x),
            };
            return Ok(Val::Bits(half_rounded(r, ty, rnd)));
        }
        if is_reduction(a) || is_reduction(b) {
            return self.reduction_bin(op, a, b, |m, v| m.term_of(v, ty, line), line);
        }
        let (x, y) = (self.term_of(a, ty, line)?, self.term_of(b, ty, line)?);
        let n = match op {
            FloatOp::Add => Node::Add(x, y),
            FloatOp::Sub => Node::Sub(x, y),
            FloatOp::Mul => Node::Mul(x, y),
            FloatOp::Div => Node::Div(x, y),
            FloatOp::Min => Node::Min(x, y),
            FloatOp::Max => Node::Max(x, y),
            FloatOp::CopySign => {
                let v = self.copysign(ty, (a, b), (x, y), line)?;
                return match v {
                    Val::Term(t) => Ok(Val::Term(self.rounded(t, ty, rnd)?)),
                    other => Ok(other),
                };
            }
        };
        let t = self.mk(n)?;
        Ok(Val::Term(self.rounded(t, ty, rnd)?))
    }

    /// `t`, the real result of an operation of type `ty`, wrapped in [`Node::Round`] unless it
    /// is what a plain node means: an f32 result rounded to nearest (or exact), no `.ftz`.
    pub(super) fn rounded(
        &mut self,
        t: TermId,
        ty: FloatTy,
        rnd: FloatMods,
    ) -> Result<TermId, ExecError> {
        let plain =
            ty == FloatTy::F32 && !rnd.ftz && matches!(rnd.mode, RoundMode::Rn | RoundMode::Exact);
        if plain {
            return Ok(t);
        }
        let fmt = fmt_of(ty);
        self.mk(Node::Round(
            Rnd {
                fmt,
                mode: rnd.mode,
                ftz: rnd.ftz,
            },
            t,
        ))
    }

    /// `max(c, x)` with `x` an input element and `c` a constant at or below the lowest finite
    /// value of the input's format (`-FLT_MAX` as a running max's identity): every input is a
    /// finite value of its format, so the max is `x`, over the reals and in bits. `None` for
    /// anything else: a min, a computed `x` (its real value may lie below), an f64 input.
    fn below_every_input(&self, n: Node) -> Option<TermId> {
        let Node::Max(a, b) = n else {
            return None;
        };
        let (c, x) = match (self.arena.node(a), self.arena.node(b)) {
            (Node::Const(c), Node::Input { .. }) => (*c, b),
            (Node::Input { .. }, Node::Const(c)) => (*c, a),
            _ => return None,
        };
        let lowest = match self.format_of(x)? {
            Fmt::F32 | Fmt::F16 | Fmt::Bf16 => -f64::from(f32::MAX),
            Fmt::F64 => return None,
        };
        (self.arena.const_value(c).to_f64() <= lowest).then_some(x)
    }

    /// The float format the value of `t` is in, as far as its 16-bit reading matters:
    /// `None` for a constant (its exact value was read in the format of the instruction that
    /// made it a term) and for selects between such constants.
    pub(super) fn format_of(&self, t: TermId) -> Option<Fmt> {
        let mut t = t;
        loop {
            return match *self.arena.node(t) {
                Node::Round(r, _) => Some(r.fmt),
                Node::Input { tensor, .. } => {
                    if let Some(s) = self.symbolics.iter().find(|s| s.ordinal == tensor) {
                        return Some(if s.dtype == crate::ptx::ScalarType::F64 {
                            Fmt::F64
                        } else {
                            Fmt::F32
                        });
                    }
                    Some(match self.tensors.iter().find(|tm| tm.ordinal == tensor) {
                        Some(tm) if tm.is_bf16 => Fmt::Bf16,
                        Some(tm) if tm.elem_bytes == 2 => Fmt::F16,
                        Some(tm) if tm.elem_bytes == 8 => Fmt::F64,
                        _ => Fmt::F32,
                    })
                }
                Node::Const(_) => None,
                Node::Neg(z) if matches!(self.arena.node(z), Node::Const(_)) => None,
                Node::Select { then, else_, .. } => match self.format_of(then) {
                    None => {
                        t = else_;
                        continue;
                    }
                    f => f,
                },
                // A plain node is an f32 result (see [`Machine::rounded`]).
                _ => Some(Fmt::F32),
            };
        }
    }

    /// `copysign` over the reals (`x`, `y`: the terms of `a`, `b`): `|b|` when `a >= 0`, else
    /// `-|b|`, as `select(a >= 0, abs(b), -abs(b))`. A concrete `a` decides by its sign bit
    /// (exactly what the instruction reads); a concrete `b` gives constant magnitudes, bit for
    /// bit. The one place the real reading differs from the bits is `a = -0.0`, which is the
    /// real 0 (values are reals: -0.0 and 0.0 are one number).
    fn copysign(
        &mut self,
        ty: FloatTy,
        (a, b): (Val, Val),
        (x, y): (TermId, TermId),
        line: Line,
    ) -> Result<Val, ExecError> {
        let sign = 1u64 << (ty.bits() - 1);
        let (pos, neg) = match b {
            Val::Bits(bb) => (
                self.term_of(Val::Bits(bb & !sign), ty, line)?,
                self.term_of(Val::Bits(bb | sign), ty, line)?,
            ),
            _ => {
                let abs = self.mk(Node::Apply(Func::Abs, y))?;
                (abs, self.mk(Node::Neg(abs))?)
            }
        };
        if let Val::Bits(ab) = a {
            return Ok(Val::Term(if ab & sign == 0 { pos } else { neg }));
        }
        let zero = self
            .arena
            .constant(Dyadic::ZERO)
            .map_err(|e| ExecError::Limit(e.to_string()))?;
        let cond = self.mk(Node::Cmp(CmpOp::Ge, x, zero))?;
        Ok(Val::Term(self.mk(Node::Select {
            cond,
            then: pos,
            else_: neg,
        })?))
    }

    /// A packed `.f16x2`/`.bf16x2` operation: the scalar one on the low halves and on the high
    /// halves. Concrete halves stay bits; otherwise the result is a pair of terms.
    fn packed(
        &mut self,
        op: PackedOp,
        ty: FloatTy,
        rnd: FloatMods,
        srcs: [Val; 3],
        line: Line,
    ) -> Result<Val, ExecError> {
        let arity = match op {
            PackedOp::Un(_) => 1,
            PackedOp::Bin(_) => 2,
            PackedOp::Fma => 3,
        };
        let mut halves = [[Val::Undef; 2]; 3];
        for (h, v) in halves.iter_mut().zip(srcs).take(arity) {
            *h = match v {
                Val::Bits(b) => [Val::Bits(b & 0xffff), Val::Bits(b >> 16 & 0xffff)],
                Val::Pair(lo, hi) => [Val::Term(lo), Val::Term(hi)],
                Val::Undef => return Err(err_undef(line, "a packed half operation")),
                _ => {
                    return Err(ExecError::Unsupported {
                        line,
                        what: "a packed half operation on a value that is not two halves".into(),
                    });
                }
            };
        }
        let mut out = [Val::Undef; 2];
        for (i, o) in out.iter_mut().enumerate() {
            let [a, b, c] = [halves[0][i], halves[1][i], halves[2][i]];
            *o = match op {
                PackedOp::Bin(f) => self.float_bin(f, ty, rnd, a, b, line)?,
                PackedOp::Fma => self.fma(ty, rnd, a, b, c, line)?,
                PackedOp::Un(f) => self.float_un(f, ty, rnd, a, line)?,
            };
        }
        Ok(match out {
            [Val::Bits(lo), Val::Bits(hi)] => Val::Bits(lo & 0xffff | (hi & 0xffff) << 16),
            [lo, hi] => Val::Pair(self.half_of(lo, ty, line)?, self.half_of(hi, ty, line)?),
        })
    }

    /// One half of a packed result as a term: a constant half keeps the format it was
    /// computed in, so that reading its bits in the other 16-bit format is refused.
    fn half_of(&mut self, v: Val, ty: FloatTy, line: Line) -> Result<TermId, ExecError> {
        let t = self.term_of(v, ty, line)?;
        match v {
            Val::Bits(_) => self.rounded(t, ty, FloatMods::EXACT),
            _ => Ok(t),
        }
    }

    pub(super) fn fma(
        &mut self,
        ty: FloatTy,
        rnd: FloatMods,
        a: Val,
        b: Val,
        c: Val,
        line: Line,
    ) -> Result<Val, ExecError> {
        if self.mode == Mode::Concrete {
            let (x, y, z) = (
                Self::int(a, line)?,
                Self::int(b, line)?,
                Self::int(c, line)?,
            );
            let r = match ty {
                FloatTy::F32 => {
                    let f = |v: u64| f32::from_bits(v as u32);
                    let r = ieee::op32(Exact::Fma, rnd.mode, rnd.ftz, f(x), f(y), f(z))
                        .ok_or_else(|| not_interpreted(line))?;
                    u64::from(r.to_bits())
                }
                FloatTy::F64 => {
                    let f = f64::from_bits;
                    ieee::op64(Exact::Fma, rnd.mode, f(x), f(y), f(z))
                        .ok_or_else(|| not_interpreted(line))?
                        .to_bits()
                }
                _ => {
                    let h = |v: u64| flush16_if(rnd.ftz, to_f64(v, ty), ty);
                    half_rounded(h(x).mul_add(h(y), h(z)), ty, rnd)
                }
            };
            return Ok(Val::Bits(r));
        }
        if is_reduction(a) || is_reduction(b) {
            // `fma(2^r, 2^k, acc)`: the compensating product, contracted into a sum.
            let (x, y) = compensated(a, b).ok_or_else(|| outside_reduction(line))?;
            let z = self.term_of(c, ty, line)?;
            let t = self.mk(Node::Fma(x, y, z))?;
            return Ok(Val::Term(self.rounded(t, ty, rnd)?));
        }
        let (x, y) = (self.term_of(a, ty, line)?, self.term_of(b, ty, line)?);
        if is_reduction(c) {
            return self.reduction_fma(x, y, c, line);
        }
        let z = self.term_of(c, ty, line)?;
        if rnd.mode == RoundMode::Rm
            && ty == FloatTy::F32
            && let Some(j) = self.rounded_exponent(x, y, z)?
        {
            return Ok(j);
        }
        let t = if super::fault::active(super::fault::Fault::DropFmaAddend) {
            self.mk(Node::Mul(x, y))?
        } else {
            self.mk(Node::Fma(x, y, z))?
        };
        Ok(Val::Term(self.rounded(t, ty, rnd)?))
    }

    fn float_un(
        &mut self,
        op: FloatUnOp,
        ty: FloatTy,
        rnd: FloatMods,
        a: Val,
        line: Line,
    ) -> Result<Val, ExecError> {
        if self.mode == Mode::Concrete {
            let bits = Self::int(a, line)?;
            if ty == FloatTy::F32 {
                let x = flush_if(rnd.ftz, f32::from_bits(bits as u32));
                let correctly_rounded = !matches!(rnd.mode, RoundMode::Approx | RoundMode::Full);
                let r = match op {
                    FloatUnOp::Rcp if correctly_rounded => {
                        ieee::op32(Exact::Div, rnd.mode, false, 1.0, x, 0.0)
                    }
                    FloatUnOp::Sqrt if correctly_rounded => {
                        ieee::op32(Exact::Sqrt, rnd.mode, false, x, 0.0, 0.0)
                    }
                    _ => {
                        // Approximations (and exact sign operations): the f64 function,
                        // rounded to nearest once.
                        let bits = u64::from(x.to_bits());
                        Some(f32::from_bits(
                            self.float_un_f64(op, to_f64(bits, ty), ty) as u32
                        ))
                    }
                }
                .ok_or_else(|| not_interpreted(line))?;
                return Ok(Val::Bits(u64::from(flush_if(rnd.ftz, r).to_bits())));
            }
            let x = to_f64(bits, ty);
            let x = flush16_if(rnd.ftz, x, ty);
            if ty == FloatTy::F64 && matches!(op, FloatUnOp::Rcp | FloatUnOp::Sqrt) {
                let r = match op {
                    FloatUnOp::Rcp => ieee::op64(Exact::Div, rnd.mode, 1.0, x, 0.0),
                    _ => ieee::op64(Exact::Sqrt, rnd.mode, x, 0.0, 0.0),
                }
                .ok_or_else(|| not_interpreted(line))?;
                return Ok(Val::Bits(r.to_bits()));
            }
            return Ok(Val::Bits(self.float_un_f64(op, x, ty)));
        }
        if is_reduction(a) {
            return self.reduction_un(op, a, line);
        }
        let x = self.term_of(a, ty, line)?;
        let n = match op {
            FloatUnOp::Neg => Node::Neg(x),
            FloatUnOp::Abs => Node::Apply(Func::Abs, x),
            FloatUnOp::Rcp => Node::Apply(Func::Rcp, x),
            FloatUnOp::Sqrt => Node::Apply(Func::Sqrt, x),
            FloatUnOp::Rsqrt => Node::Apply(Func::Rsqrt, x),
            FloatUnOp::Ex2 => Node::Apply(Func::Ex2, x),
            FloatUnOp::Lg2 => Node::Apply(Func::Lg2, x),
            FloatUnOp::Sin => Node::Apply(Func::Sin, x),
            FloatUnOp::Cos => Node::Apply(Func::Cos, x),
            FloatUnOp::Tanh => Node::Apply(Func::Tanh, x),
            FloatUnOp::Sat => {
                let zero = self.term_of(Val::Bits(0), FloatTy::F32, line)?;
                let one = self.term_of(Val::Bits(0x3f80_0000), FloatTy::F32, line)?;
                let low = self.mk(Node::Max(x, zero))?;
                Node::Min(low, one)
            }
        };
        let t = self.mk(n)?;
        Ok(Val::Term(self.rounded(t, ty, rnd)?))
    }

    /// A unary float function in f64, rounded once to `ty` (the interpreter's reading of the
    /// approximate functions and of the exact sign operations).
    fn float_un_f64(&self, op: FloatUnOp, x: f64, ty: FloatTy) -> u64 {
        {
            let r = match op {
                FloatUnOp::Neg => -x,
                FloatUnOp::Abs => x.abs(),
                FloatUnOp::Rcp => 1.0 / x,
                FloatUnOp::Sqrt => x.sqrt(),
                FloatUnOp::Rsqrt => 1.0 / x.sqrt(),
                FloatUnOp::Ex2 => x.exp2(),
                FloatUnOp::Lg2 => x.log2(),
                FloatUnOp::Sin => x.sin(),
                FloatUnOp::Cos => x.cos(),
                FloatUnOp::Tanh => x.tanh(),
                // PTX: NaN saturates to +0.0.
                FloatUnOp::Sat if x.is_nan() => 0.0,
                FloatUnOp::Sat => x.clamp(0.0, 1.0),
            };
            from_f64(r, ty)
        }
    }

    fn setp(
        &mut self,
        cmp: Cmp,
        unordered: bool,
        ty: Ty,
        a: Val,
        b: Val,
        line: Line,
    ) -> Result<Val, ExecError> {
        match ty {
            // Two addresses into one region compare as their offsets do (the same start):
            // equality always; order only while both lie in the region (its end included), since
            // an address outside may wrap around 2^64 in our layout and not on the hardware, or
            // the other way round (Lean: `Provenance.cmp_branch_differs`, `lt_indep`).
            Ty::Int(it) => {
                let op = match cmp {
                    Cmp::Eq => CmpOp::Eq,
                    Cmp::Ne => CmpOp::Ne,
                    Cmp::Lt => CmpOp::Lt,
                    Cmp::Le => CmpOp::Le,
                    Cmp::Gt => CmpOp::Gt,
                    Cmp::Ge => CmpOp::Ge,
                    // Lowering admits num/nan on floats only.
                    Cmp::Num | Cmp::Nan => {
                        return Err(ExecError::Invalid {
                            line,
                            msg: "setp.num/setp.nan on an integer type".into(),
                        });
                    }
                };
                if let Some(c) = self.int_sym_cmp(op, it, a, b, line)? {
                    return Ok(c);
                }
                let (a, b) = match (a, b) {
                    // In fewer bits than the address has (ptxas refuses such operands; this
                    // keeps the lowering's leniency from deciding a layout-dependent order).
                    (Val::Addr { base, bits: x }, Val::Addr { base: b2, bits: y })
                        if base == b2
                            && same_view(base, x, y)
                            && addr_fits(base, x, it.bits)
                            && addr_fits(base, y, it.bits) =>
                    {
                        let ordered = !matches!(cmp, Cmp::Eq | Cmp::Ne);
                        if ordered && !(self.in_region(base, x) && self.in_region(base, y)) {
                            return Err(ExecError::Unsupported {
                                line,
                                what: "an ordered comparison of an address outside its region: \
                                       the result depends on where memory is placed"
                                    .into(),
                            });
                        }
                        (Val::Bits(x), Val::Bits(y))
                    }
                    _ => (a, b),
                };
                let (x, y) = (wide(Self::int(a, line)?, it), wide(Self::int(b, line)?, it));
                Ok(Val::Bits(u64::from(cmp_holds(cmp, x.cmp(&y)))))
            }
            Ty::Float(f) => match (a, b) {
                (Val::Bits(x), Val::Bits(y)) => {
                    let holds = if self.mode == Mode::Concrete {
                        let (x, y) = (to_f64(x, f), to_f64(y, f));
                        // On NaN the ordered comparisons (`ne` and `num` included) are false,
                        // the unordered ones (`equ`, ..., `nan`) true (PTX ISA, setp).
                        x.partial_cmp(&y).map_or(unordered, |o| cmp_holds(cmp, o))
                    } else {
                        let (ex, ey) = (ext(x, f), ext(y, f));
                        let (Some(ex), Some(ey)) = (ex, ey) else {
                            return Err(ExecError::Unsupported {
                                line,
                                what: "comparison with NaN".into(),
                            });
                        };
                        cmp_holds(cmp, ex.0.cmp(&ey.0).then(ex.1.cmp(&ey.1)))
                    };
                    Ok(Val::Bits(u64::from(holds)))
                }
                _ => {
                    let (x, y) = (self.term_of(a, f, line)?, self.term_of(b, f, line)?);
                    let op = match cmp {
                        // A real is never NaN: `num` holds and `nan` fails on terms, as the
                        // unordered comparisons equal the ordered ones. A run where a value
                        // is NaN is one the real model does not describe, which the
                        // self-check's concrete runs report (DESIGN.md).
                        Cmp::Num => return Ok(Val::Bits(1)),
                        Cmp::Nan => return Ok(Val::Bits(0)),
                        Cmp::Eq => CmpOp::Eq,
                        Cmp::Ne => CmpOp::Ne,
                        Cmp::Lt => CmpOp::Lt,
                        Cmp::Le => CmpOp::Le,
                        Cmp::Gt => CmpOp::Gt,
                        Cmp::Ge => CmpOp::Ge,
                    };
                    Ok(Val::Cond(self.mk(Node::Cmp(op, x, y))?))
                }
            },
        }
    }

    /// Boolean connectives; a concrete operand decides or drops out, which is exact logic.
    pub(super) fn bool_op(
        &mut self,
        op: BoolOp,
        a: Val,
        b: Val,
        line: Line,
    ) -> Result<Val, ExecError> {
        let undef = || err_undef(line, "a predicate operation");
        Ok(match (op, a, b) {
            (_, Val::Undef, _) | (_, _, Val::Undef) => return Err(undef()),
            (_, Val::Addr { .. }, _) | (_, _, Val::Addr { .. }) => return Err(addr_op(line)),
            (BoolOp::And, Val::Bits(x), Val::Bits(y)) => Val::Bits(x & y & 1),
            (BoolOp::Or, Val::Bits(x), Val::Bits(y)) => Val::Bits((x | y) & 1),
            (BoolOp::Xor, Val::Bits(x), Val::Bits(y)) => Val::Bits((x ^ y) & 1),
            (BoolOp::And, Val::Bits(x), c) | (BoolOp::And, c, Val::Bits(x)) => {
                if x & 1 == 1 {
                    c
                } else {
                    Val::Bits(0)
                }
            }
            (BoolOp::Or, Val::Bits(x), c) | (BoolOp::Or, c, Val::Bits(x)) => {
                if x & 1 == 1 {
                    Val::Bits(1)
                } else {
                    c
                }
            }
            (BoolOp::Xor, Val::Bits(x), Val::Cond(c))
            | (BoolOp::Xor, Val::Cond(c), Val::Bits(x)) => {
                if x & 1 == 1 {
                    Val::Cond(self.mk(Node::Not(c))?)
                } else {
                    Val::Cond(c)
                }
            }
            (BoolOp::And, Val::Cond(x), Val::Cond(y)) => Val::Cond(self.mk(Node::And(x, y))?),
            (BoolOp::Or, Val::Cond(x), Val::Cond(y)) => Val::Cond(self.mk(Node::Or(x, y))?),
            _ => {
                return Err(ExecError::Unsupported {
                    line,
                    what: "this combination of data-dependent predicates".into(),
                });
            }
        })
    }

    #[inline]
    fn read(&mut self, th: &Thread, ids: &Ids, s: Src, line: Line) -> Result<Val, ExecError> {
        Ok(match s {
            Src::Reg(r) => match th.regs[r as usize] {
                Val::Unordered => return Err(unordered(line)),
                Val::Frag(_) => return Err(fragment(line)),
                v => v,
            },
            Src::Imm(v) => Val::Bits(v),
            Src::Special(sp) => Val::Bits(u64::from(ids.special(sp))),
            Src::Var(i) => self.var_addr(i, line)?,
            Src::NotReg(r) => match th.regs[r as usize] {
                Val::Bits(b) => Val::Bits(!b & 1),
                Val::Cond(c) => Val::Cond(self.mk(Node::Not(c))?),
                Val::Undef => return Err(err_undef(line, "a negated predicate")),
                Val::Unordered => return Err(unordered(line)),
                Val::Term(_) | Val::Pair(..) | Val::Word { .. } | Val::Int { .. } => {
                    return Err(data_int(line));
                }
                Val::Pending => return Err(pending(line)),
                Val::Frag(_) => return Err(fragment(line)),
                Val::Addr { .. } => return Err(addr_op(line)),
                Val::Rounded { .. } | Val::Pow2 { .. } => return Err(outside_reduction(line)),
            },
        })
    }

    /// The address of variable `i`: the start of its own region.
    fn var_addr(&self, i: u32, line: Line) -> Result<Val, ExecError> {
        let v = self.prog.vars.get(i as usize).ok_or(ExecError::Invalid {
            line,
            msg: format!("variable {i} is not declared"),
        })?;
        // A module variable is a region of the global address space, like a tensor.
        if let Some(&k) = self.module_tensor.get(&i) {
            return Ok(Val::Addr {
                base: k as u32,
                bits: (k as u64 + 1) * super::TENSOR_STRIDE,
            });
        }
        Ok(Val::Addr {
            base: Base::VAR | i,
            bits: v.offset,
        })
    }

    /// Runs thread `t` until it blocks or exits.
    pub(super) fn run_thread(&mut self, cta: &mut Cta, t: usize) -> Result<(), ExecError> {
        let prog = self.prog;
        let ids = Ids {
            tid: cta.threads[t].tid,
            ntid: self.spec.block,
            ctaid: cta.id,
            nctaid: self.spec.grid,
            lane: cta.threads[t].linear % 32,
        };
        let limit = self.config.max_steps_per_thread;
        loop {
            let th = &mut cta.threads[t];
            let pc = th.pc;
            let inst = &prog.insts[pc as usize];
            let line = inst.line;
            th.pc += 1;
            th.steps += 1;
            if self.lane_instructions + self.compared >= self.config.max_work {
                return Err(ExecError::Work {
                    limit: self.config.max_work,
                    line,
                });
            }
            if self.lane_instructions & PROGRESS_MASK == 0
                && let Some(p) = &self.config.progress
            {
                p.store(
                    self.lane_instructions + self.compared,
                    std::sync::atomic::Ordering::Relaxed,
                );
            }
            if th.steps > limit {
                return Err(ExecError::Limit(format!(
                    "thread {:?} executed more than {limit} instructions (line {line}); raise the limit with --max-work, which bounds each thread too",
                    th.tid
                )));
            }
            self.lane_instructions += 1;
            let data_guard = match inst.guard {
                None => None,
                Some((r, neg)) => match th.regs[r as usize] {
                    Val::Bits(b) => {
                        let taken = (b & 1 == 1) != neg;
                        if matches!(inst.op, Op::Bra { .. } | Op::Exit) {
                            th.path = mix_path(th.path, pc, taken);
                        }
                        if !taken {
                            continue;
                        }
                        None
                    }
                    Val::Cond(c) => Some(if neg { self.mk(Node::Not(c))? } else { c }),
                    Val::Undef => {
                        let from = th.undef_from.get(&r).copied();
                        return Err(err_undef_from(line, "a guard", from));
                    }
                    Val::Unordered => return Err(unordered(line)),
                    Val::Term(_) | Val::Pair(..) | Val::Word { .. } | Val::Int { .. } => {
                        return Err(data_int(line));
                    }
                    Val::Pending => return Err(pending(line)),
                    Val::Frag(_) => return Err(fragment(line)),
                    Val::Addr { .. } => return Err(addr_op(line)),
                    Val::Rounded { .. } | Val::Pow2 { .. } => {
                        return Err(outside_reduction(line));
                    }
                },
            };
            if let Some(cond) = data_guard {
                self.guarded_by_data(cta, t, &ids, inst, cond)?;
                continue;
            }
            match &inst.op {
                Op::Bra { target } => cta.threads[t].pc = *target,
                Op::Exit => {
                    // Copies never waited for still land, at some moment after the issue: the
                    // executor completes them here, so that the destination checks run (a
                    // store over the destination in flight; unordered accesses of other
                    // threads) instead of the copies vanishing (Lean:
                    // `CpCheck.Finding.noWait_accepted`).
                    let th = &cta.threads[t];
                    if !th.async_open.is_empty() || !th.async_groups.is_empty() {
                        self.cp_async_wait(cta, t, None, pc, "exit, never waited for")?;
                    }
                    let th = &mut cta.threads[t];
                    th.status = Status::Exited;
                    th.exit_pc = pc;
                    return Ok(());
                }
                Op::Trap { assertion } => {
                    // The launch aborts: a finding, and this thread goes no further (it counts
                    // as exited, so that the others still run and report what they do).
                    let (kind, what) = if *assertion {
                        (FindingKind::Assertion, "fails an assertion (__assertfail)")
                    } else {
                        (FindingKind::Trap, "executes trap")
                    };
                    let th = &cta.threads[t];
                    self.report_at(
                        kind,
                        (cta.id, th.tid, pc),
                        what.into(),
                        "a reachable trap or failed assertion aborts the launch".into(),
                    );
                    let th = &mut cta.threads[t];
                    th.status = Status::Exited;
                    th.exit_pc = pc;
                    return Ok(());
                }
                Op::Bar {
                    id,
                    count,
                    wait,
                    aligned,
                } => {
                    let th = &cta.threads[t];
                    let id = Self::int(self.read(th, &ids, *id, line)?, line)? as u32;
                    let count = match count {
                        Some(c) => Some(Self::int(self.read(th, &ids, *c, line)?, line)? as u32),
                        None => None,
                    };
                    // PTX counts whole warps: a count that is not a multiple of 32 is
                    // undefined even where it equals the CTA's size (ptxas rejects literal ones).
                    let n = cta.threads.len() as u32;
                    if id > 15
                        || count.is_some_and(|c| {
                            !c.is_multiple_of(32) || c == 0 || c > n.next_multiple_of(32)
                        })
                    {
                        return Err(ExecError::Invalid {
                            line,
                            msg: format!(
                                "barrier id {id} / thread count {count:?}: ids are 0-15, counts \
                                 non-zero multiples of the warp size (32) up to the CTA's warps"
                            ),
                        });
                    }
                    // The thread's previous arrival here must be spent in every schedule, not
                    // only in this one: its instance's completion happens before this arrival
                    // (a waiter's epoch after it is ordered before us). Otherwise another
                    // schedule can count both arrivals in one instance (the Lean model
                    // `Kcert.Members.twice_needed`).
                    if let Some(prev) = cta.completed.get(&(id, t as u32)).copied() {
                        let spent = prev.is_some_and(|e| cta.clocks.ordered(&e, t as u32));
                        if !spent {
                            self.report_at(
                                crate::exec::FindingKind::BarrierDivergence,
                                (cta.id, cta.threads[t].tid, pc),
                                format!("arrives at barrier {id} again"),
                                format!(
                                    "a thread arrives at barrier {id} again without its previous instance being known to have completed: another schedule can count both arrivals in one instance"
                                ),
                            );
                        }
                    }
                    let row = if *wait {
                        cta.clocks.row(t as u32)
                    } else {
                        cta.clocks.arrive(t as u32)
                    };
                    cta.bars.entry(id).or_default().push(Arrival {
                        tid: t as u32,
                        pc,
                        count,
                        wait: *wait,
                        aligned: *aligned,
                        row,
                    });
                    if *wait {
                        cta.threads[t].status = Status::Bar;
                        return Ok(());
                    }
                }
                Op::WarpSync { mask } => {
                    let th = &mut cta.threads[t];
                    let mask = Self::int(self.read(th, &ids, *mask, line)?, line)? as u32;
                    th.wait_collective(pc, mask, Collective::WarpSync);
                    return Ok(());
                }
                Op::Shfl {
                    mode,
                    dst,
                    dst_pred,
                    a,
                    b,
                    c,
                    mask,
                } => {
                    let th = &cta.threads[t];
                    let av = self.read(th, &ids, *a, line)?;
                    match av {
                        Val::Undef => return Err(err_undef(line, "shfl")),
                        Val::Addr { .. } => return Err(addr_op(line)),
                        Val::Int { width, .. } if width > 32 => {
                            return Err(ExecError::Unsupported {
                                line,
                                what: "shfl of 32 bits of a wider integer of tensor data".into(),
                            });
                        }
                        _ => {}
                    }
                    let bv = Self::int(self.read(th, &ids, *b, line)?, line)? as u32;
                    let cv = Self::int(self.read(th, &ids, *c, line)?, line)? as u32;
                    let mv = Self::int(self.read(th, &ids, *mask, line)?, line)? as u32;
                    let th = &mut cta.threads[t];
                    th.wait_collective(
                        pc,
                        mv,
                        Collective::Shfl {
                            mode: *mode,
                            a: av,
                            b: bv,
                            c: cv,
                            dst: *dst,
                            dst_pred: *dst_pred,
                        },
                    );
                    return Ok(());
                }
                Op::ActiveMask { dst } => {
                    let n = cta.threads.len();
                    let w0 = t - t % 32;
                    let lanes = (n - w0).min(32) as u32;
                    let mask = if lanes == 32 {
                        u32::MAX
                    } else {
                        (1u32 << lanes) - 1
                    };
                    let th = &mut cta.threads[t];
                    let path = th.path;
                    th.wait_collective(pc, mask, Collective::ActiveMask { dst: *dst, path });
                    return Ok(());
                }
                Op::Vote { mode, dst, p, mask } => {
                    let th = &cta.threads[t];
                    let pv = match self.read(th, &ids, *p, line)? {
                        Val::Bits(b) => b & 1 == 1,
                        Val::Cond(_) => {
                            return Err(ExecError::Unsupported {
                                line,
                                what: "vote.sync on a predicate that depends on tensor data".into(),
                            });
                        }
                        Val::Undef => return Err(err_undef(line, "vote")),
                        Val::Addr { .. } => return Err(addr_op(line)),
                        _ => return Err(data_int(line)),
                    };
                    let mv = Self::int(self.read(th, &ids, *mask, line)?, line)? as u32;
                    let th = &mut cta.threads[t];
                    th.wait_collective(
                        pc,
                        mv,
                        Collective::Vote {
                            mode: *mode,
                            p: pv,
                            dst: *dst,
                        },
                    );
                    return Ok(());
                }
                Op::Mma { a, b, c, .. } => {
                    let th = &cta.threads[t];
                    let (mut fa, mut fb, mut fc) =
                        ([Val::Undef; 4], [Val::Undef; 2], [Val::Undef; 4]);
                    for (slot, s) in fa.iter_mut().zip(a) {
                        *slot = self.read(th, &ids, *s, line)?;
                    }
                    for (slot, s) in fb.iter_mut().zip(b) {
                        *slot = self.read(th, &ids, *s, line)?;
                    }
                    for (slot, s) in fc.iter_mut().zip(c) {
                        *slot = match self.read(th, &ids, *s, line)? {
                            Val::Undef => return Err(err_undef(line, "mma (accumulator)")),
                            v => v,
                        };
                    }
                    let th = &mut cta.threads[t];
                    th.wait_collective(
                        pc,
                        u32::MAX,
                        Collective::Mma {
                            a: fa,
                            b: fb,
                            c: fc,
                        },
                    );
                    return Ok(());
                }
                Op::Ldmatrix { addr, .. } => {
                    let a = self.address(&cta.threads[t], &ids, addr, line)?;
                    let th = &mut cta.threads[t];
                    th.wait_collective(pc, u32::MAX, Collective::Ldmatrix { addr: a });
                    return Ok(());
                }
                Op::WmmaLoad { addr, stride, .. } | Op::WmmaStore { addr, stride, .. } => {
                    let th = &cta.threads[t];
                    let a = self.address(th, &ids, addr, line)?;
                    let s = Self::int(self.read(th, &ids, *stride, line)?, line)?;
                    let th = &mut cta.threads[t];
                    th.wait_collective(pc, u32::MAX, Collective::Wmma { addr: a, stride: s });
                    return Ok(());
                }
                Op::WmmaMma { .. } => {
                    // The fragments are read from the registers at completion (the lanes wait).
                    let th = &mut cta.threads[t];
                    th.wait_collective(
                        pc,
                        u32::MAX,
                        Collective::Wmma {
                            addr: Ptr::plain(0),
                            stride: 0,
                        },
                    );
                    return Ok(());
                }
                Op::CpAsync {
                    dst,
                    src,
                    bytes,
                    src_bytes,
                    ignore_src,
                } => {
                    let th = &cta.threads[t];
                    let d = self.address(th, &ids, dst, line)?;
                    let s = self.address(th, &ids, src, line)?;
                    let mut n = match src_bytes {
                        Some(x) => Self::int(self.read(th, &ids, *x, line)?, line)?,
                        None => u64::from(*bytes),
                    };
                    if let Some(p) = ignore_src {
                        match self.read(th, &ids, *p, line)? {
                            Val::Bits(b) if b & 1 == 1 => n = 0,
                            Val::Bits(_) => {}
                            Val::Undef => return Err(err_undef(line, "cp.async (ignore-src)")),
                            _ => {
                                return Err(ExecError::Unsupported {
                                    line,
                                    what: "a cp.async ignore-src predicate that depends on \
                                           tensor data"
                                        .into(),
                                });
                            }
                        }
                    }
                    self.cp_async_issue(cta, t, d, s, u64::from(*bytes), n, pc)?;
                }
                Op::CpAsyncCommit => self.cp_async_commit(cta, t),
                Op::CpAsyncWait { pending } => {
                    self.cp_async_wait(cta, t, *pending, pc, "cp.async.wait")?
                }
                Op::AtomAdd {
                    space,
                    cta_scope,
                    ty,
                    dst,
                    addr,
                    src,
                } => {
                    let base = self.address(&cta.threads[t], &ids, addr, line)?;
                    let width = u64::from(match ty {
                        Ty::Int(i) => i.bits,
                        Ty::Float(f) => f.bits(),
                    }) / 8;
                    if !self.aligned(cta, t, base.bits, width, pc, *space) {
                        continue;
                    }
                    let val = match self.read(&cta.threads[t], &ids, *src, line)? {
                        Val::Undef => return Err(err_undef(line, "an atomic")),
                        Val::Rounded { .. } | Val::Pow2 { .. } => {
                            return Err(outside_reduction(line));
                        }
                        v => v,
                    };
                    let kind = super::access::Access::AtomicAdd {
                        val,
                        ty: *ty,
                        cta_scope: *cta_scope,
                    };
                    self.access(cta, t, *space, base, width, kind, pc)?;
                    if let Some(d) = dst {
                        cta.threads[t].regs[*d as usize] = Val::Unordered;
                    }
                }
                Op::Ld {
                    space,
                    elem_bytes,
                    dsts,
                    addr,
                    nc,
                    signed,
                    ..
                } => {
                    let base = self.address(&cta.threads[t], &ids, addr, line)?;
                    let eb = u64::from(*elem_bytes);
                    if !self.aligned(cta, t, base.bits, eb * dsts.len() as u64, pc, *space) {
                        // Undefined, and already the finding: the destinations read as 0 so
                        // that their uses do not turn the finding into an error.
                        for d in dsts.iter().flatten() {
                            cta.threads[t].regs[*d as usize] = Val::Bits(0);
                        }
                        continue;
                    }
                    for (i, d) in dsts.iter().enumerate() {
                        let v = self.access(
                            cta,
                            t,
                            *space,
                            base.plus(i as u64 * eb),
                            eb,
                            super::access::Access::Load,
                            pc,
                        )?;
                        // 8- and 16-bit elements here; a 32-bit one (concrete or a symbolic
                        // integer) into a 64-bit register below.
                        let narrow = *signed && eb < 4;
                        let v = match v {
                            Val::Bits(b) if narrow => {
                                let width = d
                                    .and_then(|r| prog.regs.get(r as usize))
                                    .map_or(64, |r| r.bits);
                                let e = (eb * 8) as u8;
                                Val::Bits(m(sext(m(b, e), e) as u64, width))
                            }
                            Val::Bits(_) | Val::Undef => v,
                            _ if narrow => {
                                return Err(ExecError::Unsupported {
                                    line,
                                    what: "a sign-extending load of a value that depends on \
                                           tensor data"
                                        .into(),
                                });
                            }
                            _ => v,
                        };
                        if let Some(d) = d {
                            let wide_dst = self.prog.regs[*d as usize].bits == 64;
                            let v = if *signed && eb == 4 && wide_dst {
                                self.sign_extend_32(v, line)?
                            } else {
                                v
                            };
                            cta.threads[t].regs[*d as usize] = v;
                        }
                        if *nc {
                            self.nc_read(cta, t, base.plus(i as u64 * eb), eb, pc);
                        }
                    }
                }
                Op::St {
                    space,
                    elem_bytes,
                    srcs,
                    addr,
                    ..
                } => {
                    let base = self.address(&cta.threads[t], &ids, addr, line)?;
                    let eb = u64::from(*elem_bytes);
                    if !self.aligned(cta, t, base.bits, eb * srcs.len() as u64, pc, *space) {
                        continue;
                    }
                    for (i, s) in srcs.iter().enumerate() {
                        let v = match self.read(&cta.threads[t], &ids, *s, line)? {
                            Val::Bits(b) => Val::Bits(m(b, (eb * 8) as u8)),
                            Val::Addr { base, bits } => {
                                addr_in(base, bits, bits, (eb * 8) as u8, line)?
                            }
                            Val::Undef => {
                                let from = match s {
                                    Src::Reg(r) => cta.threads[t].undef_from.get(r).copied(),
                                    _ => None,
                                };
                                return Err(err_undef_from(line, "a store", from));
                            }
                            Val::Cond(_) => {
                                return Err(ExecError::Unsupported {
                                    line,
                                    what: "storing a data-dependent predicate".into(),
                                });
                            }
                            Val::Rounded { .. } | Val::Pow2 { .. } => {
                                return Err(outside_reduction(line));
                            }
                            Val::Int { width, .. } if u64::from(width) != eb * 8 => {
                                return Err(ExecError::Unsupported {
                                    line,
                                    what: format!(
                                        "a {}-byte store of a {width}-bit integer of tensor data",
                                        eb
                                    ),
                                });
                            }
                            v => v,
                        };
                        self.access(
                            cta,
                            t,
                            *space,
                            base.plus(i as u64 * eb),
                            eb,
                            super::access::Access::Store(v),
                            pc,
                        )?;
                    }
                }
                op => {
                    let th = &mut cta.threads[t];
                    if !fast_int(th, &ids, op) && !self.fast_fma(th, op, line)? {
                        self.pure(th, &ids, op, line)?;
                    }
                }
            }
        }
    }

    /// A signed 32-bit element loaded into a 64-bit register: its value, sign-extended.
    fn sign_extend_32(&mut self, v: Val, line: Line) -> Result<Val, ExecError> {
        let s32 = IntTy {
            bits: 32,
            signed: true,
        };
        match v {
            Val::Bits(b) => Ok(Val::Bits(sext(b, 32) as u64)),
            Val::Int { width: 32, .. } => match self.int_operand(v, s32, line)? {
                Some((t, r)) => Ok(self.int_val(t, r, 64)),
                None => Err(data_int(line)),
            },
            Val::Undef => Ok(v),
            _ => Err(ExecError::Unsupported {
                line,
                what: "a sign-extending load of a value that is not a 32-bit integer".into(),
            }),
        }
    }

    /// The accumulation step of every matmul and reduction, on register operands that are
    /// all terms: exactly what [`Machine::pure`] builds for it (via [`Machine::fma`]), without
    /// its general operand plumbing. `false` when the case does not apply.
    #[inline(always)]
    fn fast_fma(&mut self, th: &mut Thread, op: &Op, _line: Line) -> Result<bool, ExecError> {
        let Op::Fma {
            ty: FloatTy::F32,
            rnd: FloatMods::RN,
            dst,
            a: Src::Reg(a),
            b: Src::Reg(b),
            c: Src::Reg(c),
        } = *op
        else {
            return Ok(false);
        };
        if self.mode == Mode::Concrete || super::fault::active(super::fault::Fault::DropFmaAddend) {
            return Ok(false);
        }
        let r = &th.regs;
        let (Val::Term(x), Val::Term(y), Val::Term(z)) =
            (r[a as usize], r[b as usize], r[c as usize])
        else {
            return Ok(false);
        };
        th.regs[dst as usize] = Val::Term(self.mk(Node::Fma(x, y, z))?);
        Ok(true)
    }

    /// The address operand `[base + offset]` with the region it was derived from, if any.
    #[inline(always)]
    fn address(&mut self, th: &Thread, ids: &Ids, a: &Addr, line: Line) -> Result<Ptr, ExecError> {
        let off = a.offset as u64;
        if let Src::Reg(r) = a.base {
            match th.regs[r as usize] {
                Val::Addr { base, bits } => {
                    return Ok(Ptr::new(bits.wrapping_add(off), base).in_width(a.wrap32));
                }
                Val::Bits(b) => return Ok(Ptr::plain(b.wrapping_add(off)).in_width(a.wrap32)),
                _ => {}
            }
        }
        self.address_general(th, ids, a, line)
    }

    #[inline(never)]
    fn address_general(
        &mut self,
        th: &Thread,
        ids: &Ids,
        a: &Addr,
        line: Line,
    ) -> Result<Ptr, ExecError> {
        let off = a.offset as u64;
        let p = match self.read(th, ids, a.base, line)? {
            Val::Addr { base, bits } => Ptr::new(bits.wrapping_add(off), base),
            v => Ptr::plain(Self::int(v, line)?.wrapping_add(off)),
        };
        Ok(p.in_width(a.wrap32))
    }

    /// Checks natural alignment of a whole (vector) access; reports it if misaligned, and the
    /// caller skips it (a skipped load's destinations read as 0: the finding is the verdict).
    #[inline]
    pub(super) fn aligned(
        &mut self,
        cta: &Cta,
        t: usize,
        addr: u64,
        width: u64,
        pc: u32,
        space: Space,
    ) -> bool {
        if width.is_power_of_two() && addr.is_multiple_of(width) {
            return true;
        }
        self.misaligned(cta, t, addr, width, pc, space);
        false
    }

    /// Reports the misaligned access that [`Machine::aligned`] found.
    #[cold]
    #[inline(never)]
    fn misaligned(&mut self, cta: &Cta, t: usize, addr: u64, width: u64, pc: u32, space: Space) {
        let site = self.site(
            cta.id,
            cta.threads[t].tid,
            pc,
            format!("accesses {width} bytes"),
        );
        self.report(super::Finding {
            kind: super::FindingKind::Misaligned,
            location: Some(format!("{} address {addr:#x}", space.name())),
            space: Some(space),
            sites: vec![site],
            detail: format!("a {width}-byte access must be {width}-byte aligned (PTX ISA 6.4.4)"),
        });
    }

    /// An instruction under a guard that depends on tensor data: only register-to-register
    /// float results can be modeled, as `select(guard, new, old)`.
    pub(super) fn guarded_by_data(
        &mut self,
        cta: &mut Cta,
        t: usize,
        ids: &Ids,
        inst: &Inst,
        cond: TermId,
    ) -> Result<(), ExecError> {
        let line = inst.line;
        let (dst, ty) = match &inst.op {
            Op::Float { dst, ty, .. } | Op::Fma { dst, ty, .. } | Op::FloatUn { dst, ty, .. } => {
                (*dst, *ty)
            }
            Op::Mov { dst, src, bits } => {
                let th = &cta.threads[t];
                let (new, old) = (self.read(th, ids, *src, line)?, th.regs[*dst as usize]);
                match float_view(new, old, None, *bits) {
                    Some(ty) => (*dst, ty),
                    None => {
                        return Err(ExecError::Unsupported {
                            line,
                            what:
                                "an integer move guarded by a predicate that depends on tensor data"
                                    .into(),
                        });
                    }
                }
            }
            // A forward branch over register computations becomes selects (exec/ifconv.rs).
            // On the hardware the lanes may split there (the condition is data): this lane's
            // path becomes its own, so no later `activemask` assumes the warp converged.
            Op::Bra { target } => {
                let th = &mut cta.threads[t];
                th.path = mix_path(th.path ^ ((u64::from(th.linear) + 1) << 32), th.pc, true);
                return self.if_convert(cta, t, ids, *target, cond);
            }
            _ => {
                return Err(ExecError::Unsupported {
                    line,
                    what: "an instruction guarded by a predicate that depends on tensor data (only float register moves and arithmetic can be)".into(),
                });
            }
        };
        let th = &mut cta.threads[t];
        let old = th.regs[dst as usize];
        self.pure(th, ids, &inst.op, line)?;
        let new = th.regs[dst as usize];
        let (a, b) = (self.term_of(new, ty, line)?, self.term_of(old, ty, line)?);
        let sel = self.mk(Node::Select {
            cond,
            then: a,
            else_: b,
        })?;
        cta.threads[t].regs[dst as usize] = Val::Term(sel);
        Ok(())
    }

    /// Operations that only read and write registers.
    pub(super) fn pure(
        &mut self,
        th: &mut Thread,
        ids: &Ids,
        op: &Op,
        line: Line,
    ) -> Result<(), ExecError> {
        macro_rules! rd {
            ($s:expr) => {
                self.read(th, ids, $s, line)?
            };
        }
        macro_rules! int {
            ($s:expr) => {
                Self::int(rd!($s), line)?
            };
        }
        // An undefined value is harmless until something observable depends on it (a store,
        // an address, a guard, a collective: each refuses it): a pure operation with an
        // undefined source gives undefined results (nvcc's `selp` accumulator idiom reads a
        // register before its first write and drops the result). `selp` on a concrete
        // predicate takes the side it picks (below), defined or not.
        if !matches!(op, Op::Selp { .. } | Op::Mov { .. })
            && super::ifconv::register_only(op)
            && let Some((srcs, dsts)) = super::ifconv::uses(op)
            && srcs.iter().any(|s| {
                matches!(s, Src::Reg(r) | Src::NotReg(r)
                if th.regs[*r as usize] == Val::Undef)
            })
        {
            let from = srcs
                .iter()
                .filter_map(|s| match s {
                    Src::Reg(r) | Src::NotReg(r) if th.regs[*r as usize] == Val::Undef => {
                        Some(th.undef_from.get(r).copied().unwrap_or(line))
                    }
                    _ => None,
                })
                .min()
                .unwrap_or(line);
            for d in dsts {
                th.regs[d as usize] = Val::Undef;
                th.undef_from.insert(d, from);
            }
            return Ok(());
        }
        let (dst, v) = match *op {
            // A move is the one instruction besides wmma's that may carry a fragment register:
            // it copies the handle (nvcc moves accumulators between loop iterations).
            Op::Mov {
                dst,
                src: Src::Reg(r),
                ..
            } if matches!(th.regs[r as usize], Val::Frag(_)) => (dst, th.regs[r as usize]),
            Op::Mov { dst, src, bits } => {
                let v = match rd!(src) {
                    Val::Bits(b) => Val::Bits(m(b, bits)),
                    v => v,
                };
                (dst, v)
            }
            Op::Pack {
                dst,
                ref srcs,
                piece_bits,
            } => {
                let vals = srcs
                    .iter()
                    .map(|s| self.read(th, ids, *s, line))
                    .collect::<Result<Vec<_>, _>>()?;
                // `mov.b32 %f, {0, %h}` is how cuda_bf16.h widens a bfloat16: an f32 whose upper
                // half is a bf16 pattern and whose lower half is zero has the bf16's value. Only
                // halves known to be bf16 (their format, `Machine::format_of`) are taken that
                // way; an f16 value there would be a reinterpretation.
                if let [Val::Bits(0), Val::Term(t)] = vals[..]
                    && piece_bits == 16
                    && self.format_of(t) == Some(Fmt::Bf16)
                {
                    th.regs[dst as usize] = Val::Term(t);
                    return Ok(());
                }
                // `mov.b64 %rd, {%lo, %hi}` joining the two words of one double.
                if let [
                    Val::Word { term, hi: false },
                    Val::Word { term: t2, hi: true },
                ] = vals[..]
                    && piece_bits == 32
                    && term == t2
                {
                    th.regs[dst as usize] = Val::Term(term);
                    return Ok(());
                }
                if let [lo, hi] = vals[..]
                    && piece_bits == 16
                    && (matches!(lo, Val::Term(_)) || matches!(hi, Val::Term(_)))
                {
                    let pair = Val::Pair(self.half_term(lo, line)?, self.half_term(hi, line)?);
                    th.regs[dst as usize] = pair;
                    return Ok(());
                }
                let mut acc = 0u64;
                for (i, v) in vals.into_iter().enumerate() {
                    match v {
                        Val::Bits(b) => {
                            acc |= m(b, piece_bits) << (i as u32 * u32::from(piece_bits))
                        }
                        Val::Undef => return Err(err_undef(line, "mov (pack)")),
                        Val::Addr { .. } => return Err(addr_op(line)),
                        _ => {
                            return Err(ExecError::Unsupported {
                                line,
                                what: "packing values that depend on tensor data".into(),
                            });
                        }
                    }
                }
                (dst, Val::Bits(acc))
            }
            Op::Unpack {
                ref dsts,
                src,
                piece_bits,
            } => {
                let b = match rd!(src) {
                    Val::Bits(b) => b,
                    Val::Pair(lo, hi) if piece_bits == 16 && dsts.len() == 2 => {
                        for (d, t) in dsts.iter().zip([lo, hi]) {
                            if let Some(d) = d {
                                th.regs[*d as usize] = Val::Term(t);
                            }
                        }
                        return Ok(());
                    }
                    // `mov.b64 {%lo, %hi}, %fd`: the two words of a double.
                    Val::Term(term) if piece_bits == 32 && dsts.len() == 2 => {
                        for (d, hi) in dsts.iter().zip([false, true]) {
                            if let Some(d) = d {
                                th.regs[*d as usize] = Val::Word { term, hi };
                            }
                        }
                        return Ok(());
                    }
                    Val::Undef => return Err(err_undef(line, "mov (unpack)")),
                    Val::Addr { .. } => return Err(addr_op(line)),
                    _ => {
                        return Err(ExecError::Unsupported {
                            line,
                            what: "unpacking values that depend on tensor data".into(),
                        });
                    }
                };
                for (i, d) in dsts.iter().enumerate() {
                    if let Some(d) = d {
                        th.regs[*d as usize] =
                            Val::Bits(m(b >> (i as u32 * u32::from(piece_bits)), piece_bits));
                    }
                }
                return Ok(());
            }
            Op::CvtPack { to, rnd, dst, a, b } => {
                let (x, y) = (rd!(a), rd!(b));
                let v = match (x, y) {
                    // Concrete floats give concrete halves, in either mode.
                    (Val::Bits(x), Val::Bits(y)) => {
                        let h = |v: u64| half_rounded(to_f64(v, FloatTy::F32), to, rnd);
                        Val::Bits(h(y) | h(x) << 16)
                    }
                    // Conversions are the identity on reals; the rounding into `to` is recorded.
                    _ => {
                        let (ty, tx) = (
                            self.term_of(y, FloatTy::F32, line)?,
                            self.term_of(x, FloatTy::F32, line)?,
                        );
                        Val::Pair(self.rounded(ty, to, rnd)?, self.rounded(tx, to, rnd)?)
                    }
                };
                (dst, v)
            }
            // `shr.u64 %rd, %rd, 32` of a double's pattern: its high word, zero-extended.
            Op::Int {
                op: IntOp::Shr,
                ty,
                dst,
                a,
                b,
            } if ty.bits == 64
                && !ty.signed
                && matches!(rd!(a), Val::Term(_))
                && rd!(b) == Val::Bits(32) =>
            {
                let Val::Term(term) = rd!(a) else {
                    return Err(word(line));
                };
                (dst, Val::Word { term, hi: true })
            }
            // libdevice `expf`'s `2^k` from the bits of its rounded exponent (exec/libdevice.rs).
            Op::Int {
                op: IntOp::Shl,
                ty,
                dst,
                a,
                b,
            } if ty.bits == 32 && is_reduction(rd!(a)) && rd!(b) == Val::Bits(23) => {
                let j = rd!(a);
                (dst, self.exp2_of_rounded_exponent(j, line)?)
            }
            Op::Int { op, ty, dst, a, b }
                if matches!(rd!(a), Val::Addr { .. }) || matches!(rd!(b), Val::Addr { .. }) =>
            {
                let (x, y) = (rd!(a), rd!(b));
                let v = match (op, x, y) {
                    (IntOp::Add, Val::Addr { base, bits }, Val::Bits(o))
                    | (IntOp::Add, Val::Bits(o), Val::Addr { base, bits }) => {
                        addr_in(base, bits, bits.wrapping_add(o), ty.bits, line)?
                    }
                    (IntOp::Sub, Val::Addr { base, bits }, Val::Bits(o)) => {
                        addr_in(base, bits, bits.wrapping_sub(o), ty.bits, line)?
                    }
                    // The distance between two addresses of one region: a plain integer.
                    (IntOp::Sub, Val::Addr { base, bits: p }, Val::Addr { base: b2, bits: q })
                        if base == b2
                            && same_view(base, p, q)
                            && addr_fits(base, p | q, ty.bits) =>
                    {
                        Val::Bits(m(p.wrapping_sub(q), ty.bits))
                    }
                    (_, Val::Int { .. }, _) | (_, _, Val::Int { .. }) => {
                        return Err(ExecError::Unsupported {
                            line,
                            what: "an address computed from integer tensor data: addresses must \
                                   be concrete (give the index tensor its contents with init)"
                                .into(),
                        });
                    }
                    _ => return Err(addr_op(line)),
                };
                (dst, v)
            }
            Op::Int { op, ty, dst, a, b }
                if matches!(rd!(a), Val::Int { .. }) || matches!(rd!(b), Val::Int { .. }) =>
            {
                let (x, y) = (rd!(a), rd!(b));
                match self.int_sym_bin(op, ty, x, y, line)? {
                    Some(v) => (dst, v),
                    None => return Err(data_int(line)),
                }
            }
            Op::Int { op, ty, dst, a, b } => {
                let (x, y) = (int!(a), int!(b));
                let bits = ty.bits;
                let r = match op {
                    IntOp::Add => x.wrapping_add(y),
                    IntOp::Sub => x.wrapping_sub(y),
                    IntOp::MulLo => x.wrapping_mul(y),
                    IntOp::MulHi => ((wide(x, ty) * wide(y, ty)) >> bits) as u64,
                    IntOp::Div | IntOp::Rem => {
                        let (p, q) = (wide(x, ty), wide(y, ty));
                        if q == 0 {
                            return Err(ExecError::Unsupported {
                                line,
                                what: "integer division by zero (its result is unspecified)".into(),
                            });
                        }
                        let r = if op == IntOp::Div { p / q } else { p % q };
                        r as u64
                    }
                    IntOp::And => x & y,
                    IntOp::Or => x | y,
                    IntOp::Xor => x ^ y,
                    IntOp::Shl => {
                        let s = m(y, 32);
                        if s >= u64::from(bits) { 0 } else { x << s }
                    }
                    IntOp::Shr => {
                        let s = m(y, 32).min(u64::from(bits) - 1 + u64::from(!ty.signed));
                        if ty.signed {
                            (sext(x, bits) >> s.min(63)) as u64
                        } else if s >= u64::from(bits) {
                            0
                        } else {
                            m(x, bits) >> s
                        }
                    }
                    IntOp::Min => {
                        if wide(x, ty) <= wide(y, ty) {
                            x
                        } else {
                            y
                        }
                    }
                    IntOp::Max => {
                        if wide(x, ty) >= wide(y, ty) {
                            x
                        } else {
                            y
                        }
                    }
                };
                (dst, Val::Bits(m(r, bits)))
            }
            Op::MulWide { ty, dst, a, b } => {
                let (x, y) = (rd!(a), rd!(b));
                if let Some(v) = self.int_sym_mul_wide(ty, x, y, line)? {
                    th.regs[dst as usize] = v;
                    return Ok(());
                }
                let r = wide(int!(a), ty) * wide(int!(b), ty);
                (dst, Val::Bits(m(r as u64, ty.bits * 2)))
            }
            Op::Mad {
                mode,
                ty,
                dst,
                a,
                b,
                c,
            } => {
                let (x, y, z) = (rd!(a), rd!(b), rd!(c));
                if let Some(v) = self.int_sym_mad(mode, ty, x, y, z, line)? {
                    th.regs[dst as usize] = v;
                    return Ok(());
                }
                let p = wide(int!(a), ty) * wide(int!(b), ty);
                // `mad.wide.s32 %rd, %r, 4, %rd_ptr`: an address plus a product of integers.
                if let Val::Addr { base, bits } = rd!(c) {
                    let (r, width) = match mode {
                        MadMode::Lo => ((p as u64).wrapping_add(bits), ty.bits),
                        MadMode::Wide => ((p as u64).wrapping_add(bits), ty.bits * 2),
                        MadMode::Hi => return Err(addr_op(line)),
                    };
                    th.regs[dst as usize] = addr_in(base, bits, r, width, line)?;
                    return Ok(());
                }
                let cv = int!(c);
                let r = match mode {
                    MadMode::Lo => m((p as u64).wrapping_add(cv), ty.bits),
                    MadMode::Hi => m(((p >> ty.bits) as u64).wrapping_add(cv), ty.bits),
                    MadMode::Wide => m((p as u64).wrapping_add(cv), ty.bits * 2),
                };
                (dst, Val::Bits(r))
            }
            Op::IntUn { op, ty, dst, a } => {
                let x = m(int!(a), ty.bits);
                let r = match op {
                    IntUnOp::Not => !x,
                    IntUnOp::Neg => x.wrapping_neg(),
                    IntUnOp::Abs => sext(x, ty.bits).unsigned_abs(),
                    IntUnOp::Popc => u64::from(x.count_ones()),
                    IntUnOp::Clz => u64::from(x.leading_zeros()) - (64 - u64::from(ty.bits)),
                    IntUnOp::Brev => x.reverse_bits() >> (64 - u32::from(ty.bits)),
                    IntUnOp::Cnot => u64::from(x == 0),
                };
                (dst, Val::Bits(m(r, ty.bits)))
            }
            Op::Prmt { dst, a, b, c } => {
                let sel = match rd!(c) {
                    Val::Bits(c) => c,
                    Val::Undef => return Err(err_undef(line, "prmt")),
                    _ => {
                        return Err(ExecError::Unsupported {
                            line,
                            what: "a prmt selector that depends on tensor data or an address"
                                .into(),
                        });
                    }
                };
                let (x, y) = (rd!(a), rd!(b));
                if let (Val::Bits(x), Val::Bits(y)) = (x, y) {
                    (dst, Val::Bits(prmt(x, y, sel)))
                } else {
                    (dst, self.prmt_halves(x, y, sel, line)?)
                }
            }
            Op::Bfi {
                bits,
                dst,
                a,
                b,
                pos,
                len,
            } => {
                let (x, y) = (rd!(a), rd!(b));
                // `bfi.b64 %rd, %hi, %lo, 32, 32`: the high word inserted above the low word of
                // the same double gives that double back.
                if let (
                    Val::Word { term, hi: true },
                    Val::Word {
                        term: t2,
                        hi: false,
                    },
                ) = (x, y)
                    && term == t2
                    && bits == 64
                    && rd!(pos) == Val::Bits(32)
                    && rd!(len) == Val::Bits(32)
                {
                    (dst, Val::Term(term))
                } else {
                    let (x, y) = (Self::int(x, line)?, Self::int(y, line)?);
                    (dst, Val::Bits(bfi(x, y, int!(pos), int!(len), bits)))
                }
            }
            Op::Bfe {
                ty,
                dst,
                a,
                pos,
                len,
            } => {
                let x = m(int!(a), ty.bits);
                let (p, l) = (int!(pos) & 0xff, int!(len) & 0xff);
                let msb = u64::from(ty.bits) - 1;
                let sbit = if ty.signed && l != 0 {
                    (x >> (p + l - 1).min(msb)) & 1
                } else {
                    0
                };
                let mut r = 0u64;
                for i in 0..u64::from(ty.bits) {
                    let bit = if i < l && p + i <= msb {
                        (x >> (p + i)) & 1
                    } else {
                        sbit
                    };
                    r |= bit << i;
                }
                (dst, Val::Bits(r))
            }
            Op::Setp {
                cmp,
                unordered,
                ty,
                dst,
                dst_not,
                a,
                b,
                combine,
            } => {
                let (x, y) = (rd!(a), rd!(b));
                let mut p = self.setp(cmp, unordered, ty, x, y, line)?;
                let mut q = self.bool_op(BoolOp::Xor, p, Val::Bits(1), line)?;
                if let Some((bop, c)) = combine {
                    let c = rd!(c);
                    p = self.bool_op(bop, p, c, line)?;
                    q = self.bool_op(bop, q, c, line)?;
                }
                if let Some(n) = dst_not {
                    th.regs[n as usize] = q;
                }
                (dst, p)
            }
            Op::Selp {
                bits,
                float,
                dst,
                a,
                b,
                p,
            } => {
                let (x, y) = (rd!(a), rd!(b));
                let v = match rd!(p) {
                    Val::Bits(c) => {
                        if c & 1 == 1 {
                            x
                        } else {
                            y
                        }
                    }
                    Val::Cond(c)
                        if float.is_none()
                            && (matches!(x, Val::Int { .. }) || matches!(y, Val::Int { .. })) =>
                    {
                        match self.int_sym_select(c, bits, x, y, line)? {
                            Some(v) => v,
                            None => return Err(data_int(line)),
                        }
                    }
                    Val::Cond(c) => {
                        let Some(ty) = float_view(x, y, float, bits) else {
                            return Err(ExecError::Unsupported {
                                line,
                                what: "selp between integers on a predicate that depends on tensor data".into(),
                            });
                        };
                        let (tx, ty_) = (self.term_of(x, ty, line)?, self.term_of(y, ty, line)?);
                        let extremum = select_extremum(*self.arena.node(c), tx, ty_);
                        match extremum.map(|n| (n, self.below_every_input(n))) {
                            Some((_, Some(input))) => Val::Term(input),
                            // `v > m ? v : m` is max(v, m) over the reals; its bits are the
                            // select's (max.f32 differs on signed zeros), hence the rounding
                            // node that keeps it apart from a max instruction's result.
                            Some((n, None)) => {
                                let ext = self.mk(n)?;
                                Val::Term(self.mk(Node::Round(
                                    Rnd {
                                        fmt: fmt_of(ty),
                                        mode: RoundMode::Exact,
                                        ftz: false,
                                    },
                                    ext,
                                ))?)
                            }
                            None => Val::Term(self.mk(Node::Select {
                                cond: c,
                                then: tx,
                                else_: ty_,
                            })?),
                        }
                    }
                    Val::Undef => return Err(err_undef(line, "selp")),
                    Val::Unordered => return Err(unordered(line)),
                    Val::Term(_) | Val::Pair(..) | Val::Word { .. } | Val::Int { .. } => {
                        return Err(data_int(line));
                    }
                    Val::Pending => return Err(pending(line)),
                    Val::Frag(_) => return Err(fragment(line)),
                    Val::Addr { .. } => return Err(addr_op(line)),
                    Val::Rounded { .. } | Val::Pow2 { .. } => {
                        return Err(outside_reduction(line));
                    }
                };
                let v = match v {
                    Val::Bits(b) => Val::Bits(m(b, bits)),
                    v => v,
                };
                (dst, v)
            }
            Op::PredLogic { op, dst, a, b } => {
                let (x, y) = (rd!(a), rd!(b));
                (dst, self.bool_op(op, x, y, line)?)
            }
            Op::Float {
                op,
                ty,
                rnd,
                dst,
                a,
                b,
            } => {
                let (x, y) = (rd!(a), rd!(b));
                (dst, self.float_bin(op, ty, rnd, x, y, line)?)
            }
            Op::Fma {
                ty,
                rnd,
                dst,
                a,
                b,
                c,
            } => {
                let (x, y, z) = (rd!(a), rd!(b), rd!(c));
                (dst, self.fma(ty, rnd, x, y, z, line)?)
            }
            Op::Packed {
                op,
                ty,
                rnd,
                dst,
                a,
                b,
                c,
            } => {
                let (x, y, z) = (rd!(a), rd!(b), rd!(c));
                (dst, self.packed(op, ty, rnd, [x, y, z], line)?)
            }
            Op::FloatUn {
                op,
                ty,
                rnd,
                dst,
                a,
            } => {
                let x = rd!(a);
                (dst, self.float_un(op, ty, rnd, x, line)?)
            }
            Op::Cvt {
                from,
                to,
                round,
                rnd,
                dst,
                src,
            } => {
                let x = rd!(src);
                (dst, self.cvt(from, to, round, rnd, x, line)?)
            }
            Op::LdParam {
                dst,
                param,
                offset,
                bytes,
            } => {
                let p = self.param_bits[param as usize];
                let size = self.prog.params[param as usize].bytes;
                if offset + u32::from(bytes) > size.min(8) {
                    return Err(ExecError::Unsupported {
                        line,
                        what: format!(
                            "ld.param of bytes {offset}..{} of an {size}-byte parameter",
                            offset + u32::from(bytes)
                        ),
                    });
                }
                match self.param_base[param as usize] {
                    // A tensor (or scratch) pointer: only the whole of it is an address.
                    Some(base) if offset == 0 && bytes == 8 => (dst, Val::Addr { base, bits: p }),
                    Some(_) => {
                        return Err(ExecError::Unsupported {
                            line,
                            what: format!(
                                "ld.param of bytes {offset}..{} of a pointer parameter (part of \
                                 an address)",
                                offset + u32::from(bytes)
                            ),
                        });
                    }
                    None => match self.symbolics.iter().find(|s| s.param == param as usize) {
                        // A symbolic scalar: its whole value is the leaf (symbolic runs only;
                        // the interpreter holds the caller's value in `param_bits`).
                        Some(s) if self.mode == Mode::Symbolic => {
                            if offset != 0 || u32::from(bytes) != size {
                                return Err(ExecError::Unsupported {
                                    line,
                                    what: format!(
                                        "ld.param of bytes {offset}..{} of symbolic scalar {}: \
                                         only its whole value is a real",
                                        offset + u32::from(bytes),
                                        s.name
                                    ),
                                });
                            }
                            let node = Node::Input {
                                tensor: s.ordinal,
                                index: 0,
                            };
                            let leaf = self
                                .arena
                                .intern(node)
                                .map_err(|e| ExecError::Limit(e.to_string()))?;
                            (dst, Val::Term(leaf))
                        }
                        _ => (dst, Val::Bits(m(p >> (offset * 8), bytes * 8))),
                    },
                }
            }
            Op::VarAddr { dst, var } => (dst, self.var_addr(var, line)?),
            Op::Undef { dst } => (dst, Val::Undef),
            Op::Cvta {
                to_generic,
                space,
                dst,
                src,
            } => {
                let window = match space {
                    Space::Shared => SHARED_WINDOW,
                    Space::Local => LOCAL_WINDOW,
                    _ => 0,
                };
                let conv = |x: u64| {
                    if to_generic {
                        x.wrapping_add(window)
                    } else {
                        x.wrapping_sub(window)
                    }
                };
                // A window conversion keeps the region: the offset is unchanged.
                match rd!(src) {
                    Val::Addr { base, bits } => (
                        dst,
                        Val::Addr {
                            base,
                            bits: conv(bits),
                        },
                    ),
                    x => (dst, Val::Bits(conv(Self::int(x, line)?))),
                }
            }
            Op::Bra { .. }
            | Op::AtomAdd { .. }
            | Op::Exit
            | Op::Trap { .. }
            | Op::Bar { .. }
            | Op::WarpSync { .. }
            | Op::Shfl { .. }
            | Op::Vote { .. }
            | Op::ActiveMask { .. }
            | Op::Mma { .. }
            | Op::Ldmatrix { .. }
            | Op::WmmaLoad { .. }
            | Op::WmmaMma { .. }
            | Op::WmmaStore { .. }
            | Op::CpAsync { .. }
            | Op::CpAsyncCommit
            | Op::CpAsyncWait { .. }
            | Op::Ld { .. }
            | Op::St { .. } => {
                return Err(ExecError::Invalid {
                    line,
                    msg: "control or memory operation reached the register-only path".into(),
                });
            }
        };
        th.regs[dst as usize] = v;
        if v == Val::Undef {
            // `selp` picked an undefined side, or `Op::Undef`: read here.
            th.undef_from.insert(dst, line);
        } else if !th.undef_from.is_empty() {
            th.undef_from.remove(&dst);
        }
        Ok(())
    }

    fn cvt(
        &mut self,
        from: Ty,
        to: Ty,
        round: Option<IntRound>,
        rnd: FloatMods,
        x: Val,
        line: Line,
    ) -> Result<Val, ExecError> {
        match (from, to) {
            (Ty::Int(a), to) if matches!(x, Val::Int { .. }) => {
                match self.int_sym_cvt(a, to, x, line)? {
                    Some(v) => Ok(v),
                    None => Err(data_int(line)),
                }
            }
            (Ty::Int(a), Ty::Int(b)) => {
                match x {
                    // `cvt.u32.u64` of a double's pattern: its low word.
                    Val::Term(term) if a.bits == 64 && b.bits == 32 => {
                        return Ok(Val::Word { term, hi: false });
                    }
                    // A word is a zero-extended 32-bit value: truncating it to 32 bits or
                    // zero-extending it (`cvt.u64.u32`) keeps it; sign extension does not.
                    Val::Word { .. }
                        if (b.bits == 32 && a.bits >= 32)
                            || (a.bits == 32 && !a.signed && b.bits == 64) =>
                    {
                        return Ok(x);
                    }
                    // `cvt.u64.u32` / `cvt.u32.u64` of a shared or local address. Widening
                    // only from inside the region: a 32-bit address that wrapped around 2^32
                    // widens to a value that depends on where the variable sits (Lean:
                    // `Provenance2.zext_eq_differs`, `sext_eq_differs`; `zext_exact`).
                    Val::Addr { base, bits }
                        if addr_fits(base, bits, a.bits)
                            && (b.bits <= a.bits || self.in_region(base, bits)) =>
                    {
                        return addr_in(base, bits, wide(bits, a) as u64, b.bits, line);
                    }
                    _ => {}
                }
                let v = wide(Self::int(x, line)?, a);
                Ok(Val::Bits(m(v as u64, b.bits)))
            }
            // An integer is concrete, so is its float, in both modes: the rounding of a large
            // integer (2^24 + 1 to f32) is the hardware's, not the exact integer.
            (Ty::Int(a), Ty::Float(f)) => {
                let v = wide(Self::int(x, line)?, a);
                Ok(Val::Bits(int_to_float(v, f, rnd.mode, line)?))
            }
            (Ty::Float(a), Ty::Int(b)) => {
                let bits = Self::int(x, line)?;
                let v = to_f64(bits, a);
                let r = match round {
                    Some(IntRound::Nearest) => v.round_ties_even(),
                    Some(IntRound::Down) => v.floor(),
                    Some(IntRound::Up) => v.ceil(),
                    _ => v.trunc(),
                };
                // PTX saturates float-to-integer conversions; NaN converts to 0.
                let (lo, hi) = if b.signed {
                    (
                        -(2f64.powi(i32::from(b.bits) - 1)),
                        2f64.powi(i32::from(b.bits) - 1) - 1.0,
                    )
                } else {
                    (0.0, 2f64.powi(i32::from(b.bits)) - 1.0)
                };
                let r = if r.is_nan() { 0.0 } else { r.clamp(lo, hi) };
                let i = if b.signed { r as i64 as u64 } else { r as u64 };
                Ok(Val::Bits(m(i, b.bits)))
            }
            (Ty::Float(a), Ty::Float(b)) => match (self.mode, x) {
                (Mode::Concrete, _) => {
                    let v = to_f64(Self::int(x, line)?, a);
                    let v = match round {
                        Some(IntRound::Nearest) => v.round_ties_even(),
                        Some(IntRound::Down) => v.floor(),
                        Some(IntRound::Up) => v.ceil(),
                        Some(IntRound::Zero) => v.trunc(),
                        None => v,
                    };
                    Ok(Val::Bits(float_to_float(v, a, b, rnd)))
                }
                (Mode::Symbolic, _) if round.is_some() => Err(ExecError::Unsupported {
                    line,
                    what: "rounding a real to an integer (cvt.rni/rzi between floats)".into(),
                }),
                // Conversions between float widths are the identity on reals; one into a
                // format that cannot hold every source value records its rounding.
                (Mode::Symbolic, x) => {
                    let t = self.term_of(x, a, line)?;
                    if widens(a, b) && !rnd.ftz {
                        return Ok(Val::Term(t));
                    }
                    let mode = match rnd.mode {
                        RoundMode::Exact => RoundMode::Rn,
                        m => m,
                    };
                    Ok(Val::Term(self.rounded(t, b, FloatMods { mode, ..rnd })?))
                }
            },
        }
    }
}

/// `cond ? then : else_` as max or min of its two sides when the condition compares exactly
/// those two terms: `a > b ? a : b` and `a >= b ? a : b` are max(a, b), `a < b ? a : b` and
/// `a <= b ? a : b` min(a, b), and the swapped sides the other one (on a tie both sides are
/// one number). Anything else (another operand, `==`, `!=`) stays a select.
fn select_extremum(cond: Node, then: TermId, else_: TermId) -> Option<Node> {
    let Node::Cmp(op, l, r) = cond else {
        return None;
    };
    let same = (then, else_) == (l, r);
    let swapped = (then, else_) == (r, l) && l != r;
    match (op, same, swapped) {
        (CmpOp::Gt | CmpOp::Ge, true, _) | (CmpOp::Lt | CmpOp::Le, false, true) => {
            Some(Node::Max(then, else_))
        }
        (CmpOp::Lt | CmpOp::Le, true, _) | (CmpOp::Gt | CmpOp::Ge, false, true) => {
            Some(Node::Min(then, else_))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fma_down(a: f32, b: f32, c: f32) -> f32 {
        ieee::op32(Exact::Fma, RoundMode::Rm, false, a, b, c).unwrap()
    }

    #[test]
    fn fma_rm_rounds_toward_minus_infinity() {
        // libdevice expf's window: the integers, so `.rm` is floor (nearest would round up).
        for t in [0.0f32, 0.5 / 252.0, 0.7 / 252.0, 0.25, 0.999, 1.0] {
            let want = (f64::from(t) * 252.0 + 12_582_913.0).floor() as f32;
            assert_eq!(fma_down(t, 252.0, 12_582_913.0), want, "t = {t}");
        }
        // Below an exact result by one ulp or equal to it; the signs and overflow.
        assert_eq!(fma_down(1.0, 1.0, f32::EPSILON / 4.0), 1.0);
        assert_eq!(
            fma_down(-1.0, 1.0, -f32::EPSILON / 4.0),
            -1.0 - f32::EPSILON
        );
        assert_eq!(fma_down(1.5, 2.0, 0.25), 3.25);
        assert_eq!(fma_down(f32::MAX, 2.0, 0.0), f32::MAX);
        assert_eq!(fma_down(-f32::MAX, 2.0, 0.0), f32::NEG_INFINITY);
        assert!(
            ieee::op32(Exact::Fma, RoundMode::Rm, false, f32::NAN, 1.0, 0.0)
                .is_some_and(f32::is_nan)
        );
    }

    #[test]
    fn prmt_default_mode_follows_the_isa() {
        let (a, b) = (0x3322_1100, 0x7766_5544);
        assert_eq!(prmt(a, b, 0x3210), a);
        assert_eq!(prmt(a, b, 0x7654), b);
        assert_eq!(prmt(a, b, 0x0123), 0x0011_2233);
        assert_eq!(prmt(a, b, 0x5410), 0x5544_1100);
        assert_eq!(prmt(a, b, 0x7632), 0x7766_3322);
        // Only the low 16 bits select; bit 3 of a nibble replicates the byte's sign.
        assert_eq!(prmt(a, b, 0xffff_3210), a);
        assert_eq!(prmt(0x0000_0080, 0, 0x0008), 0x8080_80ff);
        assert_eq!(prmt(0x0000_007f, 0, 0x8880), 0x0000_007f);
        assert_eq!(prmt(0xffff_ff80, 0, 0x0008) & 0xff, 0xff);
        // Sources beyond 32 bits are not part of the eight bytes.
        assert_eq!(prmt(0x1_0000_0000, 0, 0x4444), 0);
    }

    #[test]
    fn branch_paths_tell_decisions_apart() {
        let p = mix_path(0, 7, true);
        assert_ne!(p, mix_path(0, 7, false));
        assert_ne!(p, mix_path(0, 8, true));
        assert_ne!(mix_path(p, 7, true), p);
        assert_ne!(
            mix_path(mix_path(0, 3, true), 5, false),
            mix_path(mix_path(0, 5, false), 3, true)
        );
    }

    #[test]
    fn shfl_lanes_follow_the_isa() {
        // Full-warp butterfly and down-shift with the usual c = 0x1f.
        assert_eq!(shfl_source(ShflMode::Bfly, 5, 16, 0x1f), (21, true));
        assert_eq!(shfl_source(ShflMode::Down, 30, 4, 0x1f), (30, false));
        assert_eq!(shfl_source(ShflMode::Down, 3, 4, 0x1f), (7, true));
        assert_eq!(shfl_source(ShflMode::Up, 2, 4, 0), (2, false));
        assert_eq!(shfl_source(ShflMode::Idx, 9, 0, 0x1f), (0, true));
    }

    #[test]
    fn half_conversions_round_trip() {
        for h in [0u16, 0x3c00, 0xc000, 0x7bff, 0x0001, 0x03ff, 0x3555] {
            let v = half_to_f64(h);
            assert_eq!(f32_to_f16(v as f32), h, "{h:#x}");
        }
    }

    #[test]
    fn directed_conversions_to_f32_step_one_ulp() {
        let v = 1.0 + 2f64.powi(-30);
        let m = |mode| FloatMods { mode, ftz: false };
        let f =
            |mode| f32::from_bits(float_to_float(v, FloatTy::F64, FloatTy::F32, m(mode)) as u32);
        assert_eq!(f(RoundMode::Rn), 1.0);
        assert_eq!(f(RoundMode::Rz), 1.0);
        assert_eq!(f(RoundMode::Rm), 1.0);
        assert_eq!(f(RoundMode::Rp), 1.0 + f32::EPSILON);
        let n =
            |mode| f32::from_bits(float_to_float(-v, FloatTy::F64, FloatTy::F32, m(mode)) as u32);
        assert_eq!(n(RoundMode::Rm), -1.0 - f32::EPSILON);
        assert_eq!(n(RoundMode::Rz), -1.0);
        let big = f32::from_bits(
            float_to_float(1e39, FloatTy::F64, FloatTy::F32, m(RoundMode::Rz)) as u32,
        );
        assert_eq!(big, f32::MAX);
    }

    #[test]
    fn conversions_from_f64_round_once() {
        // 1 + 2^-8 + 2^-30 lies just above the bf16 tie 1 + 2^-8 (between 1 and 1 + 2^-7):
        // rounding to f32 first would land on the tie and round to even, 1.0.
        let v = 1.0 + 2f64.powi(-8) + 2f64.powi(-30);
        assert_eq!(from_f64(v, FloatTy::Bf16), 0x3f81);
        assert_eq!(from_f64(-v, FloatTy::Bf16), 0xbf81);
        // The same for f16 (ties at 2^-11 above 1).
        let w = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(from_f64(w, FloatTy::F16), 0x3c01);
        // Exact and tie cases are unchanged: a true tie still rounds to even.
        assert_eq!(from_f64(1.0 + 2f64.powi(-8), FloatTy::Bf16), 0x3f80);
        assert_eq!(from_f64(1.5, FloatTy::Bf16), 0x3fc0);
        assert_eq!(from_f64(0.1, FloatTy::F32), u64::from(0.1f32.to_bits()));
        // Below the smallest f32 subnormal: still rounds (to zero), no overflow of the bits.
        assert_eq!(from_f64(1e-60, FloatTy::Bf16), 0);
        assert_eq!(from_f64(-1e-60, FloatTy::F16), 0x8000);
        assert_eq!(f64_to_f32_odd(1e-60).to_bits(), 1);
    }

    #[test]
    fn bfi_follows_the_isa() {
        // nvcc's join of a double's words: high word at bit 32 over the zero-extended low word.
        assert_eq!(
            bfi(0x4009_21fb, 0x5444_2d18, 32, 32, 64),
            std::f64::consts::PI.to_bits()
        );
        assert_eq!(bfi(0xff, 0x1234_5678, 8, 4, 32), 0x1234_5f78);
        // Bits past the width are dropped; len 0 or pos past the width leave b.
        assert_eq!(bfi(0xff, 0, 28, 8, 32), 0xf000_0000);
        assert_eq!(bfi(0xff, 7, 4, 0, 32), 7);
        assert_eq!(bfi(0xff, 7, 40, 8, 32), 7);
        // pos and len are taken modulo 256.
        assert_eq!(bfi(1, 0, 256 + 3, 256 + 1, 32), 8);
        assert_eq!(bfi(0, u64::MAX, 0, 8, 32), 0xffff_ff00);
    }

    #[test]
    fn sign_extension() {
        assert_eq!(sext(0xffff_ffff, 32), -1);
        assert_eq!(sext(0x7fff_ffff, 32), 0x7fff_ffff);
    }
}
