//! Numeric screening: a fast "no" before normal forms. Field normalization of two different
//! quotients cross-multiplies them, which for an attention row is hundreds of thousands of
//! monomials; evaluating both terms in f64 at a few pseudo-random points shows most such
//! differences at once. A screen never proves anything: "far apart" only sends the prover
//! to the concrete interpreter for a witness, and "close" still needs a rule.

use kcert_checker::rules::ring::Side;
use kcert_checker::term::{CmpOp, Func, Node, TermId};

/// Evaluation points; each value of a term is cached per point, so elements that share
/// subterms share their evaluation.
const POINTS: usize = 2;

pub struct Screen<'a> {
    side: Side<'a>,
    values: Vec<[f64; POINTS]>,
    known: Vec<bool>,
}

/// A deterministic pseudo-random input value in [-1, 1) for pair input `link`, element `index`,
/// at point `p`.
fn input_value(link: u32, index: u64, p: usize) -> f64 {
    let mut x = (u64::from(link) << 48) ^ index ^ ((p as u64 + 1) << 56);
    x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 31;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 29;
    (x >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

fn holds(op: CmpOp, a: f64, b: f64) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
    }
}

impl<'a> Screen<'a> {
    pub fn new(side: Side<'a>) -> Self {
        Screen {
            side,
            values: Vec::new(),
            known: Vec::new(),
        }
    }

    /// Whether `a` and `b` evaluate far apart (beyond any rounding of f64 evaluation) at some
    /// point where both are finite.
    pub fn far_apart(&mut self, a: TermId, b: TermId) -> bool {
        let (x, y) = (self.eval(a), self.eval(b));
        (0..POINTS).any(|p| {
            let (u, v) = (x[p], y[p]);
            u.is_finite() && v.is_finite() && (u - v).abs() > 1e-6 * (1.0 + u.abs().max(v.abs()))
        })
    }

    /// The values of `t` at every point, computed with an explicit stack (terms are deep).
    fn eval(&mut self, t: TermId) -> [f64; POINTS] {
        let n = self.side.arena.len();
        if self.known.len() < n {
            self.known.resize(n, false);
            self.values.resize(n, [0.0; POINTS]);
        }
        let mut stack = vec![t];
        while let Some(&u) = stack.last() {
            if self.known[u.index()] {
                stack.pop();
                continue;
            }
            let node = *self.side.arena.node(u);
            let before = stack.len();
            stack.extend(node.children().filter(|c| !self.known[c.index()]));
            if stack.len() > before {
                continue;
            }
            stack.pop();
            let v = |c: TermId, p: usize| self.values[c.index()][p];
            let mut out = [0.0; POINTS];
            for (p, slot) in out.iter_mut().enumerate() {
                *slot = match node {
                    Node::Const(c) => {
                        let (neg, mant, exp) = self.side.arena.const_value(c).parts();
                        let m = mant as f64 * 2f64.powi(exp);
                        if neg { -m } else { m }
                    }
                    Node::NegInf => f64::NEG_INFINITY,
                    Node::PosInf => f64::INFINITY,
                    Node::Input { tensor, index } => {
                        match self.side.inputs.get(tensor as usize).copied().flatten() {
                            Some(link) => input_value(link, index, p),
                            None => f64::NAN,
                        }
                    }
                    Node::Round(_, a) => v(a, p),
                    Node::Add(a, b) => v(a, p) + v(b, p),
                    Node::Sub(a, b) => v(a, p) - v(b, p),
                    Node::Mul(a, b) => v(a, p) * v(b, p),
                    Node::Div(a, b) => v(a, p) / v(b, p),
                    Node::Fma(a, b, c) => v(a, p).mul_add(v(b, p), v(c, p)),
                    Node::Neg(a) => -v(a, p),
                    Node::Max(a, b) => v(a, p).max(v(b, p)),
                    Node::Min(a, b) => v(a, p).min(v(b, p)),
                    Node::Apply(f, a) => {
                        let x = v(a, p);
                        match f {
                            Func::Ex2 => x.exp2(),
                            Func::Rcp => 1.0 / x,
                            Func::Sqrt => x.sqrt(),
                            Func::Rsqrt => 1.0 / x.sqrt(),
                            Func::Lg2 => x.log2(),
                            Func::Sin => x.sin(),
                            Func::Cos => x.cos(),
                            Func::Tanh => x.tanh(),
                            Func::Abs => x.abs(),
                        }
                    }
                    Node::Cmp(op, a, b) => f64::from(u8::from(holds(op, v(a, p), v(b, p)))),
                    Node::Select { cond, then, else_ } => {
                        if v(cond, p) != 0.0 {
                            v(then, p)
                        } else {
                            v(else_, p)
                        }
                    }
                    Node::And(a, b) => f64::from(u8::from(v(a, p) != 0.0 && v(b, p) != 0.0)),
                    Node::Or(a, b) => f64::from(u8::from(v(a, p) != 0.0 || v(b, p) != 0.0)),
                    Node::Not(a) => f64::from(u8::from(v(a, p) == 0.0)),
                };
            }
            self.values[u.index()] = out;
            self.known[u.index()] = true;
        }
        self.values[t.index()]
    }
}
