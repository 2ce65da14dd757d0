//! The `kcert-check` binary on the archived certificates of proofs/: ACCEPT with the claims,
//! REJECT with a reason, exit codes 0 / 1 / 3.

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
    let (code, _, err) = check(&[]);
    assert_eq!(code, 3, "{err}");
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
