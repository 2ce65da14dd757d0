//! Barriers reached from different instructions (PTX ISA 9.7.13.1): `bar.sync` is
//! `barrier.sync.aligned`, which "indicates that all threads in CTA will execute the same
//! barrier{.cta} instruction"; `barrier.sync` without `.aligned` (sm_70 and later) counts one
//! instance per barrier id from whichever instructions reach it. Hand-written PTX: 64 threads in
//! two warps store x[t] to shared, meet at one of two barrier sites, and read the other warp's
//! slot; kernels/adversarial/barriers2 runs nvcc's output of the same idea.

use kcert_checker::exec::FindingKind;

mod common;

/// Runs the kernel with `lo` choosing the first site (`%p1`), barriers `a` and `b` at the two
/// sites, on `target`: the finding kinds, or the error.
fn run(target: &str, lo: &str, a: &str, b: &str) -> Result<Vec<FindingKind>, String> {
    let text = format!(
        r#".version 8.0
.target {target}
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1)
{{
    .reg .pred %p<3>;
    .reg .f32 %f<3>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    .shared .align 4 .b8 s[256];
    ld.param.u64 %rd1, [p0];
    ld.param.u64 %rd2, [p1];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.f32 %f1, [%rd4];
    mov.u32 %r2, s;
    shl.b32 %r3, %r1, 2;
    add.s32 %r4, %r2, %r3;
    st.shared.f32 [%r4], %f1;
    {lo}
    @%p1 bra LO;
    {b}
    bra.uni JOIN;
LO:
    {a}
JOIN:
    add.s32 %r5, %r1, 32;
    and.b32 %r5, %r5, 63;
    shl.b32 %r6, %r5, 2;
    add.s32 %r7, %r2, %r6;
    ld.shared.f32 %f2, [%r7];
    add.s64 %rd5, %rd2, %rd3;
    st.global.f32 [%rd5], %f2;
    ret;
}}
"#
    );
    let spec = r#"ptx = "k.ptx"
entry = "k"
grid = [1, 1, 1]
block = [64, 1, 1]
dynamic_shared = 0
[[params]]
kind = "tensor"
name = "x"
dtype = "f32"
shape = [64]
role = "in"
[[params]]
kind = "tensor"
name = "out"
dtype = "f32"
shape = [64]
role = "out"
"#;
    let o = common::run_symbolic("k.ptx", &text, spec)?;
    Ok(o.findings.iter().map(|f| f.kind).collect())
}

/// Warp 0 takes the first site, warp 1 the second.
const BY_WARP: &str = "setp.lt.u32 %p1, %r1, 32;";
/// Lanes 0-15 of each warp take the first site, 16-31 the second.
const BY_LANE: &str = "and.b32 %r5, %r1, 31;\n    setp.lt.u32 %p1, %r5, 16;";

fn kinds(target: &str, lo: &str, a: &str, b: &str) -> Vec<FindingKind> {
    match run(target, lo, a, b) {
        Ok(k) => k,
        Err(e) => panic!("expected a run, got {e}"),
    }
}

#[test]
fn non_aligned_barrier_at_two_sites_is_one_instance() {
    let k = kinds("sm_80", BY_WARP, "barrier.sync 0;", "barrier.sync 0;");
    assert!(k.is_empty(), "{k:?}");
}

#[test]
fn aligned_barrier_at_two_sites_is_divergence() {
    for (a, b) in [
        ("bar.sync 0;", "bar.sync 0;"),
        ("barrier.sync.aligned 0;", "barrier.sync.aligned 0;"),
        // One aligned arrival is enough: it promises every thread is at its instruction.
        ("barrier.sync 0;", "bar.sync 0;"),
    ] {
        let k = kinds("sm_80", BY_WARP, a, b);
        assert_eq!(k, vec![FindingKind::BarrierDivergence], "{a} / {b}");
    }
}

#[test]
fn non_aligned_below_sm70_is_aligned() {
    // "For .target sm_6x or below, barrier{.cta} instruction without .aligned modifier is
    // equivalent to .aligned variant".
    let k = kinds("sm_60", BY_WARP, "barrier.sync 0;", "barrier.sync 0;");
    assert_eq!(k, vec![FindingKind::BarrierDivergence]);
}

#[test]
fn split_warp() {
    // Aligned: undefined. Non-aligned: the ISA leaves it open, so declined with the line.
    let k = kinds("sm_80", BY_LANE, "bar.sync 0;", "bar.sync 0;");
    assert_eq!(k, vec![FindingKind::BarrierDivergence]);
    let k = kinds("sm_80", BY_LANE, "bar.sync 1, 64;", "bar.sync 1, 64;");
    assert_eq!(k, vec![FindingKind::BarrierDivergence]);
    match run("sm_80", BY_LANE, "barrier.sync 0;", "barrier.sync 0;") {
        Err(e) => assert!(e.contains("lanes of one warp"), "{e}"),
        Ok(k) => panic!("expected a refusal, got {k:?}"),
    }
}

#[test]
fn counted_aligned_barrier_across_warps_is_kept() {
    // The ISA's producer/consumer idiom: warps at different instructions of one counted id.
    let k = kinds("sm_80", BY_WARP, "bar.sync 1, 64;", "bar.sync 1, 64;");
    assert!(k.is_empty(), "{k:?}");
}

#[test]
fn near_misses() {
    // Different ids never complete: stuck at two instructions.
    let k = kinds("sm_80", BY_WARP, "barrier.sync 0;", "barrier.sync 1;");
    assert_eq!(k, vec![FindingKind::BarrierDivergence]);
    // One warp skips the barrier: the other is left waiting for an exited warp.
    let k = kinds("sm_80", BY_WARP, "barrier.sync 0;", "");
    assert!(k.contains(&FindingKind::BarrierDivergence), "{k:?}");
    // No barrier: the cross-warp read races with the store.
    let k = kinds("sm_80", BY_WARP, "", "");
    assert!(k.contains(&FindingKind::DataRace), "{k:?}");
}
