//! The rule `congruent`: two terms are equal when they are the same tree once each side's input
//! tensors are renamed to the pair's shared inputs, constants compared by exact value. It is the
//! cheap case of equality (an optimized kernel that performs the reference's operations in the
//! reference's order) and needs no algebra.
//!
//! Lean twin: `Kcert.Rules.congruent_sound` (lean/Kcert/Rules/Congruence.lean, proved):
//! evaluation is a function of the tree and the input values, so identical trees over
//! identical inputs have identical values.

use super::ring::Side;
use crate::term::{Node, TermId};

/// Why two terms are not congruent (or the comparison gave up).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CongruenceError {
    #[error("the terms differ in shape")]
    Different,
    #[error("the comparison exceeds its budget of {0} node pairs")]
    Budget(u64),
}

/// The rule: `lhs` on side `l` and `rhs` on side `r` are the same tree up to input renaming.
pub fn congruent(
    l: &Side,
    lhs: TermId,
    r: &Side,
    rhs: TermId,
    budget: u64,
) -> Result<(), CongruenceError> {
    // One arena read through one input naming: equal ids are equal trees (hash-consing), so a
    // shared subterm is not walked again.
    let same_view = std::ptr::eq(l.arena, r.arena) && l.inputs == r.inputs;
    let mut stack = vec![(lhs, rhs)];
    let mut left = budget;
    while let Some((a, b)) = stack.pop() {
        left = left.checked_sub(1).ok_or(CongruenceError::Budget(budget))?;
        if same_view && a == b {
            continue;
        }
        // Rounding is the identity over the reals: both sides are read without it.
        let (a, b) = (l.arena.unrounded(a), r.arena.unrounded(b));
        if same_view && a == b {
            continue;
        }
        let (na, nb) = (l.arena.node(a), r.arena.node(b));
        let same = match (*na, *nb) {
            (Node::Const(x), Node::Const(y)) => l.arena.const_value(x) == r.arena.const_value(y),
            (
                Node::Input {
                    tensor: ta,
                    index: ia,
                },
                Node::Input {
                    tensor: tb,
                    index: ib,
                },
            ) => {
                let map = |s: &Side, t: u32| s.inputs.get(t as usize).copied().flatten();
                ia == ib && map(l, ta).is_some() && map(l, ta) == map(r, tb)
            }
            (Node::NegInf, Node::NegInf) | (Node::PosInf, Node::PosInf) => true,
            (Node::Apply(f, x), Node::Apply(g, y)) => {
                stack.push((x, y));
                f == g
            }
            (Node::Cmp(p, _, _), Node::Cmp(q, _, _)) if p != q => false,
            _ => {
                // Same constructor with children compared pairwise.
                let (ka, n) = na.child_array();
                let (kb, m) = nb.child_array();
                if std::mem::discriminant(na) != std::mem::discriminant(nb) || n != m || n == 0 {
                    false
                } else {
                    stack.extend(ka[..n].iter().copied().zip(kb[..m].iter().copied()));
                    true
                }
            }
        };
        if !same {
            return Err(CongruenceError::Different);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{Dyadic, TermArena};

    #[test]
    fn same_tree_up_to_renaming() {
        let mut l = TermArena::new();
        let mut r = TermArena::new();
        let (x, y) = (
            l.intern(Node::Input {
                tensor: 0,
                index: 1,
            })
            .unwrap(),
            l.intern(Node::Input {
                tensor: 1,
                index: 2,
            })
            .unwrap(),
        );
        let c = l.constant(Dyadic::from_i64(3)).unwrap();
        let lt = l.intern(Node::Fma(x, y, c)).unwrap();
        // Right side: tensors numbered the other way round, constant built separately.
        let (y2, x2) = (
            r.intern(Node::Input {
                tensor: 0,
                index: 2,
            })
            .unwrap(),
            r.intern(Node::Input {
                tensor: 1,
                index: 1,
            })
            .unwrap(),
        );
        let c2 = r.constant(Dyadic::from_i64(3)).unwrap();
        let rt = r.intern(Node::Fma(x2, y2, c2)).unwrap();
        let (lm, rm) = ([Some(0), Some(1)], [Some(1), Some(0)]);
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
        assert_eq!(congruent(&ls, lt, &rs, rt, 100), Ok(()));
        // Swapped operands are a different tree (RingNormalize's job, not this rule's).
        let swapped = r.intern(Node::Fma(y2, x2, c2)).unwrap();
        let rs = Side {
            arena: &r,
            inputs: &rm,
        };
        assert_eq!(
            congruent(&ls, lt, &rs, swapped, 100),
            Err(CongruenceError::Different)
        );
        // Unpaired inputs never match, even with equal numbers.
        let none = [None, None];
        let ls = Side {
            arena: &l,
            inputs: &none,
        };
        let rs2 = Side {
            arena: &r,
            inputs: &none,
        };
        assert_eq!(
            congruent(&ls, x, &rs2, x2, 100),
            Err(CongruenceError::Different)
        );
        let ls = Side {
            arena: &l,
            inputs: &lm,
        };
        assert_eq!(
            congruent(&ls, lt, &rs, rt, 2),
            Err(CongruenceError::Budget(2))
        );
    }
}
