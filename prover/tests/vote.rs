//! `vote.sync` with predicates that depend only on indices runs as a warp collective; a vote on
//! tensor data is refused (its result would be a data-dependent bit mask). (Hand-written PTX,
//! five instructions around one vote; kernels/dtype/rowsum_vote* run nvcc's real output.)

use kcert_checker::exec::Val;

mod common;

/// The 32 lanes' outputs (`u64::MAX`: not written), or why the kernel did not run; a run with
/// findings is an error naming the first.
fn run(pred: &str, vote: &str) -> Result<Vec<u64>, String> {
    let text = format!(
        r#".version 8.0
.target sm_80
.address_size 64
.visible .entry v(.param .u64 p0, .param .u64 p1)
{{
    .reg .pred %p<3>;
    .reg .f32 %f<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [p0];
    ld.param.u64 %rd2, [p1];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.f32 %f1, [%rd4];
    mov.u32 %r2, 7;
    {pred}
    {vote}
    add.s64 %rd5, %rd2, %rd3;
    st.global.u32 [%rd5], %r2;
    ret;
}}
"#
    );
    let spec = r#"ptx = "v.ptx"
entry = "v"
grid = [1, 1, 1]
block = [32, 1, 1]
dynamic_shared = 0
[[params]]
kind = "tensor"
name = "x"
dtype = "f32"
shape = [32]
role = "in"
[[params]]
kind = "tensor"
name = "out"
dtype = "u32"
shape = [32]
role = "out"
"#;
    let o = common::run_symbolic("v.ptx", &text, spec)?;
    match o.findings.first() {
        Some(f) => Err(f.to_string()),
        None => Ok((0..32)
            .map(|i| match o.outputs.get(&1).and_then(|m| m.get(&i)) {
                Some(Val::Bits(b)) => *b,
                _ => u64::MAX,
            })
            .collect()),
    }
}

#[test]
fn votes_on_indices_follow_the_isa() {
    let lt10 = "setp.lt.u32 %p1, %r1, 10;";
    let ballot = run(lt10, "vote.sync.ballot.b32 %r2, %p1, -1;").unwrap();
    assert!(ballot.iter().all(|&b| b == 0x3ff), "{ballot:x?}");
    let neg = run(lt10, "vote.sync.ballot.b32 %r2, !%p1, -1;").unwrap();
    assert!(neg.iter().all(|&b| b == 0xffff_fc00), "{neg:x?}");
    let any = run(
        lt10,
        "vote.sync.any.pred %p2, %p1, -1;\n    selp.u32 %r2, 1, 0, %p2;",
    )
    .unwrap();
    let all = run(
        lt10,
        "vote.sync.all.pred %p2, %p1, -1;\n    selp.u32 %r2, 1, 0, %p2;",
    )
    .unwrap();
    let uni = run(
        lt10,
        "vote.sync.uni.pred %p2, %p1, -1;\n    selp.u32 %r2, 1, 0, %p2;",
    )
    .unwrap();
    assert!(
        any.iter().all(|&b| b == 1) && all.iter().all(|&b| b == 0) && uni.iter().all(|&b| b == 0)
    );
    let everyone = "setp.lt.u32 %p1, %r1, 32;";
    let uni = run(
        everyone,
        "vote.sync.uni.pred %p2, %p1, -1;\n    selp.u32 %r2, 1, 0, %p2;",
    )
    .unwrap();
    assert!(uni.iter().all(|&b| b == 1));
}

#[test]
fn votes_on_data_and_deprecated_forms_are_refused() {
    let data = "setp.gt.f32 %p1, %f1, 0f00000000;";
    let err = run(data, "vote.sync.ballot.b32 %r2, %p1, -1;").unwrap_err();
    assert!(
        err.contains("vote.sync on a predicate that depends on tensor data"),
        "{err}"
    );
    let lt10 = "setp.lt.u32 %p1, %r1, 10;";
    assert!(
        run(lt10, "vote.ballot.b32 %r2, %p1;")
            .unwrap_err()
            .contains("without .sync")
    );
    assert!(run(lt10, "vote.sync.any.b32 %r2, %p1, -1;").is_err());
    // A mask naming lanes that do not vote: a collective mismatch finding, not a result.
    let partial = run(lt10, "@%p1 vote.sync.ballot.b32 %r2, %p1, -1;").unwrap_err();
    assert!(partial.contains("collective"), "{partial}");
}
