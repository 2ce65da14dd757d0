//! Packed 16-bit floats: cuda_bf16.h widens a bfloat16 with `mov.b32 %f, {0, %h}`, which is
//! that value exactly; the same bits from an f16 are not, and must not be read as a number.
//! (Hand-written PTX: a five-instruction unit test of one lowering rule.)

use kcert_checker::exec::{Config, Mode, Val};
use kcert_checker::instance::Instance;

mod common;

const PTX: &str = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry widen(.param .u64 p0, .param .u64 p1)
{
    .reg .b16 %rs<2>;
    .reg .f32 %f<3>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [p0];
    ld.param.u64 %rd2, [p1];
    ld.global.u16 %rs1, [%rd1];
    mov.b32 %f1, {0, %rs1};
    add.f32 %f2, %f1, 0f3F800000;
    st.global.f32 [%rd2], %f2;
    ret;
}
"#;

fn instance(dtype: &str) -> (common::Scratch, Instance) {
    let spec = format!(
        r#"ptx = "widen.ptx"
entry = "widen"
grid = [1, 1, 1]
block = [1, 1, 1]
dynamic_shared = 0
[[params]]
kind = "tensor"
name = "x"
dtype = "{dtype}"
shape = [1]
role = "in"
[[params]]
kind = "tensor"
name = "out"
dtype = "f32"
shape = [1]
role = "out"
"#
    );
    let (dir, inst) = common::instance("widen.ptx", PTX, &spec);
    (dir, inst.unwrap())
}

#[test]
fn bf16_widening_is_the_value_and_f16_is_refused() {
    let (_d, bf16) = instance("bf16");
    let o = bf16
        .run(Mode::Symbolic, &Default::default(), &Config::default())
        .unwrap();
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    let (_d, f16) = instance("f16");
    let Err(err) = f16.run(Mode::Symbolic, &Default::default(), &Config::default()) else {
        panic!("an f16 half placed in the upper half of an f32 is not its value");
    };
    assert!(err.to_string().contains("packed"), "{err}");
}

#[test]
fn bf16_widening_runs_concretely() {
    let (_d, bf16) = instance("bf16");
    // 0x3fc0 is bf16 1.5; the kernel adds 1.
    let mut inputs = kcert_checker::exec::Inputs::default();
    inputs.insert(0, vec![0x3fc0]);
    let o = bf16
        .run(Mode::Concrete, &inputs, &Config::default())
        .unwrap();
    let v = o.outputs[&1][&0];
    assert_eq!(v, Val::Bits(u64::from(2.5f32.to_bits())));
}
