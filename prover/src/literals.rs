//! Pairs that differ only in how a literal was rounded (`x / sqrtf(2.0f)` against
//! `x * 0.70710678f`, log2(e) rounded once or split in two): different reals, so "not
//! equivalent" is true, but a verdict of its own, with the literal pairs named, tells a reader
//! that no operation differs. The refutation itself is certified as any other (a witness).

use kcert_checker::term::{Node, TermArena, TermId};

/// Two literals that stand in the same place of the two terms: their values (the reference's
/// first) and their relative difference.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LiteralPair {
    pub reference: f64,
    pub optimized: f64,
    pub relative: f64,
}

/// Largest relative difference read as "the same literal, rounded differently".
pub const CLOSE: f64 = 1e-6;

/// The literal pairs when `a` and `b` are the same tree of operations up to roundings and
/// literal values, each pair within [`CLOSE`]; `None` when any operation, operand or input
/// differs, or when the terms agree everywhere (no pair). `x / c` is read as `x * (1/c)`
/// (compilers fold one into the other). Iterative, with a node budget.
pub fn literal_pairs(arena: &TermArena, a: TermId, b: TermId) -> Option<Vec<LiteralPair>> {
    let mut pairs: Vec<LiteralPair> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(a, b)];
    let mut budget = 1usize << 16;
    while let Some((x, y)) = stack.pop() {
        let (x, y) = (arena.unrounded(x), arena.unrounded(y));
        if x == y || !seen.insert((x, y)) {
            continue;
        }
        budget = budget.checked_sub(1)?;
        let value = |t: TermId| -> Option<f64> {
            match *arena.node(t) {
                Node::Const(c) => Some(arena.const_value(c).to_f64()),
                Node::Neg(z) => match *arena.node(arena.unrounded(z)) {
                    Node::Const(c) => Some(-arena.const_value(c).to_f64()),
                    _ => None,
                },
                _ => None,
            }
        };
        if let (Some(u), Some(v)) = (value(x), value(y)) {
            pairs.push(pair(u, v)?);
            continue;
        }
        match (*arena.node(x), *arena.node(y)) {
            // x / c against x * c': the literal pair is (1/c, c').
            (Node::Div(p, c), Node::Mul(q, d)) | (Node::Div(p, c), Node::Mul(d, q))
                if value(c).is_some() && value(d).is_some() =>
            {
                pairs.push(pair(1.0 / value(c)?, value(d)?)?);
                stack.push((p, q));
            }
            (Node::Mul(p, d), Node::Div(q, c)) | (Node::Mul(d, p), Node::Div(q, c))
                if value(c).is_some() && value(d).is_some() =>
            {
                pairs.push(pair(value(d)?, 1.0 / value(c)?)?);
                stack.push((p, q));
            }
            (nx, ny) => {
                let same_op = match (nx, ny) {
                    (Node::Apply(f, _), Node::Apply(g, _)) => f == g,
                    (Node::Cmp(p, _, _), Node::Cmp(q, _, _)) => p == q,
                    _ => std::mem::discriminant(&nx) == std::mem::discriminant(&ny),
                };
                let ((kx, n), (ky, m)) = (nx.child_array(), ny.child_array());
                // Distinct leaves (inputs, infinities) differ: no literal explains that.
                if !same_op || n != m || n == 0 {
                    return None;
                }
                stack.extend((0..n).map(|i| (kx[i], ky[i])));
            }
        }
    }
    pairs.retain(|p| p.reference != p.optimized);
    pairs.sort_by(|p, q| p.reference.total_cmp(&q.reference));
    pairs.dedup();
    (!pairs.is_empty()).then_some(pairs)
}

fn pair(reference: f64, optimized: f64) -> Option<LiteralPair> {
    let scale = reference.abs().max(optimized.abs());
    let relative = if scale == 0.0 {
        0.0
    } else {
        (reference - optimized).abs() / scale
    };
    (relative <= CLOSE && reference.is_finite() && optimized.is_finite()).then_some(LiteralPair {
        reference,
        optimized,
        relative,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kcert_checker::term::Dyadic;

    #[test]
    fn only_literals_may_differ_and_only_slightly() {
        let mut a = TermArena::new();
        let x = a
            .intern(Node::Input {
                tensor: 0,
                index: 0,
            })
            .unwrap();
        let y = a
            .intern(Node::Input {
                tensor: 0,
                index: 1,
            })
            .unwrap();
        let c = |a: &mut TermArena, v: f32| {
            a.constant(Dyadic::from_f32_bits(v.to_bits()).unwrap())
                .unwrap()
        };
        let sqrt2 = c(&mut a, std::f32::consts::SQRT_2);
        let half_sqrt2 = c(&mut a, f32::from_bits(0x3F35_04F3)); // 0.70710678f
        let div = a.intern(Node::Div(x, sqrt2)).unwrap();
        let mul = a.intern(Node::Mul(x, half_sqrt2)).unwrap();
        let p = literal_pairs(&a, div, mul).unwrap();
        assert_eq!(p.len(), 1);
        assert!(p[0].relative > 0.0 && p[0].relative < 1e-7, "{p:?}");
        // Same literal, other input: an operand differs, not a literal.
        let mul_y = a.intern(Node::Mul(y, half_sqrt2)).unwrap();
        assert_eq!(literal_pairs(&a, div, mul_y), None);
        // A literal far off (0.5 for 0.7071): a real difference, not a rounding of one literal.
        let half = c(&mut a, 0.5);
        let mul_half = a.intern(Node::Mul(x, half)).unwrap();
        assert_eq!(literal_pairs(&a, div, mul_half), None);
        // Another operation (add for mul): none.
        let add = a.intern(Node::Add(x, half_sqrt2)).unwrap();
        assert_eq!(literal_pairs(&a, mul, add), None);
        // Equal terms: no pair, so no such verdict.
        assert_eq!(literal_pairs(&a, mul, mul), None);
    }
}
