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
    ] {
        let err = symbolic(&text).expect_err(what);
        assert!(
            err.contains("line 20") && err.contains("depends on tensor data"),
            "{what}: {err}"
        );
    }
    let err = symbolic(&ptx(sat, scale, magic, 22)).expect_err("shift 22");
    assert!(
        err.contains("line 20") && err.contains("outside its range reduction"),
        "shift 22: {err}"
    );
}

/// The reading holds only for the whole range reduction: the floor `j` must come from
/// `fma.rm`, and the `2^j` built from its bits must be multiplied by the `2^-j` of that same
/// rounded `j`. Each near miss is refused at the line where it leaves the pattern.
#[test]
fn partial_range_reductions_are_refused_with_their_line() {
    let (sat, scale, magic, shift) = NVCC;
    let nvcc = ptx(sat, scale, magic, shift);
    let swap = |from: &str, to: &str| {
        assert!(nvcc.contains(from), "{from}");
        nvcc.replacen(from, to, 1)
    };
    for (what, text, line, msg) in [
        (
            // Round to nearest: not the floor the bits are read as; no reading at all.
            "fma.rn for j",
            swap("fma.rm.f32 %f4", "fma.rn.f32 %f4"),
            20,
            "depends on tensor data",
        ),
        (
            // 2^j with nothing subtracting j: 2^(floor(252 t) - 126) is no real term.
            "no compensation",
            swap(
                "ex2.approx.ftz.f32 %f10, %f8",
                "ex2.approx.ftz.f32 %f10, %f1",
            ),
            23,
            "outside its range reduction",
        ),
        (
            // k from a second fma.rm of the same operands: the same real term, another
            // rounding; only the very value j may compensate 2^j.
            "compensation by another rounding",
            swap(
                "add.f32 %f5, %f4, 0fCB40007F;",
                "fma.rm.f32 %f11, %f3, 0f437C0000, 0f4B400001;\n    add.f32 %f5, %f11, 0fCB40007F;",
            ),
            24,
            "outside its range reduction",
        ),
        (
            // r = x log2 e + k: 2^j 2^j, not 2^j 2^-j.
            "same sign",
            swap("neg.f32 %f6, %f5;", "mov.f32 %f6, %f5;"),
            23,
            "outside its range reduction",
        ),
        (
            // k = floor(...) - 126 stored as a value: the floor has no real reading.
            "k stored",
            swap("st.global.f32 [%rd2], %f11;", "st.global.f32 [%rd2], %f5;"),
            24,
            "outside its range reduction",
        ),
        (
            // k subtracted twice.
            "j twice",
            swap("neg.f32 %f6, %f5;", "sub.f32 %f6, %f5, %f5;"),
            16,
            "outside its range reduction",
        ),
    ] {
        let err = symbolic(&text).expect_err(what);
        assert!(
            err.contains(&format!("line {line}:")) && err.contains(msg),
            "{what}: {err}"
        );
    }
}
