//! The semantic self-check: the real-valued terms must describe what the kernel computes.
//!
//! The symbolic executor reads PTX idioms (16-bit formats, the libdevice floor, fragment
//! layouts, packed halves) into real terms, and a misreading there would make every rule
//! prove the wrong thing. So on every certificate the checker runs each kernel a second way,
//! with the bit-exact interpreter ([`crate::exec::Mode::Concrete`], IEEE arithmetic with PTX's
//! rounding modifiers), on inputs derived from the certificate's digest, and evaluates every
//! output element's term at the same inputs with a bound on what rounding can do to it. A
//! value outside that bound, or an element one run writes and the other does not, rejects
//! the certificate; a run the real model cannot describe (an infinity or NaN in an output, a
//! constant of 2^20 or more added and taken away, an ambiguous data-dependent select) rejects
//! it too, as not vouched for. An element whose bound the analysis cannot make finite (errors
//! that cancel, such as libdevice's compensated `2^r * 2^k`, are added up here) is not compared:
//! the check is then silent about it, never a pass of its own.
//!
//! The bound is a forward error analysis over the term: every plain node is an f32 operation
//! rounded once (unit roundoff 2^-24), a [`Node::Round`] adds its own format's roundoff or the
//! documented error of an approximation, and children's errors propagate through each
//! operation with worst-case Lipschitz factors. It never needs the rules: it is a test of the
//! semantics, not a proof.

use crate::equiv::{PairRun, SideRun};
use crate::exec::{self, Config, Inputs, Mode, Val};
use crate::lower::FloatTy;
use crate::pair::PairSpec;
use crate::ptx::ScalarType;
use crate::spec::{Binding, Role};
use crate::term::{CmpOp, Fmt, Func, Node, RoundMode, TermArena, TermId};
use std::collections::HashMap;

/// Input sets tried per certificate: positive values (no cancellation hides a misreading),
/// then values of both signs.
pub const INPUT_SETS: u64 = 2;

/// Why the self-check does not vouch for a run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SelfCheckError {
    /// The term and the interpreter disagree beyond rounding: the semantics misread the PTX.
    #[error(
        "semantic self-check failed: {kernel} output {param} element {element}: the term gives {term} (rounding bound {bound:e}), the interpreter {concrete} (input set {set})"
    )]
    Mismatch {
        kernel: &'static str,
        param: usize,
        element: u64,
        term: f64,
        bound: f64,
        concrete: f64,
        set: u64,
    },
    /// The two runs write different output elements.
    #[error(
        "semantic self-check failed: {kernel} output {param} element {element} is written by the {by} run only (input set {set})"
    )]
    Footprint {
        kernel: &'static str,
        param: usize,
        element: u64,
        by: &'static str,
        set: u64,
    },
    /// The real model does not describe this run, so the certificate's real-valued claim is
    /// not vouched for.
    #[error(
        "the real model does not describe the {kernel} kernel's run (output {param} element {element}, input set {set}): {why}"
    )]
    NotDescribed {
        kernel: &'static str,
        param: usize,
        element: u64,
        set: u64,
        why: String,
    },
    /// The interpreter could not run the kernel on these inputs.
    #[error("semantic self-check: the interpreter cannot run the {kernel} kernel: {why}")]
    Interpreter { kernel: &'static str, why: String },
}

/// A small deterministic generator (xorshift64*), so that the inputs follow from the digest.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// `k / 64` for `k` in `[32, 128)`: in [0.5, 2), exact in every float format (6 fraction
    /// bits), negative too when `signed`.
    fn value(&mut self, signed: bool) -> f64 {
        let r = self.next();
        let k = 32 + (r >> 33) % 96;
        let v = k as f64 / 64.0;
        if signed && (r >> 7) & 1 == 1 { -v } else { v }
    }
}

/// The float type of an element `dtype`, if it is a float.
fn float_ty(dtype: ScalarType) -> Option<FloatTy> {
    match dtype {
        ScalarType::F64 => Some(FloatTy::F64),
        ScalarType::F32 => Some(FloatTy::F32),
        ScalarType::Bf16 => Some(FloatTy::Bf16),
        ScalarType::F16 => Some(FloatTy::F16),
        _ => None,
    }
}

/// The element bits of an exact value `v` (one of [`Rng::value`]'s) in `dtype`, by the
/// interpreter's own conversion.
fn encode(v: f64, dtype: ScalarType) -> Option<u64> {
    float_ty(dtype).map(|ty| exec::from_f64(v, ty))
}

/// The value of an element bit pattern of a float `dtype` (the interpreter's own decoding).
fn decode(bits: u64, dtype: ScalarType) -> Option<f64> {
    float_ty(dtype).map(|ty| exec::to_f64(bits, ty))
}

/// One node's evaluation: the value of the term and a bound on how far the kernel's float
/// result may lie from it; `ambiguous`: a select whose condition rounding could flip.
#[derive(Debug, Clone, Copy)]
struct Est {
    v: f64,
    e: f64,
    truth: Option<bool>,
    ambiguous: bool,
    trick: bool,
}

const U32: f64 = 1.0 / 16_777_216.0; // 2^-24
const TINY: f64 = 1.401_298_464_324_817e-45; // 2^-149, an f32 subnormal step

fn unit(fmt: Fmt, mode: RoundMode) -> f64 {
    let directed = matches!(mode, RoundMode::Rz | RoundMode::Rm | RoundMode::Rp);
    let base: f64 = match fmt {
        Fmt::F16 => 2f64.powi(-11),
        Fmt::Bf16 => 2f64.powi(-8),
        Fmt::F32 => U32,
        Fmt::F64 => 2f64.powi(-53),
    };
    match mode {
        RoundMode::Exact => 0.0,
        RoundMode::Approx => base.max(2f64.powi(-20)),
        RoundMode::Full => base.max(2f64.powi(-21)),
        _ if directed => 2.0 * base,
        _ => base,
    }
}

/// Evaluates the nodes of `arena` that `roots` need, children first.
fn evaluate(
    arena: &TermArena,
    roots: &[TermId],
    input: &dyn Fn(u32, u64) -> Option<f64>,
) -> HashMap<TermId, Est> {
    let n = arena.len();
    let mut need = vec![false; n];
    for r in roots {
        need[r.index()] = true;
    }
    for i in (0..n).rev() {
        if need[i] {
            for k in arena.nodes()[i].children() {
                need[k.index()] = true;
            }
        }
    }
    let mut est: Vec<Option<Est>> = vec![None; n];
    let num = |v: f64, e: f64| Est {
        v,
        e,
        truth: None,
        ambiguous: false,
        trick: false,
    };
    for i in 0..n {
        if !need[i] {
            continue;
        }
        let node = arena.nodes()[i];
        let get = |t: TermId, est: &Vec<Option<Est>>| est[t.index()].unwrap_or(num(f64::NAN, 0.0));
        let flags = |kids: &[Est]| {
            (
                kids.iter().any(|k| k.ambiguous),
                kids.iter().any(|k| k.trick),
            )
        };
        // A rounded operation on two children: the children's errors, grown by the rounding,
        // plus the rounding of the result.
        let round = |v: f64, prop: f64| prop * (1.0 + 2.0 * U32) + U32 * (v.abs() + prop) + TINY;
        let mut r = match node {
            Node::Const(c) => {
                let (neg, mant, exp) = arena.const_value(c).parts();
                let m = mant as f64 * 2f64.powi(exp);
                num(if neg { -m } else { m }, 0.0)
            }
            Node::NegInf => num(f64::NEG_INFINITY, 0.0),
            Node::PosInf => num(f64::INFINITY, 0.0),
            Node::Input { tensor, index } => num(input(tensor, index).unwrap_or(f64::NAN), 0.0),
            Node::Add(a, b) | Node::Sub(a, b) => {
                let (x, y) = (get(a, &est), get(b, &est));
                let v = if matches!(node, Node::Add(..)) {
                    x.v + y.v
                } else {
                    x.v - y.v
                };
                let mut r = num(v, round(v, x.e + y.e));
                (r.ambiguous, r.trick) = flags(&[x, y]);
                // A constant of 2^20 or more added to a small value and taken away again
                // rounds the value to a grid: the real model reads it as the identity.
                let big = |z: &Est, t: TermId| {
                    matches!(arena.node(arena.unrounded(t)), Node::Const(_))
                        && z.v.abs() >= 1_048_576.0
                };
                if (big(&x, a) || big(&y, b)) && v.abs() * 4096.0 <= x.v.abs().max(y.v.abs()) {
                    r.trick = true;
                }
                r
            }
            Node::Mul(a, b) => {
                let (x, y) = match exp_product(arena, a, b, &est) {
                    Some((x, y)) => (x, y),
                    None => (get(a, &est), get(b, &est)),
                };
                let v = x.v * y.v;
                let prop = x.v.abs() * y.e + y.v.abs() * x.e + x.e * y.e;
                let mut r = num(v, round(v, prop));
                (r.ambiguous, r.trick) = flags(&[x, y]);
                r
            }
            Node::Fma(a, b, c) => {
                let (x, y) = match exp_product(arena, a, b, &est) {
                    Some((x, y)) => (x, y),
                    None => (get(a, &est), get(b, &est)),
                };
                let z = get(c, &est);
                let v = x.v.mul_add(y.v, z.v);
                let prop = x.v.abs() * y.e + y.v.abs() * x.e + x.e * y.e + z.e;
                let mut r = num(v, round(v, prop));
                (r.ambiguous, r.trick) = flags(&[x, y, z]);
                let big = matches!(arena.node(arena.unrounded(c)), Node::Const(_))
                    && z.v.abs() >= 1_048_576.0;
                if big && v.abs() * 4096.0 <= z.v.abs() {
                    r.trick = true;
                }
                r
            }
            Node::Div(a, b) => {
                let (x, y) = (get(a, &est), get(b, &est));
                let v = x.v / y.v;
                let e = if y.v.abs() > y.e {
                    (x.e + v.abs() * y.e) / (y.v.abs() - y.e)
                } else {
                    f64::INFINITY
                };
                let mut r = num(v, round(v, e));
                (r.ambiguous, r.trick) = flags(&[x, y]);
                r
            }
            Node::Neg(a) => {
                let x = get(a, &est);
                Est { v: -x.v, ..x }
            }
            Node::Max(a, b) | Node::Min(a, b) => {
                let (x, y) = (get(a, &est), get(b, &est));
                let v = if matches!(node, Node::Max(..)) {
                    x.v.max(y.v)
                } else {
                    x.v.min(y.v)
                };
                let mut r = num(v, x.e.max(y.e));
                (r.ambiguous, r.trick) = flags(&[x, y]);
                r
            }
            Node::Apply(f, a) => {
                let x = get(a, &est);
                let (v, e) = match f {
                    Func::Ex2 => {
                        let v = x.v.exp2();
                        (v, (x.v + x.e).exp2() - v)
                    }
                    Func::Rcp | Func::Rsqrt => {
                        let s = if f == Func::Rsqrt { x.v.sqrt() } else { x.v };
                        let lo = if f == Func::Rsqrt {
                            (x.v.abs() - x.e).max(0.0).sqrt()
                        } else {
                            x.v.abs() - x.e
                        };
                        let v = 1.0 / s;
                        let e = if lo > 0.0 {
                            1.0 / lo - v.abs()
                        } else {
                            f64::INFINITY
                        };
                        (v, e)
                    }
                    Func::Sqrt => {
                        let v = x.v.sqrt();
                        (
                            v,
                            x.e.sqrt()
                                .min(if v > 0.0 { x.e / v } else { f64::INFINITY }),
                        )
                    }
                    Func::Lg2 => {
                        let v = x.v.log2();
                        let lo = x.v - x.e;
                        (
                            v,
                            if lo > 0.0 {
                                v - lo.log2()
                            } else {
                                f64::INFINITY
                            },
                        )
                    }
                    // tanh.approx: about 2^-11 relative (PTX ISA, tanh).
                    Func::Tanh => (x.v.tanh(), x.e + 2f64.powi(-10)),
                    Func::Sin => (x.v.sin(), x.e + 2f64.powi(-20)),
                    Func::Cos => (x.v.cos(), x.e + 2f64.powi(-20)),
                    Func::Abs => (x.v.abs(), x.e),
                };
                let mut r = num(v, round(v, e));
                (r.ambiguous, r.trick) = flags(&[x]);
                // libdevice's range reduction adds and removes its magic constant inside an
                // exponent, compensated by the paired power of two (exec/libdevice.rs).
                if f == Func::Ex2 {
                    r.trick = false;
                }
                r
            }
            Node::Round(rnd, a) => {
                let x = get(a, &est);
                let mut e = x.e + unit(rnd.fmt, rnd.mode) * (x.v.abs() + x.e);
                if rnd.ftz {
                    e += match rnd.fmt {
                        Fmt::F16 => 2f64.powi(-14),
                        _ => f64::from(f32::MIN_POSITIVE),
                    };
                }
                Est { e, ..x }
            }
            Node::Cmp(op, a, b) => {
                let (x, y) = (get(a, &est), get(b, &est));
                let holds = match op {
                    CmpOp::Eq => x.v == y.v,
                    CmpOp::Ne => x.v != y.v,
                    CmpOp::Lt => x.v < y.v,
                    CmpOp::Le => x.v <= y.v,
                    CmpOp::Gt => x.v > y.v,
                    CmpOp::Ge => x.v >= y.v,
                };
                // Decided when rounding cannot move either side across the other.
                let margin = (x.v - y.v).abs();
                let sure = x.v.is_infinite() || y.v.is_infinite() || margin > x.e + y.e;
                let (amb, trick) = flags(&[x, y]);
                Est {
                    v: 0.0,
                    e: 0.0,
                    truth: Some(holds),
                    ambiguous: amb || !sure,
                    trick,
                }
            }
            Node::And(a, b) | Node::Or(a, b) => {
                let (x, y) = (get(a, &est), get(b, &est));
                let (p, q) = (x.truth.unwrap_or(false), y.truth.unwrap_or(false));
                let t = if matches!(node, Node::And(..)) {
                    p && q
                } else {
                    p || q
                };
                let (amb, trick) = flags(&[x, y]);
                Est {
                    v: 0.0,
                    e: 0.0,
                    truth: Some(t),
                    ambiguous: amb,
                    trick,
                }
            }
            Node::Not(a) => {
                let x = get(a, &est);
                Est {
                    truth: x.truth.map(|t| !t),
                    ..x
                }
            }
            Node::Select { cond, then, else_ } => {
                let (c, t, f) = (get(cond, &est), get(then, &est), get(else_, &est));
                let pick = if c.truth.unwrap_or(false) { t } else { f };
                if c.ambiguous {
                    // Either branch may be what the float computation took.
                    let e = (pick.e)
                        .max(t.e + (pick.v - t.v).abs())
                        .max(f.e + (pick.v - f.v).abs());
                    Est {
                        v: pick.v,
                        e,
                        truth: None,
                        ambiguous: t.ambiguous || f.ambiguous,
                        trick: c.trick || t.trick || f.trick,
                    }
                } else {
                    Est {
                        trick: pick.trick || c.trick,
                        ..pick
                    }
                }
            }
        };
        // f64 evaluation itself rounds: a relative 2^-50 covers it. An infinity (the
        // running maximum's -inf, and what it folds into) is exact: the float computation
        // holds the same one.
        if r.v.is_infinite() {
            r.e = 0.0;
        } else {
            r.e += r.v.abs() * 2f64.powi(-50);
        }
        est[i] = Some(r);
    }
    roots
        .iter()
        .filter_map(|r| est[r.index()].map(|e| (*r, e)))
        .collect()
}

/// `2^p * 2^q` (under any rounding wrappers) as the estimates of `2^((p + q) / 2)` twice:
/// the same product, without the overflow of a factor that the other compensates
/// (libdevice's `2^r * 2^k` with `k` near 2^23 over the reals).
fn exp_product(arena: &TermArena, a: TermId, b: TermId, est: &[Option<Est>]) -> Option<(Est, Est)> {
    let (Node::Apply(Func::Ex2, p), Node::Apply(Func::Ex2, q)) = (
        *arena.node(arena.unrounded(a)),
        *arena.node(arena.unrounded(b)),
    ) else {
        return None;
    };
    let (x, y) = (est[p.index()]?, est[q.index()]?);
    let (va, vb) = (est[a.index()]?, est[b.index()]?);
    if va.v.is_finite() && vb.v.is_finite() && va.e.is_finite() && vb.e.is_finite() {
        return None;
    }
    let half = (x.v + y.v) / 2.0;
    // Each factor's error: the exponent's, plus the approximation its rounding records.
    let eh = (x.e + y.e) / 2.0;
    let f = Est {
        v: half.exp2(),
        e: (half + eh).exp2() - half.exp2() + half.exp2() * 2f64.powi(-20),
        truth: None,
        ambiguous: x.ambiguous || y.ambiguous,
        trick: false,
    };
    Some((f, f))
}

/// The input sets' contents per pair input link (tensors, then symbolic scalars): element bits
/// and values, as many as the larger of the two linked parameters holds (each side takes its
/// own leading part, so linked leaves get one value on both sides). A positive symbolic
/// scalar gets positive values only.
fn link_inputs(pair: &PairSpec, digest: &[u8; 32], set: u64) -> Vec<(Vec<u64>, Vec<f64>)> {
    let mut seed = u64::from_le_bytes(digest[..8].try_into().unwrap_or([1; 8]));
    seed ^= set.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut rng = Rng(seed | 1);
    pair.inputs
        .iter()
        .map(|&(rp, op)| {
            let (Some((dtype, rn)), on) = (
                pair.reference.leaf_input(rp),
                pair.optimized.leaf_input(op).map_or(0, |l| l.1),
            ) else {
                return (Vec::new(), Vec::new());
            };
            let n = rn.max(on);
            match pair.reference.params.get(rp) {
                // Contents fixed by the spec: the interpreter uses them whatever it is given.
                Some(Binding::Tensor(t)) if t.init.is_some() => return (Vec::new(), Vec::new()),
                Some(Binding::Tensor(t)) if crate::spec::int_bounds(t.dtype).is_some() => {
                    let (lo, hi) = int_draw_range(t);
                    let span = (hi - lo + 1) as u128;
                    let mask = crate::exec::memory::mask(u64::from(t.dtype.size()) * 8);
                    return (0..n)
                        .map(|_| {
                            let v = lo + (u128::from(rng.next()) % span) as i128;
                            ((v as i64 as u64) & mask, v as f64)
                        })
                        .unzip();
                }
                _ => {}
            }
            let positive = matches!(
                pair.reference.params.get(rp),
                Some(Binding::Symbolic { positive: true, .. })
            );
            let (mut bits, mut vals) = (Vec::new(), Vec::new());
            for _ in 0..n {
                let v = rng.value(set % 2 == 1 && !positive);
                match encode(v, dtype) {
                    Some(b) => {
                        bits.push(b);
                        vals.push(v);
                    }
                    None => {
                        bits.push(0);
                        vals.push(f64::NAN);
                    }
                }
            }
            (bits, vals)
        })
        .collect()
}

/// Where the self-check draws an integer input's values: its declared range, else small
/// values of its dtype (without a range no arithmetic on them is accepted anyway).
pub fn int_draw_range(t: &crate::spec::Tensor) -> (i128, i128) {
    let (lo, hi) = crate::spec::int_bounds(t.dtype).unwrap_or((0, 0));
    match t.range {
        Some((a, b)) => (i128::from(a), i128::from(b)),
        None => (lo.max(-100), hi.min(100)),
    }
}

/// The integer an element of integer `dtype` holds.
fn decode_int(bits: u64, dtype: ScalarType) -> Option<i128> {
    let n = dtype.size() * 8;
    let (lo, _) = crate::spec::int_bounds(dtype)?;
    let m = crate::exec::memory::mask(u64::from(n));
    let u = i128::from(bits & m);
    Some(if lo < 0 && u >= 1i128 << (n - 1) {
        u - (1i128 << n)
    } else {
        u
    })
}

/// Runs the self-check on one side of `run` (`kernel`: which, for messages).
pub fn check_side(
    pair: &PairSpec,
    run: &PairRun,
    side: &SideRun,
    kernel: crate::cert::Kernel,
    digest: &[u8; 32],
    config: &Config,
) -> Result<(), SelfCheckError> {
    let name = match kernel {
        crate::cert::Kernel::Reference => "reference",
        crate::cert::Kernel::Optimized => "optimized",
    };
    let is_ref = kernel == crate::cert::Kernel::Reference;
    // Output terms of the symbolic run.
    let mut roots = Vec::new();
    for vals in side.outcome.outputs.values() {
        for v in vals.values() {
            if let Val::Term(t) | Val::Int { term: t, .. } = v {
                roots.push(*t);
            }
        }
    }
    for set in 0..INPUT_SETS {
        let links = link_inputs(pair, digest, set);
        let mut inputs: Inputs = HashMap::new();
        for (l, &(rp, op)) in pair.inputs.iter().enumerate() {
            let param = if is_ref { rp } else { op };
            let n = side.spec.leaf_input(param).map_or(0, |l| l.1) as usize;
            if let Some((bits, _)) = links.get(l) {
                inputs.insert(param, bits.iter().copied().take(n).collect());
            }
        }
        let concrete = exec::run(&side.program, &side.spec, Mode::Concrete, &inputs, config)
            .map_err(|e| SelfCheckError::Interpreter {
                kernel: name,
                why: e.to_string(),
            })?;
        let input = |tensor: u32, index: u64| -> Option<f64> {
            let link = run.inputs.get(tensor as usize).copied().flatten()?;
            links.get(link as usize)?.1.get(index as usize).copied()
        };
        let est = evaluate(&run.arena, &roots, &input);
        for (&param, vals) in &side.outcome.outputs {
            let Some(Binding::Tensor(t)) = side.spec.params.get(param) else {
                continue;
            };
            if t.role == Role::In {
                continue;
            }
            let got = concrete.outputs.get(&param);
            let not_described = |element: u64, why: String| SelfCheckError::NotDescribed {
                kernel: name,
                param,
                element,
                set,
                why,
            };
            if let Some(got) = got
                && let Some((&e, _)) = got.iter().find(|(e, _)| !vals.contains_key(e))
            {
                return Err(SelfCheckError::Footprint {
                    kernel: name,
                    param,
                    element: e,
                    by: "concrete",
                    set,
                });
            }
            for (&element, v) in vals {
                let Some(Val::Bits(cb)) = got.and_then(|g| g.get(&element)).copied() else {
                    return Err(SelfCheckError::Footprint {
                        kernel: name,
                        param,
                        element,
                        by: "symbolic",
                        set,
                    });
                };
                // An integer term evaluates exactly (integers below 2^53 in f64): it must be
                // the interpreter's integer.
                if let (Val::Int { term, .. }, Some(c)) = (v, decode_int(cb, t.dtype)) {
                    let tv = est.get(term).map_or(f64::NAN, |x| x.v);
                    if !((c as f64) - tv).abs().le(&0.5) {
                        return Err(SelfCheckError::Mismatch {
                            kernel: name,
                            param,
                            element,
                            term: tv,
                            bound: 0.0,
                            concrete: c as f64,
                            set,
                        });
                    }
                    continue;
                }
                let Some(c) = decode(cb, t.dtype) else {
                    // Integer outputs are compared bit for bit where the term is concrete.
                    if let Val::Bits(sb) = v
                        && *sb != cb
                    {
                        return Err(SelfCheckError::Mismatch {
                            kernel: name,
                            param,
                            element,
                            term: *sb as f64,
                            bound: 0.0,
                            concrete: cb as f64,
                            set,
                        });
                    }
                    continue;
                };
                let (tv, bound, trick, ambiguous) = match v {
                    Val::Term(t) => match est.get(t) {
                        Some(x) => (x.v, x.e, x.trick, x.ambiguous),
                        None => (f64::NAN, 0.0, false, false),
                    },
                    Val::Bits(sb) => match decode(*sb, t.dtype) {
                        Some(x) => (x, 0.0, false, false),
                        None => continue,
                    },
                    _ => continue,
                };
                if !c.is_finite() {
                    return Err(not_described(
                        element,
                        format!("the interpreter computes {c} (an infinity or NaN)"),
                    ));
                }
                if trick {
                    return Err(not_described(
                        element,
                        "a constant of 2^20 or more is added and taken away (a rounding trick)"
                            .into(),
                    ));
                }
                if !(tv.is_finite() && bound.is_finite()) {
                    // The analysis cannot bound this element (errors that cancel, as in
                    // libdevice's compensated `2^r * 2^k`, add up here): no comparison, and
                    // no verdict from it either way.
                    continue;
                }
                if (c - tv).abs() > bound {
                    if ambiguous {
                        return Err(not_described(
                            element,
                            "a data-dependent select whose condition rounding may flip".into(),
                        ));
                    }
                    return Err(SelfCheckError::Mismatch {
                        kernel: name,
                        param,
                        element,
                        term: tv,
                        bound,
                        concrete: c,
                        set,
                    });
                }
            }
        }
    }
    Ok(())
}

/// Runs the self-check on every side of `run` that was executed.
pub fn check_pair(
    pair: &PairSpec,
    run: &PairRun,
    digest: &[u8; 32],
    configs: [&Config; 2],
) -> Result<(), SelfCheckError> {
    for (i, kernel) in [
        crate::cert::Kernel::Reference,
        crate::cert::Kernel::Optimized,
    ]
    .into_iter()
    .enumerate()
    {
        if let Some(side) = run.side(kernel) {
            check_side(pair, run, side, kernel, digest, configs[i])?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::fault::{self, Fault};
    use std::path::Path;

    /// Runs `pair` (a file in kernels/pairs) symbolically under `f` and self-checks the run.
    fn self_check(pair: &str, f: Option<Fault>) -> Result<(), SelfCheckError> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels/pairs");
        let pair = PairSpec::load(&root.join(pair)).expect("the corpus pair loads");
        let read = |p: &Path| std::fs::read_to_string(p).expect("the corpus PTX reads");
        let texts = [read(&pair.reference.ptx), read(&pair.optimized.ptx)];
        let config = Config::default();
        let run = || {
            crate::equiv::run_pair(&pair, [&texts[0], &texts[1]], [true, true], &config)
                .expect("the corpus pair runs")
        };
        let run = match f {
            Some(f) => fault::with(f, run),
            None => run(),
        };
        check_pair(&pair, &run, &[7; 32], [&config, &config])
    }

    fn caught(r: Result<(), SelfCheckError>) -> bool {
        matches!(r, Err(SelfCheckError::Mismatch { .. }))
    }

    #[test]
    fn a_dropped_fma_addend_is_caught() {
        let pair = "matmul_2d-vs-matmul_naive.pair.toml";
        assert_eq!(self_check(pair, None), Ok(()));
        assert!(caught(self_check(pair, Some(Fault::DropFmaAddend))));
    }

    #[test]
    fn a_half_read_in_the_other_format_is_caught() {
        let pair = "bf16x2_add_f32-vs-bf16x2_add.pair.toml";
        assert_eq!(self_check(pair, None), Ok(()));
        assert!(caught(self_check(pair, Some(Fault::HalfFormat))));
    }

    #[test]
    fn an_integer_add_read_as_a_subtraction_is_caught() {
        let pair = "isum_smem-vs-isum_naive.pair.toml";
        assert_eq!(self_check(pair, None), Ok(()));
        assert!(caught(self_check(pair, Some(Fault::IntAddAsSub))));
    }

    #[test]
    fn init_contents_read_one_element_off_are_caught() {
        let pair = "gather_perm-vs-gather_rows.pair.toml";
        assert_eq!(self_check(pair, None), Ok(()));
        assert!(caught(self_check(pair, Some(Fault::InitShift))));
    }

    #[test]
    fn a_fragment_layout_one_lane_off_is_caught() {
        let pair = "mma_rowcol-vs-matmul_f16_naive_16x8.pair.toml";
        assert_eq!(self_check(pair, None), Ok(()));
        assert!(caught(self_check(pair, Some(Fault::MmaLane))));
    }

    /// Symbolic scalars and inout initial values are leaves like tensor elements: the
    /// interpreter gets the values the terms are evaluated at, on both sides, so a misreading
    /// is still caught.
    #[test]
    fn symbolic_scalars_and_inout_tensors_are_checked_like_inputs() {
        let pair = "gemm_ab_tiled-vs-gemm_ab_naive.pair.toml";
        assert_eq!(self_check(pair, None), Ok(()));
        assert!(caught(self_check(pair, Some(Fault::DropFmaAddend))));
        // Linked inputs of different sizes: each side takes the leading part it holds.
        assert_eq!(
            self_check("scale2_vec_wide-vs-scale2.pair.toml", None),
            Ok(())
        );
    }

    #[test]
    fn inputs_are_exact_in_every_float_format() {
        let mut rng = Rng(99);
        for _ in 0..1000 {
            let v = rng.value(true);
            for t in [
                ScalarType::F16,
                ScalarType::Bf16,
                ScalarType::F32,
                ScalarType::F64,
            ] {
                let b = encode(v, t).unwrap();
                assert_eq!(decode(b, t), Some(v), "{v} in {t:?}");
            }
        }
    }
}
