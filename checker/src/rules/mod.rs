//! The proof rules a certificate may cite, one function each. The checker applies exactly the
//! rule a step names and never searches.
//!
//! | rule | function | Lean theorem |
//! |---|---|---|
//! | `Congruent` | [`congruence::congruent`] | `Kcert.Rules.congruent_sound` (proved) |
//! | `RingNormalize` | [`ring::ring_normalize`] | `Kcert.Rules.ringNormalize_sound` (proved for the model) |
//! | `FieldNormalize` | [`field::field_normalize`] | `Kcert.Rules.fieldNormalize_sound` (proved for the model, without infinities) |

pub mod coef;
pub mod congruence;
pub mod field;
pub mod ring;

use crate::cert::Rule;
use crate::term::{Func, Node, TermId};
use std::collections::HashSet;

/// The rules applied to many elements of one pair run. Field normal forms share one set of
/// tables, so the subterms that elements share (a softmax row's maximum and sum) are
/// normalized once rather than once per element.
pub struct Replay<'a> {
    side: ring::Side<'a>,
    field: field::Normalizer<'a>,
    budget: u64,
    /// Per arena node: whether a division (`/`, `rcp`, `rsqrt`) occurs at or below it;
    /// computed in one pass on first use.
    divides: Vec<bool>,
    /// Divisors already shown non-zero.
    nonzero: HashSet<TermId>,
    /// Per arena node: its sign as [`signs`] reads it off the tree; computed on first use.
    signs: Vec<Sign>,
}

/// What the shape of a term says about its sign at every input, over the reals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sign {
    Unknown,
    NonNegative,
    Positive,
}

/// The sign of every node of `arena`, children before parents, read off the tree alone:
/// squares (`x * x`, `fma(x, x, c)`), `abs`, `sqrt` and `2^x` are non-negative, positive
/// constants and `2^x` positive, and sums, products and quotients combine them. This sees
/// `sum (x - mean)^2 / n + eps` as positive although its expanded polynomial is not a sum of
/// squares term by term.
pub fn signs(arena: &crate::term::TermArena) -> Vec<Sign> {
    use Sign::*;
    let mut out: Vec<Sign> = Vec::with_capacity(arena.len());
    for node in arena.nodes() {
        let s = |t: TermId, out: &Vec<Sign>| out.get(t.index()).copied().unwrap_or(Unknown);
        let sum = |a: Sign, b: Sign| match (a, b) {
            (Unknown, _) | (_, Unknown) => Unknown,
            (Positive, _) | (_, Positive) => Positive,
            _ => NonNegative,
        };
        let prod = |a: Sign, b: Sign| a.min(b);
        let v = match *node {
            Node::Const(c) => {
                let d = arena.const_value(c);
                if d > crate::term::Dyadic::ZERO {
                    Positive
                } else if d == crate::term::Dyadic::ZERO {
                    NonNegative
                } else {
                    Unknown
                }
            }
            Node::Mul(a, b) if a == b => {
                if s(a, &out) == Positive {
                    Positive
                } else {
                    NonNegative
                }
            }
            Node::Mul(a, b) | Node::Div(a, b) => {
                // A quotient needs a positive divisor to have a sign at all.
                let q = matches!(node, Node::Div(..));
                if q && s(b, &out) != Positive {
                    Unknown
                } else {
                    prod(s(a, &out), s(b, &out))
                }
            }
            Node::Fma(a, b, c) => {
                let p = if a == b {
                    if s(a, &out) == Positive {
                        Positive
                    } else {
                        NonNegative
                    }
                } else {
                    prod(s(a, &out), s(b, &out))
                };
                sum(p, s(c, &out))
            }
            Node::Add(a, b) => sum(s(a, &out), s(b, &out)),
            Node::Max(a, b) => s(a, &out).max(s(b, &out)),
            Node::Min(a, b) => s(a, &out).min(s(b, &out)),
            Node::Apply(Func::Ex2, _) => Positive,
            Node::Apply(Func::Abs, _) => NonNegative,
            Node::Apply(Func::Sqrt, a) => match s(a, &out) {
                Positive => Positive,
                NonNegative => NonNegative,
                Unknown => Unknown,
            },
            Node::Apply(Func::Rsqrt | Func::Rcp, a) if s(a, &out) == Positive => Positive,
            Node::Select { then, else_, .. } => s(then, &out).min(s(else_, &out)),
            // Rounding is the identity over the reals.
            Node::Round(_, a) => s(a, &out),
            _ => Unknown,
        };
        out.push(v);
    }
    out
}

impl<'a> Replay<'a> {
    pub fn new(side: ring::Side<'a>, budget: u64) -> Self {
        Replay {
            side,
            field: field::Normalizer::new(side, budget),
            budget,
            divides: Vec::new(),
            nonzero: HashSet::new(),
            signs: Vec::new(),
        }
    }

    /// The side condition of every rule: each divisor in `t` is provably non-zero (a non-zero
    /// constant, or positive at every input). Over the reals `x / 0` has no value, and in
    /// floating point `x / +0` and `x / -0` are infinities of opposite signs, so two terms
    /// that agree everywhere else may still differ there (`-0.0` is `-(0)`, a tree of its
    /// own, but a zero computed under another rounding mode, `x - x` by `sub.rm`, is not).
    fn divisors_nonzero(&mut self, t: TermId) -> Result<(), String> {
        let arena = self.side.arena;
        if self.divides.is_empty() {
            self.divides = Vec::with_capacity(arena.len());
            for node in arena.nodes() {
                let own = matches!(
                    node,
                    Node::Div(..) | Node::Apply(Func::Rcp | Func::Rsqrt, _)
                );
                let below = node.children().any(|k| self.divides[k.index()]);
                self.divides.push(own || below);
            }
        }
        let mut seen = HashSet::new();
        let mut stack = vec![t];
        while let Some(x) = stack.pop() {
            if !self.divides.get(x.index()).copied().unwrap_or(true) || !seen.insert(x) {
                continue;
            }
            let node = *arena.node(x);
            let divisor = match node {
                Node::Div(_, d) | Node::Apply(Func::Rcp | Func::Rsqrt, d) => Some(d),
                _ => None,
            };
            if let Some(d) = divisor
                && !self.nonzero.contains(&d)
            {
                // A non-zero constant, possibly negated or rounded (`x / -2.0`).
                let mut k = d;
                while let Node::Neg(x) | Node::Round(_, x) = *arena.node(k) {
                    k = x;
                }
                let constant = match *arena.node(k) {
                    Node::Const(c) => Some(arena.const_value(c)),
                    _ => None,
                };
                let ok = match constant {
                    Some(c) => c != crate::term::Dyadic::ZERO,
                    None => {
                        if self.signs.is_empty() {
                            self.signs = signs(arena);
                        }
                        self.signs.get(d.index()) == Some(&Sign::Positive)
                            || self.field.provably_positive(d)
                    }
                };
                self.field.rebudget();
                if !ok {
                    return Err(format!(
                        "a divisor is not provably non-zero: {}",
                        arena.render(d, 120)
                    ));
                }
                self.nonzero.insert(d);
            }
            stack.extend(node.children());
        }
        Ok(())
    }

    pub fn congruent(&self, lt: TermId, ot: TermId) -> Result<(), congruence::CongruenceError> {
        congruence::congruent(&self.side, lt, &self.side, ot, self.budget)
    }

    pub fn ring(&self, lt: TermId, ot: TermId) -> Result<(), ring::RingError> {
        ring::ring_normalize(
            &self.side,
            lt,
            &self.side,
            ot,
            &mut ring::Budget::new(self.budget),
        )
    }

    pub fn field(&mut self, lt: TermId, ot: TermId) -> Result<(), field::FieldError> {
        field::field_normalize_in(&mut self.field, lt, ot)
    }

    /// The side condition every rule shares: the divisors of both terms are provably
    /// non-zero ([`Replay::divisors_nonzero`]).
    pub fn side_condition(&mut self, lt: TermId, ot: TermId) -> Result<(), String> {
        self.divisors_nonzero(lt)
            .and_then(|()| self.divisors_nonzero(ot))
    }

    /// Applies exactly `rule`, after [`Replay::side_condition`]; the error says why it does
    /// not hold.
    pub fn apply(&mut self, rule: Rule, lt: TermId, ot: TermId) -> Result<(), String> {
        self.side_condition(lt, ot)
            .map_err(|e| format!("{rule:?} refused: {e}"))?;
        match rule {
            Rule::Congruent => self
                .congruent(lt, ot)
                .map_err(|e| format!("Congruent fails: {e}")),
            Rule::RingNormalize => self
                .ring(lt, ot)
                .map_err(|e| format!("RingNormalize fails: {e}")),
            Rule::FieldNormalize => self
                .field(lt, ot)
                .map_err(|e| format!("FieldNormalize fails: {e}")),
        }
    }
}
