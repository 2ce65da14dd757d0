//! A certificate is worth exactly what it says: every corruption, every mismatch with the files
//! it names, every edited kernel or spec and every missing or extra step is rejected.

use kcert::prove::{Outcome, prove};
use kcert_checker::cert::{self, Certificate, Claim, Kernel, Rule, Step};
use kcert_checker::check::{Reject, check};
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

struct Fixture {
    cert: Certificate,
    bytes: Vec<u8>,
    ref_ptx: String,
    opt_ptx: String,
}

fn root() -> &'static Path {
    static ROOT: OnceLock<std::path::PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .canonicalize()
            .unwrap()
    })
}

fn proved(pair: &str) -> Fixture {
    let path = root().join("kernels/pairs").join(pair);
    let Outcome::Proved { cert, .. } = prove(&path).unwrap_or_else(|e| panic!("{}", e.0)) else {
        panic!("{pair} is not proved")
    };
    let read = |p: &str| std::fs::read_to_string(p).unwrap();
    Fixture {
        bytes: cert.to_bytes().unwrap(),
        ref_ptx: read(&cert.ref_ptx_path),
        opt_ptx: read(&cert.opt_ptx_path),
        cert,
    }
}

fn reduce() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| proved("reduce_seq-vs-reduce_naive.pair.toml"))
}

/// Re-seals an edited certificate as a forger would: consistent hashes, valid encoding.
fn reseal(mut c: Certificate, ref_ptx: &str, opt_ptx: &str) -> Certificate {
    c.spec_sha256 = cert::spec_digest(&c.pair_spec, &c.ref_spec, &c.opt_spec);
    c.ref_ptx_sha256 = cert::sha256(ref_ptx.as_bytes());
    c.opt_ptx_sha256 = cert::sha256(opt_ptx.as_bytes());
    Certificate::from_bytes(&c.to_bytes().unwrap()).unwrap()
}

#[test]
fn the_genuine_certificate_is_accepted() {
    let f = reduce();
    let c = Certificate::from_bytes(&f.bytes).unwrap();
    let v = check(&c, &f.ref_ptx, &f.opt_ptx).unwrap();
    assert_eq!(v.elements, 8);
}

#[test]
fn every_byte_flip_truncation_and_trailing_garbage_is_rejected() {
    let b = &reduce().bytes;
    for i in 0..b.len() {
        for bit in [0x01u8, 0x80] {
            let mut m = b.clone();
            m[i] ^= bit;
            assert!(
                Certificate::from_bytes(&m).is_err(),
                "flip {bit:#x} at byte {i} accepted"
            );
        }
    }
    for cut in 0..b.len() {
        assert!(
            Certificate::from_bytes(&b[..cut]).is_err(),
            "truncation to {cut} bytes accepted"
        );
    }
    let mut long = b.clone();
    long.extend_from_slice(b"garbage");
    assert!(Certificate::from_bytes(&long).is_err());
}

#[test]
fn swapped_or_edited_ptx_is_rejected() {
    let f = reduce();
    assert!(matches!(
        check(&f.cert, &f.opt_ptx, &f.ref_ptx),
        Err(Reject::Hash(_))
    ));
    // One instruction edited: the hash no longer matches...
    let edited = f.opt_ptx.replacen("add.f32", "sub.f32", 1);
    assert_ne!(edited, f.opt_ptx);
    assert!(matches!(
        check(&f.cert, &f.ref_ptx, &edited),
        Err(Reject::Hash(_))
    ));
    // ... and a forger who re-hashes is caught by the replay.
    let forged = reseal(f.cert.clone(), &f.ref_ptx, &edited);
    let e = check(&forged, &f.ref_ptx, &edited).unwrap_err();
    assert!(matches!(e, Reject::Step { .. }), "{e}");
}

#[test]
fn an_edited_spec_number_is_rejected() {
    let f = reduce();
    let mut c = f.cert.clone();
    c.opt_spec = c.opt_spec.replacen("value = 2048", "value = 2047", 1);
    assert_ne!(c.opt_spec, f.cert.opt_spec);
    assert!(matches!(
        check(&c, &f.ref_ptx, &f.opt_ptx),
        Err(Reject::Hash(_))
    ));
    let forged = reseal(c, &f.ref_ptx, &f.opt_ptx);
    let e = check(&forged, &f.ref_ptx, &f.opt_ptx).unwrap_err();
    assert!(
        matches!(e, Reject::Step { .. }),
        "the last block now misses x[2047]: {e}"
    );
    let mut g = f.cert.clone();
    g.ref_spec = g
        .ref_spec
        .replacen("grid = [8, 1, 1]", "grid = [7, 1, 1]", 1);
    assert_ne!(g.ref_spec, f.cert.ref_spec);
    let forged = reseal(g, &f.ref_ptx, &f.opt_ptx);
    assert!(check(&forged, &f.ref_ptx, &f.opt_ptx).is_err());
}

#[test]
fn deleted_duplicated_or_foreign_steps_are_rejected() {
    let f = reduce();
    let base = f.cert.clone();
    assert_eq!(
        base.steps,
        vec![Step {
            output: 0,
            first: 0,
            count: 8,
            rule: Rule::RingNormalize
        }]
    );
    let with_steps = |steps: Vec<Step>| {
        let mut c = base.clone();
        c.steps = steps;
        reseal(c, &f.ref_ptx, &f.opt_ptx)
    };
    let s = |first, count| Step {
        output: 0,
        first,
        count,
        rule: Rule::RingNormalize,
    };
    let cases = [
        (vec![], "no step at all"),
        (vec![s(0, 7)], "last element unproved"),
        (vec![s(0, 4), s(5, 3)], "one element unproved"),
        (vec![s(0, 8), s(3, 1)], "duplicated element"),
        (vec![s(0, 9)], "range past the tensor"),
        (vec![s(0, 0), s(0, 8)], "empty step"),
        (
            vec![Step {
                output: 1,
                first: 0,
                count: 8,
                rule: Rule::RingNormalize,
            }],
            "unknown output link",
        ),
    ];
    for (steps, why) in cases {
        assert!(
            check(&with_steps(steps), &f.ref_ptx, &f.opt_ptx).is_err(),
            "{why} accepted"
        );
    }
    // Claims: equivalence without safety, duplicates, unknown links.
    for claims in [
        vec![Claim::Equivalent {
            output: 0,
            elements: 1,
            total: 1,
        }],
        vec![
            Claim::Safe(Kernel::Reference),
            Claim::Safe(Kernel::Optimized),
            Claim::Equivalent {
                output: 0,
                elements: 1,
                total: 1,
            },
            Claim::Equivalent {
                output: 0,
                elements: 1,
                total: 1,
            },
        ],
        vec![
            Claim::Safe(Kernel::Reference),
            Claim::Safe(Kernel::Optimized),
            Claim::Equivalent {
                output: 3,
                elements: 1,
                total: 1,
            },
        ],
        vec![],
    ] {
        let mut c = base.clone();
        c.claims = claims.clone();
        assert!(
            check(&reseal(c, &f.ref_ptx, &f.opt_ptx), &f.ref_ptx, &f.opt_ptx).is_err(),
            "{claims:?} accepted"
        );
    }
}

#[test]
fn equivalence_claimed_for_a_non_equivalent_pair_is_rejected() {
    let f = reduce();
    // The skipping twin: race-free, in bounds, and wrong.
    let skip = std::fs::read_to_string(root().join("kernels/reduce/reduce_seq_skip.ptx")).unwrap();
    let skip_spec =
        std::fs::read_to_string(root().join("kernels/reduce/reduce_seq_skip.toml")).unwrap();
    let mut c = f.cert.clone();
    c.opt_spec = skip_spec;
    c.opt_ptx_path = "kernels/reduce/reduce_seq_skip.ptx".into();
    let forged = reseal(c, &f.ref_ptx, &skip);
    let e = check(&forged, &f.ref_ptx, &skip).unwrap_err();
    assert!(matches!(e, Reject::Step { .. }), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random edits (flips, insertions, deletions) never yield an accepted certificate unless
    /// they leave the bytes unchanged.
    #[test]
    fn random_mutations_are_rejected(edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..4)) {
        let f = reduce();
        let mut b = f.bytes.clone();
        for (at, byte, kind) in edits {
            let i = at.index(b.len().max(1));
            match kind {
                0 => b[i] ^= byte | 1,
                1 => b.insert(i, byte),
                _ => { b.remove(i); }
            }
        }
        prop_assume!(b != f.bytes);
        let accepted = Certificate::from_bytes(&b).ok().is_some_and(|c| check(&c, &f.ref_ptx, &f.opt_ptx).is_ok());
        prop_assert!(!accepted);
    }
}

#[test]
fn a_pair_text_that_breaks_a_structural_rule_is_rejected() {
    // The checker loads the embedded pair with the same rules as kcert (checker/src/pair.rs):
    // x or out linked a second time is rejected even when resealed.
    let f = reduce();
    for (group, name) in [("inputs", "x"), ("outputs", "out")] {
        let mut c = f.cert.clone();
        c.pair_spec.push_str(&format!(
            "\n[[{group}]]\nreference = \"{name}\"\noptimized = \"{name}\"\n"
        ));
        let e = check(&reseal(c, &f.ref_ptx, &f.opt_ptx), &f.ref_ptx, &f.opt_ptx).unwrap_err();
        assert!(
            matches!(&e, Reject::Spec(m) if m.contains(&format!("tensor {name} is linked twice"))),
            "{e}"
        );
    }
}

/// fp-nondeterministic writes are named exactly: a certificate that hides one, moves one to
/// another line or kernel, or names one on a kernel without any is rejected.
#[test]
fn fp_nondeterministic_claims_must_name_exactly_the_rederived_lines() {
    let f = proved("store_rn_rz-vs-store_rn_rn.pair.toml");
    let named: Vec<Claim> = f
        .cert
        .claims
        .iter()
        .copied()
        .filter(|c| matches!(c, Claim::FpNondeterministic { .. }))
        .collect();
    assert!(!named.is_empty(), "{:?}", f.cert.claims);
    check(&f.cert, &f.ref_ptx, &f.opt_ptx).unwrap();
    let with = |edit: &dyn Fn(&mut Vec<Claim>)| {
        let mut c = f.cert.clone();
        edit(&mut c.claims);
        c.claims.sort();
        check(&c, &f.ref_ptx, &f.opt_ptx)
    };
    let hidden = with(&|cl| cl.retain(|c| !matches!(c, Claim::FpNondeterministic { .. })));
    assert!(matches!(hidden, Err(Reject::Claims(_))), "{hidden:?}");
    let one_hidden = with(&|cl| {
        let i = cl
            .iter()
            .position(|c| matches!(c, Claim::FpNondeterministic { .. }))
            .unwrap();
        cl.remove(i);
    });
    assert!(
        matches!(one_hidden, Err(Reject::Claims(_))),
        "{one_hidden:?}"
    );
    let moved = with(&|cl| {
        for c in cl.iter_mut() {
            if let Claim::FpNondeterministic { line, .. } = c {
                *line += 1;
            }
        }
    });
    assert!(matches!(moved, Err(Reject::Claims(_))), "{moved:?}");
    let invented = with(&|cl| {
        cl.push(Claim::FpNondeterministic {
            kernel: Kernel::Reference,
            line: 40,
        })
    });
    assert!(matches!(invented, Err(Reject::Claims(_))), "{invented:?}");
    // And on a pair without any, one invented claim is rejected too.
    let r = reduce();
    let mut c = r.cert.clone();
    c.claims.push(Claim::FpNondeterministic {
        kernel: Kernel::Optimized,
        line: 20,
    });
    c.claims.sort();
    assert!(matches!(
        check(&c, &r.ref_ptx, &r.opt_ptx),
        Err(Reject::Claims(_))
    ));
}
