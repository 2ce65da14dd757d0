//! The `kcert-check` binary on the archived certificates of proofs/: ACCEPT with the claims,
//! REJECT with a reason, exit codes 0 / 1 / 2 / 3, and 64 for a malformed command line.

#[path = "common/json_schema.rs"]
mod json_schema;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn check(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kcert-check"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("kcert-check runs");
    (
        out.status.code().expect("exited"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const CERT: &str = "proofs/reduce_seq-vs-reduce_naive.kcert";

#[test]
fn archived_certificate_is_accepted_with_its_claims() {
    let (code, out, err) = check(&[CERT]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("ACCEPT"), "{out}");
    assert!(
        out.contains("outputs equal for all inputs: out == out"),
        "{out}"
    );
    assert!(out.contains("Reference kernel is race-free"), "{out}");
}

#[test]
fn swapped_ptx_is_rejected() {
    let (code, out, _) = check(&[
        CERT,
        "--ptx",
        "kernels/reduce/reduce_seq.ptx",
        "kernels/reduce/reduce_naive.ptx",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("REJECT") && out.contains("SHA-256"),
        "{out}"
    );
}

#[test]
fn a_different_spec_is_rejected() {
    let (code, out, _) = check(&[
        CERT,
        "--spec",
        "kernels/pairs/reduce_shfl_b128-vs-reduce_naive.pair.toml",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("--spec differ"), "{out}");
    let (code, out, _) = check(&[
        CERT,
        "--spec",
        "kernels/pairs/reduce_seq-vs-reduce_naive.pair.toml",
    ]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn unreadable_inputs_exit_three_and_garbage_is_rejected() {
    let (code, _, err) = check(&["proofs/no-such.kcert"]);
    assert_eq!(code, 3, "{err}");
    // No certificate at all is a usage error, not an unreadable input.
    let (code, _, err) = check(&[]);
    assert_eq!(code, 64, "{err}");
    let (code, out, _) = check(&["kernels/README.md"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("bad magic"), "{out}");
}

#[test]
fn explain_prints_json() {
    let (code, out, _) = check(&[CERT, "--explain"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with('{') && out.contains("\"claims\": [\"Safe(Reference)\""),
        "{out}"
    );
}

/// Writes `c` to a scratch file and returns its path.
fn scratch(tag: &str, c: &kcert_checker::cert::Certificate) -> PathBuf {
    let p = std::env::temp_dir().join(format!("kcert-check-{tag}-{}.kcert", std::process::id()));
    std::fs::write(&p, c.to_bytes().unwrap()).unwrap();
    p
}

/// An archived certificate, its PTX paths made absolute: scratch copies live elsewhere.
fn load(path: &str) -> kcert_checker::cert::Certificate {
    let file = root().join(path);
    let mut c =
        kcert_checker::cert::Certificate::from_bytes(&std::fs::read(&file).unwrap()).unwrap();
    for p in [&mut c.ref_ptx_path, &mut c.opt_ptx_path] {
        // Relative to the certificate, or (certificates from before that) to the root.
        let at = kcert_checker::cert::resolve_ptx(&file, p).unwrap_or_else(|_| root().join(&*p));
        *p = at.canonicalize().unwrap().display().to_string();
    }
    c
}

/// A certificate for `pair_file` (kernels/pairs) with these claims, no steps, declared `work`.
fn forged(
    pair_file: &str,
    claims: Vec<kcert_checker::cert::Claim>,
    work: [u64; 2],
) -> kcert_checker::cert::Certificate {
    use kcert_checker::cert;
    let pair =
        kcert_checker::pair::PairSpec::load(&root().join("kernels/pairs").join(pair_file)).unwrap();
    let text = |p: &Path| std::fs::read_to_string(p).unwrap();
    let t = &pair.texts;
    cert::Certificate {
        spec_sha256: cert::spec_digest(&t.pair, &t.reference, &t.optimized),
        ref_ptx_sha256: cert::sha256(text(&pair.reference.ptx).as_bytes()),
        opt_ptx_sha256: cert::sha256(text(&pair.optimized.ptx).as_bytes()),
        ref_ptx_path: pair.reference.ptx.display().to_string(),
        opt_ptx_path: pair.optimized.ptx.display().to_string(),
        pair_spec: t.pair.clone(),
        ref_spec: t.reference.clone(),
        opt_spec: t.optimized.clone(),
        claims,
        steps: Vec::new(),
        work,
    }
}

fn both_safe() -> Vec<kcert_checker::cert::Claim> {
    use kcert_checker::cert::{Claim, Kernel};
    vec![
        Claim::Safe(Kernel::Reference),
        Claim::Safe(Kernel::Optimized),
    ]
}

#[test]
fn the_verdict_line_says_what_is_established() {
    let (code, out, err) = check(&["proofs/copy_pairs-vs-copy_guard.kcert"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(": equivalence of every output element and safety of both kernels")
            && out.contains("outputs equal for all inputs: out == out, all 16 of 16 elements"),
        "{out}"
    );
    let (code, out, _) = check(&[
        "proofs/copy_pairs-vs-copy_guard.kcert",
        "--require",
        "full-equivalence",
    ]);
    assert_eq!(code, 0, "{out}");
    // A partial footprint: accepted (exit 0) and stated as partial, never as plain equality.
    let partial = "proofs/copy_pairs_12-vs-copy_guard_12.kcert";
    let (code, out, err) = check(&[partial]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("ACCEPT")
            && out.contains("PARTIAL equivalence")
            && out.contains(
                "PARTIAL: out == out for all inputs on 12 of 16 elements only; 4 not written by either kernel"
            )
            && !out.contains("outputs equal"),
        "{out}"
    );
    let (code, out, _) = check(&[partial, "--require", "equivalence"]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = check(&[partial, "--require", "full-equivalence"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("REJECT") && out.contains("--require full-equivalence"),
        "{out}"
    );
}

#[test]
fn safety_only_exits_two_and_require_equivalence_rejects_it() {
    let mut c = load(CERT);
    c.claims.retain(|cl| cl.equivalence().is_none());
    c.steps.clear();
    let p = scratch("safety-only", &c);
    let path = p.to_str().unwrap();
    let (code, out, err) = check(&[path]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        out.starts_with("ACCEPT")
            && out.contains("SAFETY ONLY, no equivalence claim: safety of both kernels"),
        "{out}"
    );
    for require in ["equivalence", "full-equivalence"] {
        let (code, out, _) = check(&[path, "--require", require]);
        assert_eq!(code, 1, "{out}");
        assert!(
            out.starts_with("REJECT")
                && out.contains(&format!("--require {require}"))
                && out.contains("lacks an equivalence claim"),
            "{out}"
        );
    }
    // With an equivalence certificate beside it, the weakest result decides the exit code.
    let (code, out, _) = check(&[CERT, path]);
    assert_eq!(code, 2, "{out}");
    let (code, _, err) = check(&[CERT, "--require", "everything"]);
    assert_eq!(code, 64, "{err}");
    let _ = std::fs::remove_file(p);
}

#[test]
fn equivalence_claims_must_state_the_footprint_they_cover() {
    use kcert_checker::cert::Claim;
    // Both kernels write nothing: an equivalence over 0 elements is rejected.
    let mut claims = both_safe();
    claims.push(Claim::Equivalent {
        output: 0,
        elements: 0,
        total: 16,
    });
    let p = scratch(
        "empty",
        &forged("relu_guard_0-vs-copy_guard_0.pair.toml", claims, [0, 0]),
    );
    let (code, out, _) = check(&[p.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("REJECT")
            && out.contains("neither kernel writes any of its 16 elements: an equivalence over 0 elements claims nothing"),
        "{out}"
    );
    let _ = std::fs::remove_file(p);
    // A partial footprint claimed whole (or with the wrong size) is rejected.
    for (elements, total) in [(16, 16), (12, 12), (11, 16)] {
        let mut c = load("proofs/copy_pairs_12-vs-copy_guard_12.kcert");
        for cl in &mut c.claims {
            if let Claim::Equivalent {
                elements: e,
                total: t,
                ..
            } = cl
            {
                (*e, *t) = (elements, total);
            }
        }
        let p = scratch("miscounted", &c);
        let (code, out, _) = check(&[p.to_str().unwrap()]);
        assert_eq!(code, 1, "{elements} of {total}: {out}");
        assert!(
            out.contains(&format!(
                "the claim covers {elements} of {total} elements, the kernels write 12 of 16"
            )),
            "{out}"
        );
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn an_endless_loop_is_rejected_at_the_declared_work_or_the_cap() {
    // The optimized kernel never terminates; the certificate declares 1000 units of work.
    let pair = "loop_step_odd-vs-loop_step.pair.toml";
    let p = scratch("endless", &forged(pair, both_safe(), [1000, 1000]));
    let (code, out, _) = check(&[p.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("REJECT")
            && out.contains("resource limit: the Optimized kernel did more than 1049826 units of work, past the 1000 the certificate declares"),
        "{out}"
    );
    let _ = std::fs::remove_file(p);
    // Declaring a huge amount does not help: the checker's cap stops it, and the flag moves it.
    let p = scratch("endless-cap", &forged(pair, both_safe(), [1000, 1 << 62]));
    let (code, out, _) = check(&[p.to_str().unwrap(), "--max-work", "200000"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("more than 200000 units of work, the checker's cap")
            && out.contains("raise it with --max-work"),
        "{out}"
    );
    let (code, _, err) = check(&[p.to_str().unwrap(), "--max-work", "0"]);
    assert_eq!(code, 64, "{err}");
    let _ = std::fs::remove_file(p);
}

#[test]
fn help_and_version_answer_and_usage_errors_exit_64() {
    let (code, out, _) = check(&["--help"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with("usage: kcert-check") && out.contains("--format"),
        "{out}"
    );
    let (code, out, _) = check(&["--version"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("kcert-check "), "{out}");
    // An unknown option is a usage error, never read as a certificate's file name.
    let (code, _, err) = check(&[CERT, "--verbose"]);
    assert_eq!(code, 64, "{err}");
    assert!(err.contains("unknown option --verbose"), "{err}");
    let (code, _, err) = check(&[CERT, "--format", "yaml"]);
    assert_eq!(code, 64, "{err}");
    // The verdicts keep their codes.
    let (code, out, _) = check(&[CERT, "--format", "json"]);
    assert_eq!(code, 0, "{out}");
}

/// A directory holding a certificate of `reduce_seq-vs-reduce_naive` whose PTX paths are
/// recorded relative to it (`ptx/...`), as `kcert prove` now writes them.
fn beside(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kcert-check-beside-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("ptx")).unwrap();
    let mut c = load(CERT);
    for (name, recorded) in [
        ("reduce_naive.ptx", &mut c.ref_ptx_path),
        ("reduce_seq.ptx", &mut c.opt_ptx_path),
    ] {
        std::fs::copy(
            root().join("kernels/reduce").join(name),
            dir.join("ptx").join(name),
        )
        .unwrap();
        *recorded = format!("ptx/{name}");
    }
    std::fs::write(dir.join("c.kcert"), c.to_bytes().unwrap()).unwrap();
    dir
}

#[test]
fn recorded_ptx_paths_resolve_relative_to_the_certificate() {
    // Checked from the repository root, not from the certificate's directory.
    let dir = beside("ok");
    let cert = dir.join("c.kcert");
    let (code, out, err) = check(&[cert.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("ACCEPT"), "{out}");
    // The twin: the PTX is not beside the certificate, and the message names --ptx.
    std::fs::remove_file(dir.join("ptx/reduce_seq.ptx")).unwrap();
    let (code, out, err) = check(&[cert.to_str().unwrap()]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        err.contains("ptx/reduce_seq.ptx")
            && err.contains("relative to the certificate")
            && err.contains("--ptx REF.ptx OPT.ptx"),
        "{err}"
    );
    // The pair file names the PTX too: --spec finds them where the pair says.
    let (code, out, err) = check(&[
        cert.to_str().unwrap(),
        "--spec",
        "kernels/pairs/reduce_seq-vs-reduce_naive.pair.toml",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn json_output_is_one_object_per_certificate() {
    let (code, out, err) = check(&[CERT, CERT, "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    for l in lines {
        assert!(
            l.starts_with("{\"schema_version\": 1, \"tool\": \"kcert-check\"")
                && l.contains("\"verdict\": \"accepted\"")
                && l.contains("\"elements\": 8, \"total\": 8"),
            "{l}"
        );
    }
    // A rejection is a result too, with its reason.
    let (code, out, _) = check(&[
        CERT,
        "--ptx",
        "kernels/reduce/reduce_seq.ptx",
        "kernels/reduce/reduce_naive.ptx",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("\"verdict\": \"rejected\"") && out.contains("SHA-256"),
        "{out}"
    );
}

#[test]
fn json_output_follows_the_documented_schema() {
    let schema = json_schema::schema(&root());
    let (code, out, _) = check(&[
        CERT,
        "proofs/copy_pairs_12-vs-copy_guard_12.kcert",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(json_schema::valid_lines(&schema, &out).len(), 2);
    let (code, out, _) = check(&[
        CERT,
        "--ptx",
        "kernels/reduce/reduce_seq.ptx",
        "kernels/reduce/reduce_naive.ptx",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}");
    json_schema::valid_lines(&schema, &out);
    let (code, out, _) = check(&["proofs/no-such.kcert", "--format", "json"]);
    assert_eq!(code, 3, "{out}");
    let v = json_schema::valid_lines(&schema, &out);
    assert!(
        matches!(&v[0], json_schema::Json::Obj(m) if m["verdict"] == json_schema::Json::Str("invalid".into()))
    );
    // The twin: the same line with a claim of an unknown kind is refused.
    let (_, out, _) = check(&[CERT, "--format", "json"]);
    let bad = out
        .trim()
        .replacen("\"kind\": \"safe\"", "\"kind\": \"sound\"", 1);
    assert_ne!(bad, out.trim());
    let v = json_schema::parse(&bad).unwrap();
    assert!(!json_schema::validate(&schema, &schema, &v, "$").is_empty());
}
