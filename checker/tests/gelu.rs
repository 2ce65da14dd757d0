//! `copysign` and the if-conversion of a forward branch on tensor data, on the real nvcc output
//! for `erff` and `tanhf` (kernels/gelu), and on edits of it that leave the supported shape.

use kcert_checker::exec::{self, Config, ExecError, Mode, Outcome, Val};
use kcert_checker::lower::{self, FloatOp, LowerError, Op, Program, Src};
use kcert_checker::spec::KernelSpec;
use kcert_checker::term::{CmpOp, Func, Node, TermArena, TermId};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn gelu_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels/gelu")
}

fn ptx(name: &str) -> String {
    std::fs::read_to_string(gelu_dir().join(format!("{name}.ptx"))).unwrap()
}

fn spec(name: &str) -> KernelSpec {
    KernelSpec::load(&gelu_dir().join(format!("{name}.toml"))).unwrap()
}

/// `text` with line `n` (1-based) replaced, so that every other line keeps its number.
fn edit(text: &str, n: usize, new: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == n { new } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

fn lowered(text: &str, entry: &str) -> Result<Program, LowerError> {
    let module = kcert_checker::ptx::parse(text).unwrap();
    lower::lower(&module, entry)
}

fn run(text: &str, name: &str, mode: Mode, x: &[f32]) -> Result<Outcome, ExecError> {
    let prog = lowered(text, name).unwrap();
    let mut inputs = HashMap::new();
    let mut data: Vec<u64> = x.iter().map(|v| u64::from(v.to_bits())).collect();
    data.resize(256, 0);
    inputs.insert(0, data);
    exec::run(&prog, &spec(name), mode, &inputs, &Config::default())
}

fn concrete(text: &str, name: &str, x: &[f32]) -> Vec<f32> {
    let o = run(text, name, Mode::Concrete, x).unwrap();
    assert!(o.is_safe(), "{:?}", o.findings);
    (0..x.len() as u64)
        .map(|i| f32::from_bits(o.outputs[&1][&i].bits().unwrap() as u32))
        .collect()
}

/// The real value of `t` when every input leaf is `x` (the terms here have one leaf).
fn value(a: &TermArena, t: TermId, x: f64) -> f64 {
    let v = |c: TermId| value(a, c, x);
    match *a.node(t) {
        Node::Const(c) => {
            let (neg, m, e) = a.const_value(c).parts();
            let m = m as f64 * 2f64.powi(e);
            if neg { -m } else { m }
        }
        Node::Input { .. } => x,
        Node::Add(p, q) => v(p) + v(q),
        Node::Sub(p, q) => v(p) - v(q),
        Node::Mul(p, q) => v(p) * v(q),
        Node::Div(p, q) => v(p) / v(q),
        Node::Fma(p, q, r) => v(p) * v(q) + v(r),
        Node::Neg(p) => -v(p),
        // Rounding is the identity over the reals.
        Node::Round(_, p) => v(p),
        Node::Apply(Func::Abs, p) => v(p).abs(),
        Node::Apply(Func::Ex2, p) => v(p).exp2(),
        Node::Apply(Func::Rcp, p) => 1.0 / v(p),
        Node::Select { cond, then, else_ } => {
            let Node::Cmp(op, l, r) = *a.node(cond) else {
                panic!("a select on a comparison")
            };
            let (l, r) = (v(l), v(r));
            let holds = match op {
                CmpOp::Lt => l < r,
                CmpOp::Le => l <= r,
                CmpOp::Gt => l > r,
                CmpOp::Ge => l >= r,
                CmpOp::Eq => l == r,
                CmpOp::Ne => l != r,
            };
            if holds { v(then) } else { v(else_) }
        }
        other => panic!("unexpected node {other:?}"),
    }
}

/// The output term of element 0 of a symbolic run.
fn element0(o: &Outcome) -> TermId {
    match o.outputs[&1][&0] {
        Val::Term(t) => t,
        v => panic!("element 0 is {v:?}"),
    }
}

#[test]
fn copysign_lowers_with_the_sign_source_first() {
    let text = ptx("gelu_tanh");
    let prog = lowered(&text, "gelu_tanh").unwrap();
    let inst = prog.insts.iter().find(|i| i.line == 63).unwrap();
    let Op::Float {
        op: FloatOp::CopySign,
        a: Src::Reg(a),
        b: Src::Reg(b),
        ..
    } = inst.op
    else {
        panic!("line 63 lowers to {:?}", inst.op)
    };
    // copysign.f32 %f16, %f5, %f15: the sign of %f5 onto %f15.
    assert_eq!(prog.regs[a as usize].name, "%f5");
    assert_eq!(prog.regs[b as usize].name, "%f15");
}

#[test]
fn copysign_on_integers_or_with_two_operands_is_invalid() {
    let text = ptx("gelu_tanh");
    for bad in [
        "\tcopysign.s32 \t%f16, %f5, %f15;",
        "\tcopysign.f32 \t%f16, %f5;",
        "\tcopysign.f16 \t%f16, %f5, %f15;",
    ] {
        match lowered(&edit(&text, 63, bad), "gelu_tanh") {
            Err(LowerError::Invalid { line: 63, .. }) => {}
            other => panic!("{bad}: {other:?}"),
        }
    }
}

/// GELU values to 1e-6 (from the f64 formulas): x, exact (erf), tanh approximation.
const GELU: [(f32, f64, f64); 6] = [
    (0.5, 0.345_731_231, 0.345_714_010),
    (-0.5, -0.154_268_769, -0.154_285_990),
    (0.9, 0.734_345_887, 0.734_228_489),
    (2.0, 1.954_499_736, 1.954_597_694),
    (-2.0, -0.045_500_264, -0.045_402_306),
    (-2.7, -0.009_360_829, -0.008_887_595),
];

#[test]
fn gelu_tanh_runs_concretely_and_symbolically_with_copysign() {
    let text = ptx("gelu_tanh");
    let x: Vec<f32> = GELU.iter().map(|g| g.0).collect();
    let got = concrete(&text, "gelu_tanh", &x);
    for (g, y) in GELU.iter().zip(&got) {
        assert!(
            (f64::from(*y) - g.2).abs() < 2e-6,
            "gelu_tanh({}) = {y}",
            g.0
        );
    }
    let o = run(&text, "gelu_tanh", Mode::Symbolic, &[]).unwrap();
    assert!(o.is_safe());
    let t = element0(&o);
    for g in GELU {
        let v = value(&o.arena, t, f64::from(g.0));
        assert!((v - g.2).abs() < 2e-6, "term at {}: {v}", g.0);
    }
}

#[test]
fn swapped_copysign_operands_compute_something_else() {
    // The twin of the test above: the same kernel with a and b exchanged is far off for large
    // |u|, in the interpreter and in the term.
    let text = edit(&ptx("gelu_tanh"), 63, "\tcopysign.f32 \t%f16, %f15, %f5;");
    let got = concrete(&text, "gelu_tanh", &[2.0, -2.0]);
    assert!((f64::from(got[0]) - 1.954_597_694).abs() > 0.1, "{got:?}");
    assert!((f64::from(got[1]) + 0.045_402_306).abs() > 0.1, "{got:?}");
    let o = run(&text, "gelu_tanh", Mode::Symbolic, &[]).unwrap();
    let v = value(&o.arena, element0(&o), -2.0);
    assert!((v + 0.045_402_306).abs() > 0.1, "{v}");
}

#[test]
fn erf_branch_is_taken_concretely_and_if_converted_symbolically() {
    let text = ptx("gelu_erf");
    let x: Vec<f32> = GELU.iter().map(|g| g.0).collect();
    let got = concrete(&text, "gelu_erf", &x);
    for (g, y) in GELU.iter().zip(&got) {
        assert!(
            (f64::from(*y) - g.1).abs() < 2e-6,
            "gelu_erf({}) = {y}",
            g.0
        );
    }
    let o = run(&text, "gelu_erf", Mode::Symbolic, &[]).unwrap();
    assert!(o.is_safe(), "{:?}", o.findings);
    let t = element0(&o);
    // Both sides of |v / sqrt 2| = 1.00376 (the branch at line 68), and both signs.
    for g in GELU {
        let v = value(&o.arena, t, f64::from(g.0));
        assert!((v - g.1).abs() < 2e-6, "term at {}: {v} vs {}", g.0, g.1);
    }
    // The exact GELU is not the tanh approximation: 4.7e-4 apart at -2.7.
    let v = value(&o.arena, t, -2.7);
    assert!((v - GELU[5].2).abs() > 4e-4);
}

fn unsupported_at(r: Result<Outcome, ExecError>, line: u32, says: &str) {
    match r {
        Err(ExecError::Unsupported { line: l, what }) if l == line && what.contains(says) => {}
        other => panic!("expected unsupported at line {line} ({says}), got {other:?}"),
    }
}

#[test]
fn a_skipped_store_keeps_the_branch_unsupported() {
    let text = edit(&ptx("gelu_erf"), 70, "\tst.global.f32 \t[%rd6], %f30;");
    unsupported_at(
        run(&text, "gelu_erf", Mode::Symbolic, &[]),
        68,
        "line 70, which is not a register computation",
    );
}

#[test]
fn a_backward_branch_on_data_is_unsupported() {
    let text = edit(&ptx("gelu_erf"), 47, "$L__BB0_9:");
    let text = edit(&text, 68, "\t@%p2 bra \t$L__BB0_9;");
    unsupported_at(
        run(&text, "gelu_erf", Mode::Symbolic, &[]),
        68,
        "goes backward",
    );
}

#[test]
fn a_value_undefined_on_the_taken_path_and_read_later_is_unsupported() {
    // %f22 is only written on the skipped path; reading it after the join has no value when
    // the branch is taken.
    let text = edit(&ptx("gelu_erf"), 78, "\tadd.f32 \t%f27, %f22, 0f3F800000;");
    unsupported_at(
        run(&text, "gelu_erf", Mode::Symbolic, &[]),
        68,
        "register %f22 is undefined on one of the two paths",
    );
}

#[test]
fn an_integer_that_differs_between_the_paths_is_unsupported_when_read_later() {
    // %rd1 (the element index, read at line 84 after the join) changed on the skipped path.
    let text = edit(&ptx("gelu_erf"), 70, "\tadd.s64 \t%rd1, %rd1, 1;");
    let text = edit(&text, 71, "\tneg.f32 \t%f23, %f30;");
    unsupported_at(
        run(&text, "gelu_erf", Mode::Symbolic, &[]),
        68,
        "register %rd1 holds different integers or addresses",
    );
    // The same change to a register never read again (%rd5) leaves nothing to merge.
    let text = edit(&ptx("gelu_erf"), 70, "\tadd.s64 \t%rd5, %rd5, 1;");
    let text = edit(&text, 71, "\tneg.f32 \t%f23, %f30;");
    let o = run(&text, "gelu_erf", Mode::Symbolic, &[]).unwrap();
    assert!(o.is_safe());
}
