//! The rule `field_normalize`: two terms are equal when their normal forms as quotients of
//! exponential polynomials, cross-multiplied, coincide, and both denominators are provably
//! positive.
//!
//! A normal form is `P / Q`, where `P` and `Q` are sums of `coefficient · monomial · 2^E`, the
//! coefficient an exact dyadic, the monomial a multiset of input variables and *atoms*, and `E`
//! itself a polynomial (so `2^a · 2^b = 2^(a+b)` and `2^0 = 1` hold by construction; `ex2` is
//! exactly `2^x`, and a float literal near log2(e) is the dyadic it denotes). Atoms stand for
//! what the rule does not open: `max`/`min` (flattened, sorted, deduplicated, with `-inf` dropped
//! from `max` and `+inf` from `min`, so every bracketing of a running max is one atom), `sqrt`,
//! `rsqrt`, `tanh`, selects, and `ex2` of a non-polynomial; an atom is keyed by the normal forms
//! of its arguments. `-inf` and `+inf` are admitted only where they fold away: `ex2(-inf) = 0`,
//! `x + (-inf) = -inf`, `c · (-inf)` for a nonzero constant `c` (by its sign), `max(-inf, x) = x`.
//!
//! Sums, products and quotients never cancel common factors, so every denominator ever formed
//! survives into the final one; requiring that (and every divisor's and atom argument's
//! denominator) to be provably positive guarantees no division by zero anywhere on either side.
//! Provably positive: positive coefficients times `2^E` times products in which every factor
//! that is not a positive atom (`2^x` of a non-polynomial, `sqrt` of a provably positive
//! argument) occurs to an even power, with one monomial of positive atoms only. `rsqrt x` of a
//! provably positive `x` is `1 / sqrt x`; otherwise it is an atom of its own.
//!
//! Lean twin: `Kcert.Rules.fieldNormalizeX_sound` (lean/Kcert/Rules/FieldInf.lean), in every
//! `ExpField` (a commutative field with `exp(a+b) = exp(a)·exp(b)`, `exp(0) = 1`, a positivity
//! and a nonnegativity predicate), where `sqrt x > 0` and `rsqrt x = 1 / sqrt x` for `x > 0`.
//! The model follows the squares and positive atoms of `positive`, the `rsqrt` law and the
//! `shifted` comparison (it tries every pair of denominator exponents where this takes the
//! least under `exp_cmp`); lean/README.md lists the remaining differences.

use super::coef::{Coef, Overflow};
use super::ring::Side;
use crate::term::FxBuildHasher;
use crate::term::{CmpOp, Func, Node, TermId};
use std::collections::HashMap;

/// Input variables are `(link << 40) | element`, as in `ring`; atoms carry this bit.
const ATOM: u64 = 1 << 63;
/// Deepest nesting of non-sum operations followed recursively.
const MAX_DEPTH: u32 = 2000;

/// `vars` (sorted multiset) times `2^exps[exp]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mono {
    vars: Vec<u64>,
    exp: u32,
}

/// A canonical exponential polynomial: sorted by monomial, no zero coefficients.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Poly(Vec<(Mono, Coef)>);

/// A normal form.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Frac { num: Poly, den: Poly },
    NegInf,
    PosInf,
}

/// An opaque atom over interned normal forms (ids into [`Normalizer`]'s value table, so a
/// running maximum over n values costs n ids, not n polynomials).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Atom {
    Func(Func, u32),
    /// Sorted, without duplicates: max and min are associative, commutative, idempotent.
    Max(Vec<u32>),
    Min(Vec<u32>),
    Select(CmpOp, u32, u32, u32, u32),
}

/// Why the rule does not apply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    #[error("{0}")]
    Overflow(#[from] Overflow),
    #[error("the normal forms differ")]
    Different,
    #[error("a denominator is not provably positive")]
    Denominator,
    #[error("an infinity does not fold away: {0}")]
    Infinite(&'static str),
    #[error("division by zero")]
    DivisionByZero,
    #[error("input tensor number {0} is not paired with an input of the other kernel")]
    UnmappedInput(u32),
    #[error("unsupported in normal forms: {0}")]
    Unsupported(&'static str),
    #[error("the normalization exceeds its budget of {0} steps")]
    Budget(u64),
    #[error("terms nest deeper than {MAX_DEPTH}")]
    Depth,
}

impl Poly {
    fn constant(c: Coef) -> Poly {
        if c.is_zero() {
            Poly(Vec::new())
        } else {
            Poly(vec![(
                Mono {
                    vars: Vec::new(),
                    exp: 0,
                },
                c,
            )])
        }
    }

    fn one() -> Poly {
        Poly::constant(Coef::ONE)
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// The constant it is, if it is one.
    fn as_constant(&self) -> Option<Coef> {
        match self.0.as_slice() {
            [] => Some(Coef::ZERO),
            [(m, c)] if m.vars.is_empty() && m.exp == 0 => Some(*c),
            _ => None,
        }
    }

    fn from_terms(mut terms: Vec<(Mono, Coef)>) -> Result<Poly, FieldError> {
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(Mono, Coef)> = Vec::with_capacity(terms.len());
        for (m, c) in terms {
            match out.last_mut() {
                Some((lm, lc)) if *lm == m => *lc = lc.checked_add(c)?,
                _ => out.push((m, c)),
            }
        }
        out.retain(|(_, c)| !c.is_zero());
        Ok(Poly(out))
    }

    fn neg(&self) -> Poly {
        Poly(
            self.0
                .iter()
                .map(|(m, c)| (m.clone(), c.negated()))
                .collect(),
        )
    }

    fn scale(&self, k: Coef) -> Result<Poly, FieldError> {
        Poly::from_terms(
            self.0
                .iter()
                .map(|(m, c)| Ok((m.clone(), c.checked_mul(k)?)))
                .collect::<Result<_, FieldError>>()?,
        )
    }
}

const NO_MEMO: u32 = u32::MAX;

/// Normal forms of terms of one arena, with the tables that make them canonical.
pub struct Normalizer<'a> {
    side: Side<'a>,
    /// Normal forms already computed: `memo_at[t]` indexes `memo` (`NO_MEMO` when absent); a
    /// dense index because lookups are the hot path of long sums.
    memo_at: Vec<u32>,
    memo: Vec<Value>,
    /// Parents per term (saturating), filled on first use.
    parents: Vec<u8>,
    exps: Vec<Poly>,
    exp_ids: HashMap<Poly, u32, FxBuildHasher>,
    exp_sums: HashMap<(u32, u32), u32, FxBuildHasher>,
    atoms: Vec<Atom>,
    /// Per atom: whether it is positive at every input (`2^x`, and `sqrt x` of a provably
    /// positive `x`).
    atom_pos: Vec<bool>,
    atom_ids: HashMap<Atom, u32, FxBuildHasher>,
    values: Vec<Value>,
    value_ids: HashMap<Value, u32, FxBuildHasher>,
    limit: u64,
    left: u64,
}

impl<'a> Normalizer<'a> {
    pub fn new(side: Side<'a>, budget: u64) -> Self {
        let zero = Poly::default();
        let mut exp_ids = HashMap::default();
        exp_ids.insert(zero.clone(), 0);
        Normalizer {
            side,
            memo_at: Vec::new(),
            memo: Vec::new(),
            parents: Vec::new(),
            exps: vec![zero],
            exp_ids,
            exp_sums: HashMap::default(),
            atoms: Vec::new(),
            atom_pos: Vec::new(),
            atom_ids: HashMap::default(),
            values: Vec::new(),
            value_ids: HashMap::default(),
            limit: budget,
            left: budget,
        }
    }

    /// Whether `t` has more than one parent in the arena (parent counts computed once).
    fn shared(&mut self, t: TermId) -> bool {
        if self.parents.is_empty() {
            self.parents = vec![0u8; self.side.arena.len()];
            for node in self.side.arena.nodes() {
                for k in node.children() {
                    let c = &mut self.parents[k.index()];
                    *c = c.saturating_add(1);
                }
            }
        }
        self.parents.get(t.index()).is_none_or(|&c| c != 1)
    }

    fn memoized(&self, t: TermId) -> Option<&Value> {
        match self.memo_at.get(t.index()) {
            Some(&i) if i != NO_MEMO => self.memo.get(i as usize),
            _ => None,
        }
    }

    /// A fresh budget for the next comparison; the tables (and memoized normal forms) stay.
    pub fn rebudget(&mut self) {
        self.left = self.limit;
    }

    fn spend(&mut self, n: usize) -> Result<(), FieldError> {
        self.left = self
            .left
            .checked_sub(n as u64)
            .ok_or(FieldError::Budget(self.limit))?;
        Ok(())
    }

    fn exp_id(&mut self, p: Poly) -> u32 {
        if let Some(&i) = self.exp_ids.get(&p) {
            return i;
        }
        let i = self.exps.len() as u32;
        self.exps.push(p.clone());
        self.exp_ids.insert(p, i);
        i
    }

    fn exp_sum(&mut self, a: u32, b: u32) -> Result<u32, FieldError> {
        if a == 0 {
            return Ok(b);
        }
        if b == 0 {
            return Ok(a);
        }
        let key = (a.min(b), a.max(b));
        if let Some(&i) = self.exp_sums.get(&key) {
            return Ok(i);
        }
        let p = self.add_poly(
            &self.exps[a as usize].clone(),
            &self.exps[b as usize].clone(),
        )?;
        let i = self.exp_id(p);
        self.exp_sums.insert(key, i);
        Ok(i)
    }

    fn add_poly(&mut self, a: &Poly, b: &Poly) -> Result<Poly, FieldError> {
        self.spend(a.0.len() + b.0.len())?;
        Poly::from_terms(a.0.iter().chain(&b.0).cloned().collect())
    }

    fn mul_poly(&mut self, a: &Poly, b: &Poly) -> Result<Poly, FieldError> {
        self.spend(a.0.len().saturating_mul(b.0.len()))?;
        let mut terms = Vec::with_capacity(a.0.len() * b.0.len());
        for (ma, ca) in &a.0 {
            for (mb, cb) in &b.0 {
                let mut vars = ma.vars.clone();
                vars.extend_from_slice(&mb.vars);
                vars.sort_unstable();
                let exp = self.exp_sum(ma.exp, mb.exp)?;
                terms.push((Mono { vars, exp }, ca.checked_mul(*cb)?));
            }
        }
        Poly::from_terms(terms)
    }

    /// `num / den` with both multiplied by `2^-E`, `E` the least exponent of `den` in an order
    /// that shifting every exponent by one polynomial preserves ([`exp_cmp`]). Fractions that
    /// differ only by such a common factor get equal forms: softmax with different stabilizers
    /// (a running maximum of scaled or of raw scores, or none), compared without the quadratic
    /// cross-multiplication. Only a fast path of the rule: when `N1 2^-E1 = N2 2^-E2` and
    /// `D1 2^-E1 = D2 2^-E2`, then `N1 D2 = N2 D1` as normal forms, and every denominator stays a
    /// sum of positive constants times powers of two.
    fn shifted(&mut self, num: &Poly, den: &Poly) -> Result<(Poly, Poly), FieldError> {
        let exps = &self.exps;
        let least = den
            .0
            .iter()
            .map(|(m, _)| m.exp)
            .min_by(|a, b| exp_cmp(&exps[*a as usize], &exps[*b as usize]));
        let Some(e) = least.filter(|&e| e != 0) else {
            return Ok((num.clone(), den.clone()));
        };
        let minus = self.exps[e as usize].neg();
        let minus = self.exp_id(minus);
        let mut shift = |p: &Poly| -> Result<Poly, FieldError> {
            let mut terms = Vec::with_capacity(p.0.len());
            for (m, c) in &p.0 {
                let exp = self.exp_sum(m.exp, minus)?;
                terms.push((
                    Mono {
                        vars: m.vars.clone(),
                        exp,
                    },
                    *c,
                ));
            }
            Poly::from_terms(terms)
        };
        Ok((shift(num)?, shift(den)?))
    }

    fn frac(num: Poly, den: Poly) -> Value {
        Value::Frac { num, den }
    }

    /// The id of normal form `v` in the value table.
    fn value_id(&mut self, v: Value) -> u32 {
        if let Some(&i) = self.value_ids.get(&v) {
            return i;
        }
        let i = self.values.len() as u32;
        self.values.push(v.clone());
        self.value_ids.insert(v, i);
        i
    }

    /// An opaque atom. Its arguments' denominators must be provably positive: an atom hides
    /// them, so a zero one could no longer be seen in the final denominator (Lean:
    /// `atom_inv`; without it `sqrt(x0/x1 + x2/x3)` would equal `sqrt((x0 x3 + x2 x1)/(x1 x3))`
    /// even at `x1 = 0`).
    fn atom(&mut self, a: Atom) -> Result<Value, FieldError> {
        let args: &[u32] = match &a {
            Atom::Func(_, x) => std::slice::from_ref(x),
            Atom::Select(_, l, r, x, y) => &[*l, *r, *x, *y],
            Atom::Max(v) | Atom::Min(v) => v,
        };
        if args.iter().any(
            |&i| matches!(&self.values[i as usize], Value::Frac { den, .. } if !self.positive(den)),
        ) {
            return Err(FieldError::Denominator);
        }
        let id = match self.atom_ids.get(&a) {
            Some(&i) => i,
            None => {
                let i = self.atoms.len() as u32;
                let pos = match a {
                    Atom::Func(Func::Ex2, _) => true,
                    Atom::Func(Func::Sqrt, x) => self.positive_value(x),
                    _ => false,
                };
                self.atoms.push(a.clone());
                self.atom_pos.push(pos);
                self.atom_ids.insert(a, i);
                i
            }
        };
        Ok(Self::frac(
            Poly(vec![(
                Mono {
                    vars: vec![ATOM | u64::from(id)],
                    exp: 0,
                },
                Coef::ONE,
            )]),
            Poly::one(),
        ))
    }

    fn add(&mut self, a: Value, b: Value) -> Result<Value, FieldError> {
        use Value::*;
        Ok(match (a, b) {
            (NegInf, PosInf) | (PosInf, NegInf) => return Err(FieldError::Infinite("-inf + +inf")),
            (NegInf, _) | (_, NegInf) => NegInf,
            (PosInf, _) | (_, PosInf) => PosInf,
            (Frac { num: n1, den: d1 }, Frac { num: n2, den: d2 }) => {
                if d1 == d2 {
                    let n = self.add_poly(&n1, &n2)?;
                    Self::frac(n, d1)
                } else {
                    let a = self.mul_poly(&n1, &d2)?;
                    let b = self.mul_poly(&n2, &d1)?;
                    let n = self.add_poly(&a, &b)?;
                    let d = self.mul_poly(&d1, &d2)?;
                    Self::frac(n, d)
                }
            }
        })
    }

    fn neg(v: Value) -> Value {
        match v {
            Value::NegInf => Value::PosInf,
            Value::PosInf => Value::NegInf,
            Value::Frac { num, den } => Value::Frac {
                num: num.neg(),
                den,
            },
        }
    }

    /// The sign of a constant value, if it is a nonzero constant.
    fn const_sign(v: &Value) -> Option<bool> {
        let Value::Frac { num, den } = v else {
            return None;
        };
        let (n, d) = (num.as_constant()?, den.as_constant()?);
        if n.is_zero() || d.is_zero() {
            return None;
        }
        Some((n.parts().0 > 0) == (d.parts().0 > 0))
    }

    fn mul(&mut self, a: Value, b: Value) -> Result<Value, FieldError> {
        use Value::*;
        match (&a, &b) {
            (Frac { num: n1, den: d1 }, Frac { num: n2, den: d2 }) => {
                let n = self.mul_poly(n1, n2)?;
                let d = self.mul_poly(d1, d2)?;
                Ok(Self::frac(n, d))
            }
            (inf @ (NegInf | PosInf), other) | (other, inf @ (NegInf | PosInf)) => {
                match Self::const_sign(other) {
                    Some(true) => Ok(inf.clone()),
                    Some(false) => Ok(Self::neg(inf.clone())),
                    None => Err(FieldError::Infinite(
                        "an infinity times a non-constant or zero",
                    )),
                }
            }
        }
    }

    fn div(&mut self, a: Value, b: Value) -> Result<Value, FieldError> {
        match b {
            Value::Frac { num, den } => {
                if num.is_zero() {
                    return Err(FieldError::DivisionByZero);
                }
                // The divisor's own denominator leaves the result; it must be provably nonzero
                // (Lean: `norm_sound`; without it `rcp(rcp(x)) = x` would pass at `x = 0`).
                if !self.positive(&den) {
                    return Err(FieldError::Denominator);
                }
                self.mul(a, Self::frac(den, num))
            }
            _ => Err(FieldError::Infinite("division by an infinity")),
        }
    }

    fn ex2(&mut self, a: Value) -> Result<Value, FieldError> {
        match a {
            Value::NegInf => Ok(Self::frac(Poly::default(), Poly::one())),
            Value::PosInf => Err(FieldError::Infinite("ex2(+inf)")),
            Value::Frac { num, den } => {
                // 2^(P/c) for a constant c = ±2^k is 2^(P·(1/c)), exactly; otherwise opaque.
                let inv = den.as_constant().and_then(Coef::inverse_of_power_of_two);
                match inv {
                    Some(k) => {
                        let p = num.scale(k)?;
                        let id = self.exp_id(p);
                        Ok(Self::frac(
                            Poly(vec![(
                                Mono {
                                    vars: Vec::new(),
                                    exp: id,
                                },
                                Coef::ONE,
                            )]),
                            Poly::one(),
                        ))
                    }
                    None => {
                        let x = self.value_id(Value::Frac { num, den });
                        self.atom(Atom::Func(Func::Ex2, x))
                    }
                }
            }
        }
    }

    /// The arguments of a max (or min) atom, when `v` is exactly one.
    fn lattice_args(&self, v: &Value, max: bool) -> Option<Vec<u32>> {
        let Value::Frac { num, den } = v else {
            return None;
        };
        if *den != Poly::one() {
            return None;
        }
        let [(m, c)] = num.0.as_slice() else {
            return None;
        };
        if *c != Coef::ONE || m.exp != 0 {
            return None;
        }
        let [var] = m.vars.as_slice() else {
            return None;
        };
        if var & ATOM == 0 {
            return None;
        }
        match (&self.atoms[(var & !ATOM) as usize], max) {
            (Atom::Max(args), true) | (Atom::Min(args), false) => Some(args.clone()),
            _ => None,
        }
    }

    fn lattice(&mut self, a: Value, b: Value, max: bool) -> Result<Value, FieldError> {
        let (identity, absorbing) = if max {
            (Value::NegInf, Value::PosInf)
        } else {
            (Value::PosInf, Value::NegInf)
        };
        let mut args = Vec::new();
        for v in [a, b] {
            if v == absorbing {
                return Err(FieldError::Infinite("max(+inf, _) or min(-inf, _)"));
            }
            match self.lattice_args(&v, max) {
                Some(inner) => args.extend(inner),
                None if v == identity => {}
                None => args.push(self.value_id(v)),
            }
        }
        args.sort_unstable();
        args.dedup();
        Ok(match args.len() {
            0 => identity,
            1 => self.values[args[0] as usize].clone(),
            _ => self.atom(if max {
                Atom::Max(args)
            } else {
                Atom::Min(args)
            })?,
        })
    }

    /// Whether `p > 0` at every input: every monomial is a positive coefficient times `2^E`
    /// times a product in which each factor that is not a positive atom occurs to an even power
    /// (so the monomial is `>= 0`), and some monomial has positive atoms only (so it is `> 0`).
    fn positive(&self, p: &Poly) -> bool {
        let mut strict = false;
        for (m, c) in &p.0 {
            if c.parts().0 <= 0 {
                return false;
            }
            let mut all_positive = true;
            for run in m.vars.chunk_by(|a, b| a == b) {
                let v = run[0];
                let pos = v & ATOM != 0
                    && self
                        .atom_pos
                        .get((v & !ATOM) as usize)
                        .copied()
                        .unwrap_or(false);
                if !pos {
                    all_positive = false;
                    if run.len() % 2 == 1 {
                        return false;
                    }
                }
            }
            strict |= all_positive;
        }
        strict
    }

    /// Whether the normal form with id `x` is a quotient of two provably positive polynomials.
    fn positive_value(&self, x: u32) -> bool {
        match &self.values[x as usize] {
            Value::Frac { num, den } => self.positive(num) && self.positive(den),
            _ => false,
        }
    }

    /// Whether term `t` is positive at every input: its normal form is a quotient of two
    /// provably positive polynomials. Any failure to normalize is a no.
    pub fn provably_positive(&mut self, t: TermId) -> bool {
        match self.value(t) {
            Ok(Value::Frac { num, den }) => self.positive(&num) && self.positive(&den),
            _ => false,
        }
    }

    /// The normal form of term `t`.
    pub fn value(&mut self, t: TermId) -> Result<Value, FieldError> {
        self.value_at(t, 0)
    }

    fn value_at(&mut self, t: TermId, depth: u32) -> Result<Value, FieldError> {
        if let Some(v) = self.memoized(t) {
            return Ok(v.clone());
        }
        if depth > MAX_DEPTH {
            return Err(FieldError::Depth);
        }
        self.spend(1)?;
        let arena = self.side.arena;
        let d = depth + 1;
        let v = match *arena.node(t) {
            Node::Const(c) => Self::frac(
                Poly::constant(Coef::from_dyadic(arena.const_value(c))?),
                Poly::one(),
            ),
            Node::NegInf => Value::NegInf,
            Node::PosInf => Value::PosInf,
            // Rounding is the identity over the reals.
            Node::Round(_, a) => self.value_at(a, d)?,
            Node::Input { tensor, index } => {
                let link = self
                    .side
                    .inputs
                    .get(tensor as usize)
                    .copied()
                    .flatten()
                    .ok_or(FieldError::UnmappedInput(tensor))?;
                let var = (u64::from(link) << 40) | index;
                Self::frac(
                    Poly(vec![(
                        Mono {
                            vars: vec![var],
                            exp: 0,
                        },
                        Coef::ONE,
                    )]),
                    Poly::one(),
                )
            }
            Node::Add(..) | Node::Sub(..) | Node::Fma(..) => self.sum(t, depth)?,
            Node::Neg(a) => Self::neg(self.value_at(a, d)?),
            Node::Mul(a, b) => {
                let (x, y) = (self.value_at(a, d)?, self.value_at(b, d)?);
                self.mul(x, y)?
            }
            Node::Div(a, b) => {
                let (x, y) = (self.value_at(a, d)?, self.value_at(b, d)?);
                self.div(x, y)?
            }
            Node::Max(a, b) | Node::Min(a, b) => {
                let max = matches!(arena.node(t), Node::Max(..));
                let (x, y) = (self.value_at(a, d)?, self.value_at(b, d)?);
                self.lattice(x, y, max)?
            }
            Node::Apply(Func::Ex2, a) => {
                let x = self.value_at(a, d)?;
                self.ex2(x)?
            }
            Node::Apply(Func::Rcp, a) => {
                let x = self.value_at(a, d)?;
                self.div(Self::frac(Poly::one(), Poly::one()), x)?
            }
            Node::Apply(f, a) => match self.value_at(a, d)? {
                x @ Value::Frac { .. } => {
                    let x = self.value_id(x);
                    // rsqrt x = 1 / sqrt x where x > 0 is provable; otherwise an opaque atom
                    // (at x = 0 both are +inf, at x < 0 both undefined: only for x > 0 is the
                    // quotient real).
                    if f == Func::Rsqrt && self.positive_value(x) {
                        let s = self.atom(Atom::Func(Func::Sqrt, x))?;
                        self.div(Self::frac(Poly::one(), Poly::one()), s)?
                    } else {
                        self.atom(Atom::Func(f, x))?
                    }
                }
                _ => return Err(FieldError::Infinite("a function of an infinity")),
            },
            Node::Select { cond, then, else_ } => {
                let Node::Cmp(op, l, r) = *arena.node(cond) else {
                    return Err(FieldError::Unsupported("a select on a combined condition"));
                };
                let (l, r) = (self.value_at(l, d)?, self.value_at(r, d)?);
                let (a, b) = (self.value_at(then, d)?, self.value_at(else_, d)?);
                // The atom stands for a real number: one that may be an infinity would make
                // `s - s` zero where it is undefined (found by the Lean model, which refuses
                // these too).
                if [&l, &r, &a, &b]
                    .iter()
                    .any(|v| matches!(v, Value::NegInf | Value::PosInf))
                {
                    return Err(FieldError::Infinite("an infinity in a select"));
                }
                let ids = [l, r, a, b].map(|v| self.value_id(v));
                self.atom(Atom::Select(op, ids[0], ids[1], ids[2], ids[3]))?
            }
            Node::Cmp(..) | Node::And(..) | Node::Or(..) | Node::Not(..) => {
                return Err(FieldError::Unsupported("a predicate used as a number"));
            }
        };
        if self.memo_at.len() <= t.index() {
            self.memo_at
                .resize(self.side.arena.len().max(t.index() + 1), NO_MEMO);
        }
        // Only terms with several parents are met again; the rest would only hold memory.
        if self.shared(t) {
            self.memo_at[t.index()] = self.memo.len() as u32;
            self.memo.push(v.clone());
        }
        Ok(v)
    }

    /// A chain of sums, walked with an explicit stack (reductions are deep in this direction):
    /// terms are grouped by denominator, so a sum of quotients over one denominator stays one
    /// quotient.
    fn sum(&mut self, root: TermId, depth: u32) -> Result<Value, FieldError> {
        let arena = self.side.arena;
        let mut parts: Vec<(Value, bool)> = Vec::new();
        let mut stack = vec![(root, false)];
        while let Some((t, negated)) = stack.pop() {
            self.spend(1)?;
            match *arena.node(t) {
                Node::Add(a, b) if self.memoized(t).is_none() || t == root => {
                    stack.extend([(a, negated), (b, negated)])
                }
                Node::Sub(a, b) if self.memoized(t).is_none() || t == root => {
                    stack.extend([(a, negated), (b, !negated)])
                }
                Node::Neg(a) => stack.push((a, !negated)),
                Node::Round(_, a) => stack.push((a, negated)),
                Node::Fma(a, b, c) => {
                    stack.push((c, negated));
                    let (x, y) = (self.value_at(a, depth + 1)?, self.value_at(b, depth + 1)?);
                    parts.push((self.mul(x, y)?, negated));
                }
                _ => parts.push((self.value_at(t, depth + 1)?, negated)),
            }
        }
        // Group by denominator, then combine the groups.
        let mut groups: Vec<(Poly, Vec<(Mono, Coef)>)> = Vec::new();
        let mut inf: Option<Value> = None;
        for (v, negated) in parts {
            let v = if negated { Self::neg(v) } else { v };
            match v {
                Value::Frac { num, den } => match groups.iter_mut().find(|(d, _)| *d == den) {
                    Some((_, terms)) => terms.extend(num.0),
                    None => groups.push((den, num.0)),
                },
                other => {
                    inf = Some(match inf {
                        None => other,
                        Some(prev) => self.add(prev, other)?,
                    })
                }
            }
        }
        let mut acc = Self::frac(Poly::default(), Poly::one());
        for (den, terms) in groups {
            self.spend(terms.len())?;
            let v = Self::frac(Poly::from_terms(terms)?, den);
            acc = self.add(acc, v)?;
        }
        match inf {
            Some(i) => self.add(i, acc),
            None => Ok(acc),
        }
    }
}

/// Compares `p - q` with zero at its first monomial (in `Mono` order) with a nonzero
/// coefficient: a total order on exponents that adding one polynomial to both preserves.
fn exp_cmp(p: &Poly, q: &Poly) -> std::cmp::Ordering {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let (mut i, mut j) = (0, 0);
    loop {
        match (p.0.get(i), q.0.get(j)) {
            (None, None) => return Equal,
            (Some((ma, ca)), Some((mb, cb))) => match ma.cmp(mb) {
                Equal if ca == cb => {
                    i += 1;
                    j += 1;
                }
                Equal => return ca.cmp(cb),
                // Polys hold no zero coefficients: the other side's 0 differs.
                Less => return ca.cmp(&Coef::ZERO),
                Greater => return Coef::ZERO.cmp(cb),
            },
            (Some((_, ca)), None) => return ca.cmp(&Coef::ZERO),
            (None, Some((_, cb))) => return Coef::ZERO.cmp(cb),
        }
    }
}

/// The rule: `lhs` and `rhs` (one arena, one input naming) have equal normal forms after
/// cross-multiplication, over positive denominators.
pub fn field_normalize(
    side: &Side,
    lhs: TermId,
    rhs: TermId,
    budget: u64,
) -> Result<(), FieldError> {
    field_normalize_in(&mut Normalizer::new(*side, budget), lhs, rhs)
}

/// [`field_normalize`] with tables shared across comparisons of one arena: memoized normal
/// forms are those `value` computes, so sharing them changes only the cost (each comparison
/// still gets the normalizer's full budget).
pub fn field_normalize_in(n: &mut Normalizer, lhs: TermId, rhs: TermId) -> Result<(), FieldError> {
    n.rebudget();
    let (a, b) = (n.value(lhs)?, n.value(rhs)?);
    match (a, b) {
        (Value::NegInf, Value::NegInf) | (Value::PosInf, Value::PosInf) => Ok(()),
        (Value::Frac { num: n1, den: d1 }, Value::Frac { num: n2, den: d2 }) => {
            if !n.positive(&d1) || !n.positive(&d2) {
                return Err(FieldError::Denominator);
            }
            if (n1 == n2 && d1 == d2)
                || n.shifted(&n1, &d1)? == n.shifted(&n2, &d2)?
                || n.mul_poly(&n1, &d2)? == n.mul_poly(&n2, &d1)?
            {
                Ok(())
            } else {
                Err(FieldError::Different)
            }
        }
        _ => Err(FieldError::Different),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{Dyadic, TermArena};

    fn x(a: &mut TermArena, i: u64) -> TermId {
        a.intern(Node::Input {
            tensor: 0,
            index: i,
        })
        .unwrap()
    }

    fn check(a: &TermArena, l: TermId, r: TermId) -> Result<(), FieldError> {
        let map = [Some(0)];
        field_normalize(
            &Side {
                arena: a,
                inputs: &map,
            },
            l,
            r,
            1 << 20,
        )
    }

    #[test]
    fn softmax_rescaling_identities() {
        let mut a = TermArena::new();
        let (x0, x1) = (x(&mut a, 0), x(&mut a, 1));
        let ninf = a.intern(Node::NegInf).unwrap();
        let zero = a.constant(Dyadic::ZERO).unwrap();
        let ex = |a: &mut TermArena, t| a.intern(Node::Apply(Func::Ex2, t)).unwrap();
        let sub = |a: &mut TermArena, p, q| a.intern(Node::Sub(p, q)).unwrap();
        // Reference: m = max(max(-inf, x0), x1); s = e(x0-m) + e(x1-m); out0 = e(x0-m)/s.
        let m0 = a.intern(Node::Max(ninf, x0)).unwrap();
        let m = a.intern(Node::Max(m0, x1)).unwrap();
        let (d0, d1) = (sub(&mut a, x0, m), sub(&mut a, x1, m));
        let (e0, e1) = (ex(&mut a, d0), ex(&mut a, d1));
        let s = a.intern(Node::Add(e0, e1)).unwrap();
        let reference = a.intern(Node::Div(e0, s)).unwrap();
        // Online: m1 = max(-inf, x0); s1 = 0*e(-inf - m1) + e(x0 - m1);
        //         m2 = max(m1, x1);   s2 = s1*e(m1 - m2) + e(x1 - m2); out0 = e(x0 - m2)/s2.
        let t = sub(&mut a, ninf, m0);
        let r0 = ex(&mut a, t);
        let z = a.intern(Node::Mul(zero, r0)).unwrap();
        let t = sub(&mut a, x0, m0);
        let e00 = ex(&mut a, t);
        let s1 = a.intern(Node::Add(z, e00)).unwrap();
        let t = sub(&mut a, m0, m);
        let r1 = ex(&mut a, t);
        let s1r = a.intern(Node::Mul(s1, r1)).unwrap();
        let s2 = a.intern(Node::Add(s1r, e1)).unwrap();
        let online = a.intern(Node::Div(e0, s2)).unwrap();
        assert_eq!(check(&a, reference, online), Ok(()));
        // Missing the rescale: not equal.
        let bad_s2 = a.intern(Node::Add(s1, e1)).unwrap();
        let bad = a.intern(Node::Div(e0, bad_s2)).unwrap();
        assert_eq!(check(&a, reference, bad), Err(FieldError::Different));
        // A tree max and a chain max are one atom.
        let m01 = a.intern(Node::Max(x1, x0)).unwrap();
        assert_eq!(check(&a, m, m01), Ok(()));
    }

    /// Softmax over 32 scores stabilized by the maximum of raw scores (scaled afterwards) and
    /// by the maximum of scaled scores (Triton's tutorial form): the normal forms differ by the
    /// factor `2^(c m - m')` in numerator and denominator, which the shift removes within a
    /// budget far below what cross-multiplication (32 x 32 products) needs.
    #[test]
    fn different_stabilizers_meet_after_the_shift() {
        let mut a = TermArena::new();
        let n = 32;
        let xs: Vec<TermId> = (0..n).map(|i| x(&mut a, i)).collect();
        let log2e = Dyadic::from_f32_bits(0x3fb8_aa3b).expect("finite"); // log2(e) as an f32
        let c = a.constant(log2e).unwrap();
        let ninf = a.intern(Node::NegInf).unwrap();
        let mul = |a: &mut TermArena, p, q| a.intern(Node::Mul(p, q)).unwrap();
        let sub = |a: &mut TermArena, p, q| a.intern(Node::Sub(p, q)).unwrap();
        let ex = |a: &mut TermArena, t| a.intern(Node::Apply(Func::Ex2, t)).unwrap();
        let softmax0 = |a: &mut TermArena, exps: Vec<TermId>| {
            let mut s = exps[0];
            for &e in &exps[1..] {
                s = a.intern(Node::Add(s, e)).unwrap();
            }
            a.intern(Node::Div(exps[0], s)).unwrap()
        };
        // Reference: m = max(x), p_i = 2^((x_i - m) c).
        let mut m = ninf;
        for &xi in &xs {
            m = a.intern(Node::Max(m, xi)).unwrap();
        }
        let ps: Vec<TermId> = xs
            .iter()
            .map(|&xi| {
                let d = sub(&mut a, xi, m);
                let e = mul(&mut a, d, c);
                ex(&mut a, e)
            })
            .collect();
        let reference = softmax0(&mut a, ps);
        // Tutorial: m' = max(x c), p_i = 2^(x_i c - m').
        let scaled: Vec<TermId> = xs.iter().map(|&xi| mul(&mut a, xi, c)).collect();
        let mut m2 = ninf;
        for &si in &scaled {
            m2 = a.intern(Node::Max(m2, si)).unwrap();
        }
        let qs: Vec<TermId> = scaled
            .iter()
            .map(|&si| {
                let d = sub(&mut a, si, m2);
                ex(&mut a, d)
            })
            .collect();
        let tutorial = softmax0(&mut a, qs.clone());
        let map = [Some(0)];
        let side = Side {
            arena: &a,
            inputs: &map,
        };
        let budget = 4 * n * n; // the cross-products alone would spend 2 n^2 products of n terms
        assert_eq!(field_normalize(&side, reference, tutorial, budget), Ok(()));
        // The negative twin: one term missing from the tutorial's denominator.
        let short = softmax0(&mut a, qs[..n as usize - 1].to_vec());
        let side = Side {
            arena: &a,
            inputs: &map,
        };
        assert_eq!(
            field_normalize(&side, reference, short, 1 << 24),
            Err(FieldError::Different)
        );
    }

    #[test]
    fn exponent_arithmetic_is_exact() {
        let mut a = TermArena::new();
        let (x0, x1) = (x(&mut a, 0), x(&mut a, 1));
        let sum = a.intern(Node::Add(x0, x1)).unwrap();
        let e_sum = a.intern(Node::Apply(Func::Ex2, sum)).unwrap();
        let (e0, e1) = (
            a.intern(Node::Apply(Func::Ex2, x0)).unwrap(),
            a.intern(Node::Apply(Func::Ex2, x1)).unwrap(),
        );
        let prod = a.intern(Node::Mul(e0, e1)).unwrap();
        assert_eq!(check(&a, e_sum, prod), Ok(()));
        // 0f3FB8AA3B is not log2(e): ex2(x·l) with two different literals differ.
        let l1 = a
            .constant(Dyadic::from_f32_bits(0x3fb8_aa3b).unwrap())
            .unwrap();
        let l2 = a
            .constant(Dyadic::from_f32_bits(0x3fb8_aa3c).unwrap())
            .unwrap();
        let (p1, p2) = (
            a.intern(Node::Mul(x0, l1)).unwrap(),
            a.intern(Node::Mul(x0, l2)).unwrap(),
        );
        let (q1, q2) = (
            a.intern(Node::Apply(Func::Ex2, p1)).unwrap(),
            a.intern(Node::Apply(Func::Ex2, p2)).unwrap(),
        );
        assert_eq!(check(&a, q1, q2), Err(FieldError::Different));
    }

    #[test]
    fn denominators_must_be_provably_positive() {
        let mut a = TermArena::new();
        let (x0, x1) = (x(&mut a, 0), x(&mut a, 1));
        // x0·x1 / x1 vs x0: the denominator x1 may be zero, so the rule refuses.
        let p = a.intern(Node::Mul(x0, x1)).unwrap();
        let q = a.intern(Node::Div(p, x1)).unwrap();
        assert_eq!(check(&a, q, x0), Err(FieldError::Denominator));
        let inf = a.intern(Node::PosInf).unwrap();
        let e = a.intern(Node::Apply(Func::Ex2, inf)).unwrap();
        assert!(matches!(check(&a, e, e), Err(FieldError::Infinite(_))));
    }

    /// Denominators that vanish inside a term (found by the Lean proof, `norm_sound` and
    /// `atom_inv`): the identities hold wherever both sides are defined, but not at x1 = 0 in
    /// a field whose inverse of 0 is unconstrained, so the rule must refuse them.
    /// A select is an opaque real: `s - s = 0` holds for finite branches, and is refused when a
    /// branch may be -inf (the difference is then undefined).
    #[test]
    fn selects_of_infinities_are_refused() {
        let mut a = TermArena::new();
        let (x0, x1) = (x(&mut a, 0), x(&mut a, 1));
        let zero = a.constant(Dyadic::ZERO).unwrap();
        let ninf = a.intern(Node::NegInf).unwrap();
        let cond = a.intern(Node::Cmp(CmpOp::Gt, x0, x1)).unwrap();
        let finite = a
            .intern(Node::Select {
                cond,
                then: x1,
                else_: x0,
            })
            .unwrap();
        let d = a.intern(Node::Sub(finite, finite)).unwrap();
        assert_eq!(check(&a, d, zero), Ok(()));
        let masked = a
            .intern(Node::Select {
                cond,
                then: ninf,
                else_: x0,
            })
            .unwrap();
        let d = a.intern(Node::Sub(masked, masked)).unwrap();
        assert!(matches!(check(&a, d, zero), Err(FieldError::Infinite(_))));
    }

    #[test]
    fn hidden_denominators_are_refused() {
        let mut a = TermArena::new();
        let (x0, x1, x2, x3) = (x(&mut a, 0), x(&mut a, 1), x(&mut a, 2), x(&mut a, 3));
        let r1 = a.intern(Node::Apply(Func::Rcp, x0)).unwrap();
        let r2 = a.intern(Node::Apply(Func::Rcp, r1)).unwrap();
        assert_eq!(check(&a, r2, x0), Err(FieldError::Denominator));
        let (q1, q2) = (
            a.intern(Node::Div(x0, x1)).unwrap(),
            a.intern(Node::Div(x2, x3)).unwrap(),
        );
        let sum = a.intern(Node::Add(q1, q2)).unwrap();
        let lhs = a.intern(Node::Apply(Func::Sqrt, sum)).unwrap();
        let (p03, p21) = (
            a.intern(Node::Mul(x0, x3)).unwrap(),
            a.intern(Node::Mul(x2, x1)).unwrap(),
        );
        let num = a.intern(Node::Add(p03, p21)).unwrap();
        let den = a.intern(Node::Mul(x1, x3)).unwrap();
        let quot = a.intern(Node::Div(num, den)).unwrap();
        let rhs = a.intern(Node::Apply(Func::Sqrt, quot)).unwrap();
        assert_eq!(check(&a, lhs, rhs), Err(FieldError::Denominator));
    }

    /// `rsqrt v = 1 / sqrt v` where `v > 0` follows from the form of `v` (squares plus a positive
    /// constant, as in every RMS and layer norm), and nowhere else.
    #[test]
    fn rsqrt_is_a_reciprocal_root_of_provably_positive_arguments() {
        let mut a = TermArena::new();
        let (x0, x1) = (x(&mut a, 0), x(&mut a, 1));
        let eps = a
            .constant(Dyadic::from_f32_bits(0x3727_c5ac).unwrap())
            .unwrap();
        let sq0 = a.intern(Node::Mul(x0, x0)).unwrap();
        let ms = a.intern(Node::Fma(x1, x1, sq0)).unwrap();
        let v = a.intern(Node::Add(ms, eps)).unwrap();
        let rs = a.intern(Node::Apply(Func::Rsqrt, v)).unwrap();
        let root = a.intern(Node::Apply(Func::Sqrt, v)).unwrap();
        let inv = a.intern(Node::Apply(Func::Rcp, root)).unwrap();
        let (l, r) = (
            a.intern(Node::Mul(x0, rs)).unwrap(),
            a.intern(Node::Div(x0, root)).unwrap(),
        );
        assert_eq!(check(&a, rs, inv), Ok(()));
        assert_eq!(check(&a, l, r), Ok(()));
        // Negative twins: the root itself is not its reciprocal, nor is a different argument's.
        assert_eq!(check(&a, rs, root), Err(FieldError::Different));
        let v2 = a.intern(Node::Add(sq0, eps)).unwrap();
        let rs2 = a.intern(Node::Apply(Func::Rsqrt, v2)).unwrap();
        assert_eq!(check(&a, rs2, inv), Err(FieldError::Different));
        // Without the constant the argument may be 0: 1 / sqrt(x0^2 + x1^2) has no provably
        // nonzero denominator, and rsqrt stays opaque.
        let rs0 = a.intern(Node::Apply(Func::Rsqrt, ms)).unwrap();
        let root0 = a.intern(Node::Apply(Func::Sqrt, ms)).unwrap();
        let inv0 = a.intern(Node::Apply(Func::Rcp, root0)).unwrap();
        assert_eq!(check(&a, rs0, inv0), Err(FieldError::Denominator));
        // An odd power of an input is not a square: x0·x1 + eps may be negative.
        let m01 = a.intern(Node::Mul(x0, x1)).unwrap();
        let w = a.intern(Node::Add(m01, eps)).unwrap();
        let rsw = a.intern(Node::Apply(Func::Rsqrt, w)).unwrap();
        let rootw = a.intern(Node::Apply(Func::Sqrt, w)).unwrap();
        let invw = a.intern(Node::Apply(Func::Rcp, rootw)).unwrap();
        assert_eq!(check(&a, rsw, invw), Err(FieldError::Denominator));
    }

    /// A square of an input is only `>= 0`: dividing by `x0^2` alone stays refused, while
    /// `x0^2 + 1` and `2^x1 · (x0^2 + 1)` are positive denominators.
    #[test]
    fn squares_are_nonnegative_not_positive() {
        let mut a = TermArena::new();
        let (x0, x1) = (x(&mut a, 0), x(&mut a, 1));
        let one = a.constant(Dyadic::ONE).unwrap();
        let sq = a.intern(Node::Mul(x0, x0)).unwrap();
        let q = a.intern(Node::Div(x1, sq)).unwrap();
        let back = a.intern(Node::Mul(q, sq)).unwrap();
        assert_eq!(check(&a, back, x1), Err(FieldError::Denominator));
        let d = a.intern(Node::Add(sq, one)).unwrap();
        let e = a.intern(Node::Apply(Func::Ex2, x1)).unwrap();
        let de = a.intern(Node::Mul(e, d)).unwrap();
        let q = a.intern(Node::Div(x1, de)).unwrap();
        let back = a.intern(Node::Mul(q, de)).unwrap();
        assert_eq!(check(&a, back, x1), Ok(()));
        let wrong = a.intern(Node::Mul(q, d)).unwrap();
        assert_eq!(check(&a, wrong, x1), Err(FieldError::Different));
    }
}
