//! Every pair of kernels/pairs reaches its expected verdict; every proof is accepted by the
//! checker; every value refutation carries a counterexample the interpreter confirms.

use kcert::expect::PairExpect;
use kcert::prove::{Options, Outcome, Refutation, prove_with};
use kcert_checker::check::check;
use std::path::{Path, PathBuf};

fn pairs() -> Vec<(PathBuf, PairExpect)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels/pairs");
    let mut out: Vec<(PathBuf, PairExpect)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".pair.toml"))
        .map(|p| {
            let e = PairExpect::load(&p.with_extension("expect.toml")).unwrap();
            (p, e)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 17, "{} pairs", out.len());
    out
}

#[test]
fn every_pair_reaches_its_expected_verdict_and_proofs_check() {
    // Certificates record PTX paths relative to the repository root.
    std::env::set_current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("..")).unwrap();
    let mut failures = Vec::new();
    for (path, expect) in pairs() {
        let expected = expect.expected();
        // The 128-sized matmuls are covered by the corpus report; keep the test suite quick.
        if path.to_string_lossy().contains("_128") {
            continue;
        }
        let rel = path
            .strip_prefix(std::env::current_dir().unwrap())
            .unwrap_or(&path)
            .to_path_buf();
        // A budget well above every corpus pair here (6.4 M at most) keeps the endless-loop
        // pair (limits/loop_step_odd) quick.
        let options = Options { max_work: 1 << 25 };
        // Refused as invalid input (kcert prove's exit 3): expected only of `invalid` pairs,
        // with the expected message.
        let outcome = match prove_with(&rel, &options) {
            Ok(o) => o,
            Err(e) => {
                if let Err(why) = expect.matches_invalid(&e.0) {
                    failures.push(format!("{}: {why}", path.display()));
                }
                continue;
            }
        };
        let verdict = kcert::corpus::verdict_name(&outcome);
        if verdict != expected {
            failures.push(format!(
                "{}: expected {expected}, got {verdict}: {outcome:?}",
                path.display()
            ));
            continue;
        }
        match outcome {
            Outcome::Proved { cert, elements, .. } => {
                assert!(elements > 0);
                let read = |p: &str| std::fs::read_to_string(p).unwrap();
                if let Err(e) = check(&cert, &read(&cert.ref_ptx_path), &read(&cert.opt_ptx_path)) {
                    failures.push(format!(
                        "{}: checker rejects the proof: {e}",
                        path.display()
                    ));
                }
            }
            // Literals rounded two ways: every pair close, and the reals certified apart.
            Outcome::Refuted(Refutation::Value {
                witness,
                literals: Some(pairs),
                ..
            }) => {
                let certified = witness
                    .as_ref()
                    .and_then(|w| w.certified.as_ref())
                    .is_some_and(|c| c.reference.disjoint(c.optimized));
                if !certified || pairs.iter().any(|p| p.relative > 1e-6 || p.relative == 0.0) {
                    failures.push(format!(
                        "{}: literals_differ needs close pairs and a certified witness: {pairs:?} {witness:?}",
                        path.display()
                    ));
                }
            }
            Outcome::Refuted(Refutation::Value { witness, .. }) => match witness {
                // Two close operator variants: only a certified witness counts, and the
                // interpreter must see a difference at it too.
                Some(w) if expect.different_operators => match &w.certified {
                    Some(c) if c.reference.disjoint(c.optimized)
                        && w.interpreted.0 != w.interpreted.1
                        && !c.point.is_empty() => {}
                    _ => failures.push(format!(
                        "{}: different_operators needs a certified witness the interpreter confirms: {w:?}",
                        path.display()
                    )),
                },
                Some(w) => {
                    if let Some((x, y)) = w.exact {
                        assert_ne!(x, y);
                    }
                    // The interpreter confirms it: at these small dyadic inputs the float results
                    // differ by far more than rounding.
                    let gap = (w.interpreted.0 - w.interpreted.1).abs();
                    if gap < 1e-3 {
                        failures.push(format!(
                            "{}: interpreter does not confirm: {w:?}",
                            path.display()
                        ));
                    }
                }
                None => failures.push(format!(
                    "{}: value refutation without a counterexample",
                    path.display()
                )),
            },
            Outcome::Refuted(_) | Outcome::Unknown(_) => {}
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// A `different_operators` pair holds two variants of one operator that are close: they differ
/// (so not_equivalent is right) but by less than the 1e-2 that tells a `wrong = true` twin
/// from its operator (so only a certified witness can refute them). Both halves are checked on
/// the same inputs in [-4, 4), in f64: a difference above 1e-12 is not f64 rounding (the hard
/// swishes with an exact and an f32 `1/6` differ by about 1e-8, the GELUs by about 1e-4).
#[test]
fn different_operators_differ_but_only_slightly() {
    use kcert::expect::{Expect, evaluate};
    use kcert_checker::spec::KernelSpec;
    let mut checked = 0;
    for (path, expect) in pairs() {
        if !expect.different_operators {
            continue;
        }
        let pair: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
        let side = |k: &str| path.parent().unwrap().join(pair[k].as_str().unwrap());
        let (rs, os) = (side("reference"), side("optimized"));
        let operator = |p: &Path| {
            Expect::load(&p.with_extension("expect.toml"))
                .unwrap()
                .reference()
                .unwrap()
                .unwrap()
        };
        let (rspec, ospec) = (
            KernelSpec::load(&rs).unwrap(),
            KernelSpec::load(&os).unwrap(),
        );
        assert_eq!(
            rspec.params,
            ospec.params,
            "{}: same parameters",
            path.display()
        );
        let mut rng = kcert::inputs::Rng::new(11);
        let mut inputs = kcert::inputs::random(&rspec, 11);
        for (i, data) in inputs.iter_mut() {
            let Some(kcert_checker::spec::Binding::Tensor(t)) = rspec.params.get(*i) else {
                continue;
            };
            for v in data.iter_mut() {
                *v = kcert::inputs::encode(rng.unit() * 4.0, t.dtype);
            }
        }
        let a = evaluate(&operator(&rs), &rspec, &inputs).unwrap();
        let b = evaluate(&operator(&os), &ospec, &inputs).unwrap();
        for (param, x) in &a {
            let err = kcert::reference::max_rel_error(x, &b[param]);
            assert!(
                err > 1e-12 && err < 1e-2,
                "{}: the operators differ by {err}",
                path.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 3, "{checked} different_operators pairs");
}
