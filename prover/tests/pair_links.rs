//! Pairs beyond one-to-one in/out tensors (kernels/README.md, "Pairs"): inout tensors, symbolic
//! scalars, linked inputs of different sizes, and a scope of named CTAs. Each positive case ends
//! in the checker, and each has a twin the checker must reject for the reason it is about.

use kcert::prove::{Outcome, prove};
use kcert_checker::cert::{self, Certificate};
use kcert_checker::check::{Reject, check};
use kcert_checker::pair::PairSpec;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

fn pair_path(pair: &str) -> PathBuf {
    root().join("kernels/pairs").join(pair)
}

fn proved(pair: &str) -> Certificate {
    match prove(&pair_path(pair)).unwrap_or_else(|e| panic!("{}", e.0)) {
        Outcome::Proved { cert, .. } => cert,
        other => panic!("{pair} is not proved: {other:?}"),
    }
}

fn read(p: &str) -> String {
    std::fs::read_to_string(root().join(p)).unwrap()
}

/// Re-seals edited spec texts as a forger would, for the PTX files the new specs name.
fn reseal(mut c: Certificate, ref_ptx: &str, opt_ptx: &str) -> Certificate {
    c.spec_sha256 = cert::spec_digest(&c.pair_spec, &c.ref_spec, &c.opt_spec);
    c.ref_ptx_sha256 = cert::sha256(read(ref_ptx).as_bytes());
    c.opt_ptx_sha256 = cert::sha256(read(opt_ptx).as_bytes());
    c.ref_ptx_path = ref_ptx.into();
    c.opt_ptx_path = opt_ptx.into();
    c
}

fn check_files(c: &Certificate) -> Result<kcert_checker::check::Verified, Reject> {
    check(c, &read(&c.ref_ptx_path), &read(&c.opt_ptx_path))
}

#[test]
fn an_inout_gemm_with_symbolic_alpha_and_beta_is_proved_and_checked() {
    let c = proved("gemm_ab_reg2d-vs-gemm_ab_naive.pair.toml");
    let v = check_files(&c).expect("the checker accepts");
    assert_eq!(v.elements, 1024);
    // Its twins are refuted: beta twice, alpha and beta swapped, the new C read as the old.
    for twin in ["beta2", "swap", "stale", "cta1"] {
        let pair = format!("gemm_ab_tiled_{twin}-vs-gemm_ab_naive.pair.toml");
        let o = prove(&pair_path(&pair)).unwrap();
        assert!(matches!(o, Outcome::Refuted(_)), "{pair}: {o:?}");
    }
}

#[test]
fn a_symbolic_scalar_is_one_value_on_both_sides_never_two() {
    // The gemm certificate with the reference's alpha and beta links crossed: each kernel still
    // sees one leaf per scalar, but the reference's alpha is now the optimized kernel's beta.
    let c = proved("gemm_ab_tiled-vs-gemm_ab_naive.pair.toml");
    let mut forged = c.clone();
    forged.pair_spec = c
        .pair_spec
        .replace(
            "reference = \"alpha\"\noptimized = \"alpha\"",
            "reference = \"alpha\"\noptimized = \"BETA\"",
        )
        .replace(
            "reference = \"beta\"\noptimized = \"beta\"",
            "reference = \"beta\"\noptimized = \"alpha\"",
        )
        .replace("\"BETA\"", "\"beta\"");
    assert_ne!(forged.pair_spec, c.pair_spec);
    let forged = reseal(forged, &c.ref_ptx_path, &c.opt_ptx_path);
    let e = check_files(&forged).expect_err("crossed scalars are rejected");
    assert!(matches!(e, Reject::Step { .. }), "{e}");
}

#[test]
fn inputs_of_different_sizes_link_only_where_both_read_the_common_part() {
    let c = proved("scale2_vec_wide-vs-scale2.pair.toml");
    let v = check_files(&c).expect("the checker accepts");
    assert!(
        v.sized_reads.iter().any(|l| l.contains(
            "the reference reads elements 0..128 of 128, the optimized elements 0..128 of 192"
        )),
        "{:?}",
        v.sized_reads
    );
    // The halo twin reads x[128], which only the optimized tensor has: kcert declines ...
    let o = prove(&pair_path("scale2_halo_wide-vs-scale2.pair.toml")).unwrap();
    let Outcome::Unknown(why) = o else {
        panic!("the halo twin must not be proved: {o:?}")
    };
    assert!(
        why.contains("reads element 128 of its 192-element tensor, past the 128 elements"),
        "{why}"
    );
    // ... and a certificate forged for it (the genuine one's steps, re-sealed for the halo
    // kernel, whose outputs are equal over the reals) is rejected for the read, not accepted.
    let mut forged = c.clone();
    forged.pair_spec = c
        .pair_spec
        .replace("scale2_vec_wide.toml", "scale2_halo_wide.toml");
    forged.opt_spec = read("kernels/adversarial/sizes/scale2_halo_wide.toml");
    forged.work = [1 << 24, 1 << 24];
    let forged = reseal(
        forged,
        &c.ref_ptx_path,
        "kernels/adversarial/sizes/scale2_halo.ptx",
    );
    let e = check_files(&forged).expect_err("a read past the shared part is rejected");
    assert!(
        matches!(&e, Reject::Link(m) if m.contains("reads element 128")),
        "{e}"
    );
}

#[test]
fn a_scoped_proof_states_its_scope_and_is_not_a_whole_grid_proof() {
    let c = proved("gemm_ab_tiled_cta1_256_s0-vs-gemm_ab_naive_256_s0.pair.toml");
    let v = check_files(&c).expect("the checker accepts");
    for s in &v.scope {
        assert_eq!(s, "CTA (0,0,0) of grid [16, 16, 1] only (1 of 256 CTAs)");
    }
    // The same certificate moved to CTA (1,0,0), where the bug lives (a whole-grid run of
    // this launch is the refuted gemm_ab_tiled_cta1 pair, at 32 x 32): rejected, the claim
    // and steps are about what CTA (0,0,0) writes.
    let mut whole = c.clone();
    let rescope = |t: &str| t.replace("ctas = [[0, 0, 0]]", "ctas = [[1, 0, 0]]");
    whole.ref_spec = rescope(&c.ref_spec);
    whole.opt_spec = rescope(&c.opt_spec);
    assert_ne!(whole.opt_spec, c.opt_spec);
    let (r, o) = (c.ref_ptx_path.clone(), c.opt_ptx_path.clone());
    let whole = reseal(whole, &r, &o);
    let e = check_files(&whole).expect_err("a proof for CTA 0 is no proof for CTA 1");
    assert!(matches!(e, Reject::Step { .. }), "{e}");
}

#[test]
fn kcert_check_prints_the_scope() {
    let c = proved("gemm_ab_tiled_256_s0-vs-gemm_ab_naive_256_s0.pair.toml");
    let file = std::env::temp_dir().join(format!("kcert-scope-{}.kcert", std::process::id()));
    std::fs::write(&file, c.to_bytes().unwrap()).unwrap();
    // kcert-check is the checker crate's binary: built beside kcert by `cargo build`.
    let bin = Path::new(env!("CARGO_BIN_EXE_kcert")).with_file_name("kcert-check");
    if !bin.exists() {
        eprintln!("skipped: {} is not built", bin.display());
        return;
    }
    let out = Command::new(&bin)
        .arg(&file)
        .current_dir(root())
        .output()
        .unwrap();
    let strict = Command::new(&bin)
        .arg(&file)
        .args(["--require", "full-equivalence"])
        .current_dir(root())
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    let rejected = String::from_utf8_lossy(&strict.stdout);
    assert!(
        !strict.status.success() && rejected.contains("REJECT") && rejected.contains("SCOPED"),
        "a scoped certificate is not full equivalence: {rejected}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("SCOPED: proved only for the named CTAs")
            && text.contains("for CTA (0,0,0) of grid [16, 16, 1] only (1 of 256 CTAs)")
            && text.contains("every value of alpha, beta"),
        "{text}"
    );
}

/// Every structural rule of the new pair fields is refused as invalid input naming the pair
/// file (the loader's own unit tests cover each message).
#[test]
fn structural_refusals_name_the_pair_file() {
    let dir = std::env::temp_dir().join(format!("kcert-pairs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gemm = root().join("kernels/gemm_ab");
    let sized = root().join("kernels/adversarial/sizes");
    let cases = [
        // An unlinked symbolic scalar.
        (
            gemm.join("gemm_ab_naive.toml"),
            gemm.join("gemm_ab_tiled.toml"),
            "[[inputs]]\nreference = \"A\"\noptimized = \"A\"\n[[inputs]]\nreference = \"B\"\noptimized = \"B\"\n[[inputs]]\nreference = \"C\"\noptimized = \"C\"\n[[outputs]]\nreference = \"C\"\noptimized = \"C\"\n[[scalars]]\nreference = \"alpha\"\noptimized = \"alpha\"\n",
            "symbolic scalar(s) beta not linked",
        ),
        // An inout tensor linked only as an input.
        (
            gemm.join("gemm_ab_naive.toml"),
            gemm.join("gemm_ab_tiled.toml"),
            "[[inputs]]\nreference = \"A\"\noptimized = \"A\"\n[[inputs]]\nreference = \"B\"\noptimized = \"B\"\n[[inputs]]\nreference = \"C\"\noptimized = \"C\"\n[[outputs]]\nreference = \"A\"\noptimized = \"A\"\n",
            "has role in, [[outputs]] links tensors of role out or inout",
        ),
        // Outputs of different sizes.
        (
            sized.join("scale2_vec_wide.toml"),
            sized.join("scale2.toml"),
            "[[inputs]]\nreference = \"x\"\noptimized = \"x\"\n[[outputs]]\nreference = \"x\"\noptimized = \"out\"\n",
            "has role in, [[outputs]] links",
        ),
    ];
    for (n, (r, o, links, needle)) in cases.into_iter().enumerate() {
        let p = dir.join(format!("case{n}.pair.toml"));
        let text = format!(
            "reference = \"{}\"\noptimized = \"{}\"\n{links}",
            r.display(),
            o.display()
        );
        std::fs::write(&p, text).unwrap();
        let e = PairSpec::load(&p).expect_err("refused");
        assert!(
            e.contains(&p.display().to_string()) && e.contains(needle),
            "case {n}: {e}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
