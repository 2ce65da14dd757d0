//! Undefined registers (issue 16): a value never written is harmless until something
//! observable depends on it. Pure operations carry it, a `selp` on a concrete predicate takes
//! the side it picks, and every sink refuses it with its line: a store, an address, a guard,
//! a shuffle, a `selp` on data. (Hand-written PTX, a few instructions around one use of the
//! never-written `%f9` / `%r9`; kernels/adversarial/undef/ runs nvcc's real idiom, and the last
//! test here mutates that real PTX.)

mod common;

const SPEC: &str = r#"ptx = "u.ptx"
entry = "u"
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
"#;

/// Runs `body` between the load of `%f1 = x[tid]` (with `%rd5` = &out[tid]) and the store of
/// `%f2` to out[tid]; `Ok(())` when the run is safe, else the error or first finding.
fn run(body: &str) -> Result<(), String> {
    run_with(body, "")
}

/// [`run`] with module-scope declarations `decls` (on PTX line 4, before the entry).
fn run_with(body: &str, decls: &str) -> Result<(), String> {
    let text = format!(
        ".version 8.0\n.target sm_80\n.address_size 64{decls}\n\
         .visible .entry u(.param .u64 p0, .param .u64 p1)\n{{\n\
         .reg .pred %p<3>;\n.reg .f32 %f<10>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<10>;\n\
         ld.param.u64 %rd1, [p0];\nld.param.u64 %rd2, [p1];\nmov.u32 %r1, %tid.x;\n\
         mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd1, %rd3;\nld.global.f32 %f1, [%rd4];\n\
         add.s64 %rd5, %rd2, %rd3;\nmov.f32 %f2, %f1;\n{body}\n\
         st.global.f32 [%rd5], %f2;\nret;\n}}\n"
    );
    let o = common::run_symbolic("u.ptx", &text, SPEC)?;
    match o.findings.first() {
        Some(f) => Err(f.to_string()),
        None => Ok(()),
    }
}

/// The error of `run(body)`, which must name the PTX line of the body's line `line` (1-based;
/// the body starts at PTX line 18, the final store is the line after it).
fn refused_at(body: &str, line: u32) -> String {
    let e = run(body).expect_err("must be refused");
    assert!(e.contains(&format!("line {}:", line + 17)), "{e}");
    e
}

#[test]
fn an_unused_undefined_value_is_fine() {
    // Arithmetic on it, a conversion, a comparison: all dropped.
    run(
        "add.f32 %f3, %f9, %f1;\nmul.f32 %f4, %f3, %f3;\ncvt.rzi.s32.f32 %r2, %f4;\n\
         setp.lt.s32 %p1, %r2, 0;\nadd.s32 %r3, %r9, 1;",
    )
    .unwrap();
    // nvcc's idiom: the selp's predicate picks the defined side.
    run("setp.eq.s32 %p1, %r1, %r1;\nadd.f32 %f3, %f9, %f1;\nselp.f32 %f2, %f1, %f3, %p1;")
        .unwrap();
}

#[test]
fn an_undefined_value_reaching_a_store_is_refused() {
    // Through arithmetic (line 1) to the store (line 2).
    let e = refused_at("add.f32 %f2, %f9, %f1;", 2);
    assert!(e.contains("never written (first read at line 18)"), "{e}");
    // A guard names the first read too.
    let e = refused_at(
        "add.s32 %r2, %r9, 1;\nsetp.eq.s32 %p1, %r2, 0;\n@%p1 mov.f32 %f2, 0f00000000;",
        3,
    );
    assert!(e.contains("first read at line 18"), "{e}");
    // The selp picks the undefined side: the near miss of the idiom.
    refused_at(
        "setp.eq.s32 %p1, %r1, %r1;\nadd.f32 %f3, %f9, %f1;\nselp.f32 %f2, %f3, %f1, %p1;",
        4,
    );
}

#[test]
fn an_undefined_value_reaching_an_address_a_guard_or_a_shuffle_is_refused() {
    // An address computed from an undefined index.
    refused_at("add.s64 %rd5, %rd5, %rd9;", 2);
    // A guard computed from an undefined register.
    refused_at("setp.eq.s32 %p1, %r9, 0;\n@%p1 mov.f32 %f2, 0f00000000;", 2);
    // A branch on it.
    refused_at("setp.eq.s32 %p1, %r9, 0;\n@%p1 bra $L__end;\n$L__end:", 2);
    // A shuffle of it.
    refused_at("shfl.sync.bfly.b32 %r2, %r9, 1, 31, -1;", 1);
}

/// printf's string constants: their addresses are undefined values, so a kernel that reads
/// through one is refused, never given the bytes of some other region.
#[test]
fn a_string_constant_read_through_its_address_is_refused() {
    let decl = " .global .align 1 .b8 $str[4] = {49, 50, 51, 0};";
    run_with("mov.u64 %rd6, $str;\ncvta.global.u64 %rd7, %rd6;", decl).unwrap();
    let e = run_with(
        "mov.u64 %rd6, $str;\ncvta.global.u64 %rd7, %rd6;\nld.global.f32 %f2, [%rd7];",
        decl,
    )
    .expect_err("refused");
    assert!(e.contains("line 20:") && e.contains("never written"), "{e}");
}

#[test]
fn a_data_dependent_select_with_an_undefined_side_is_refused() {
    refused_at(
        "setp.gt.f32 %p1, %f1, 0f00000000;\nselp.f32 %f2, %f1, %f9, %p1;",
        2,
    );
}

/// nvcc's real selp_acc with the selp's sides swapped: the first trip now keeps the undefined
/// sum. With n = 4 (one trip of the 4-way unrolled loop) it reaches the output and must be
/// refused; with n = 8 the second trip overwrites it (a wrong sum, but a defined one).
#[test]
fn the_real_idiom_with_its_sides_swapped_is_refused() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels/adversarial/undef");
    let ptx = std::fs::read_to_string(dir.join("selp_acc.ptx")).unwrap();
    let spec = std::fs::read_to_string(dir.join("selp_acc.toml"))
        .unwrap()
        .replace("selp_acc.ptx", "u.ptx")
        .replace("value = 8 ", "value = 4 ");
    assert!(spec.contains("value = 4 "));
    let o = common::run_symbolic("u.ptx", &ptx, &spec);
    assert!(
        o.as_ref().is_ok_and(|o| o.findings.is_empty()),
        "{:?}",
        o.err()
    );
    let swapped = ptx.replace(
        "selp.f32 \t%f22, %f3, %f21, %p3;",
        "selp.f32 \t%f22, %f21, %f3, %p3;",
    );
    assert_ne!(swapped, ptx, "the idiom is in the PTX");
    let e = common::run_symbolic("u.ptx", &swapped, &spec).expect_err("refused");
    assert!(e.contains("never written"), "{e}");
}
