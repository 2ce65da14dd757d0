//! Differential test: the executable Lean model of the equivalence replay (`lean/exec`, binary
//! `kcert-lean-check`, which evaluates `Kcert.checkEquiv`) against the Rust checker
//! (`kcert_checker::check::check`), on every certificate in proofs/ and on mutated ones.
//!
//! Each certificate is exported with `kcert::lean_export` (the pair run as the checker runs it)
//! and the Lean verdict is compared with the Rust one. They must agree, on every certificate
//! and every mutation: there is no list of tolerated disagreements.
//!
//! Skipped (with a line saying so) when the Lean binary is not built: build it with
//! `cd lean/exec && lake build-bin` (.ci/run does when a Lean toolchain is found), or name it
//! with `KCERT_LEAN_CHECK=/path/to/kcert-lean-check`.

use kcert::lean_export;
use kcert_checker::cert::{Certificate, Claim, Kernel, Rule, Step};
use kcert_checker::check::check;
use kcert_checker::equiv;
use kcert_checker::exec::Config;
use kcert_checker::pair::PairSpec;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Time allowed to one Lean run.
const LEAN_LIMIT: Duration = Duration::from_secs(300);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

fn lean_binary() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("KCERT_LEAN_CHECK") {
        return Some(PathBuf::from(p));
    }
    let p = root().join("lean/exec/build/bin/kcert-lean-check");
    p.is_file().then_some(p)
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Lean {
    Accept,
    Reject(String),
    TimedOut,
}

/// Runs the Lean model on an exchange text.
fn run_lean(bin: &Path, text: &str, tag: &str, limit: Duration) -> (Lean, Duration) {
    let dir = std::env::temp_dir().join(format!("kcert-lean-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{tag}.txt"));
    std::fs::write(&file, text).unwrap();
    let t0 = Instant::now();
    let mut child = Command::new(bin)
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = t0.elapsed();
    let _ = std::fs::remove_file(&file);
    let Some(status) = status else {
        return (Lean::TimedOut, took);
    };
    let mut out = String::new();
    use std::io::Read as _;
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let first = out.lines().next().unwrap_or("").to_string();
    let verdict = match (status.code(), first.as_str()) {
        (Some(0), "ACCEPT") => Lean::Accept,
        (Some(1), l) if l.starts_with("REJECT") => Lean::Reject(l.to_string()),
        _ => panic!("kcert-lean-check {tag}: unexpected result {status:?}: {out}"),
    };
    (verdict, took)
}

struct Case {
    cert: Certificate,
    ref_ptx: String,
    opt_ptx: String,
}

fn load(path: &Path) -> Case {
    let cert = Certificate::from_bytes(&std::fs::read(path).unwrap()).unwrap();
    // Relative to the certificate, or (certificates from before that) to the root.
    let read = |p: &str| {
        let at = kcert_checker::cert::resolve_ptx(path, p).unwrap_or_else(|_| root().join(p));
        std::fs::read_to_string(at).unwrap()
    };
    Case {
        ref_ptx: read(&cert.ref_ptx_path),
        opt_ptx: read(&cert.opt_ptx_path),
        cert,
    }
}

/// Rust verdict, Lean verdict, Lean time, export sizes.
fn both(
    bin: &Path,
    c: &Case,
    tag: &str,
    limit: Duration,
) -> (Result<(), String>, Lean, Duration, String) {
    let rust = check(&c.cert, &c.ref_ptx, &c.opt_ptx)
        .map(|_| ())
        .map_err(|e| e.to_string());
    let x = lean_export::export(&c.cert, &c.ref_ptx, &c.opt_ptx).unwrap();
    let sizes = format!(
        "{} nodes, {} element terms, largest unfolded term {}",
        x.nodes, x.elements, x.max_tree
    );
    let (lean, took) = run_lean(bin, &x.text, tag, limit);
    (rust, lean, took, sizes)
}

fn certificates() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("proofs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "kcert"))
        .collect();
    v.sort();
    v
}

/// One certificate's table row, and its failure if the verdicts differ.
fn compare(bin: &Path, path: &Path) -> (String, Option<String>) {
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    let c = load(path);
    let (rust, lean, took, sizes) = both(bin, &c, &name, LEAN_LIMIT);
    let (outcome, failure) = match (&rust, &lean) {
        (Ok(()), Lean::Accept) => ("agree (ACCEPT)", None),
        (Err(_), Lean::Reject(_)) => ("agree (REJECT)", None),
        _ => (
            "MISMATCH",
            Some(format!("{name}: Rust {rust:?}, Lean {lean:?}")),
        ),
    };
    let r = if rust.is_ok() { "ACCEPT" } else { "REJECT" };
    let l = match &lean {
        Lean::Accept => "ACCEPT",
        Lean::Reject(_) => "REJECT",
        Lean::TimedOut => "TIMEOUT",
    };
    let line = format!(
        "{name} | {r} | {l} | {outcome} | {:.2} s | {sizes}",
        took.as_secs_f64()
    );
    (line, failure)
}

#[test]
fn lean_model_agrees_on_every_certificate_in_proofs() {
    let Some(bin) = lean_binary() else {
        println!(
            "lean differential: SKIPPED (kcert-lean-check not built; `cd lean/exec && lake build-bin` needs a Lean 4 toolchain)"
        );
        return;
    };
    // Certificates are independent: check them on every core (the attention ones take about
    // a minute each in the Lean executable).
    let paths = certificates();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let rows = std::sync::Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(path) = paths.get(i) else { break };
                    let row = compare(&bin, path);
                    rows.lock().unwrap().push((i, row));
                }
            });
        }
    });
    let mut rows = rows.into_inner().unwrap();
    rows.sort_by_key(|(i, _)| *i);
    println!("certificate | Rust | Lean | outcome | Lean time | exchange size");
    let mut failures = Vec::new();
    for (_, (line, failure)) in rows {
        println!("{line}");
        failures.extend(failure);
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

struct Mutant {
    name: String,
    cert: Certificate,
}

fn mutants(base: &str, c: &Certificate) -> Vec<Mutant> {
    let mut out = Vec::new();
    let mut push = |what: &str, cert: Certificate| {
        out.push(Mutant {
            name: format!("{base}: {what}"),
            cert,
        })
    };
    let s0 = c.steps[0];
    for rule in [Rule::Congruent, Rule::RingNormalize, Rule::FieldNormalize] {
        if rule != s0.rule {
            let mut m = c.clone();
            m.steps[0].rule = rule;
            push(&format!("step 0 cites {rule:?}"), m);
        }
    }
    let mut m = c.clone();
    m.steps.pop();
    push("last step dropped", m);
    let mut m = c.clone();
    m.steps[0].output += 1;
    push("step 0 cites the next output link", m);
    if s0.count > 1 {
        let mut m = c.clone();
        m.steps[0].count -= 1;
        push("step 0 one element short", m);
        let mut m = c.clone();
        m.steps[0].first += 1;
        push("step 0 shifted by one element", m);
    }
    let mut m = c.clone();
    m.claims.retain(|cl| cl.equivalence().is_none());
    push("equivalence claims dropped, steps kept", m);
    let mut m = c.clone();
    m.steps.push(Step { count: 1, ..s0 });
    push("element covered twice", m);
    let mut m = c.clone();
    m.steps.push(Step { count: 0, ..s0 });
    push("empty step added", m);
    out
}

/// A forged certificate for a pair whose kernels are not equivalent: both safety claims, every
/// output claimed equivalent, one step per run of the reference footprint, citing `rule`.
fn forged(pair_file: &str, rule: Rule) -> Case {
    let pair = PairSpec::load(&root().join("kernels/pairs").join(pair_file)).unwrap();
    let text = |p: &Path| std::fs::read_to_string(p).unwrap();
    let (ref_ptx, opt_ptx) = (text(&pair.reference.ptx), text(&pair.optimized.ptx));
    let config = Config {
        max_ctas: u64::MAX,
        ..Config::default()
    };
    let run = equiv::run_pair(&pair, [&ref_ptx, &opt_ptx], [true, true], &config).unwrap();
    let mut claims = vec![
        Claim::Safe(Kernel::Reference),
        Claim::Safe(Kernel::Optimized),
    ];
    let mut steps = Vec::new();
    for (n, (rp, _)) in pair.outputs.iter().enumerate() {
        let fp = run.side(Kernel::Reference).unwrap().footprint(*rp);
        let total = match pair.reference.params.get(*rp) {
            Some(kcert_checker::spec::Binding::Tensor(t)) => t.elements(),
            _ => 0,
        };
        claims.push(Claim::Equivalent {
            output: n as u32,
            elements: fp.len() as u64,
            total,
        });
        let mut i = 0;
        while i < fp.len() {
            let mut j = i + 1;
            while j < fp.len() && fp[j] == fp[j - 1] + 1 {
                j += 1;
            }
            steps.push(Step {
                output: n as u32,
                first: fp[i],
                count: (j - i) as u64,
                rule,
            });
            i = j;
        }
    }
    use kcert_checker::cert;
    let t = &pair.texts;
    let cert = Certificate {
        spec_sha256: cert::spec_digest(&t.pair, &t.reference, &t.optimized),
        ref_ptx_sha256: cert::sha256(ref_ptx.as_bytes()),
        opt_ptx_sha256: cert::sha256(opt_ptx.as_bytes()),
        ref_ptx_path: pair.reference.ptx.display().to_string(),
        opt_ptx_path: pair.optimized.ptx.display().to_string(),
        pair_spec: t.pair.clone(),
        ref_spec: t.reference.clone(),
        opt_spec: t.optimized.clone(),
        claims,
        steps,
        work: [Kernel::Reference, Kernel::Optimized].map(|k| run.side(k).unwrap().outcome.work),
    };
    Case {
        cert,
        ref_ptx,
        opt_ptx,
    }
}

#[test]
fn lean_model_agrees_on_mutated_certificates() {
    let Some(bin) = lean_binary() else {
        println!(
            "lean differential (mutations): SKIPPED (kcert-lean-check not built; `cd lean/exec && lake build-bin` needs a Lean 4 toolchain)"
        );
        return;
    };
    let mut cases: Vec<(String, Case)> = Vec::new();
    // One certificate per rule, small enough to run many times, and one whose terms contain
    // -inf (the online softmax's running maximum starts there).
    for base in [
        "reduce_seq-vs-reduce_naive",
        "rmsnorm_warp-vs-rmsnorm_naive",
        "conv2d_igemm-vs-conv2d_direct",
        "softmax_online-vs-softmax_naive",
    ] {
        let c = load(&root().join("proofs").join(format!("{base}.kcert")));
        for m in mutants(base, &c.cert) {
            cases.push((
                m.name,
                Case {
                    cert: m.cert,
                    ref_ptx: c.ref_ptx.clone(),
                    opt_ptx: c.opt_ptx.clone(),
                },
            ));
        }
    }
    // Equivalence claimed for pairs that are not equivalent (kernels/pairs/*.expect.toml).
    for (pair, rule) in [
        (
            "reduce_seq_skip-vs-reduce_naive.pair.toml",
            Rule::RingNormalize,
        ),
        (
            "reduce_seq_skip-vs-reduce_naive.pair.toml",
            Rule::FieldNormalize,
        ),
        (
            "rmsnorm_warp_nm1-vs-rmsnorm_naive.pair.toml",
            Rule::FieldNormalize,
        ),
        (
            "rmsnorm_warp_sqrt_norcp-vs-rmsnorm_naive.pair.toml",
            Rule::FieldNormalize,
        ),
        (
            "conv2d_igemm_flip-vs-conv2d_direct.pair.toml",
            Rule::RingNormalize,
        ),
        ("matmul_2d_lastk-vs-matmul_naive.pair.toml", Rule::Congruent),
        (
            "matmul_2d_lastk-vs-matmul_naive.pair.toml",
            Rule::RingNormalize,
        ),
    ] {
        cases.push((
            format!("{pair}: forged equivalence by {rule:?}"),
            forged(pair, rule),
        ));
    }
    let mut failures = Vec::new();
    println!("mutant | Rust | Lean | outcome | Lean time");
    for (i, (name, c)) in cases.iter().enumerate() {
        let (rust, lean, took, _) = both(&bin, c, &format!("mutant{i}"), LEAN_LIMIT);
        let outcome = match (&rust, &lean) {
            (Err(_), Lean::Reject(_)) => "agree (REJECT)".to_string(),
            // FieldNormalize subsumes RingNormalize: citing it for a ring step stays valid.
            (Ok(()), Lean::Accept) => "agree (ACCEPT)".to_string(),
            _ => {
                failures.push(format!("{name}: Rust {rust:?}, Lean {lean:?}"));
                "MISMATCH".to_string()
            }
        };
        let r = if rust.is_ok() { "ACCEPT" } else { "REJECT" };
        println!(
            "{name} | {r} | {lean:?} | {outcome} | {:.2} s",
            took.as_secs_f64()
        );
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
