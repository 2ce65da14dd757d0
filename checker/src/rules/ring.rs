//! The rule `ring_normalize`: two terms are equal when they expand to the same polynomial over
//! the inputs, using only the commutative-ring axioms (associativity and commutativity of + and
//! ×, distributivity, `fma(a,b,c) = a·b + c`, `a - b = a + (-1)·b`) and exact constant arithmetic.
//!
//! Lean twin: `Kcert.Rules.ringNormalize_sound` (lean/Kcert/Rules/Ring.lean, proved for the
//! Lean model of the expansion; that this Rust code follows the model is not yet proved):
//! expansion preserves the value of a term in every commutative ring, so equal expansions
//! mean equal values for all inputs.
//!
//! The expansion is deterministic and linear in the size of the expanded form, which a budget
//! bounds: no search. Sums (the deep direction of every reduction chain) are walked with an
//! explicit stack; only products recurse, and their nesting depth is bounded.

use super::coef::{Coef, Overflow};
use crate::term::{Node, TermArena, TermId};
use std::collections::HashMap;

/// Largest monomial degree kept inline; beyond it the rule fails (it never truncates).
pub const MAX_DEGREE: usize = 4;
/// Deepest nesting of products.
const MAX_PRODUCT_DEPTH: u32 = 64;

/// A pair-level input variable: `(input index << 40) | element index`.
pub type Var = u64;

/// A monomial: a sorted multiset of at most [`MAX_DEGREE`] variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mono {
    len: u8,
    vars: [Var; MAX_DEGREE],
}

impl Mono {
    pub const ONE: Mono = Mono {
        len: 0,
        vars: [0; MAX_DEGREE],
    };

    pub fn var(v: Var) -> Mono {
        let mut vars = [0; MAX_DEGREE];
        vars[0] = v;
        Mono { len: 1, vars }
    }

    pub fn vars(&self) -> &[Var] {
        &self.vars[..self.len as usize]
    }

    fn times(self, o: Mono) -> Result<Mono, RingError> {
        let n = self.len as usize + o.len as usize;
        if n > MAX_DEGREE {
            return Err(RingError::Degree);
        }
        let mut vars = [0; MAX_DEGREE];
        vars[..self.len as usize].copy_from_slice(self.vars());
        vars[self.len as usize..n].copy_from_slice(o.vars());
        vars[..n].sort_unstable();
        Ok(Mono { len: n as u8, vars })
    }
}

/// Why a term pair could not be shown equal by this rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RingError {
    #[error("the term contains {0}, which is not a ring operation")]
    NotPolynomial(String),
    #[error("{0}")]
    Overflow(#[from] Overflow),
    #[error("a monomial has degree above {MAX_DEGREE}")]
    Degree,
    #[error("products nest deeper than {MAX_PRODUCT_DEPTH}")]
    Depth,
    #[error("the expansion exceeds its budget of {0} steps")]
    Budget(u64),
    #[error("input tensor number {0} is not paired with an input of the other kernel")]
    UnmappedInput(u32),
    #[error("the two sides expand to different polynomials")]
    Different,
}

/// A polynomial being accumulated: monomial -> coefficient (zeros may linger until the end).
pub type PolyMap = HashMap<Mono, Coef, crate::term::FxBuildHasher>;

/// One side of a comparison: its arena and how its input tensors map to pair inputs.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    pub arena: &'a TermArena,
    /// Tensor ordinal (as in `Node::Input`) -> pair input index.
    pub inputs: &'a [Option<u32>],
}

/// Bounds the work of one rule application.
pub struct Budget {
    limit: u64,
    left: u64,
}

impl Budget {
    pub fn new(limit: u64) -> Budget {
        Budget { limit, left: limit }
    }

    fn spend(&mut self, n: u64) -> Result<(), RingError> {
        self.left = self
            .left
            .checked_sub(n)
            .ok_or(RingError::Budget(self.limit))?;
        Ok(())
    }
}

fn add(out: &mut PolyMap, m: Mono, c: Coef) -> Result<(), RingError> {
    let e = out.entry(m).or_insert(Coef::ZERO);
    *e = e.checked_add(c)?;
    Ok(())
}

/// A leaf as a single monomial, when it is one.
fn atom(side: &Side, t: TermId) -> Result<Option<(Mono, Coef)>, RingError> {
    Ok(match *side.arena.node(t) {
        Node::Const(c) => Some((Mono::ONE, Coef::from_dyadic(side.arena.const_value(c))?)),
        Node::Input { tensor, index } => {
            let input = side
                .inputs
                .get(tensor as usize)
                .copied()
                .flatten()
                .ok_or(RingError::UnmappedInput(tensor))?;
            Some((Mono::var((u64::from(input) << 40) | index), Coef::ONE))
        }
        _ => None,
    })
}

/// Adds `scale · t` to `out`.
pub fn expand_into(
    out: &mut PolyMap,
    side: &Side,
    t: TermId,
    scale: Coef,
    budget: &mut Budget,
) -> Result<(), RingError> {
    expand_at(out, side, t, scale, budget, 0)
}

fn expand_at(
    out: &mut PolyMap,
    side: &Side,
    root: TermId,
    scale: Coef,
    budget: &mut Budget,
    depth: u32,
) -> Result<(), RingError> {
    let mut stack = vec![(root, scale)];
    while let Some((t, s)) = stack.pop() {
        budget.spend(1)?;
        if let Some((m, c)) = atom(side, t)? {
            add(out, m, s.checked_mul(c)?)?;
            continue;
        }
        match *side.arena.node(t) {
            Node::Add(a, b) => stack.extend([(a, s), (b, s)]),
            Node::Sub(a, b) => stack.extend([(a, s), (b, s.negated())]),
            Node::Neg(a) => stack.push((a, s.negated())),
            // Rounding is the identity over the reals.
            Node::Round(_, a) => stack.push((a, s)),
            Node::Mul(a, b) => product_into(out, side, a, b, s, budget, depth)?,
            Node::Fma(a, b, c) => {
                stack.push((c, s));
                product_into(out, side, a, b, s, budget, depth)?;
            }
            ref other => return Err(RingError::NotPolynomial(describe(other))),
        }
    }
    Ok(())
}

fn product_into(
    out: &mut PolyMap,
    side: &Side,
    a: TermId,
    b: TermId,
    s: Coef,
    budget: &mut Budget,
    depth: u32,
) -> Result<(), RingError> {
    if let (Some((ma, ca)), Some((mb, cb))) = (atom(side, a)?, atom(side, b)?) {
        return add(out, ma.times(mb)?, s.checked_mul(ca)?.checked_mul(cb)?);
    }
    if depth >= MAX_PRODUCT_DEPTH {
        return Err(RingError::Depth);
    }
    let mut pa = PolyMap::default();
    let mut pb = PolyMap::default();
    expand_at(&mut pa, side, a, Coef::ONE, budget, depth + 1)?;
    expand_at(&mut pb, side, b, Coef::ONE, budget, depth + 1)?;
    budget.spend((pa.len() as u64).saturating_mul(pb.len() as u64))?;
    for (ma, ca) in &pa {
        if ca.is_zero() {
            continue;
        }
        for (mb, cb) in &pb {
            if !cb.is_zero() {
                add(out, ma.times(*mb)?, s.checked_mul(*ca)?.checked_mul(*cb)?)?;
            }
        }
    }
    Ok(())
}

fn describe(n: &Node) -> String {
    match n {
        Node::Div(..) => "a division".into(),
        Node::Max(..) | Node::Min(..) => "max/min".into(),
        Node::Apply(f, _) => format!("{f:?}").to_lowercase(),
        Node::Select { .. } => "a data-dependent select".into(),
        Node::NegInf | Node::PosInf => "an infinity".into(),
        other => format!("{other:?}"),
    }
}

/// The rule: `lhs` on side `l` equals `rhs` on side `r` as polynomials over the pair's inputs.
pub fn ring_normalize(
    l: &Side,
    lhs: TermId,
    r: &Side,
    rhs: TermId,
    budget: &mut Budget,
) -> Result<(), RingError> {
    let mut diff = PolyMap::default();
    expand_into(&mut diff, l, lhs, Coef::ONE, budget)?;
    expand_into(&mut diff, r, rhs, Coef::ONE.negated(), budget)?;
    if diff.values().all(|c| c.is_zero()) {
        Ok(())
    } else {
        Err(RingError::Different)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Dyadic;

    fn input(a: &mut TermArena, i: u64) -> TermId {
        a.intern(Node::Input {
            tensor: 0,
            index: i,
        })
        .unwrap()
    }

    #[test]
    fn reassociated_and_distributed_sums_are_equal() {
        let mut a = TermArena::new();
        let (x, y, z) = (input(&mut a, 0), input(&mut a, 1), input(&mut a, 2));
        // (x + y)·z  vs  fma(z, y, x·z)
        let s = a.intern(Node::Add(x, y)).unwrap();
        let lhs = a.intern(Node::Mul(s, z)).unwrap();
        let xz = a.intern(Node::Mul(x, z)).unwrap();
        let rhs = a.intern(Node::Fma(z, y, xz)).unwrap();
        let map = [Some(0)];
        let side = Side {
            arena: &a,
            inputs: &map,
        };
        assert_eq!(
            ring_normalize(&side, lhs, &side, rhs, &mut Budget::new(1000)),
            Ok(())
        );
        // ... but not x·z + y·y.
        let yy = a.intern(Node::Mul(y, y)).unwrap();
        let wrong = a.intern(Node::Add(xz, yy)).unwrap();
        let side = Side {
            arena: &a,
            inputs: &map,
        };
        assert_eq!(
            ring_normalize(&side, lhs, &side, wrong, &mut Budget::new(1000)),
            Err(RingError::Different)
        );
    }

    #[test]
    fn constants_are_exact_and_opaque_nodes_fail_closed() {
        let mut a = TermArena::new();
        let x = input(&mut a, 0);
        let half = a
            .constant(Dyadic::from_f32_bits(0x3f00_0000).unwrap())
            .unwrap();
        let two = a.constant(Dyadic::from_i64(2)).unwrap();
        let hx = a.intern(Node::Mul(half, x)).unwrap();
        let lhs = a.intern(Node::Mul(two, hx)).unwrap();
        let map = [Some(0)];
        let side = Side {
            arena: &a,
            inputs: &map,
        };
        assert_eq!(
            ring_normalize(&side, lhs, &side, x, &mut Budget::new(100)),
            Ok(())
        );
        let mut a2 = a.clone();
        let e = a2.intern(Node::Apply(crate::term::Func::Ex2, x)).unwrap();
        let side = Side {
            arena: &a2,
            inputs: &map,
        };
        assert!(matches!(
            ring_normalize(&side, e, &side, e, &mut Budget::new(100)),
            Err(RingError::NotPolynomial(_))
        ));
        assert_eq!(
            ring_normalize(&side, lhs, &side, x, &mut Budget::new(2)),
            Err(RingError::Budget(2))
        );
    }

    #[test]
    fn inputs_are_compared_through_the_pairing() {
        let mut l = TermArena::new();
        let x0 = l
            .intern(Node::Input {
                tensor: 1,
                index: 5,
            })
            .unwrap();
        let mut r = TermArena::new();
        let y0 = r
            .intern(Node::Input {
                tensor: 0,
                index: 5,
            })
            .unwrap();
        let lm = [None, Some(0)];
        let rm = [Some(0)];
        let (ls, rs) = (
            Side {
                arena: &l,
                inputs: &lm,
            },
            Side {
                arena: &r,
                inputs: &rm,
            },
        );
        assert_eq!(
            ring_normalize(&ls, x0, &rs, y0, &mut Budget::new(10)),
            Ok(())
        );
        let rm_wrong = [Some(1)];
        let rs = Side {
            arena: &r,
            inputs: &rm_wrong,
        };
        assert_eq!(
            ring_normalize(&ls, x0, &rs, y0, &mut Budget::new(10)),
            Err(RingError::Different)
        );
    }
}
