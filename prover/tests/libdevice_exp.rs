//! libdevice `expf`'s bit-built power of two (checker/src/exec/libdevice.rs): `shl.b32` by 23 of
//! the bits of `fma.rm(cvt.sat(u), c, 0x4B400001)`, `0 <= c <= 253`, reads as `2^(j - 12583039)`;
//! every other integer use of a float's bits stays refused. (Hand-written PTX: the 13
//! instructions nvcc inlines for `expf`, with one constant or instruction changed per negative
//! case; kernels/softmax/softmax_*_expf and kernels/attention/attn_*_expf run the real thing.)

use kcert_checker::exec::{Config, Inputs, Mode, Val};

mod common;

fn ptx(sat: &str, scale: &str, magic: &str, shift: u32) -> String {
    format!(
        r#".version 8.0
.target sm_80
.address_size 64
.visible .entry e(.param .u64 p0, .param .u64 p1)
{{
    .reg .f32 %f<12>;
    .reg .b32 %r<3>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [p0];
    ld.param.u64 %rd2, [p1];
    ld.global.f32 %f1, [%rd1];
    fma.rn.f32 %f2, %f1, 0f3BBB989D, 0f3F000000;
    {sat} %f3, %f2;
    fma.rm.f32 %f4, %f3, {scale}, {magic};
    add.f32 %f5, %f4, 0fCB40007F;
    neg.f32 %f6, %f5;
    fma.rn.f32 %f7, %f1, 0f3FB8AA3B, %f6;
    fma.rn.f32 %f8, %f1, 0f32A57060, %f7;
    mov.b32 %r1, %f4;
    shl.b32 %r2, %r1, {shift};
    mov.b32 %f9, %r2;
    ex2.approx.ftz.f32 %f10, %f8;
    mul.f32 %f11, %f10, %f9;
    st.global.f32 [%rd2], %f11;
    ret;
}}
"#
    )
}

const NVCC: (&str, &str, &str, u32) = ("cvt.sat.f32.f32", "0f437C0000", "0f4B400001", 23);

const SPEC: &str = r#"ptx = "e.ptx"
entry = "e"
grid = [1, 1, 1]
block = [1, 1, 1]
dynamic_shared = 0
[[params]]
kind = "tensor"
name = "x"
dtype = "f32"
shape = [1]
role = "in"
[[params]]
kind = "tensor"
name = "out"
dtype = "f32"
shape = [1]
role = "out"
"#;

fn symbolic(text: &str) -> Result<(), String> {
    common::run_symbolic("e.ptx", text, SPEC).map(|_| ())
}

#[test]
fn nvccs_expf_runs_symbolically_and_concretely() {
    let (sat, scale, magic, shift) = NVCC;
    let text = ptx(sat, scale, magic, shift);
    assert_eq!(symbolic(&text), Ok(()));
    // Concretely the bits are the GPU's: expf(1) and expf(-3.5) to f32 accuracy.
    let (_dir, inst) = common::instance("e.ptx", &text, SPEC);
    let inst = inst.unwrap();
    for x in [1.0f32, -3.5, 10.25] {
        let mut inputs = Inputs::default();
        inputs.insert(0, vec![u64::from(x.to_bits())]);
        let o = inst
            .run(Mode::Concrete, &inputs, &Config::default())
            .unwrap();
        let Val::Bits(b) = o.outputs[&1][&0] else {
            panic!("no bits");
        };
        let y = f32::from_bits(b as u32);
        let want = x.exp();
        assert!(
            ((y - want) / want).abs() < 1e-6,
            "expf({x}) = {y}, want {want}"
        );
    }
}

#[test]
fn other_bit_tricks_stay_refused() {
    let (sat, scale, magic, shift) = NVCC;
    for (what, text) in [
        ("no clamp", ptx("mov.f32", scale, magic, shift)),
        (
            "scale 255: exponent field past 254",
            ptx(sat, "0f437F0000", magic, shift),
        ),
        ("negative scale", ptx(sat, "0fC37C0000", magic, shift)),
        ("another addend", ptx(sat, scale, "0f4B400002", shift)),
        ("shift 22", ptx(sat, scale, magic, 22)),
    ] {
        let err = symbolic(&text).expect_err(what);
        assert!(err.contains("depends on tensor data"), "{what}: {err}");
    }
}
