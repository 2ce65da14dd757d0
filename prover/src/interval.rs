//! Rigorous interval evaluation of terms at a point, for certified refutations.
//!
//! Two kernels whose real-valued outputs differ by less than any "far beyond rounding"
//! threshold (the exact GELU and its tanh approximation: at most 4.7e-4 apart) can only be
//! refuted by showing that the two *real* values at some input are different. Evaluating both
//! terms in f64 interval arithmetic with outward rounding encloses each real value; when the two
//! enclosures are disjoint, the real values differ, whatever the rounding of the evaluation.
//!
//! Every operation result is widened outward: by one ulp for the correctly rounded IEEE
//! operations (+, -, *, /, sqrt), and by a relative 2^-40 (about a million ulps, far more than any
//! libm's error) for `exp2`, `log2` and `tanh`. `sin` and `cos` give [-1, 1]. A comparison is
//! decided only when its operands' intervals do not straddle each other; an undecided `select`
//! takes the hull of its two branches (the value is one of them). A quotient by an interval
//! holding 0, the square root of one reaching below 0, or anything that produces NaN makes the
//! value [`IVal::Undefined`]: no enclosure, so no verdict.

use kcert_checker::rules::ring::Side;
use kcert_checker::term::{CmpOp, Func, Node, TermId};
use std::collections::HashMap;

/// A closed interval of reals `[lo, hi]` (infinite ends allowed).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

/// Three-valued truth of a comparison on intervals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Truth {
    True,
    False,
    Unknown,
}

/// The value of a node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum IVal {
    Num(Interval),
    Bool(Truth),
    /// No enclosure (a division by an interval holding zero, NaN, an unassigned input, ...).
    Undefined,
}

/// Relative widening for libm functions that are not correctly rounded.
const LIBM_REL: f64 = 1.0 / (1u64 << 40) as f64;

impl Interval {
    pub fn point(x: f64) -> Interval {
        Interval { lo: x, hi: x }
    }

    /// `[lo, hi]` from round-to-nearest results, one ulp outward.
    fn rounded(lo: f64, hi: f64) -> Option<Interval> {
        if lo.is_nan() || hi.is_nan() {
            return None;
        }
        Some(Interval {
            lo: lo.next_down(),
            hi: hi.next_up(),
        })
    }

    /// `[lo, hi]` from a libm function's results, widened by [`LIBM_REL`] and one ulp.
    fn libm(lo: f64, hi: f64) -> Option<Interval> {
        if lo.is_nan() || hi.is_nan() {
            return None;
        }
        let (lo, hi) = (lo - lo.abs() * LIBM_REL, hi + hi.abs() * LIBM_REL);
        Interval::rounded(lo, hi)
    }

    pub fn contains_zero(self) -> bool {
        self.lo <= 0.0 && self.hi >= 0.0
    }

    /// Whether the two intervals have no point in common.
    pub fn disjoint(self, o: Interval) -> bool {
        self.hi < o.lo || o.hi < self.lo
    }

    fn hull(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }
}

/// An enclosure of `mant * 2^exp`.
fn dyadic(mant: u64, exp: i32) -> Interval {
    if mant == 0 {
        return Interval::point(0.0);
    }
    if !(-900..=900).contains(&exp) {
        // Never met in kernels (float literals are within 2^±150); no need to be tight.
        return Interval {
            lo: 0.0,
            hi: f64::INFINITY,
        };
    }
    // `mant as f64` may round (mant has up to 64 bits); scaling by a normal power of two whose
    // product stays normal (|exp| <= 900, 1 <= mant < 2^64) is exact.
    let m = mant as f64;
    let (lo, hi) = if m < 18_446_744_073_709_551_616.0 && m as u64 == mant {
        (m, m)
    } else {
        (m.next_down(), m.next_up())
    };
    let scale = 2f64.powi(exp);
    Interval {
        lo: lo * scale,
        hi: hi * scale,
    }
}

fn add(a: Interval, b: Interval) -> Option<Interval> {
    Interval::rounded(a.lo + b.lo, a.hi + b.hi)
}

fn neg(a: Interval) -> Interval {
    Interval {
        lo: -a.hi,
        hi: -a.lo,
    }
}

fn mul(a: Interval, b: Interval) -> Option<Interval> {
    let p = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
    if p.iter().any(|x| x.is_nan()) {
        return None;
    }
    let lo = p.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = p.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Interval::rounded(lo, hi)
}

fn recip(a: Interval) -> Option<Interval> {
    if a.contains_zero() {
        return None;
    }
    Interval::rounded(1.0 / a.hi, 1.0 / a.lo)
}

/// A monotone increasing libm function.
fn increasing(a: Interval, f: fn(f64) -> f64) -> Option<Interval> {
    Interval::libm(f(a.lo), f(a.hi))
}

fn compare(op: CmpOp, a: Interval, b: Interval) -> Truth {
    let t = |yes: bool, no: bool| match (yes, no) {
        (true, _) => Truth::True,
        (_, true) => Truth::False,
        _ => Truth::Unknown,
    };
    let same_point = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo;
    match op {
        CmpOp::Lt => t(a.hi < b.lo, a.lo >= b.hi),
        CmpOp::Le => t(a.hi <= b.lo, a.lo > b.hi),
        CmpOp::Gt => t(a.lo > b.hi, a.hi <= b.lo),
        CmpOp::Ge => t(a.lo >= b.hi, a.hi < b.lo),
        CmpOp::Eq => t(same_point, a.disjoint(b)),
        CmpOp::Ne => t(a.disjoint(b), same_point),
    }
}

fn not(a: Truth) -> Truth {
    match a {
        Truth::True => Truth::False,
        Truth::False => Truth::True,
        Truth::Unknown => Truth::Unknown,
    }
}

fn and(a: Truth, b: Truth) -> Truth {
    match (a, b) {
        (Truth::False, _) | (_, Truth::False) => Truth::False,
        (Truth::True, Truth::True) => Truth::True,
        _ => Truth::Unknown,
    }
}

/// Evaluates terms of one arena at one point: `point[(link, index)]` is the value of the input
/// element `index` of pair input `link`. Values are cached, so terms that share subterms share
/// their evaluation.
pub struct Evaluator<'a> {
    side: Side<'a>,
    point: &'a HashMap<(u32, u64), f64>,
    memo: HashMap<TermId, IVal>,
}

impl<'a> Evaluator<'a> {
    pub fn new(side: Side<'a>, point: &'a HashMap<(u32, u64), f64>) -> Self {
        Evaluator {
            side,
            point,
            memo: HashMap::new(),
        }
    }

    /// The enclosure of `t`, with an explicit stack (terms are deep).
    pub fn eval(&mut self, t: TermId) -> IVal {
        let mut stack = vec![t];
        while let Some(&u) = stack.last() {
            if self.memo.contains_key(&u) {
                stack.pop();
                continue;
            }
            let node = *self.side.arena.node(u);
            let before = stack.len();
            stack.extend(node.children().filter(|c| !self.memo.contains_key(c)));
            if stack.len() > before {
                continue;
            }
            stack.pop();
            let v = self.node(node);
            self.memo.insert(u, v);
        }
        self.memo.get(&t).copied().unwrap_or(IVal::Undefined)
    }

    fn node(&self, node: Node) -> IVal {
        let get = |c: TermId| self.memo.get(&c).copied().unwrap_or(IVal::Undefined);
        let num = |c: TermId| match get(c) {
            IVal::Num(i) => Some(i),
            _ => None,
        };
        let truth = |c: TermId| match get(c) {
            IVal::Bool(b) => Some(b),
            _ => None,
        };
        let n = |i: Option<Interval>| i.map_or(IVal::Undefined, IVal::Num);
        let b = |t: Option<Truth>| t.map_or(IVal::Undefined, IVal::Bool);
        match node {
            Node::Const(c) => {
                let (negative, mant, exp) = self.side.arena.const_value(c).parts();
                let i = dyadic(mant, exp);
                IVal::Num(if negative { neg(i) } else { i })
            }
            Node::NegInf => IVal::Num(Interval::point(f64::NEG_INFINITY)),
            Node::PosInf => IVal::Num(Interval::point(f64::INFINITY)),
            Node::Input { tensor, index } => {
                let link = self.side.inputs.get(tensor as usize).copied().flatten();
                match link.and_then(|l| self.point.get(&(l, index))) {
                    Some(&x) => IVal::Num(Interval::point(x)),
                    None => IVal::Undefined,
                }
            }
            Node::Add(x, y) => n(num(x).zip(num(y)).and_then(|(x, y)| add(x, y))),
            Node::Sub(x, y) => n(num(x).zip(num(y)).and_then(|(x, y)| add(x, neg(y)))),
            Node::Mul(x, y) => n(num(x).zip(num(y)).and_then(|(x, y)| mul(x, y))),
            Node::Div(x, y) => n(num(x).zip(num(y)).and_then(|(x, y)| mul(x, recip(y)?))),
            Node::Fma(x, y, z) => n((|| add(mul(num(x)?, num(y)?)?, num(z)?))()),
            Node::Neg(x) => n(num(x).map(neg)),
            // The real value: rounding is the identity over the reals.
            Node::Round(_, x) => get(x),
            Node::Max(x, y) => n(num(x).zip(num(y)).map(|(x, y)| Interval {
                lo: x.lo.max(y.lo),
                hi: x.hi.max(y.hi),
            })),
            Node::Min(x, y) => n(num(x).zip(num(y)).map(|(x, y)| Interval {
                lo: x.lo.min(y.lo),
                hi: x.hi.min(y.hi),
            })),
            Node::Apply(f, x) => n(num(x).and_then(|x| func(f, x))),
            Node::Cmp(op, x, y) => b(num(x).zip(num(y)).map(|(x, y)| compare(op, x, y))),
            Node::And(x, y) => b(truth(x).zip(truth(y)).map(|(x, y)| and(x, y))),
            Node::Or(x, y) => b(truth(x)
                .zip(truth(y))
                .map(|(x, y)| not(and(not(x), not(y))))),
            Node::Not(x) => b(truth(x).map(not)),
            Node::Select { cond, then, else_ } => match truth(cond) {
                Some(Truth::True) => get(then),
                Some(Truth::False) => get(else_),
                // Undecided: the value is one of the two branches.
                Some(Truth::Unknown) => n(num(then).zip(num(else_)).map(|(a, b)| a.hull(b))),
                None => IVal::Undefined,
            },
        }
    }
}

fn func(f: Func, x: Interval) -> Option<Interval> {
    match f {
        Func::Ex2 => increasing(x, f64::exp2),
        Func::Rcp => recip(x),
        Func::Sqrt if x.lo >= 0.0 => Interval::rounded(x.lo.sqrt(), x.hi.sqrt()),
        Func::Rsqrt if x.lo > 0.0 => recip(Interval::rounded(x.lo.sqrt(), x.hi.sqrt())?),
        Func::Sqrt | Func::Rsqrt => None,
        Func::Lg2 if x.lo > 0.0 => increasing(x, f64::log2),
        Func::Lg2 => None,
        Func::Tanh => {
            let i = increasing(x, f64::tanh)?;
            Some(Interval {
                lo: i.lo.max(-1.0),
                hi: i.hi.min(1.0),
            })
        }
        Func::Sin | Func::Cos => Some(Interval { lo: -1.0, hi: 1.0 }),
        Func::Abs => Some(if x.lo >= 0.0 {
            x
        } else if x.hi <= 0.0 {
            neg(x)
        } else {
            Interval {
                lo: 0.0,
                hi: x.hi.max(-x.lo),
            }
        }),
    }
}

/// The input leaves `(link, index)` of the terms `roots`, each once, in first-seen order;
/// `None` when one of them is not a pair input (a tensor of one side only).
pub fn leaves(side: &Side, roots: &[TermId]) -> Option<Vec<(u32, u64)>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut stack: Vec<TermId> = roots.to_vec();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        let node = *side.arena.node(t);
        if let Node::Input { tensor, index } = node {
            let link = side.inputs.get(tensor as usize).copied().flatten()?;
            out.push((link, index));
        }
        stack.extend(node.children());
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kcert_checker::term::{Dyadic, TermArena};

    fn at(arena: &TermArena, t: TermId, x: f64) -> IVal {
        let inputs = [Some(0u32)];
        let side = Side {
            arena,
            inputs: &inputs,
        };
        let point: HashMap<(u32, u64), f64> = [((0, 0), x)].into();
        Evaluator::new(side, &point).eval(t)
    }

    fn num(v: IVal) -> Interval {
        match v {
            IVal::Num(i) => i,
            other => panic!("{other:?}"),
        }
    }

    struct T(TermArena);

    impl T {
        fn n(&mut self, node: Node) -> TermId {
            self.0.intern(node).unwrap()
        }
        fn c(&mut self, v: f64) -> TermId {
            let d = Dyadic::from_f64_bits(v.to_bits()).unwrap();
            self.0.constant(d).unwrap()
        }
        fn x(&mut self) -> TermId {
            self.n(Node::Input {
                tensor: 0,
                index: 0,
            })
        }
    }

    #[test]
    fn enclosures_contain_the_real_value_and_are_tight() {
        let mut a = T(TermArena::new());
        let x = a.x();
        let third = a.c(3.0);
        let q = a.n(Node::Div(x, third));
        let e = a.n(Node::Apply(Func::Ex2, q));
        let s = a.n(Node::Apply(Func::Sqrt, e));
        // 2^(x/3) then sqrt: 2^(x/6).
        let v = num(at(&a.0, s, 1.0));
        let truth = 2f64.powf(1.0 / 6.0);
        assert!(v.lo <= truth && truth <= v.hi, "{v:?}");
        assert!(v.hi - v.lo < 1e-9, "{v:?}");
    }

    #[test]
    fn equal_reals_built_differently_never_separate() {
        // (x + 1)^2 and x^2 + 2x + 1, x + x and 2x, at points where f64 rounds both.
        let mut a = T(TermArena::new());
        let x = a.x();
        let one = a.c(1.0);
        let two = a.c(2.0);
        let x1 = a.n(Node::Add(x, one));
        let sq = a.n(Node::Mul(x1, x1));
        let xx = a.n(Node::Mul(x, x));
        let tx = a.n(Node::Mul(two, x));
        let p = a.n(Node::Add(xx, tx));
        let p = a.n(Node::Add(p, one));
        let xpx = a.n(Node::Add(x, x));
        for v in [0.1, -0.7, 1e8 + 0.3, 3.3e-9, 2.7] {
            assert!(!num(at(&a.0, sq, v)).disjoint(num(at(&a.0, p, v))), "{v}");
            assert!(!num(at(&a.0, xpx, v)).disjoint(num(at(&a.0, tx, v))), "{v}");
        }
    }

    #[test]
    fn different_reals_separate_unless_the_gap_is_below_the_enclosures() {
        let mut a = T(TermArena::new());
        let x = a.x();
        let tiny = a.c(1e-300);
        let big = a.c(1e-6);
        let xt = a.n(Node::Add(x, tiny));
        let xb = a.n(Node::Add(x, big));
        let (v, w, u) = (
            num(at(&a.0, x, 2.7)),
            num(at(&a.0, xt, 2.7)),
            num(at(&a.0, xb, 2.7)),
        );
        assert!(v.disjoint(u));
        // 1e-300 is real but far below the width of the enclosure at 2.7: no verdict.
        assert!(!v.disjoint(w));
    }

    #[test]
    fn selects_decide_only_off_the_threshold() {
        // select(x/3 >= 1/3, x, -x): at x = 1 the comparison of x/3 (rounded) with 1/3
        // (rounded) straddles, so the value is the hull [-1, 1]; at x = 2 it is decided.
        let mut a = T(TermArena::new());
        let x = a.x();
        let three = a.c(3.0);
        let one = a.c(1.0);
        let l = a.n(Node::Div(x, three));
        let r = a.n(Node::Div(one, three));
        let cond = a.n(Node::Cmp(CmpOp::Ge, l, r));
        let nx = a.n(Node::Neg(x));
        let s = a.n(Node::Select {
            cond,
            then: x,
            else_: nx,
        });
        let v = num(at(&a.0, s, 1.0));
        assert!(v.lo <= -1.0 && v.hi >= 1.0, "{v:?}");
        assert_eq!(num(at(&a.0, s, 2.0)), Interval::point(2.0));
        assert_eq!(num(at(&a.0, s, -2.0)), Interval::point(2.0));
    }

    #[test]
    fn division_by_an_interval_holding_zero_has_no_enclosure() {
        let mut a = T(TermArena::new());
        let x = a.x();
        let q = a.n(Node::Div(x, x));
        assert_eq!(at(&a.0, q, 0.0), IVal::Undefined);
        assert!(matches!(at(&a.0, q, 3.0), IVal::Num(i) if i.lo <= 1.0 && i.hi >= 1.0));
    }
}
