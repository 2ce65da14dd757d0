//! The `kcert` binary: verdict text and exit codes (0 safe, 1 finding, 2 unknown or unsupported,
//! 3 invalid input), and clear located errors for malformed PTX and specs.

use std::path::{Path, PathBuf};
use std::process::Command;

fn kernels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels")
}

fn kcert(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kcert"))
        .args(args)
        .output()
        .expect("kcert runs");
    (
        out.status.code().expect("exited, not killed"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A scratch copy of one corpus instance (spec and PTX) that a test may corrupt.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new(tag: &str, family: &str, kernel: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("kcert-cli-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for ext in ["toml", "ptx"] {
            let src = kernels().join(family).join(format!("{kernel}.{ext}"));
            std::fs::copy(&src, dir.join(format!("k.{ext}"))).unwrap();
        }
        let spec = std::fs::read_to_string(dir.join("k.toml")).unwrap();
        std::fs::write(
            dir.join("k.toml"),
            spec.replace(&format!("{kernel}.ptx"), "k.ptx"),
        )
        .unwrap();
        Scratch { dir }
    }

    fn spec(&self) -> String {
        self.dir.join("k.toml").display().to_string()
    }

    fn edit(&self, ext: &str, f: impl FnOnce(String) -> String) {
        let p = self.dir.join(format!("k.{ext}"));
        let s = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, f(s)).unwrap();
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn safe_kernel_exits_zero_and_states_its_scope() {
    let spec = kernels().join("reduce/reduce_seq.toml");
    let (code, out, _) = kcert(&["analyze", spec.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("SAFE"), "{out}");
    assert!(out.contains("all 8 CTAs"), "{out}");
}

#[test]
fn racy_kernel_exits_one_with_both_lines() {
    let spec = kernels().join("reduce/reduce_seq_nosync.toml");
    let (code, out, _) = kcert(&["analyze", spec.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("UNSAFE") && out.contains("race"), "{out}");
    assert!(
        out.contains("PTX line    73") && out.contains("PTX line    75"),
        "{out}"
    );
    assert!(
        out.contains("reduce_seq_nosync.cu:"),
        "source lines from .loc: {out}"
    );
}

#[test]
fn partial_grid_is_unknown_not_safe() {
    let spec = kernels().join("reduce/reduce_seq.toml");
    let (code, out, _) = kcert(&["analyze", "--max-ctas", "3", spec.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.starts_with("UNKNOWN") && out.contains("3 of 8 CTAs"),
        "{out}"
    );
}

#[test]
fn truncated_ptx_is_invalid_input_with_a_line() {
    let s = Scratch::new("trunc", "reduce", "reduce_seq");
    s.edit("ptx", |t| {
        let cut = t.find("bar.sync").unwrap();
        t[..cut].to_string()
    });
    let (code, _, err) = kcert(&["analyze", &s.spec()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("k.ptx:line "), "{err}");
}

#[test]
fn unknown_instruction_is_unsupported_with_its_line() {
    let s = Scratch::new("unknown-op", "reduce", "reduce_seq");
    let mut line = 0;
    s.edit("ptx", |t| {
        let mut lines: Vec<String> = t.lines().map(String::from).collect();
        let i = lines
            .iter()
            .position(|l| l.trim_start().starts_with("bar.sync"))
            .unwrap();
        lines[i] = lines[i].replace("bar.sync", "bar.red.popc.u32");
        line = i + 1;
        lines.join("\n")
    });
    let (code, _, err) = kcert(&["analyze", &s.spec()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("line {line}: unsupported")), "{err}");
}

#[test]
fn unknown_modifier_is_rejected_by_name() {
    let s = Scratch::new("unknown-mod", "reduce", "reduce_seq");
    s.edit("ptx", |t| t.replacen("add.f32", "add.sat.f32", 1));
    let (code, _, err) = kcert(&["analyze", &s.spec()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("modifier `.sat`"), "{err}");
}

/// A corruption of a file's text.
type Edit = fn(String) -> String;

#[test]
fn malformed_specs_are_invalid_input_with_a_location() {
    let cases: [(&str, Edit, &str); 5] = [
        (
            "wrong-type",
            |t| t.replacen("grid = [8, 1, 1]", "grid = \"eight\"", 1),
            "k.toml:5: grid: invalid type",
        ),
        ("truncated", |t| t[..t.len() / 3].to_string(), "k.toml"),
        (
            "missing-param",
            |t| t[..t.rfind("[[params]]").unwrap()].to_string(),
            "3 parameters, the spec binds 2",
        ),
        (
            "bad-dtype",
            |t| t.replacen("\"f32\"", "\"float\"", 1),
            "unknown dtype",
        ),
        (
            "missing-ptx",
            |t| t.replacen("k.ptx", "nowhere.ptx", 1),
            "nowhere.ptx: cannot read",
        ),
    ];
    for (tag, edit, needle) in cases {
        let s = Scratch::new(tag, "reduce", "reduce_seq");
        s.edit("toml", edit);
        let (code, out, err) = kcert(&["analyze", &s.spec()]);
        assert_eq!(code, 3, "{tag}: {out}{err}");
        assert!(err.contains(needle), "{tag}: {err}");
    }
}

#[test]
fn run_prints_outputs_and_writes_them() {
    let spec = kernels().join("reduce/reduce_seq.toml");
    let dir = std::env::temp_dir().join(format!("kcert-cli-run-{}", std::process::id()));
    let (code, out, err) = kcert(&[
        "run",
        spec.to_str().unwrap(),
        "--seed",
        "3",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("out (8 of 8 elements written)"), "{out}");
    let bytes = std::fs::read(dir.join("out.bin")).unwrap();
    assert_eq!(bytes.len(), 8 * 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `kcert prove PAIR` into a scratch certificate path: (exit code, stdout, stderr).
fn prove(pair: &str, extra: &[&str]) -> (i32, String, String) {
    let pair = kernels().join("pairs").join(pair);
    let cert = std::env::temp_dir().join(format!(
        "kcert-cli-{}-{}.kcert",
        pair.file_stem().unwrap().to_string_lossy(),
        std::process::id()
    ));
    let mut args = vec![
        "prove",
        pair.to_str().unwrap(),
        "-o",
        cert.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let r = kcert(&args);
    let _ = std::fs::remove_file(&cert);
    r
}

#[test]
fn a_store_wider_than_the_output_element_is_refused_with_its_line() {
    // f32 stores into an f16 output, f64 stores into an f32 output: never dropped from the
    // footprint (which then compared 0 elements), refused at the store.
    for (pair, needle) in [
        (
            "half_copy_f32st-vs-half_copy.pair.toml",
            "line 59: unsupported: a store of 4 bytes of a computed value into output out, whose elements are 2 bytes",
        ),
        (
            "float_copy_f64st-vs-float_copy.pair.toml",
            "line 54: unsupported: a store of 8 bytes of a computed value into output out, whose elements are 4 bytes",
        ),
    ] {
        let (code, out, err) = prove(pair, &[]);
        assert_eq!(code, 2, "{pair}: {out}{err}");
        assert!(out.starts_with("UNKNOWN") && out.contains(needle), "{out}");
    }
}

#[test]
fn an_empty_footprint_is_not_proved() {
    let (code, out, err) = prove("relu_guard_0-vs-copy_guard_0.pair.toml", &[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        out.starts_with("UNKNOWN")
            && out.contains("neither kernel writes any of its 16 elements")
            && !out.contains("PROVED"),
        "{out}"
    );
}

#[test]
fn a_partial_footprint_is_stated_as_partial() {
    let (code, out, err) = prove("copy_pairs_12-vs-copy_guard_12.pair.toml", &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("PROVED") && out.contains("(PARTIAL)"),
        "{out}"
    );
    assert!(
        out.contains("out: proved for 12 of 16 elements; 4 not written by either kernel"),
        "{out}"
    );
    assert!(!out.contains("every element"), "{out}");
    let (code, out, err) = prove("copy_pairs-vs-copy_guard.pair.toml", &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("every element of every output") && out.contains("out: all 16 of 16 elements"),
        "{out}"
    );
}

#[test]
fn an_endless_loop_is_a_resource_limit_naming_the_flag() {
    let (code, out, err) = prove(
        "loop_step_odd-vs-loop_step.pair.toml",
        &["--max-work", "100000"],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        out.starts_with("UNKNOWN")
            && out.contains("Optimized kernel: resource limit: more than 100000 units of work")
            && out.contains("raise the limit with --max-work"),
        "{out}"
    );
    let spec = kernels().join("adversarial/limits/loop_step_odd.toml");
    let (code, out, err) = kcert(&["analyze", spec.to_str().unwrap(), "--max-work", "100000"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("resource limit: more than 100000 units of work")
            && err.contains("--max-work"),
        "{err}"
    );
    // The terminating twin is safe within the same budget.
    let spec = kernels().join("adversarial/limits/loop_step.toml");
    let (code, out, _) = kcert(&["analyze", spec.to_str().unwrap(), "--max-work", "100000"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn help_and_version_answer_and_usage_errors_exit_64() {
    for flag in ["--help", "--version"] {
        let (code, out, err) = kcert(&[flag]);
        assert_eq!(code, 0, "{flag}: {out}{err}");
        assert!(out.contains("kcert"), "{out}");
    }
    let (code, out, _) = kcert(&["prove", "--help"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("--format"), "{out}");
    // Usage errors have a code of their own, distinct from unknown (2) and invalid input (3).
    for args in [
        &[][..],
        &["prove"][..],
        &["analyze", "--bogus", "x.toml"][..],
        &["analyze", "x.toml", "--format", "yaml"][..],
    ] {
        let (code, _, err) = kcert(args);
        assert_eq!(code, 64, "{args:?}: {err}");
    }
}

/// Item: a scalar's dtype is compared with the PTX parameter's type, not only its size.
#[test]
fn a_scalar_of_the_wrong_kind_is_refused_at_its_spec_line() {
    // bf16_widen_add0 takes `.param .f32`; its spec binds an f32 scalar (line 24: dtype).
    let s = Scratch::new("scalar-kind", "adversarial/formats", "bf16_widen_add0");
    let (code, out, err) = kcert(&["run", &s.spec()]);
    assert_eq!(code, 0, "the twin runs: {out}{err}");
    s.edit("toml", |t| {
        let at = t.rfind("dtype = \"f32\"").unwrap();
        let mut t = t.clone();
        t.replace_range(at..at + 13, "dtype = \"s32\"");
        t.replace("value = 0.0", "value = 2")
    });
    for cmd in ["run", "analyze"] {
        let (code, out, err) = kcert(&[cmd, &s.spec()]);
        assert_eq!(code, 3, "{cmd}: {out}{err}");
        assert!(
            err.contains("k.toml:22: params[2]: a scalar of dtype s32 is bound to PTX parameter")
                && err.contains("declared .param .f32"),
            "{cmd}: {err}"
        );
    }
}

/// Item: messages quote the spec's words at the spec's line.
#[test]
fn spec_errors_name_file_line_and_key_in_the_spec_words() {
    let s = Scratch::new("spec-words", "adversarial/formats", "bf16_widen_add0");
    s.edit("toml", |t| t.replace("value = 0.0", "value = \"two\""));
    let (code, _, err) = kcert(&["analyze", &s.spec()]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains(
            "k.toml:25: params[2].value: a scalar of dtype f32 cannot take the value \"two\""
        ),
        "{err}"
    );
    assert!(!err.contains("F32") && !err.contains("String("), "{err}");
    let s = Scratch::new("spec-type", "reduce", "reduce_seq");
    s.edit("toml", |t| {
        t.replacen("grid = [8, 1, 1]", "grid = \"eight\"", 1)
    });
    let (code, _, err) = kcert(&["analyze", &s.spec()]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("k.toml:") && err.contains(": grid: invalid type: string \"eight\""),
        "{err}"
    );
}

/// Item: `kcert run` on a grid past `--max-ctas` runs part of it and says so with exit 2.
#[test]
fn run_on_part_of_the_grid_exits_two() {
    let spec = kernels().join("reduce/reduce_seq.toml");
    let spec = spec.to_str().unwrap();
    let (code, out, err) = kcert(&["run", spec, "--max-ctas", "3"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("only 3 of the grid's 8 CTAs ran (--max-ctas 3)"),
        "{err}"
    );
    let (code, out, err) = kcert(&["run", spec, "--max-ctas", "8"]);
    assert_eq!(code, 0, "{out}{err}");
}

/// Item: every limit a message names can be set from the command line.
#[test]
fn limits_named_in_messages_are_flags() {
    let spec = kernels().join("adversarial/limits/loop_step_odd.toml");
    let (code, out, err) = kcert(&["run", spec.to_str().unwrap(), "--max-work", "100000"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("more than 100000 units of work") && err.contains("--max-work"),
        "{err}"
    );
    let spec = kernels().join("adversarial/limits/loop_step.toml");
    let (code, out, err) = kcert(&["run", spec.to_str().unwrap(), "--max-work", "100000"]);
    assert_eq!(code, 0, "{out}{err}");
    // The per-thread bound (set to --max-work by every command) names that flag too.
    let inst = kcert_checker::instance::Instance::load(
        &kernels().join("adversarial/limits/loop_step_odd.toml"),
    )
    .unwrap();
    let config = kcert_checker::exec::Config {
        max_steps_per_thread: 1000,
        ..Default::default()
    };
    let e = inst
        .run(
            kcert_checker::exec::Mode::Symbolic,
            &Default::default(),
            &config,
        )
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("more than 1000 instructions") && e.contains("--max-work"),
        "{e}"
    );
}

/// Item: a certificate records its PTX relative to itself, so it checks from anywhere.
#[test]
fn certificates_record_ptx_paths_relative_to_themselves() {
    let dir = std::env::temp_dir().join(format!("kcert-cli-rel-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cert = dir.join("c.kcert");
    let pair = kernels().join("pairs/reduce_seq-vs-reduce_naive.pair.toml");
    let (code, out, err) = kcert(&[
        "prove",
        pair.to_str().unwrap(),
        "-o",
        cert.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let c = kcert_checker::cert::Certificate::from_bytes(&std::fs::read(&cert).unwrap()).unwrap();
    for (recorded, name) in [
        (&c.ref_ptx_path, "reduce_naive.ptx"),
        (&c.opt_ptx_path, "reduce_seq.ptx"),
    ] {
        let at = dir.join(recorded);
        assert!(
            at.is_file() && recorded.ends_with(&format!("kernels/reduce/{name}")),
            "{recorded} is not relative to {}",
            dir.display()
        );
        let resolved = kcert_checker::cert::resolve_ptx(&cert, recorded).unwrap();
        assert_eq!(
            resolved.canonicalize().unwrap(),
            kernels().join("reduce").join(name).canonicalize().unwrap()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
