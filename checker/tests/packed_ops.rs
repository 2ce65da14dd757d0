//! Float instruction forms beyond the scalar core: packed half arithmetic (`add.f16x2`,
//! `fma.rn.bf16x2`, ...) and saturation (`cvt.sat`): which forms lower and which are refused.
//! (Hand-written PTX: one instruction per case; the kernels kernels/dtype/axpy_h2*,
//! axpy_bf16x2_fma* and kernels/gelu/hardswish_sat* exercise the semantics end to end.)

use kcert_checker::{lower, ptx};

fn lowers(inst: &str) -> Result<(), String> {
    let text = format!(
        ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{{\n    \
         .reg .b32 %r<4>;\n    .reg .f32 %f<3>;\n    .reg .b16 %h<2>;\n    .reg .s32 %s<2>;\n    mov.f32 %f1, 0f00000000;\n    mov.b32 %r1, 0;\n    mov.b32 %r2, 0;\n    mov.b32 %r3, 0;\n    \
         {inst}\n    ret;\n}}\n"
    );
    let module = ptx::parse(&text).map_err(|e| e.to_string())?;
    lower::lower(&module, "k")
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[test]
fn packed_arithmetic_lowers() {
    for inst in [
        "add.f16x2 %r0, %r1, %r2;",
        "add.rn.ftz.bf16x2 %r0, %r1, %r2;",
        "sub.f16x2 %r0, %r1, %r2;",
        "mul.rn.bf16x2 %r0, %r1, %r2;",
        "min.f16x2 %r0, %r1, %r2;",
        "max.bf16x2 %r0, %r1, %r2;",
        "fma.rn.f16x2 %r0, %r1, %r2, %r3;",
        "fma.rn.bf16x2 %r0, %r1, %r2, %r3;",
        "neg.f16x2 %r0, %r1;",
        "abs.bf16x2 %r0, %r1;",
    ] {
        assert_eq!(lowers(inst), Ok(()), "{inst}");
    }
}

#[test]
fn clamping_and_unmodelled_packed_forms_are_refused() {
    // .sat and .relu clamp (not real arithmetic); there is no packed half division; .lo/.hi
    // make no sense on floats.
    for inst in [
        "fma.rn.sat.f16x2 %r0, %r1, %r2, %r3;",
        "fma.rn.relu.bf16x2 %r0, %r1, %r2, %r3;",
        "add.sat.f16x2 %r0, %r1, %r2;",
        "div.rn.f16x2 %r0, %r1, %r2;",
        "mad.lo.f16x2 %r0, %r1, %r2, %r3;",
    ] {
        assert!(lowers(inst).is_err(), "{inst} must be refused");
    }
}

#[test]
fn saturation_lowers_only_as_a_clamp_in_its_own_type() {
    assert_eq!(lowers("cvt.sat.f32.f32 %f0, %f1;"), Ok(()));
    assert_eq!(lowers("cvt.ftz.sat.f32.f32 %f0, %f1;"), Ok(()));
    for inst in [
        "cvt.rn.sat.f16.f32 %h0, %f1;",
        "cvt.rni.sat.s32.f32 %s0, %f1;",
        "add.sat.f32 %f0, %f1, %f1;",
    ] {
        assert!(lowers(inst).is_err(), "{inst} must be refused");
    }
}

#[test]
fn refusals_name_the_construct() {
    let why = |inst: &str| lowers(inst).unwrap_err();
    assert!(
        why("cvt.rn.sat.f16.f32 %h0, %f1;").contains("cvt.sat"),
        "{}",
        why("cvt.rn.sat.f16.f32 %h0, %f1;")
    );
    assert!(why("cvt.rni.sat.s32.f32 %s0, %f1;").contains("cvt.sat"));
    assert!(why("div.rn.f16x2 %r0, %r1, %r2;").contains("div"));
    assert!(
        why("fma.rn.relu.bf16x2 %r0, %r1, %r2, %r3;").contains("relu"),
        "{}",
        why("fma.rn.relu.bf16x2 %r0, %r1, %r2, %r3;")
    );
}

#[test]
fn integer_product_modes_on_scalar_floats_are_refused() {
    // `mad.lo.f32` is not PTX; it used to lower as an exact fma, giving meaning to invalid text.
    for inst in [
        "fma.rn.f32 %f0, %f1, %f1, %f1;",
        "mad.rn.f32 %f0, %f1, %f1, %f1;",
        "mul.rn.f32 %f0, %f1, %f1;",
    ] {
        assert_eq!(lowers(inst), Ok(()), "{inst}");
    }
    for inst in [
        "mad.lo.f32 %f0, %f1, %f1, %f1;",
        "fma.wide.f32 %f0, %f1, %f1, %f1;",
        "mul.lo.f32 %f0, %f1, %f1;",
        "mul.hi.f32 %f0, %f1, %f1;",
        "mul.wide.f32 %f0, %f1, %f1;",
        "add.lo.f32 %f0, %f1, %f1;",
        "mul.lo.f16x2 %r0, %r1, %r2;",
    ] {
        let e = lowers(inst).expect_err(inst);
        assert!(e.contains(".lo/.hi/.wide"), "{inst}: {e}");
    }
}
