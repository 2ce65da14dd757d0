//! `--format json` of `kcert prove`, `analyze` and `corpus`: every object valid against
//! docs/kcert-output.schema.json (by the std-only validator the checker's tests share), with
//! the verdict, exit code, claims, findings and limits each case is about; and the validator
//! itself rejects objects that break the schema, so a pass means something.

#[path = "../../checker/tests/common/json_schema.rs"]
mod json_schema;

use json_schema::{Json, parse, valid_lines, validate};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn kcert(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kcert"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("kcert runs");
    (
        out.status.code().expect("exited"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn get<'a>(v: &'a Json, path: &[&str]) -> &'a Json {
    let mut v = v;
    for k in path {
        v = match v {
            Json::Obj(m) => m.get(*k).unwrap_or_else(|| panic!("no key {k} in {v:?}")),
            _ => panic!("{v:?} is not an object"),
        };
    }
    v
}

fn s(v: &Json) -> &str {
    match v {
        Json::Str(s) => s,
        _ => panic!("{v:?} is not a string"),
    }
}

fn arr(v: &Json) -> &[Json] {
    match v {
        Json::Arr(a) => a,
        _ => panic!("{v:?} is not an array"),
    }
}

fn one(out: &str) -> Json {
    let schema = json_schema::schema(&root());
    let mut v = valid_lines(&schema, out);
    assert_eq!(v.len(), 1, "{out}");
    v.pop().unwrap()
}

fn prove(pair: &str, extra: &[&str]) -> (i32, Json) {
    let cert = std::env::temp_dir().join(format!("kcert-json-{pair}-{}.kcert", std::process::id()));
    let pair = format!("kernels/pairs/{pair}.pair.toml");
    let mut args = vec![
        "prove",
        &pair,
        "-o",
        cert.to_str().unwrap(),
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let (code, out) = kcert(&args);
    let _ = std::fs::remove_file(&cert);
    (code, one(&out))
}

#[test]
fn prove_reports_each_outcome_in_the_schema() {
    let (code, v) = prove("copy_pairs_12-vs-copy_guard_12", &[]);
    assert_eq!((code, s(get(&v, &["verdict"]))), (0, "proved"));
    let claims = arr(get(&v, &["claims"]));
    assert!(
        claims
            .iter()
            .any(|c| get(c, &["kind"]) == &Json::Str("equivalent".into())
                && get(c, &["elements"]) == &Json::Int(12)
                && get(c, &["total"]) == &Json::Int(16)),
        "{v:?}"
    );
    assert_eq!(arr(get(&v, &["scope", "kernels"])).len(), 2);
    // Refuted by a race: the finding with both PTX lines, their .loc lines and threads.
    let (code, v) = prove("reduce_seq_nosync-vs-reduce_naive", &[]);
    assert_eq!((code, s(get(&v, &["verdict"]))), (1, "refuted"));
    let f = &arr(get(&v, &["findings"]))[0];
    assert_eq!(s(get(f, &["kind"])), "race");
    assert_eq!(s(get(f, &["kernel"])), "optimized");
    let sites = arr(get(f, &["sites"]));
    assert!(
        sites
            .iter()
            .any(|x| get(x, &["ptx_line"]) == &Json::Int(73)),
        "{f:?}"
    );
    assert!(
        s(get(&sites[0], &["source"])).contains("reduce_seq_nosync.cu:"),
        "{f:?}"
    );
    // Refuted by a value.
    let (code, v) = prove("reduce_seq_skip-vs-reduce_naive", &[]);
    assert_eq!(code, 1);
    assert_eq!(
        s(get(&arr(get(&v, &["findings"]))[0], &["kind"])),
        "value_mismatch"
    );
    // A limit: unknown, naming the limit and its flag.
    let (code, v) = prove("loop_step_odd-vs-loop_step", &["--max-work", "100000"]);
    assert_eq!((code, s(get(&v, &["verdict"]))), (2, "unknown"));
    let l = &arr(get(&v, &["limits_hit"]))[0];
    assert_eq!(
        (
            s(get(l, &["limit"])),
            get(l, &["value"]),
            s(get(l, &["flag"]))
        ),
        ("max_work", &Json::Int(100000), "--max-work")
    );
    // Invalid input is a JSON result too.
    let (code, v) = prove("vadd-vs-twice", &[]);
    assert_eq!((code, s(get(&v, &["verdict"]))), (3, "invalid"));
    assert!(s(get(&v, &["message"])).contains("linked twice"), "{v:?}");
}

#[test]
fn analyze_reports_scope_findings_and_limits_in_the_schema() {
    let (code, out) = kcert(&[
        "analyze",
        "kernels/reduce/reduce_seq.toml",
        "--format",
        "json",
    ]);
    let v = one(&out);
    assert_eq!((code, s(get(&v, &["verdict"]))), (0, "proved"));
    let k = &arr(get(&v, &["scope", "kernels"]))[0];
    assert_eq!(get(k, &["ctas_executed"]), &Json::Int(8));
    let (code, out) = kcert(&[
        "analyze",
        "kernels/reduce/reduce_seq.toml",
        "--format",
        "json",
        "--max-ctas",
        "3",
    ]);
    let v = one(&out);
    assert_eq!((code, s(get(&v, &["verdict"]))), (2, "unknown"));
    assert_eq!(
        s(get(&arr(get(&v, &["limits_hit"]))[0], &["flag"])),
        "--max-ctas"
    );
    let (code, out) = kcert(&[
        "analyze",
        "kernels/reduce/reduce_seq_nosync.toml",
        "--format",
        "json",
    ]);
    let v = one(&out);
    assert_eq!(code, 1);
    assert_eq!(s(get(&arr(get(&v, &["findings"]))[0], &["kind"])), "race");
    let (code, out) = kcert(&["analyze", "kernels/nowhere.toml", "--format", "json"]);
    let v = one(&out);
    assert_eq!((code, s(get(&v, &["verdict"]))), (3, "invalid"));
}

#[test]
fn corpus_writes_json_lines_then_a_summary() {
    // A corpus of four pairs: proved, race, value, invalid.
    let dir = std::env::temp_dir().join(format!("kcert-json-corpus-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("pairs")).unwrap();
    for family in ["reduce", "misc", "adversarial"] {
        let to = dir.join(family);
        std::os::unix::fs::symlink(
            root().join("kernels").join(family).canonicalize().unwrap(),
            &to,
        )
        .unwrap();
    }
    let pairs = [
        "reduce_seq-vs-reduce_naive",
        "reduce_seq_nosync-vs-reduce_naive",
        "reduce_seq_skip-vs-reduce_naive",
        "vadd-vs-twice",
    ];
    for p in pairs {
        for ext in ["pair.toml", "pair.expect.toml"] {
            std::fs::copy(
                root().join("kernels/pairs").join(format!("{p}.{ext}")),
                dir.join("pairs").join(format!("{p}.{ext}")),
            )
            .unwrap();
        }
    }
    let (code, out) = kcert(&[
        "corpus",
        "--kernels",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let schema = json_schema::schema(&root());
    let lines = valid_lines(&schema, &out);
    assert_eq!(lines.len(), pairs.len() + 1, "{out}");
    assert_eq!(code, 0, "{out}");
    let verdicts: Vec<&str> = lines[..4].iter().map(|l| s(get(l, &["verdict"]))).collect();
    assert_eq!(
        verdicts,
        ["proved", "refuted", "refuted", "invalid"],
        "{out}"
    );
    for l in &lines[..4] {
        assert_eq!(get(l, &["as_expected"]), &Json::Bool(true), "{l:?}");
    }
    let last = &lines[4];
    assert_eq!(s(get(last, &["record"])), "summary");
    assert_eq!(get(last, &["pairs"]), &Json::Int(4));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The negative twin: objects that break the schema are refused by the validator.
#[test]
fn the_validator_refuses_what_the_schema_excludes() {
    let schema = json_schema::schema(&root());
    let (_, out) = kcert(&[
        "analyze",
        "kernels/reduce/reduce_seq_nosync.toml",
        "--format",
        "json",
    ]);
    let good = out.trim();
    assert!(validate(&schema, &schema, &parse(good).unwrap(), "$").is_empty());
    let broken = [
        good.replacen("\"verdict\":\"refuted\"", "\"verdict\":\"maybe\"", 1),
        good.replacen("\"schema_version\":1", "\"schema_version\":2", 1),
        good.replacen("\"kind\":\"race\"", "\"kind\":\"racy\"", 1),
        good.replacen("\"ptx_line\":73", "\"ptx_line\":\"73\"", 1),
        good.replacen("\"exit_code\":1,", "", 1),
        good.replacen("{", "{\"extra\":true,", 1),
        good.replacen("\"cta\":[0,0,0]", "\"cta\":[0,0]", 1),
    ];
    for b in broken {
        assert_ne!(b, good, "the edit applies");
        let errs = validate(&schema, &schema, &parse(&b).unwrap(), "$");
        assert!(!errs.is_empty(), "accepted: {b}");
    }
}
