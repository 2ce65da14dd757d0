//! Pointer provenance: an address is one region's start plus an offset computed from integers
//! alone, and every access must stay inside that region. Adding offsets, differences and
//! comparisons within one region, window conversions and spills keep it; every other
//! operation on an address is refused, because its result would depend on where memory is
//! placed. (Hand-written PTX, a few instructions per case; kernels/misc/ptr_offset_param* and
//! smem_two_arrays* run nvcc's real output.)

mod common;

/// Runs `body` between a prologue that leaves `%rd1` = x, `%rd2` = out, `%rd3` = the scalar
/// 8, `%rd4` = 4 * tid and `%rd9` = x + 4 * tid, and an epilogue that copies the f32 at
/// `[%rd9]` to out[tid]. Shared variables `sa`, `sb` (32 floats each) and a local `depot`
/// (16 bytes) are declared. Returns the names of the findings (empty: safe), or the error of
/// a run that was refused.
fn run(body: &str) -> Result<Vec<&'static str>, String> {
    let text = format!(
        r#".version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u64 p2)
{{
    .reg .pred %p<4>;
    .reg .f32 %f<4>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<12>;
    .shared .align 4 .b8 sa[128];
    .shared .align 4 .b8 sb[128];
    .local .align 8 .b8 depot[16];
    ld.param.u64 %rd1, [p0];
    ld.param.u64 %rd2, [p1];
    ld.param.u64 %rd3, [p2];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd4, %r1, 4;
    add.s64 %rd9, %rd1, %rd4;
    {body}
    ld.global.f32 %f1, [%rd9];
    add.s64 %rd10, %rd2, %rd4;
    st.global.f32 [%rd10], %f1;
    ret;
}}
"#
    );
    let spec = r#"ptx = "k.ptx"
entry = "k"
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
dtype = "f32"
shape = [32]
role = "out"
[[params]]
kind = "scalar"
dtype = "u64"
value = 8
"#;
    let o = common::run_symbolic("k.ptx", &text, spec)?;
    Ok(o.findings.iter().map(|f| f.kind.name()).collect())
}

/// The error of a refused run (panics when the run was not refused).
fn refused(body: &str) -> String {
    match run(body) {
        Err(e) => e,
        Ok(f) => panic!("{body}: not refused (findings {f:?})"),
    }
}

/// Stages x[tid] in sa[tid] and sb[tid], waits at a barrier, then reads the f32 at the
/// shared address `%r9` (set by `body`; `%r4` = sa + 4 * tid, `%r6` = sb + 4 * tid) through
/// a generic address into `%f1`, stored to out[tid] as [`run`] does.
fn shared(body: &str) -> Result<Vec<&'static str>, String> {
    run(&format!(
        "ld.global.f32 %f2, [%rd9];
    mov.u32 %r2, sa;
    shl.b32 %r3, %r1, 2;
    add.s32 %r4, %r2, %r3;
    mov.u32 %r5, sb;
    add.s32 %r6, %r5, %r3;
    st.shared.f32 [%r4], %f2;
    st.shared.f32 [%r6], %f2;
    bar.sync 0;
    mov.u32 %r9, %r4;
    {body}
    cvt.u64.u32 %rd7, %r9;
    cvta.shared.u64 %rd8, %rd7;
    ld.f32 %f3, [%rd8];
    cvta.to.global.u64 %rd9, %rd9;"
    ))
}

#[test]
fn offsets_differences_and_comparisons_within_one_region_are_kept() {
    let safe: Vec<&str> = vec![];
    assert_eq!(run(""), Ok(safe.clone()));
    for body in [
        // nvcc's address arithmetic: mad.wide with the pointer as addend, cvta.to.global.
        "mad.wide.u32 %rd9, %r1, 4, %rd1;",
        "cvta.to.global.u64 %rd5, %rd1;\n    add.s64 %rd9, %rd5, %rd4;",
        // An offset added first, then subtracted again; an offset on the left.
        "add.s64 %rd5, %rd9, %rd3;\n    sub.s64 %rd9, %rd5, %rd3;",
        "add.s64 %rd9, %rd4, %rd1;",
        // The distance between two addresses of x is a plain integer.
        "add.s64 %rd5, %rd1, 128;\n    sub.s64 %rd6, %rd5, %rd9;\n    sub.s64 %rd9, %rd5, %rd6;",
        // Comparing two addresses of x; selp and mov copy addresses.
        "add.s64 %rd5, %rd1, 128;\n    setp.lt.u64 %p1, %rd9, %rd5;\n    selp.b64 %rd9, %rd9, %rd1, %p1;",
        // Equality is exact even outside the region (offsets equal mod 2^64).
        "sub.s64 %rd5, %rd1, %rd3;\n    setp.eq.u64 %p1, %rd5, %rd1;",
        "mov.b64 %rd5, %rd9;\n    mov.b64 %rd9, %rd5;",
        // A spill to local memory and back, whole.
        "mov.u64 %rd5, depot;\n    st.local.u64 [%rd5], %rd9;\n    ld.local.u64 %rd9, [%rd5];",
    ] {
        assert_eq!(run(body), Ok(safe.clone()), "{body}");
    }
    assert_eq!(shared(""), Ok(safe.clone()));
    assert_eq!(shared("add.s32 %r9, %r6, 0;"), Ok(safe.clone()));
}

#[test]
fn operations_whose_result_depends_on_the_layout_are_refused() {
    for body in [
        "mul.lo.s64 %rd9, %rd9, 1;",
        "shl.b64 %rd9, %rd9, 0;",
        "shr.u64 %rd9, %rd9, 0;",
        "and.b64 %rd9, %rd9, -1;",
        "or.b64 %rd9, %rd9, 0;",
        "xor.b64 %rd9, %rd9, 0;",
        "not.b64 %rd5, %rd9;",
        "neg.s64 %rd5, %rd9;",
        "mul.wide.u32 %rd5, %r1, 4;\n    mad.lo.s64 %rd9, %rd9, 1, %rd5;",
        "mad.hi.u64 %rd9, %rd4, 1, %rd9;",
        // Two addresses: a sum, the difference of two regions, a comparison of two regions.
        "add.s64 %rd9, %rd9, %rd2;",
        "sub.s64 %rd5, %rd2, %rd1;\n    add.s64 %rd9, %rd9, %rd5;",
        "setp.lt.u64 %p1, %rd9, %rd2;",
        // Comparing an address with a plain integer (a null check, a crafted bound).
        "setp.eq.u64 %p1, %rd9, 0;",
        "setp.lt.u64 %p1, %rd9, %rd3;",
        // An ordered comparison with an address outside its region: x - 8 < x wraps around
        // 2^64 in some layouts and not in others (Lean: Provenance.cmp_branch_differs).
        "sub.s64 %rd5, %rd1, %rd3;\n    setp.lt.u64 %p1, %rd5, %rd1;",
        "add.s64 %rd5, %rd1, 132;\n    setp.gt.u64 %p1, %rd5, %rd9;",
        // Conversions: to a float, truncating a global address, halves.
        "cvt.rn.f32.u64 %f2, %rd9;",
        "cvt.u32.u64 %r5, %rd9;",
        "mov.b64 {%r5, %r6}, %rd9;",
        "mov.u32 %r5, sa;\n    mov.b64 %rd5, {%r5, %r5};",
        // Part of a pointer parameter.
        "ld.param.u32 %r5, [p0];",
        // A shuffle of an address to another lane, a guard or a barrier id from one.
        "mov.u32 %r5, sa;\n    shfl.sync.idx.b32 %r6, %r5, 0, 31, -1;",
        "mov.u32 %r5, sa;\n    bar.sync %r5;",
        // A shared address compared with, or subtracted from, its own generic form.
        "mov.u64 %rd5, sa;\n    cvta.shared.u64 %rd6, %rd5;\n    setp.lt.u64 %p1, %rd5, %rd6;",
        "mov.u64 %rd5, sa;\n    cvta.shared.u64 %rd6, %rd5;\n    sub.s64 %rd7, %rd6, %rd5;",
        // A generic (window) address truncated to 32 bits.
        "mov.u64 %rd5, sa;\n    cvta.shared.u64 %rd6, %rd5;\n    cvt.u32.u64 %r5, %rd6;",
        // Storing an address to global memory.
        "st.global.u64 [%rd2], %rd1;",
        // A 32-bit shared address that wrapped below 0, widened: 2^32 - 16 + sa here, sa - 16
        // where sa sits at 16 or more (Lean: Provenance2.zext_eq_differs, sext_eq_differs).
        "mov.u32 %r5, sa;\n    sub.u32 %r6, %r5, 16;\n    cvt.u64.u32 %rd5, %r6;",
        "mov.u32 %r5, sa;\n    add.u32 %r6, %r5, 2147483640;\n    cvt.s64.s32 %rd5, %r6;",
        // Moving an address between its own space and a generic window by arithmetic with
        // kcert's window constant, not cvta (Lean: Provenance2.window_const_eq_differs).
        "mov.u64 %rd5, sa;\n    add.s64 %rd7, %rd5, 9151314442816847872;",
        "mov.u64 %rd5, sa;\n    cvta.shared.u64 %rd6, %rd5;\n    sub.s64 %rd7, %rd6, 9151314442816847872;",
        "mov.u32 %r5, sa;\n    cvt.u64.u32 %rd5, %r5;\n    mov.u64 %rd6, 9151314442816847872;\n    mad.lo.s64 %rd7, %rd6, 1, %rd5;",
    ] {
        let e = refused(body);
        assert!(e.contains("address"), "{body}: {e}");
    }
    // The order of two 64-bit addresses in 32 bits (their low words wrap apart where a
    // region's start is not a multiple of 2^32): ptxas rejects the operands, so does the
    // lowering, before the executor's own refusal is reached.
    let e = refused("add.s64 %rd5, %rd9, 4;\n    setp.lt.u32 %p1, %rd9, %rd5;");
    assert!(e.contains("invalid PTX") && e.contains("%rd9"), "{e}");
}

#[test]
fn partial_reloads_of_a_spilled_address_are_refused() {
    // The low and the high word: each is part of the address, and the message says so.
    for offset in ["", "+4"] {
        let e = refused(&format!(
            "mov.u64 %rd5, depot;\n    st.local.u64 [%rd5], %rd9;\n    ld.local.u32 %r5, [%rd5{offset}];"
        ));
        assert!(e.contains("part of a stored address"), "{offset}: {e}");
    }
}

#[test]
fn accesses_outside_the_region_of_origin_are_out_of_bounds() {
    // The bits of x's start in kcert's layout, written as a literal: derived from no region.
    assert_eq!(
        run("mov.u64 %rd9, 68719476736;\n    add.s64 %rd9, %rd9, %rd4;"),
        Ok(vec!["out_of_bounds"])
    );
    // x + 2^36 is where kcert places out; x + (2^36 + 4 t) read through a scalar offset.
    assert_eq!(
        run("shl.b64 %rd5, %rd3, 33;\n    add.s64 %rd9, %rd9, %rd5;"),
        Ok(vec!["out_of_bounds"])
    );
    // Past the end of x by one element.
    assert_eq!(run("add.s64 %rd9, %rd9, 4;"), Ok(vec!["out_of_bounds"]));
    // Read in the shared space: sa + 128 + 4 t is sb[t] in kcert's layout, outside sa; sb - 4
    // + 4 t is before sb (sa[t - 1] in kcert's layout).
    for (var, step) in [
        ("sa", "add.s32 %r9, %r6, 128;"),
        ("sb", "sub.s32 %r9, %r6, 4;"),
    ] {
        let body = format!(
            "mov.u32 %r5, {var};\n    shl.b32 %r3, %r1, 2;\n    add.s32 %r6, %r5, %r3;\n    \
             {step}\n    ld.shared.f32 %f2, [%r9];"
        );
        // (Also an uninitialized read for the lanes that land in the other, unwritten array.)
        let found = run(&body).unwrap_or_else(|e| panic!("{var}: {step}: {e}"));
        assert!(found.contains(&"out_of_bounds"), "{var}: {step}: {found:?}");
    }
    // Widened to 64 bits first they are refused: outside its region a 32-bit address may
    // have wrapped around 2^32 on the hardware (sb at 0) and not here, or the other way round.
    for step in ["add.s32 %r9, %r4, 128;", "sub.s32 %r9, %r6, 4;"] {
        assert!(shared(step).is_err_and(|e| e.contains("address")), "{step}");
    }
    // x + 4 t plus the distance from x's start to the shared window (in kcert's layout):
    // bits that read as sa[t].
    assert_eq!(
        run("mov.u64 %rd5, 9151314374097371136;\n    add.s64 %rd9, %rd9, %rd5;"),
        Ok(vec!["out_of_bounds"])
    );
}

/// Runs `body` after staging x[tid] into `%f2`, `%r5` = sa, `%r6` = sa - 4 tid (a 32-bit shared
/// address below sa for tid > 0, wrapped modulo 2^32 where sa sits low) and `%rd5` = sa as a
/// 64-bit shared address.
fn wrapped(body: &str) -> Result<Vec<&'static str>, String> {
    run(&format!(
        "ld.global.f32 %f2, [%rd9];
    mov.u32 %r5, sa;
    shl.b32 %r3, %r1, 2;
    sub.s32 %r6, %r5, %r3;
    mov.u64 %rd5, sa;
    {body}"
    ))
}

#[test]
fn a_32_bit_shared_address_wraps_and_only_the_accessed_address_must_be_inside() {
    let safe: Vec<&str> = vec![];
    // nvcc's s[31 - t]: the address sa - 4t, then [r + 124] (kernels/adversarial/address).
    for body in [
        "st.shared.f32 [%r6+124], %f2;\n    bar.sync 0;\n    ld.shared.f32 %f3, [%r6+124];",
        // Far below and back: sa - 4096 - 4t, then + 4096 + 124.
        "sub.s32 %r7, %r6, 4096;\n    st.shared.f32 [%r7+4220], %f2;",
        // Back inside the region first, then widened: the value is layout-independent.
        "add.s32 %r7, %r6, 124;\n    cvt.u64.u32 %rd7, %r7;\n    st.shared.f32 [%rd7], %f2;",
    ] {
        assert_eq!(wrapped(body), Ok(safe.clone()), "{body}");
    }
    // Near misses: one float past sa (t = 0), one before (t = 31), into sb in kcert's layout.
    for body in [
        "st.shared.f32 [%r6+128], %f2;",
        "st.shared.f32 [%r6+120], %f2;",
        "sub.s32 %r7, %r6, 4096;\n    st.shared.f32 [%r7+4224], %f2;",
        "st.shared.f32 [%r6], %f2;",
        // 64-bit registers do not wrap at 2^32: sa + 2^32 is not sa.
        "add.s64 %rd7, %rd5, 4294967296;\n    st.shared.f32 [%rd7], %f2;",
        "st.shared.f32 [%rd5+4294967296], %f2;",
    ] {
        let found = wrapped(body).unwrap_or_else(|e| panic!("{body}: {e}"));
        assert!(found.contains(&"out_of_bounds"), "{body}: {found:?}");
    }
    // Still refused while outside: widening, an ordered comparison, a generic view.
    for body in [
        "cvt.u64.u32 %rd7, %r6;",
        "add.s32 %r7, %r5, 64;\n    setp.lt.u32 %p1, %r6, %r7;",
        "cvt.u64.u32 %rd7, %r6;\n    cvta.shared.u64 %rd8, %rd7;\n    st.f32 [%rd8+124], %f2;",
    ] {
        let e = wrapped(body).expect_err(body);
        assert!(e.contains("address"), "{body}: {e}");
    }
}
