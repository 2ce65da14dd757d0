//! Real-valued terms over kernel inputs, as one hash-consed arena.
//!
//! Nodes live in a vector, children before parents, named by [`TermId`]. Constructors intern but
//! never simplify: `x * 1` stays a product, so the term is exactly what the kernel computed and
//! every algebraic step is left to the certificate rules. Nothing here recurses on term depth,
//! so a K=4096 reduction chain is as cheap to build as a shallow one.

mod dyadic;
mod hasher;

pub use dyadic::Dyadic;
pub use hasher::FxBuildHasher;

use std::collections::HashMap;

/// An index into a [`TermArena`]; only the arena makes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(u32);

impl TermId {
    /// The position of the node in [`TermArena::nodes`].
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The id `k` places after this one (for leaves interned consecutively).
    pub fn offset(self, k: u64) -> TermId {
        TermId(self.0 + k as u32)
    }
}

/// Comparisons a data-dependent predicate may make (PTX `setp` on floats, ISA 9.7.3.x).
/// Unordered variants are not modeled: values are reals, never NaN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Unary functions that the model keeps opaque except for their argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Func {
    /// 2^x (`ex2`), exact: never an approximation identity.
    Ex2,
    /// 1/x (`rcp`).
    Rcp,
    Sqrt,
    Rsqrt,
    /// log2 x (`lg2`).
    Lg2,
    Sin,
    Cos,
    Tanh,
    Abs,
}

/// A float format a value lives in (for [`Node::Round`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fmt {
    F16,
    Bf16,
    F32,
    F64,
}

/// How a result was rounded into its format (for [`Node::Round`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RoundMode {
    /// Round to nearest, ties to even (`.rn`, the default).
    Rn,
    Rz,
    Rm,
    Rp,
    /// An approximation (`.approx`: `ex2`, `rcp`, `div`, ...).
    Approx,
    /// `div.full`: an approximation with a stated error bound.
    Full,
    /// No rounding at all (`neg`, `abs`, `min`, `max`, a constant read in this format).
    Exact,
}

/// What decides a result's bits beyond its real value: the format, the rounding, and whether
/// subnormals are flushed (`.ftz`). Part of [`Node::Round`], so two results that are equal over
/// the reals but rounded differently are different terms to the race check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rnd {
    pub fmt: Fmt,
    pub mode: RoundMode,
    pub ftz: bool,
}

/// One node of the term DAG.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Node {
    /// An exact dyadic rational (every finite float literal and every integer converted to
    /// float), by its index in the arena's constant pool; see [`TermArena::constant`].
    Const(ConstId),
    /// -infinity, admitted only where it provably folds away (the running-max identity).
    NegInf,
    /// +infinity, likewise.
    PosInf,
    /// Element `index` (row-major, in elements) of the input tensor numbered `tensor` in the
    /// launch's parameter list.
    Input {
        tensor: u32,
        index: u64,
    },
    Add(TermId, TermId),
    Sub(TermId, TermId),
    Mul(TermId, TermId),
    Div(TermId, TermId),
    /// `a*b + c`, as `fma` computes it over the reals; one node instead of two because it is
    /// the bulk of every matmul and reduction.
    Fma(TermId, TermId, TermId),
    Neg(TermId),
    Max(TermId, TermId),
    Min(TermId, TermId),
    Apply(Func, TermId),
    /// A comparison, only ever used as the condition of a [`Node::Select`].
    Cmp(CmpOp, TermId, TermId),
    /// `cond ? then : else_`.
    Select {
        cond: TermId,
        then: TermId,
        else_: TermId,
    },
    /// The real value of the child, rounded as [`Rnd`] says. Over the reals it is the
    /// identity (values are reals: every rule reads `Round(r, x)` as `x`); it records what
    /// decides the bits, for the race check's benign writes and for the format a 16-bit value
    /// is in. A plain node is an f32 result rounded to nearest (or exact); anything else (16-bit
    /// and f64 arithmetic, other rounding modes, approximations, `.ftz`, narrowing conversions)
    /// is wrapped.
    Round(Rnd, TermId),
    /// Boolean combinations of comparisons (`and.pred`, `or.pred`, `not.pred` on data).
    And(TermId, TermId),
    Or(TermId, TermId),
    Not(TermId),
}

impl Node {
    /// The children, in order; used by iterative traversals.
    pub fn children(&self) -> impl Iterator<Item = TermId> {
        let (kids, n) = self.child_array();
        kids.into_iter().take(n)
    }

    /// The child with the largest id (the interning key), without building the child array:
    /// the same as the largest of [`Node::children`].
    #[inline]
    pub fn newest_child(&self) -> Option<TermId> {
        match *self {
            Node::Const(_) | Node::NegInf | Node::PosInf | Node::Input { .. } => None,
            Node::Neg(a) | Node::Apply(_, a) | Node::Not(a) | Node::Round(_, a) => Some(a),
            Node::Add(a, b)
            | Node::Sub(a, b)
            | Node::Mul(a, b)
            | Node::Div(a, b)
            | Node::Max(a, b)
            | Node::Min(a, b)
            | Node::Cmp(_, a, b)
            | Node::And(a, b)
            | Node::Or(a, b) => Some(a.max(b)),
            Node::Select { cond, then, else_ } => Some(cond.max(then).max(else_)),
            Node::Fma(a, b, c) => Some(a.max(b).max(c)),
        }
    }

    /// The children as a fixed array and a count, for hot paths.
    pub fn child_array(&self) -> ([TermId; 3], usize) {
        let z = TermId(0);
        match *self {
            Node::Const(_) | Node::NegInf | Node::PosInf | Node::Input { .. } => ([z; 3], 0),
            Node::Neg(a) | Node::Apply(_, a) | Node::Not(a) | Node::Round(_, a) => ([a, z, z], 1),
            Node::Add(a, b)
            | Node::Sub(a, b)
            | Node::Mul(a, b)
            | Node::Div(a, b)
            | Node::Max(a, b)
            | Node::Min(a, b)
            | Node::Cmp(_, a, b)
            | Node::And(a, b)
            | Node::Or(a, b) => ([a, b, z], 2),
            Node::Select { cond, then, else_ } => ([cond, then, else_], 3),
            Node::Fma(a, b, c) => ([a, b, c], 3),
        }
    }
}

/// The arena's only failure: more than `u32::MAX` distinct nodes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("term arena is full ({0} nodes)")]
pub struct ArenaFull(pub usize);

/// An index into the arena's constant pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstId(u32);

const NONE: u32 = u32::MAX;

/// Hash-consed storage: structurally equal nodes get the same id, so equality is `==` on ids.
///
/// Interning must not cost a hash-table probe per node: a K=4096 matmul tile builds tens of
/// millions of nodes, nearly all of them fresh links of accumulation chains. So a node's *key* is
/// its newest child (largest id), and the first node created with a given key is recorded in
/// that child's `first_parent` slot instead of the hash table; later nodes with the same key go
/// to the table. A node whose key slot is empty cannot exist yet, so a chain link
/// `fma(a, b, acc)` is created after reading one slot, the one of the `acc` just made. Lookup
/// checks the key slot, then the table, so hash-consing stays complete. Leaves always go to
/// the table.
#[derive(Debug, Default, Clone)]
pub struct TermArena {
    nodes: Vec<Node>,
    /// Per node: the first node created with it as newest child, or `NONE`.
    first_parent: Vec<u32>,
    table: HashMap<Node, TermId, FxBuildHasher>,
    consts: Vec<Dyadic>,
    const_ids: HashMap<Dyadic, ConstId, FxBuildHasher>,
}

impl TermArena {
    pub fn new() -> Self {
        Self::default()
    }

    /// Interns `node`. Children must already be in this arena (ids come only from it).
    pub fn intern(&mut self, node: Node) -> Result<TermId, ArenaFull> {
        let key = node.newest_child();
        let slot = key.map(|k| self.first_parent[k.index()]);
        match slot {
            // No node has this key yet: `node` is new.
            Some(NONE) => {}
            Some(p) if self.nodes[p as usize] == node => return Ok(TermId(p)),
            _ => {
                if let Some(&id) = self.table.get(&node) {
                    return Ok(id);
                }
            }
        }
        let raw = u32::try_from(self.nodes.len())
            .ok()
            .filter(|&r| r != NONE)
            .ok_or(ArenaFull(self.nodes.len()))?;
        self.nodes.push(node);
        self.first_parent.push(NONE);
        match key {
            Some(k) if slot == Some(NONE) => self.first_parent[k.index()] = raw,
            _ => {
                self.table.insert(node, TermId(raw));
            }
        }
        Ok(TermId(raw))
    }

    /// Interns `Input { tensor, index }` for every `index < n`, in order, and returns the id of
    /// index 0 when the ids are consecutive (always in a fresh arena), so that an element's
    /// leaf is `base + index` with no lookup.
    pub fn intern_inputs(&mut self, tensor: u32, n: u64) -> Result<Option<TermId>, ArenaFull> {
        let mut base = None;
        let mut contiguous = true;
        for index in 0..n {
            let id = self.intern(Node::Input { tensor, index })?;
            match base {
                None => base = Some(id),
                Some(TermId(b)) => contiguous &= u64::from(id.0) == u64::from(b) + index,
            }
        }
        Ok(if contiguous { base } else { None })
    }

    /// Interns the constant `d`.
    pub fn constant_node(&mut self, d: Dyadic) -> Result<Node, ArenaFull> {
        if let Some(&c) = self.const_ids.get(&d) {
            return Ok(Node::Const(c));
        }
        let c =
            ConstId(u32::try_from(self.consts.len()).map_err(|_| ArenaFull(self.consts.len()))?);
        self.consts.push(d);
        self.const_ids.insert(d, c);
        Ok(Node::Const(c))
    }

    /// Interns the term for the constant `d`.
    pub fn constant(&mut self, d: Dyadic) -> Result<TermId, ArenaFull> {
        let n = self.constant_node(d)?;
        self.intern(n)
    }

    pub fn const_value(&self, c: ConstId) -> Dyadic {
        self.consts[c.0 as usize]
    }

    pub fn node(&self, id: TermId) -> &Node {
        &self.nodes[id.index()]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// All nodes, children before parents.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Whether `a` and `b` are the same tree once the operands of commutative operations
    /// (`+`, `*`, max, min, the product in `fma`) may be swapped. Such terms are equal over the
    /// reals *and* bit for bit in IEEE arithmetic (these operations commute exactly), which is
    /// what makes concurrent writes of them benign. Gives up (false) after `budget` node pairs.
    /// Rounding ([`Node::Round`]) is part of the tree here: `add.rn` and `add.rz` of the same
    /// operands are different bits.
    pub fn equal_up_to_commutativity(&self, a: TermId, b: TermId, budget: usize) -> bool {
        self.equal_up_to_commutativity_counted(a, b, budget).0
    }

    /// [`Self::equal_up_to_commutativity`] and the number of nodes it visited, which callers
    /// count as work.
    pub fn equal_up_to_commutativity_counted(
        &self,
        a: TermId,
        b: TermId,
        budget: usize,
    ) -> (bool, usize) {
        let mut c = Comparison::new(self, false, None, budget);
        let same = c.equal(a, b, false);
        (same, c.visited())
    }

    /// Like [`TermArena::equal_up_to_commutativity_counted`] with every [`Node::Round`] read as
    /// its child and `fma(x, y, z)` read as `x*y + z`: equal over the reals although the bits
    /// may differ (an fp-nondeterministic pair of writes when the bit-level tests fail).
    pub fn equal_up_to_rounding_counted(
        &self,
        a: TermId,
        b: TermId,
        budget: usize,
    ) -> (bool, usize) {
        let mut c = Comparison::new(self, true, None, budget);
        let same = c.equal(a, b, false);
        (same, c.visited())
    }

    /// Bit equality up to commutativity, where an f32 `fma(x, y, z)` also equals
    /// `add(mul(x, y), z)` when `exact(x, y)` says the product `x*y` is exact in f32: then
    /// `round(x*y) = x*y` and both compute `round(x*y + z)`. This is how a contracted
    /// butterfly (`fma(x, x, shfl(x*x))`) on 16-bit data gives every lane the same bits.
    /// `Some(Exactness::Always)` when the terms are bit-equal for all inputs,
    /// `Some(Exactness::InNormalRange)` when that rests on a product that is exact only while
    /// it stays in f32's normal range, `None` when no such argument was found.
    pub fn equal_bits_given_exact_products(
        &self,
        a: TermId,
        b: TermId,
        budget: usize,
        exact: &dyn Fn(TermId, TermId) -> Exactness,
    ) -> (Option<Exactness>, usize) {
        let mut c = Comparison::new(self, false, Some(exact), budget);
        let same = c.equal(a, b, false);
        let how = same.then_some(if c.conditional {
            Exactness::InNormalRange
        } else {
            Exactness::Always
        });
        (how, c.visited())
    }

    /// `t` without the [`Node::Round`] wrappers on top (the rules' reading of it).
    pub fn unrounded(&self, mut t: TermId) -> TermId {
        while let Node::Round(_, x) = *self.node(t) {
            t = x;
        }
        t
    }

    /// Renders a term for people, sharing-unaware and cut at `budget` characters. Iterative.
    pub fn render(&self, root: TermId, budget: usize) -> String {
        self.render_with(root, budget, &|tensor, index| {
            format!("in{tensor}[{index}]")
        })
    }

    /// Like [`TermArena::render`], naming input elements with `input(tensor, index)`.
    pub fn render_with(
        &self,
        root: TermId,
        budget: usize,
        input: &dyn Fn(u32, u64) -> String,
    ) -> String {
        enum Job {
            Visit(TermId),
            Text(&'static str),
        }
        let mut out = String::new();
        let mut stack = vec![Job::Visit(root)];
        while let Some(job) = stack.pop() {
            if out.len() > budget {
                out.push('…');
                break;
            }
            let id = match job {
                Job::Text(s) => {
                    out.push_str(s);
                    continue;
                }
                Job::Visit(id) => id,
            };
            let bin = |op: &'static str, a, b, stack: &mut Vec<Job>| {
                stack.extend([Job::Text(")"), Job::Visit(b), Job::Text(op), Job::Visit(a)]);
            };
            match *self.node(id) {
                Node::Const(c) => out.push_str(&self.const_value(c).to_string()),
                Node::NegInf => out.push_str("-inf"),
                Node::PosInf => out.push_str("+inf"),
                Node::Input { tensor, index } => out.push_str(&input(tensor, index)),
                Node::Add(a, b) => {
                    out.push('(');
                    bin(" + ", a, b, &mut stack)
                }
                Node::Sub(a, b) => {
                    out.push('(');
                    bin(" - ", a, b, &mut stack)
                }
                Node::Mul(a, b) => {
                    out.push('(');
                    bin(" * ", a, b, &mut stack)
                }
                Node::Div(a, b) => {
                    out.push('(');
                    bin(" / ", a, b, &mut stack)
                }
                Node::Max(a, b) => {
                    out.push_str("max(");
                    bin(", ", a, b, &mut stack)
                }
                Node::Min(a, b) => {
                    out.push_str("min(");
                    bin(", ", a, b, &mut stack)
                }
                Node::And(a, b) => {
                    out.push('(');
                    bin(" && ", a, b, &mut stack)
                }
                Node::Or(a, b) => {
                    out.push('(');
                    bin(" || ", a, b, &mut stack)
                }
                Node::Cmp(op, a, b) => {
                    out.push('(');
                    let s = match op {
                        CmpOp::Eq => " == ",
                        CmpOp::Ne => " != ",
                        CmpOp::Lt => " < ",
                        CmpOp::Le => " <= ",
                        CmpOp::Gt => " > ",
                        CmpOp::Ge => " >= ",
                    };
                    bin(s, a, b, &mut stack)
                }
                Node::Fma(a, b, c) => {
                    out.push_str("fma(");
                    stack.extend([
                        Job::Text(")"),
                        Job::Visit(c),
                        Job::Text(", "),
                        Job::Visit(b),
                        Job::Text(", "),
                        Job::Visit(a),
                    ]);
                }
                Node::Neg(a) => {
                    out.push_str("-(");
                    stack.extend([Job::Text(")"), Job::Visit(a)]);
                }
                Node::Not(a) => {
                    out.push_str("!(");
                    stack.extend([Job::Text(")"), Job::Visit(a)]);
                }
                Node::Apply(f, a) => {
                    out.push_str(&format!("{f:?}(").to_lowercase());
                    stack.extend([Job::Text(")"), Job::Visit(a)]);
                }
                Node::Round(r, a) => {
                    let ftz = if r.ftz { ".ftz" } else { "" };
                    out.push_str(&format!("{:?}{ftz}.{:?}(", r.mode, r.fmt).to_lowercase());
                    stack.extend([Job::Text(")"), Job::Visit(a)]);
                }
                Node::Select { cond, then, else_ } => {
                    out.push_str("select(");
                    stack.extend([
                        Job::Text(")"),
                        Job::Visit(else_),
                        Job::Text(", "),
                        Job::Visit(then),
                        Job::Text(", "),
                        Job::Visit(cond),
                    ]);
                }
            }
        }
        out
    }
}

/// Whether the product of two values is exact in f32 (for
/// [`TermArena::equal_bits_given_exact_products`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exactness {
    /// Not known to be exact.
    Never,
    /// Exact for all values (two f16 values: 22 significant bits, inside f32's range).
    Always,
    /// Exact while the product is 0 or in f32's normal range (bf16 values: 16 significant
    /// bits, but bf16's exponent range is f32's, so a product can underflow or overflow).
    InNormalRange,
}

/// One comparison of two terms up to commutativity, with its budget and memo. `reals` reads
/// rounding as the identity and `fma` as multiply-then-add; `exact`, in bit mode, allows the
/// same reading of an f32 `fma` whose product is exact.
struct Comparison<'a> {
    arena: &'a TermArena,
    reals: bool,
    exact: Option<&'a dyn Fn(TermId, TermId) -> Exactness>,
    /// Pairs shown equal, with whether they sat directly under a rounding.
    proven: std::collections::HashSet<(TermId, TermId, bool), FxBuildHasher>,
    budget: usize,
    left: usize,
    /// Some use of [`Exactness::InNormalRange`] took part in a successful sub-comparison
    /// (an over-approximation: the verdict is then the conditional one).
    conditional: bool,
}

impl<'a> Comparison<'a> {
    fn new(
        arena: &'a TermArena,
        reals: bool,
        exact: Option<&'a dyn Fn(TermId, TermId) -> Exactness>,
        budget: usize,
    ) -> Self {
        Comparison {
            arena,
            reals,
            exact,
            proven: Default::default(),
            budget,
            left: budget,
            conditional: false,
        }
    }

    fn visited(&self) -> usize {
        self.budget - self.left
    }

    /// `under`: the nodes are the direct children of a [`Node::Round`], so they were
    /// computed in that rounding's format and the f32 exactness reading does not apply.
    fn equal(&mut self, a: TermId, b: TermId, under: bool) -> bool {
        let (a, b) = if self.reals {
            (self.arena.unrounded(a), self.arena.unrounded(b))
        } else {
            (a, b)
        };
        if a == b || self.proven.contains(&(a, b, under)) {
            return true;
        }
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        let same = match (*self.arena.node(a), *self.arena.node(b)) {
            (Node::Add(x, y), Node::Add(u, v))
            | (Node::Mul(x, y), Node::Mul(u, v))
            | (Node::Max(x, y), Node::Max(u, v))
            | (Node::Min(x, y), Node::Min(u, v)) => self.pair(x, y, u, v),
            (Node::Fma(x, y, z), Node::Fma(u, v, w)) => {
                (self.pair(x, y, u, v) && self.equal(z, w, false))
                    || (self.split(x, y, under)
                        && self.split(u, v, under)
                        && self.product(x, y, w)
                        && self.product(u, v, z))
            }
            (Node::Fma(x, y, z), Node::Add(u, v)) | (Node::Add(u, v), Node::Fma(x, y, z)) => {
                self.split(x, y, under)
                    && ((self.product(x, y, u) && self.equal(z, v, false))
                        || (self.product(x, y, v) && self.equal(z, u, false)))
            }
            (na, nb) => {
                let ((ka, n), (kb, m)) = (na.child_array(), nb.child_array());
                let shallow = match (na, nb) {
                    (Node::Apply(f, _), Node::Apply(g, _)) => f == g,
                    (Node::Round(r, _), Node::Round(q, _)) => r == q,
                    (Node::Cmp(p, _, _), Node::Cmp(q, _, _)) => p == q,
                    _ => std::mem::discriminant(&na) == std::mem::discriminant(&nb),
                };
                let below = matches!(na, Node::Round(..));
                // Leaves are hash-consed, so distinct ids of leaves mean distinct leaves.
                shallow && n == m && n > 0 && (0..n).all(|i| self.equal(ka[i], kb[i], below))
            }
        };
        if same {
            self.proven.insert((a, b, under));
        }
        same
    }

    /// `{x, y}` and `{u, v}` equal as unordered pairs.
    fn pair(&mut self, x: TermId, y: TermId, u: TermId, v: TermId) -> bool {
        (self.equal(x, u, false) && self.equal(y, v, false))
            || (self.equal(x, v, false) && self.equal(y, u, false))
    }

    /// Whether an `fma` with product `x*y` may be read as its product plus its addend: always
    /// over the reals; in bits only for an f32 fma (not under a rounding) with an exact product.
    fn split(&mut self, x: TermId, y: TermId, under: bool) -> bool {
        if self.reals {
            return true;
        }
        let Some(exact) = self.exact else {
            return false;
        };
        if under {
            return false;
        }
        match exact(x, y) {
            Exactness::Never => false,
            Exactness::Always => true,
            Exactness::InNormalRange => {
                self.conditional = true;
                true
            }
        }
    }

    /// Whether `t` is the product `x*y` (a multiplication of the same operands, in either
    /// order; over the reals also below roundings). In bits `t` is a plain f32 `mul`, which
    /// gives `x*y` exactly when [`Self::split`] allowed the reading.
    fn product(&mut self, x: TermId, y: TermId, t: TermId) -> bool {
        let t = if self.reals {
            self.arena.unrounded(t)
        } else {
            t
        };
        match *self.arena.node(t) {
            Node::Mul(p, q) => self.pair(x, y, p, q),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(a: &mut TermArena, index: u64) -> TermId {
        a.intern(Node::Input { tensor: 0, index }).unwrap()
    }

    /// The contracted butterfly: lane i holds fma(x, x, y*y), lane j fma(y, y, x*x). Equal
    /// over the reals; bit-equal only with an exactness argument; and never when the fma sits
    /// under a rounding (computed in another format) or the products differ.
    #[test]
    fn contracted_butterflies_are_bit_equal_only_with_exact_products() {
        let mut a = TermArena::new();
        let (x, y, z) = (input(&mut a, 0), input(&mut a, 1), input(&mut a, 2));
        let xx = a.intern(Node::Mul(x, x)).unwrap();
        let yy = a.intern(Node::Mul(y, y)).unwrap();
        let yz = a.intern(Node::Mul(y, z)).unwrap();
        let li = a.intern(Node::Fma(x, x, yy)).unwrap();
        let lj = a.intern(Node::Fma(y, y, xx)).unwrap();
        let always = |_: TermId, _: TermId| Exactness::Always;
        let normal = |_: TermId, _: TermId| Exactness::InNormalRange;
        let never = |_: TermId, _: TermId| Exactness::Never;
        assert!(!a.equal_up_to_commutativity_counted(li, lj, 99).0);
        assert!(a.equal_up_to_rounding_counted(li, lj, 99).0);
        fn bits(
            a: &TermArena,
            e: &dyn Fn(TermId, TermId) -> Exactness,
            p: TermId,
            q: TermId,
        ) -> Option<Exactness> {
            a.equal_bits_given_exact_products(p, q, 99, e).0
        }
        assert_eq!(bits(&a, &always, li, lj), Some(Exactness::Always));
        assert_eq!(bits(&a, &normal, li, lj), Some(Exactness::InNormalRange));
        assert_eq!(bits(&a, &never, li, lj), None);
        // fma(x, x, y*z) against fma(y, y, x*x): different reals, never equal.
        let lk = a.intern(Node::Fma(x, x, yz)).unwrap();
        assert!(!a.equal_up_to_rounding_counted(lk, lj, 99).0);
        assert_eq!(bits(&a, &always, lk, lj), None);
        // fma(x, y, z) = add(mul(x, y), z) when the product is exact, in either order.
        let fxyz = a.intern(Node::Fma(x, y, z)).unwrap();
        let xy = a.intern(Node::Mul(y, x)).unwrap();
        let sum = a.intern(Node::Add(z, xy)).unwrap();
        assert_eq!(bits(&a, &always, fxyz, sum), Some(Exactness::Always));
        assert_eq!(bits(&a, &always, sum, fxyz), Some(Exactness::Always));
        assert_eq!(bits(&a, &never, fxyz, sum), None);
        // A product rounded toward zero is not the exact product in bits (but is over the reals).
        let rz = Rnd {
            fmt: Fmt::F32,
            mode: RoundMode::Rz,
            ftz: false,
        };
        let xy_rz = a.intern(Node::Round(rz, xy)).unwrap();
        let sum_rz = a.intern(Node::Add(z, xy_rz)).unwrap();
        assert_eq!(bits(&a, &always, fxyz, sum_rz), None);
        assert!(a.equal_up_to_rounding_counted(fxyz, sum_rz, 99).0);
        // Under a rounding (an f64 or 16-bit fma) the f32 exactness argument does not apply.
        let f64rn = Rnd {
            fmt: Fmt::F64,
            mode: RoundMode::Rn,
            ftz: false,
        };
        let wi = a.intern(Node::Round(f64rn, li)).unwrap();
        let wj = a.intern(Node::Round(f64rn, lj)).unwrap();
        assert_eq!(bits(&a, &always, wi, wj), None);
        assert!(a.equal_up_to_rounding_counted(wi, wj, 99).0);
        // One level up, plain adds of the lanes' sums: still bit-equal by commutativity.
        let up_i = a.intern(Node::Add(li, z)).unwrap();
        let up_j = a.intern(Node::Add(z, lj)).unwrap();
        assert_eq!(bits(&a, &always, up_i, up_j), Some(Exactness::Always));
    }

    #[test]
    fn interning_shares_equal_nodes() {
        let mut a = TermArena::new();
        let x = input(&mut a, 3);
        let y = input(&mut a, 4);
        let s1 = a.intern(Node::Add(x, y)).unwrap();
        let s2 = a.intern(Node::Add(x, y)).unwrap();
        let s3 = a.intern(Node::Add(y, x)).unwrap();
        assert_eq!(s1, s2);
        assert_ne!(s1, s3, "constructors never reorder");
        assert_eq!(a.len(), 4);
    }

    #[test]
    fn interning_is_complete_through_first_parents() {
        // Chains record links on their newest child; re-building any link must find it again,
        // whether it was recorded there or in the table.
        let mut a = TermArena::new();
        let x = input(&mut a, 0);
        let y = input(&mut a, 1);
        let mut chain = vec![x];
        for _ in 0..10 {
            let last = *chain.last().unwrap();
            chain.push(a.intern(Node::Fma(x, y, last)).unwrap());
        }
        let n = a.len();
        for w in chain.windows(2) {
            assert_eq!(a.intern(Node::Fma(x, y, w[0])).unwrap(), w[1]);
        }
        // A second parent of the same newest child goes to the table and is found there too.
        let other = a.intern(Node::Add(chain[3], y)).unwrap();
        assert_eq!(a.intern(Node::Add(chain[3], y)).unwrap(), other);
        assert_eq!(a.len(), n + 1);
        let c1 = a.constant(Dyadic::ONE).unwrap();
        assert_eq!(a.constant(Dyadic::ONE).unwrap(), c1);
    }

    #[test]
    fn newest_child_is_the_largest_child() {
        let mut a = TermArena::new();
        let x = input(&mut a, 0);
        let y = input(&mut a, 1);
        let z = input(&mut a, 2);
        let c = a.intern(Node::Cmp(CmpOp::Lt, y, x)).unwrap();
        let nodes = [
            Node::Input {
                tensor: 0,
                index: 9,
            },
            Node::Neg(y),
            Node::Apply(Func::Ex2, x),
            Node::Add(z, x),
            Node::Sub(x, y),
            Node::Cmp(CmpOp::Ge, y, x),
            Node::Fma(z, x, y),
            Node::Fma(x, y, z),
            Node::Fma(x, z, y),
            Node::Select {
                cond: c,
                then: x,
                else_: z,
            },
        ];
        for n in nodes {
            assert_eq!(n.newest_child(), n.children().max(), "{n:?}");
        }
    }

    #[test]
    fn commutativity_is_recognized_and_nothing_more() {
        let mut a = TermArena::new();
        let x = input(&mut a, 0);
        let y = input(&mut a, 1);
        let z = input(&mut a, 2);
        let xy = a.intern(Node::Max(x, y)).unwrap();
        let yx = a.intern(Node::Max(y, x)).unwrap();
        let l = a.intern(Node::Add(xy, z)).unwrap();
        let r = a.intern(Node::Add(z, yx)).unwrap();
        assert!(a.equal_up_to_commutativity(l, r, 100));
        // Associativity is not commutativity: (x + y) + z vs x + (y + z) are different floats.
        let s1 = a.intern(Node::Add(x, y)).unwrap();
        let l2 = a.intern(Node::Add(s1, z)).unwrap();
        let s2 = a.intern(Node::Add(y, z)).unwrap();
        let r2 = a.intern(Node::Add(x, s2)).unwrap();
        assert!(!a.equal_up_to_commutativity(l2, r2, 100));
        let sub1 = a.intern(Node::Sub(x, y)).unwrap();
        let sub2 = a.intern(Node::Sub(y, x)).unwrap();
        assert!(!a.equal_up_to_commutativity(sub1, sub2, 100));
    }

    #[test]
    fn deep_chains_render_without_recursion() {
        let mut a = TermArena::new();
        let mut acc = a.constant(Dyadic::ZERO).unwrap();
        for i in 0..100_000 {
            let x = input(&mut a, i);
            acc = a.intern(Node::Add(acc, x)).unwrap();
        }
        let s = a.render(acc, 200);
        assert!(s.ends_with('…'));
    }
}
