//! Refuting close kernels: the exact GELU against its tanh approximation is REFUTED only with a
//! certified witness (exit 1); a real difference the fp32 interpreter cannot see, and a pair the
//! symbolic executor cannot run, are UNKNOWN (exit 2), with a hint that says what the
//! interpreter could do.

use std::path::{Path, PathBuf};
use std::process::Command;

fn kernels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels")
}

fn prove(pair: &Path, tag: &str) -> (i32, String) {
    let cert =
        std::env::temp_dir().join(format!("kcert-refute-{tag}-{}.kcert", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_kcert"))
        .arg("prove")
        .arg(pair)
        .arg("-o")
        .arg(&cert)
        .output()
        .expect("kcert runs");
    (
        out.status.code().expect("exited, not killed"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A scratch pair: gelu_erf against a copy of it whose PTX has line `n` replaced by `text`
/// (the other lines keep their numbers).
fn edited_pair(tag: &str, n: usize, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kcert-refute-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let gelu = kernels().join("gelu");
    std::fs::copy(gelu.join("gelu_erf.toml"), dir.join("gelu_erf.toml")).unwrap();
    std::fs::copy(gelu.join("gelu_erf.ptx"), dir.join("gelu_erf.ptx")).unwrap();
    let spec = std::fs::read_to_string(gelu.join("gelu_erf.toml")).unwrap();
    std::fs::write(
        dir.join("edited.toml"),
        spec.replace("gelu_erf.ptx", "edited.ptx"),
    )
    .unwrap();
    let ptx = std::fs::read_to_string(gelu.join("gelu_erf.ptx")).unwrap();
    let ptx: Vec<&str> = ptx
        .lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == n { text } else { l })
        .collect();
    std::fs::write(dir.join("edited.ptx"), ptx.join("\n")).unwrap();
    let pair = dir.join("edited-vs-gelu_erf.pair.toml");
    std::fs::write(
        &pair,
        "reference = \"gelu_erf.toml\"\noptimized = \"edited.toml\"\n\
         [[inputs]]\nreference = \"x\"\noptimized = \"x\"\n\
         [[outputs]]\nreference = \"out\"\noptimized = \"out\"\n",
    )
    .unwrap();
    pair
}

/// The numbers of the line of `out` that starts (after spaces) with `label`.
fn numbers_after(out: &str, label: &str) -> Vec<f64> {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no line {label:?} in\n{out}"));
    line[line.find(label).unwrap() + label.len()..]
        .split(|c: char| !(c.is_ascii_digit() || "+-.e".contains(c)))
        .filter_map(|w| w.parse().ok())
        .collect()
}

#[test]
fn tanh_gelu_against_exact_gelu_is_refuted_with_a_certified_witness() {
    let (code, out) = prove(
        &kernels().join("pairs/gelu_tanh-vs-gelu_erf.pair.toml"),
        "gelu",
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("REFUTED"), "{out}");
    let x = numbers_after(&out, "certified counterexample at x[0] =");
    assert!((2.0..=3.0).contains(&x[0].abs()), "{out}");
    let r = numbers_after(&out, "reference value in");
    let o = numbers_after(&out, "optimized value in");
    assert!(
        r[0] <= r[1] && o[0] <= o[1] && (r[1] < o[0] || o[1] < r[0]),
        "{out}"
    );
    let fp32 = numbers_after(&out, "the concrete interpreter (fp32) computes");
    assert_ne!(fp32[0], fp32[1], "{out}");
    // The two real values differ by about 4.7e-4 at |x| = 2.7; the fp32 results likewise.
    assert!((fp32[0] - fp32[1]).abs() > 1e-4, "{out}");
}

#[test]
fn a_literal_one_ulp_off_is_a_literal_difference_certified_by_intervals() {
    // One ulp in the leading coefficient of erff's large-|v| polynomial: the real values differ
    // (by about 1e-9) and fp32 results at the witnesses do not, but the operations are the
    // same: the verdict names the literal pair (exit 5), and the rigorous enclosures certify
    // the difference the interpreter cannot see.
    let pair = edited_pair("ulp", 54, "\tselp.f32 \t%f9, 0f388E49B8, 0f388D8E09, %p3;");
    let (code, out) = prove(&pair, "ulp");
    assert_eq!(code, 5, "{out}");
    assert!(out.contains("ONLY IN LITERALS"), "{out}");
    let pairs: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with("literal "))
        .collect();
    assert_eq!(pairs.len(), 1, "{out}");
    let r = numbers_after(&out, "reference value in");
    let o = numbers_after(&out, "optimized value in");
    assert!(r[1] < o[0] || o[1] < r[0], "{out}");
}

#[test]
fn a_real_difference_beyond_literals_the_interpreter_cannot_see_is_unknown() {
    // Not a literal but an operation changed (a product for a sum would be seen; here the
    // select's condition is flipped on a branch the witnesses never take): no literal pair
    // explains it and the interpreter confirms nothing, so UNKNOWN.
    let pair = edited_pair("flip", 54, "\tselp.f32 \t%f9, 0f388D8E09, 0f388E49B8, %p3;");
    let (code, out) = prove(&pair, "flip");
    assert_ne!(code, 0, "{out}");
    assert!(!out.contains("ONLY IN LITERALS"), "{out}");
}

#[test]
fn an_unrunnable_kernel_gets_a_hint_that_says_so() {
    // add.sat (a clamp fused into the addition) does not lower: neither the symbolic executor
    // nor the interpreter can run it.
    let pair = edited_pair("sat", 72, "\tadd.sat.f32 \t%f24, %f23, %f23;");
    let (code, out) = prove(&pair, "sat");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains(".sat"), "{out}");
    assert!(
        out.contains("hint: the concrete interpreter cannot run both kernels either"),
        "{out}"
    );
}

#[test]
fn a_kernel_only_the_interpreter_runs_gets_its_finding_as_the_hint() {
    // A store on the branch's skipped path (over the blank line 76): the branch stays
    // unsupported symbolically, while the interpreter runs it and computes what gelu_erf does.
    let pair = edited_pair("store", 76, "\tst.global.f32 \t[%rd6], %f30;");
    let (code, out) = prove(&pair, "store");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("line 68: unsupported"), "{out}");
    assert!(
        out.contains("hint: the concrete interpreter finds no difference beyond rounding"),
        "{out}"
    );
}
