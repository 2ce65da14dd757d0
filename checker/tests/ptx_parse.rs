//! Parses real compiler output: every `.ptx` file of the kernels/ corpus, and an nvcc 13.5
//! sample kept here so the parser is exercised even before the corpus has files.

use std::path::{Path, PathBuf};

use kcert_checker::lower::{self, LowerError};
use kcert_checker::ptx::{
    self, Address, AddressBase, FloatLit, Module, Operand, ScalarType, SourceLoc, StateSpace,
    Statement,
};

/// Every `*.ptx` below `dir`, sorted, found without recursion on depth (an explicit stack).
fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "ptx") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn has_entry_with_body(m: &Module) -> bool {
    m.functions.iter().any(|f| f.is_entry && !f.body.is_empty())
}

#[test]
fn every_corpus_file_parses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let files = ptx_files(&dir);
    if files.is_empty() {
        println!(
            "note: no .ptx files under {} yet; nothing to parse",
            dir.display()
        );
        return;
    }
    let mut failures = Vec::new();
    let mut bytes = 0usize;
    let start = std::time::Instant::now();
    for path in &files {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: unreadable: {e}", path.display()));
                continue;
            }
        };
        bytes += text.len();
        match ptx::parse(&text) {
            Ok(m) if has_entry_with_body(&m) => {}
            Ok(_) => failures.push(format!("{}: no .entry with a body", path.display())),
            Err(e) => failures.push(format!(
                "{}:{}:{}: {}",
                path.display(),
                e.line,
                e.col,
                e.msg
            )),
        }
    }
    println!(
        "parsed {} PTX files ({bytes} bytes) in {:?}",
        files.len(),
        start.elapsed()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Whether `X.ptx`'s instance `X.expect.toml` expects it refused as invalid input.
fn expected_invalid(ptx: &Path) -> bool {
    std::fs::read_to_string(ptx.with_extension("expect.toml"))
        .is_ok_and(|t| t.lines().any(|l| l.trim() == "verdict = \"invalid\""))
}

/// Real compiler output is never "invalid PTX" to the lowering: it may use what the semantics
/// does not model (an honest `Unsupported`), but a rule of ours that refuses what nvcc or
/// Triton emit (operand sizes, modifiers) would turn valid kernels into errors. The exceptions
/// are instances expected `invalid`, whose PTX ptxas rejects too.
#[test]
fn no_corpus_entry_is_invalid_to_the_lowering() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let mut invalid = Vec::new();
    let mut lowered = 0usize;
    for path in ptx_files(&dir) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(module) = ptx::parse(&text) else {
            continue; // every_corpus_file_parses reports it
        };
        for f in module.functions.iter().filter(|f| f.is_entry) {
            match lower::lower(&module, &f.name) {
                Ok(_) => lowered += 1,
                // Kernels kept to be refused (kernels/adversarial: PTX that ptxas rejects).
                Err(LowerError::Invalid { .. }) if expected_invalid(&path) => {}
                Err(e @ LowerError::Invalid { .. }) => {
                    invalid.push(format!("{} {}: {e}", path.display(), f.name))
                }
                Err(_) => {}
            }
        }
    }
    println!("lowered {lowered} corpus entries");
    assert!(lowered > 0 || ptx_files(&dir).is_empty());
    assert!(invalid.is_empty(), "{}", invalid.join("\n"));
}

/// Operand sizes: PTX lets only ld, st and cvt name registers wider than their type; ptxas
/// rejects the rest, so the lowering does too, naming the line.
#[test]
fn registers_of_the_wrong_size_are_invalid() {
    let entry = |body: &str| {
        format!(
            ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n\
             .reg .pred %p<3>;\n.reg .b16 %rs<3>;\n.reg .b32 %r<5>;\n.reg .f32 %f<3>;\n\
             .reg .b64 %rd<5>;\n{body}\nret;\n}}\n"
        )
    };
    let lowers = |body: &str| {
        let m = ptx::parse(&entry(body)).expect("parses");
        lower::lower(&m, "k")
    };
    // Accepted: exact sizes, wider registers for ld/st/cvt, bit types for floats, mul.wide.
    for ok in [
        "add.s32 %r1, %r2, %r3;",
        "add.f32 %f1, %r2, %f2;",
        "mul.wide.s32 %rd1, %r1, %r2;",
        "mad.wide.u32 %rd1, %r1, 4, %rd2;",
        "shl.b64 %rd1, %rd2, %r1;",
        "cvt.u32.u16 %r1, %rs1;",
        "cvt.u16.u32 %r1, %r2;",
        "ld.param.u64 %rd1, [p];\nld.global.u8 %r1, [%rd1];\nst.global.u8 [%rd1], %rs1;",
        "setp.lt.s32 %p1, %r1, %r2;\n@%p1 add.s32 %r1, %r1, 1;",
        "mov.b32 %r1, {%rs1, %rs2};",
    ] {
        assert!(lowers(ok).is_ok(), "{ok}: {:?}", lowers(ok).err());
    }
    // Refused: a 64-bit register in a 32-bit add, a 32-bit destination of mul.wide, a narrow
    // register for a wider load, a non-predicate guard or setp destination.
    for bad in [
        "add.s32 %r1, %rd2, %r3;",
        "add.s64 %r1, %rd2, %rd3;",
        "mul.wide.s32 %r1, %r2, %r3;",
        "ld.param.u64 %rd1, [p];\nld.global.u32 %rs1, [%rd1];",
        "@%r1 add.s32 %r1, %r1, 1;",
        "setp.lt.s32 %r1, %r1, %r2;",
        "add.f32 %f1, %rd1, %f2;",
    ] {
        match lowers(bad) {
            Err(LowerError::Invalid { line, msg }) => {
                assert!(line > 0 && msg.contains("bits"), "{bad}: {msg}")
            }
            other => panic!("{bad}: expected invalid PTX, got {other:?}"),
        }
    }
}

/// `nvcc -ptx -arch=sm_80 -lineinfo` (CUDA 13.5) of a small reduction: a device function called
/// with `call.uni`, a demoted `__shared__` array, `.extern .shared`, a pointer-valued global
/// (`generic(...)+4`), `__launch_bounds__`, an inlined `__shfl_xor_sync` (`.loc ... inlined_at`),
/// inline asm with a `{ .reg .pred p; ... }` scope, and a `.section .debug_str` block.
const NVCC_SAMPLE: &str = r#"//
// Generated by NVIDIA NVVM Compiler
//
// Compiler Build ID: CL-39125733
// Cuda compilation tools, release 13.5, V13.5.37
// Based on NVVM 7.0.1
//

.version 9.5
.target sm_80
.address_size 64

.const .align 4 .b8 lut[16] = {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64};
.global .align 4 .b8 counter[8];
.global .align 8 .u64 counter_ptr = generic(counter)+4;
// _ZZ6reducePKfPfi1SE5sdata has been demoted
.extern .shared .align 16 .b8 dyn[];

.func  (.param .b32 func_retval0) _Z5scalefi(
	.param .b32 _Z5scalefi_param_0,
	.param .b32 _Z5scalefi_param_1
)
{
	.reg .f32 	%f<5>;
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<5>;
	.loc	1 6 0


	ld.param.f32 	%f1, [_Z5scalefi_param_0];
	ld.param.u32 	%r1, [_Z5scalefi_param_1];
	.loc	1 6 44
	cvt.rn.f32.s32 	%f2, %r1;
	shl.b32 	%r2, %r1, 2;
	cvt.u64.u32 	%rd1, %r2;
	and.b64  	%rd2, %rd1, 12;
	mov.u64 	%rd3, lut;
	add.s64 	%rd4, %rd3, %rd2;
	ld.const.f32 	%f3, [%rd4];
	fma.rn.f32 	%f4, %f2, %f1, %f3;
	st.param.f32 	[func_retval0+0], %f4;
	ret;

}
	// .globl	_Z6reducePKfPfi1S
.visible .entry _Z6reducePKfPfi1S(
	.param .u64 _Z6reducePKfPfi1S_param_0,
	.param .u64 _Z6reducePKfPfi1S_param_1,
	.param .u32 _Z6reducePKfPfi1S_param_2,
	.param .align 4 .b8 _Z6reducePKfPfi1S_param_3[8]
)
.maxntid 128, 1, 1
.minnctapersm 2
{
	.reg .pred 	%p<7>;
	.reg .f32 	%f<21>;
	.reg .b32 	%r<41>;
	.reg .b64 	%rd<13>;
	.loc	1 7 0
	// demoted variable
	.shared .align 4 .b8 _ZZ6reducePKfPfi1SE5sdata[512];

	ld.param.u64 	%rd1, [_Z6reducePKfPfi1S_param_0];
	ld.param.u64 	%rd2, [_Z6reducePKfPfi1S_param_1];
	ld.param.u32 	%r9, [_Z6reducePKfPfi1S_param_2];
	ld.param.u32 	%r10, [_Z6reducePKfPfi1S_param_3+4];
	ld.param.f32 	%f4, [_Z6reducePKfPfi1S_param_3];
	.loc	1 11 3
	mov.u32 	%r1, %ntid.x;
	mov.u32 	%r11, %ctaid.x;
	.loc	1 10 3
	mov.u32 	%r2, %tid.x;
	.loc	1 11 3
	mad.lo.s32 	%r3, %r11, %r1, %r2;
	.loc	1 12 3
	setp.ge.s32 	%p1, %r3, %r9;
	mov.f32 	%f20, 0fF149F2CA;
	@%p1 bra 	$L__BB1_2;

	.loc	1 0 3
	cvta.to.global.u64 	%rd3, %rd1;
	.loc	1 12 3
	mul.wide.s32 	%rd4, %r3, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.nc.f32 	%f20, [%rd5];

$L__BB1_2:
	shl.b32 	%r12, %r2, 2;
	mov.u32 	%r13, _ZZ6reducePKfPfi1SE5sdata;
	add.s32 	%r4, %r13, %r12;
	st.shared.f32 	[%r4], %f20;
	.loc	1 13 3
	bar.sync 	0;
	.loc	1 14 3
	shr.u32 	%r40, %r1, 1;
	setp.eq.s32 	%p2, %r40, 0;
	@%p2 bra 	$L__BB1_6;

$L__BB1_3:
	.loc	1 15 5
	setp.ge.s32 	%p3, %r2, %r40;
	@%p3 bra 	$L__BB1_5;

	ld.shared.f32 	%f6, [%r4];
	shl.b32 	%r14, %r40, 2;
	add.s32 	%r15, %r4, %r14;
	ld.shared.f32 	%f7, [%r15];
	max.f32 	%f8, %f6, %f7;
	st.shared.f32 	[%r4], %f8;

$L__BB1_5:
	.loc	1 16 5
	bar.sync 	0;
	.loc	1 14 3
	shr.u32 	%r40, %r40, 1;
	setp.ne.s32 	%p4, %r40, 0;
	@%p4 bra 	$L__BB1_3;

$L__BB1_6:
	.loc	1 18 3
	ld.shared.f32 	%f9, [%r4];
	.loc	1 19 3
	.loc	2 448 9, function_name $L__info_string0, inlined_at 1 19 3
	mov.b32 	%r18, %f9;
	mov.u32 	%r19, 31;
	mov.u32 	%r20, 16;
	mov.u32 	%r21, -1;
	shfl.sync.bfly.b32 	%r22|%p5, %r18, %r20, %r19, %r21;
	.loc	2 449 2, function_name $L__info_string0, inlined_at 1 19 3
	mov.b32 	%f10, %r22;
	.loc	1 19 3
	add.f32 	%f3, %f9, %f10;
	.loc	1 21 3
	// begin inline asm
	{ .reg .pred p; setp.ne.u32 p, %r9, 0; mov.u32 %r16, %laneid; @p add.u32 %r16, %r16, 1; }
	// end inline asm
	.loc	1 22 3
	setp.ne.s32 	%p6, %r2, 0;
	@%p6 bra 	$L__BB1_8;

	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.f32 	[param0+0], %f3;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r10;
	.param .b32 retval0;
	call.uni (retval0), 
	_Z5scalefi, 
	(
	param0, 
	param1
	);
	ld.param.f32 	%f11, [retval0+0];
	} // callseq 0
	add.f32 	%f12, %f4, %f11;
	cvt.rn.f32.u32 	%f13, %r16;
	add.f32 	%f14, %f12, %f13;
	cvta.to.global.u64 	%rd6, %rd2;
	mul.wide.u32 	%rd7, %r11, 4;
	add.s64 	%rd8, %rd6, %rd7;
	st.global.f32 	[%rd8], %f14;

$L__BB1_8:
	.loc	1 23 3
	mul.f32 	%f15, %f3, 0f3FB8AA3B;
	ex2.approx.f32 	%f16, %f15;
	mov.u32 	%r26, dyn;
	add.s32 	%r27, %r26, %r12;
	st.shared.f32 	[%r27], %f16;
	.loc	1 24 3
	.loc	2 111 3, function_name $L__info_string1, inlined_at 1 24 3
	bar.warp.sync 	-1;
	.loc	1 25 3
	add.s32 	%r28, %r2, 1;
	shr.s32 	%r29, %r28, 31;
	shr.u32 	%r30, %r29, 27;
	add.s32 	%r31, %r28, %r30;
	and.b32  	%r32, %r31, 1073741792;
	sub.s32 	%r33, %r28, %r32;
	shl.b32 	%r34, %r33, 2;
	add.s32 	%r35, %r26, %r34;
	ld.global.u64 	%rd9, [counter_ptr];
	ld.u32 	%r36, [%rd9];
	cvt.rn.f32.s32 	%f17, %r36;
	ld.shared.f32 	%f18, [%r35];
	add.f32 	%f19, %f18, %f17;
	cvta.to.global.u64 	%rd10, %rd2;
	mul.wide.s32 	%rd11, %r3, 4;
	add.s64 	%rd12, %rd10, %rd11;
	st.global.f32 	[%rd12], %f19;
	.loc	1 26 1
	ret;

}
	.file	1 "/tmp/kcert_sample/sample.cu"
	.file	2 "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/nvidia/cu13/bin/../include/sm_30_intrinsics.hpp"
	.section	.debug_str
	{
$L__info_string0:
.b8 95,90,78,51,52,95,73,78,84,69,82,78,65,76,95,52,100,56,52,48,56,100,52,95,57,95,115,97,109,112,108,101,95,99,117,95,108,117,116,49
.b8 53,95,95,115,104,102,108,95,120,111,114,95,115,121,110,99,69,106,102,105,105,0
$L__info_string1:
.b8 95,90,78,51,52,95,73,78,84,69,82,78,65,76,95,52,100,56,52,48,56,100,52,95,57,95,115,97,109,112,108,101,95,99,117,95,108,117,116,49
.b8 48,95,95,115,121,110,99,119,97,114,112,69,106,0

	}
"#;

#[test]
fn nvcc_sample_parses_to_the_expected_tree() {
    let m = match ptx::parse(NVCC_SAMPLE) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(m.version, Some((9, 5)));
    assert_eq!(m.target, vec!["sm_80"]);
    assert_eq!(m.address_size, Some(64));
    assert_eq!(m.files.len(), 2);
    assert_eq!(m.files[0].path, "/tmp/kcert_sample/sample.cu");

    let names: Vec<_> = m.vars.iter().map(|v| (v.space, v.name.as_str())).collect();
    assert_eq!(
        names,
        vec![
            (StateSpace::Const, "lut"),
            (StateSpace::Global, "counter"),
            (StateSpace::Global, "counter_ptr"),
            (StateSpace::Shared, "dyn"),
        ]
    );
    assert_eq!(m.vars[0].init.len(), 16);
    assert_eq!(
        m.vars[2].init,
        vec![Operand::GenericAddress(Address {
            base: AddressBase::Symbol("counter".into()),
            offset: 4
        })]
    );
    assert!(m.vars[3].is_extern && m.vars[3].dims == vec![None]);

    assert_eq!(m.functions.len(), 2);
    let f = &m.functions[0];
    assert!(!f.is_entry);
    assert_eq!(
        (f.name.as_str(), f.returns.len(), f.params.len()),
        ("_Z5scalefi", 1, 2)
    );

    let k = &m.functions[1];
    assert!(k.is_entry && has_entry_with_body(&m));
    assert_eq!(k.params[3].ty, ScalarType::B8);
    assert_eq!(
        (k.params[3].align, k.params[3].array_len),
        (Some(4), Some(8))
    );
    let dirs: Vec<_> = k
        .directives
        .iter()
        .map(|d| (d.name.as_str(), d.args.clone()))
        .collect();
    assert_eq!(
        dirs,
        vec![("maxntid", vec![128, 1, 1]), ("minnctapersm", vec![2])]
    );

    let instrs: Vec<_> = k
        .body
        .iter()
        .filter_map(|s| match s {
            Statement::Instr(i) => Some(i),
            _ => None,
        })
        .collect();
    let shfl = instrs.iter().find(|i| i.opcode == "shfl").expect("a shfl");
    assert_eq!(shfl.mods, vec!["sync", "bfly", "b32"]);
    assert_eq!(
        shfl.operands[0],
        Operand::Vector(vec![
            Operand::Reg("%r22".into()),
            Operand::Reg("%p5".into())
        ])
    );
    assert_eq!(
        shfl.loc,
        Some(SourceLoc {
            file: 2,
            line: 448,
            col: 9
        })
    );
    let tid = instrs
        .iter()
        .find(|i| i.operands.get(1) == Some(&Operand::Reg("%tid.x".into())));
    assert!(tid.is_some(), "mov from %tid.x");
    let neg_inf = instrs
        .iter()
        .any(|i| i.operands.get(1) == Some(&Operand::Float(FloatLit::F32(0xF149_F2CA))));
    assert!(neg_inf, "mov.f32 of 0fF149F2CA");
    let call = instrs.iter().find(|i| i.opcode == "call").expect("a call");
    assert_eq!(call.operands.len(), 3);
    // The inline-asm predicate `p` is a register, not a symbol; declared in a nested scope, it
    // is renamed `p#k#` there, in its declaration and in every use inside the scope.
    let guarded = instrs
        .iter()
        .find(|i| i.guard.as_ref().is_some_and(|g| g.reg.starts_with("p#")))
        .expect("an instruction guarded by p");
    assert_eq!(guarded.opcode, "add");
    let scoped = guarded.guard.as_ref().map(|g| g.reg.clone());
    let setp = instrs
        .iter()
        .find(|i| {
            i.opcode == "setp"
                && i.operands
                    .first()
                    .is_some_and(|o| matches!(o, Operand::Reg(r) if Some(r) == scoped.as_ref()))
        })
        .expect("the setp writing the same scoped p");
    assert_eq!(setp.operands[1], Operand::Reg("%r9".into()));
    assert!(k.body.iter().any(
        |s| matches!(s, Statement::Reg(r) if Some(&r.name) == scoped.as_ref() && r.ty == ScalarType::Pred)
    ));
    let labels = k
        .body
        .iter()
        .filter(|s| matches!(s, Statement::Label { .. }))
        .count();
    assert_eq!(labels, 5);
    let shared = k.body.iter().any(|s| {
        matches!(s, Statement::Var(v) if v.space == StateSpace::Shared && v.dims == vec![Some(512)])
    });
    assert!(shared, "the demoted __shared__ array");
}
