//! Untrusted exporter for the executable Lean model of the checker's equivalence replay
//! (`lean/exec`, binary `kcert-lean-check`).
//!
//! [`export`] runs a certificate's pair exactly as `kcert_checker::check::check` does (the
//! embedded specs, both kernels, one shared arena, `max_ctas` unbounded) and writes what the
//! Lean model `Kcert.checkEquiv` reads, as plain text: the term DAG reachable from the compared
//! elements, the input naming, the footprints, the element terms, the claimed outputs and the
//! steps. Only the equivalence part of `check` is exported: hashes, spec parsing, claim
//! well-formedness and safety stay Rust-only (the Lean model does not cover them).
//!
//! Format (one record per line, fields separated by one space):
//!
//! ```text
//! kcert-exchange 1
//! input TENSOR LINK            one per linked tensor name (unlisted names are unlinked)
//! node ID KIND ARGS...         children before parents, ids 0, 1, 2, ... in order:
//!   const NEG MANT EXP         (-1)^NEG * MANT * 2^EXP, exact (NEG is 0 or 1, MANT odd or 0)
//!   neginf | posinf
//!   in TENSOR INDEX
//!   add A B | sub A B | mul A B | div A B | max A B | min A B | and A B | or A B
//!   fma A B C | sel COND THEN ELSE
//!   neg A | not A
//!   app FUNC A                 FUNC: ex2 rcp sqrt rsqrt lg2 sin cos tanh abs
//!   cmp OP A B                 OP: eq ne lt le gt ge
//! claim OUTPUT                 an Equivalent(OUTPUT) claim, in certificate order
//! fp ref|opt OUTPUT E...       the footprint (sorted written elements) of a claimed output
//! el ref|opt OUTPUT E NODE     the term a kernel wrote at element E (absent: not a number)
//! step OUTPUT FIRST COUNT RULE RULE: congruent ring field
//! end
//! ```

use kcert_checker::cert::{Certificate, Claim, Kernel, Rule};
use kcert_checker::equiv;
use kcert_checker::exec::Config;
use kcert_checker::pair::{PairSpec, SpecTexts};
use kcert_checker::term::{CmpOp, Func, Node, TermArena, TermId};
use std::fmt::Write as _;
use std::path::Path;

/// An exported certificate, with sizes for reports.
pub struct Exchange {
    pub text: String,
    /// Nodes written (the DAG reachable from the exported element terms).
    pub nodes: usize,
    /// Largest element term as a tree (the DAG unfolded), saturating at `u64::MAX`.
    pub max_tree: u64,
    /// Element terms written.
    pub elements: usize,
}

fn func(f: Func) -> &'static str {
    match f {
        Func::Ex2 => "ex2",
        Func::Rcp => "rcp",
        Func::Sqrt => "sqrt",
        Func::Rsqrt => "rsqrt",
        Func::Lg2 => "lg2",
        Func::Sin => "sin",
        Func::Cos => "cos",
        Func::Tanh => "tanh",
        Func::Abs => "abs",
    }
}

fn cmp(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "eq",
        CmpOp::Ne => "ne",
        CmpOp::Lt => "lt",
        CmpOp::Le => "le",
        CmpOp::Gt => "gt",
        CmpOp::Ge => "ge",
    }
}

pub fn rule_name(r: Rule) -> &'static str {
    match r {
        Rule::Congruent => "congruent",
        Rule::RingNormalize => "ring",
        Rule::FieldNormalize => "field",
    }
}

/// Writes the nodes reachable from `roots`, renumbered densely in arena order (children before
/// parents); returns the new number of every written node and the largest unfolded tree size.
fn write_nodes(arena: &TermArena, roots: &[TermId], out: &mut String) -> (Vec<u32>, usize, u64) {
    const NONE: u32 = u32::MAX;
    let n = arena.len();
    let mut keep = vec![false; n];
    for r in roots {
        keep[r.index()] = true;
    }
    for i in (0..n).rev() {
        if keep[i] {
            for c in arena.nodes()[i].children() {
                keep[c.index()] = true;
            }
        }
    }
    let mut new = vec![NONE; n];
    let mut size = vec![0u64; n];
    let mut next = 0u32;
    for i in 0..n {
        if !keep[i] {
            continue;
        }
        let node = arena.nodes()[i];
        size[i] = node
            .children()
            .fold(1u64, |s, c| s.saturating_add(size[c.index()]));
        let id = |t: TermId| new[t.index()];
        // Rounding is the identity over the reals, and the Lean terms have no such node: a
        // rounded term is exported as its child.
        if let Node::Round(_, a) = node {
            new[i] = id(a);
            size[i] = size[a.index()];
            continue;
        }
        let _ = write!(out, "node {next} ");
        let _ = match node {
            Node::Const(c) => {
                let (neg, mant, exp) = arena.const_value(c).parts();
                write!(out, "const {} {mant} {exp}", u8::from(neg))
            }
            Node::NegInf => write!(out, "neginf"),
            Node::PosInf => write!(out, "posinf"),
            Node::Input { tensor, index } => write!(out, "in {tensor} {index}"),
            Node::Add(a, b) => write!(out, "add {} {}", id(a), id(b)),
            Node::Sub(a, b) => write!(out, "sub {} {}", id(a), id(b)),
            Node::Mul(a, b) => write!(out, "mul {} {}", id(a), id(b)),
            Node::Div(a, b) => write!(out, "div {} {}", id(a), id(b)),
            Node::Max(a, b) => write!(out, "max {} {}", id(a), id(b)),
            Node::Min(a, b) => write!(out, "min {} {}", id(a), id(b)),
            Node::And(a, b) => write!(out, "and {} {}", id(a), id(b)),
            Node::Or(a, b) => write!(out, "or {} {}", id(a), id(b)),
            Node::Fma(a, b, c) => write!(out, "fma {} {} {}", id(a), id(b), id(c)),
            Node::Select { cond, then, else_ } => {
                write!(out, "sel {} {} {}", id(cond), id(then), id(else_))
            }
            Node::Neg(a) => write!(out, "neg {}", id(a)),
            Node::Not(a) => write!(out, "not {}", id(a)),
            Node::Apply(f, a) => write!(out, "app {} {}", func(f), id(a)),
            Node::Cmp(op, a, b) => write!(out, "cmp {} {} {}", cmp(op), id(a), id(b)),
            Node::Round(..) => Ok(()),
        };
        out.push('\n');
        new[i] = next;
        next += 1;
    }
    let max_tree = roots.iter().map(|r| size[r.index()]).max().unwrap_or(0);
    (new, next as usize, max_tree)
}

/// Exports `cert`'s equivalence part, running its pair on the given PTX texts as the checker
/// does. Fails when the specs do not parse or a kernel cannot be run (the checker rejects
/// those certificates before any step is replayed).
pub fn export(cert: &Certificate, ref_ptx: &str, opt_ptx: &str) -> Result<Exchange, String> {
    let texts = SpecTexts {
        pair: cert.pair_spec.clone(),
        reference: cert.ref_spec.clone(),
        optimized: cert.opt_spec.clone(),
    };
    let pair = PairSpec::from_texts(texts, Path::new("."), Path::new("."))?;
    // The certificate is untrusted: its runs are bounded as the checker bounds them.
    let config = |i: usize| {
        let limit =
            kcert_checker::check::work_limit(cert.work[i], kcert_checker::exec::DEFAULT_MAX_WORK);
        Config {
            max_ctas: u64::MAX,
            max_work: limit,
            max_steps_per_thread: limit,
            ..Config::default()
        }
    };
    let configs = [config(0), config(1)];
    let mut run = equiv::run_pair_with(
        &pair,
        [ref_ptx, opt_ptx],
        [true, true],
        [&configs[0], &configs[1]],
    )
    .map_err(|e| e.to_string())?;
    let claimed: Vec<u32> = cert.claims.iter().filter_map(Claim::equivalence).collect();
    // (kernel, output, element, term) for every written element of every claimed output.
    let mut elems: Vec<(&'static str, u32, u64, TermId)> = Vec::new();
    let mut fps: Vec<(&'static str, u32, Vec<u64>)> = Vec::new();
    for &o in &claimed {
        let Some(&(rp, op)) = pair.outputs.get(o as usize) else {
            continue;
        };
        for (kernel, name, param) in [
            (Kernel::Reference, "ref", rp),
            (Kernel::Optimized, "opt", op),
        ] {
            let fp = run
                .side(kernel)
                .map(|s| s.footprint(param))
                .unwrap_or_default();
            for &e in &fp {
                // An element that is not a number (`Err`) is left out: the model's `none`.
                if let Ok(Some(t)) = run.element_term(kernel, param, e) {
                    elems.push((name, o, e, t));
                }
            }
            fps.push((name, o, fp));
        }
    }
    let mut text = String::from("kcert-exchange 1\n");
    for (t, link) in run.inputs.iter().enumerate() {
        if let Some(l) = link {
            let _ = writeln!(text, "input {t} {l}");
        }
    }
    let roots: Vec<TermId> = elems.iter().map(|e| e.3).collect();
    let (new, nodes, max_tree) = write_nodes(&run.arena, &roots, &mut text);
    for o in &claimed {
        let _ = writeln!(text, "claim {o}");
    }
    for (name, o, fp) in &fps {
        let _ = write!(text, "fp {name} {o}");
        for e in fp {
            let _ = write!(text, " {e}");
        }
        text.push('\n');
    }
    for (name, o, e, t) in &elems {
        let _ = writeln!(text, "el {name} {o} {e} {}", new[t.index()]);
    }
    for s in &cert.steps {
        let _ = writeln!(
            text,
            "step {} {} {} {}",
            s.output,
            s.first,
            s.count,
            rule_name(s.rule)
        );
    }
    text.push_str("end\n");
    Ok(Exchange {
        text,
        nodes,
        max_tree,
        elements: elems.len(),
    })
}
