//! The kernels/ corpus against its expectations: every instance parses and lowers, the safety
//! analysis reaches the expected verdict with the expected PTX lines, and the concrete
//! interpreter computes the documented operator on random inputs.

use kcert::expect::{Expect, evaluate};
use kcert_checker::exec::{Config, FindingKind, Mode};
use kcert_checker::instance::Instance;
use kcert_checker::ptx::ScalarType;
use kcert_checker::spec::Binding;
use std::path::{Path, PathBuf};

fn instances() -> Vec<(PathBuf, Expect)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let mut out = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d)
            .expect("kernels/ is readable")
            .flatten()
        {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "toml")
                && !p.to_string_lossy().ends_with(".expect.toml")
                && !p.to_string_lossy().ends_with(".pair.toml")
            {
                let exp = p.with_extension("expect.toml");
                let expect = Expect::load(&exp).unwrap_or_else(|e| panic!("{e}"));
                out.push((p, expect));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 17, "the corpus has {} instances", out.len());
    out
}

#[test]
fn every_instance_reaches_its_expected_verdict() {
    let mut failures = Vec::new();
    for (spec, expect) in instances() {
        let result = Instance::load(&spec)
            .and_then(|i| i.run(Mode::Symbolic, &Default::default(), &Config::default()));
        if let Err(why) = expect.matches(&result) {
            failures.push(format!("{}: {why}", spec.display()));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_safe_instance_computes_its_operator() {
    let mut checked = 0;
    for (spec_path, expect) in instances() {
        // fp-nondeterministic instances are safe over the reals and compute their operator too.
        let fp = expect.verdict == "fp_nondeterministic";
        if expect.verdict != "safe" && !fp {
            continue;
        }
        let Some(reference) = expect.reference().unwrap() else {
            // The adversarial and ints families state each kernel's truth in its source and
            // check it through their pairs; elsewhere every safe instance documents its operator.
            let path = spec_path.to_string_lossy();
            assert!(
                path.contains("/adversarial/") || path.contains("/ints/"),
                "{}: no [reference]",
                spec_path.display()
            );
            continue;
        };
        let reference = &reference;
        let inst = Instance::load(&spec_path).unwrap();
        for seed in [1, 2] {
            let inputs = kcert::inputs::random(&inst.spec, seed);
            let o = inst
                .run(Mode::Concrete, &inputs, &Config::default())
                .unwrap();
            // A concrete run sees bits, not reals: there, stores of different bits are races.
            assert!(
                o.findings.iter().all(|f| fp
                    && matches!(
                        f.kind,
                        FindingKind::DataRace | FindingKind::FpNondeterministic
                    )),
                "{}: {:?}",
                spec_path.display(),
                o.findings
            );
            let want = evaluate(reference, &inst.spec, &inputs).unwrap();
            for (param, values) in want {
                let Some(Binding::Tensor(t)) = inst.spec.params.get(param) else {
                    panic!("output is a tensor")
                };
                let got = &o.outputs[&param];
                // A spec that names its CTAs writes what those CTAs write: compare those.
                let (got, values): (std::collections::BTreeMap<u64, _>, Vec<f64>) =
                    if inst.spec.ctas.is_some() {
                        let kept: Vec<(u64, f64)> =
                            got.keys().map(|&i| (i, values[i as usize])).collect();
                        (
                            kept.iter()
                                .enumerate()
                                .map(|(j, &(i, _))| (j as u64, got[&i]))
                                .collect(),
                            kept.iter().map(|&(_, v)| v).collect(),
                        )
                    } else {
                        (got.clone(), values)
                    };
                assert_eq!(
                    got.len(),
                    values.len(),
                    "{}: {} elements of {} written",
                    spec_path.display(),
                    got.len(),
                    t.name
                );
                let got: Vec<f64> = (0..values.len() as u64)
                    .map(|i| kcert::inputs::decode(got[&i].bits().expect("concrete"), t.dtype))
                    .collect();
                let err = kcert::reference::max_rel_error(&got, &values);
                if expect.wrong() {
                    // A value-bug twin: the check must tell it apart from its operator.
                    assert!(
                        err > 1e-2,
                        "{} seed {seed}: a wrong kernel matches its reference",
                        spec_path.display()
                    );
                } else {
                    // The interpreter rounds every result to its output's format: a 16-bit
                    // float output is off by up to half an ulp (2^-8 relative for bf16, 2^-11
                    // for f16) from the exact operator; f32 and f64 outputs stay within 1e-4.
                    let tol = match t.dtype {
                        ScalarType::Bf16 => 8e-3,
                        ScalarType::F16 => 1e-3,
                        _ => 1e-4,
                    };
                    assert!(
                        err < tol,
                        "{} seed {seed}: {} differs from the reference by {err}",
                        spec_path.display(),
                        t.name
                    );
                }
            }
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} safe instances checked");
}

/// The operator check above can fail: a reference that is off (a transposed B, a wrong chunk)
/// is told apart from the interpreter's result.
#[test]
fn operator_check_catches_a_wrong_reference() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let inst = Instance::load(&root.join("matmul/matmul_2d.toml")).unwrap();
    let inputs = kcert::inputs::random(&inst.spec, 7);
    let o = inst
        .run(Mode::Concrete, &inputs, &Config::default())
        .unwrap();
    let dec = |p: usize, n: usize| -> Vec<f64> {
        (0..n)
            .map(|i| f64::from(f32::from_bits(inputs[&p][i] as u32)))
            .collect()
    };
    let (a, b) = (dec(0, 64 * 64), dec(1, 64 * 64));
    let mut bt = vec![0.0; 64 * 64];
    for i in 0..64 {
        for j in 0..64 {
            bt[j * 64 + i] = b[i * 64 + j];
        }
    }
    let got: Vec<f64> = (0..64 * 64u64)
        .map(|i| f64::from(f32::from_bits(o.outputs[&2][&i].bits().unwrap() as u32)))
        .collect();
    assert!(
        kcert::reference::max_rel_error(&got, &kcert::reference::matmul(&a, &b, 64, 64, 64)) < 1e-4
    );
    assert!(
        kcert::reference::max_rel_error(&got, &kcert::reference::matmul(&a, &bt, 64, 64, 64))
            > 1e-2
    );
}

/// A K=4096 dot-product chain is 4096 terms deep: built, rendered and dropped without recursion.
#[test]
fn deep_reduction_chains_do_not_recurse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let spec =
        kcert_checker::spec::KernelSpec::load(&root.join("matmul/matmul_naive.toml")).unwrap();
    let mut spec = kcert::bench::matmul_tile(&spec, 16, 16, 4096).unwrap();
    spec.grid = [1, 1, 1];
    let inst = Instance::from_spec(spec).unwrap();
    let o = inst
        .run(Mode::Symbolic, &Default::default(), &Config::default())
        .unwrap();
    assert!(o.is_safe());
    let c = &o.outputs[&2];
    assert_eq!(c.len(), 256);
    let kcert_checker::exec::Val::Term(t) = c[&255] else {
        panic!("symbolic output")
    };
    let text = o.arena.render(t, 1000);
    assert!(text.starts_with("fma("), "{text}");
}
