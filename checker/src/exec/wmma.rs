//! `wmma` (PTX ISA 9.7.14.4): warp-collective load, multiply-accumulate and store of 16x16
//! matrices whose elements PTX spreads over the lanes' registers in an *unspecified* layout.
//!
//! No layout is assumed. A load keeps the whole matrix in the run's fragment table and gives
//! each lane's registers opaque handles ([`Val::Frag`]); `wmma.mma` and `wmma.store` accept only
//! the handles of one fragment, each in its own lane and register slot, and every other
//! instruction refuses them (`mov` copies them). A kernel that runs under these rules never
//! observes which lane holds which element, so it computes the same result under every layout
//! the hardware may use. The one other accumulator `wmma.mma` accepts is a uniform fill (every
//! register of every lane holds one value): that matrix is the same under every layout too.
//!
//! Which lane touches which memory element is unspecified as well, so every access of a load or
//! store is made on behalf of every lane of the warp: reads by all of them, and writes of one
//! value by all of them (benign among themselves, while every later access must be ordered after
//! each of them). A race that some layout would have is therefore never missed.

use super::access::{Access, Ptr};
use super::value::FragRef;
use super::{Cta, ExecError, Finding, FindingKind, Machine, Val, WarpWait};
use crate::lower::{FloatTy, FragRole, MatLayout, Op, Reg, Space};
use crate::ptx::Line;

/// Rows and columns of every `m16n16k16` operand.
const DIM: usize = 16;

/// The matrix behind a fragment's handles.
#[derive(Debug, Clone)]
pub(crate) struct Fragment {
    role: FragRole,
    /// The memory layout an A/B fragment was loaded with, which `wmma.mma` must name (PTX:
    /// the register contents depend on it); `None` for accumulators, whose registers do not.
    layout: Option<MatLayout>,
    ty: FloatTy,
    /// Row-major, `DIM * DIM`.
    elems: Vec<Val>,
}

/// What a `wmma.mma` operand's registers hold across the warp.
enum Operand {
    Fragment(u32),
    /// The same value in every register of every lane.
    Uniform(Val),
}

fn unsupported(line: Line, what: String) -> ExecError {
    ExecError::Unsupported { line, what }
}

/// Byte address of element (`r`, `c`) of a matrix at `p` with leading-dimension `stride`.
fn element_address(p: u64, layout: MatLayout, stride: u64, bytes: u64, r: u64, c: u64) -> u64 {
    let (lead, along) = match layout {
        MatLayout::Row => (r, c),
        MatLayout::Col => (c, r),
    };
    p.wrapping_add(
        lead.wrapping_mul(stride)
            .wrapping_add(along)
            .wrapping_mul(bytes),
    )
}

impl Machine<'_> {
    /// Completes a `wmma` instruction whose 32 lanes have all arrived.
    pub(super) fn complete_wmma(
        &mut self,
        cta: &mut Cta,
        waits: &[(usize, WarpWait)],
        w0: usize,
    ) -> Result<(), ExecError> {
        let (line, op) = self.aligned_collective(waits, "wmma")?;
        let pc = waits[0].1.pc;
        match op {
            Op::WmmaLoad {
                role,
                layout,
                ty,
                space,
                dsts,
                ..
            } => {
                let (p, stride) = Self::uniform_address(waits, line)?;
                let bytes = u64::from(ty.bits() / 8);
                let frag_bytes = 4 * dsts.len() as u64;
                let mut elems = vec![Val::Undef; DIM * DIM];
                if self.rows_aligned(
                    cta,
                    waits[0].0,
                    (p.bits, stride, bytes),
                    frag_bytes,
                    pc,
                    space,
                ) {
                    for (i, slot) in elems.iter_mut().enumerate() {
                        let (r, c) = ((i / DIM) as u64, (i % DIM) as u64);
                        let a = p.with_bits(element_address(p.bits, layout, stride, bytes, r, c));
                        for (th, _) in waits {
                            *slot = self.access(cta, *th, space, a, bytes, Access::Load, pc)?;
                        }
                    }
                }
                let layout = (role != FragRole::Acc).then_some(layout);
                self.give_fragment(cta, waits, w0, &dsts, role, layout, ty, elems);
            }
            Op::WmmaMma {
                a_layout,
                b_layout,
                ab,
                dsts,
                a,
                b,
                c,
            } => {
                let a = self.input_fragment(cta, waits, w0, &a, FragRole::A, a_layout, ab, line)?;
                let b = self.input_fragment(cta, waits, w0, &b, FragRole::B, b_layout, ab, line)?;
                let c = match self.operand(cta, waits, w0, &c, line, "C")? {
                    Operand::Uniform(v) => vec![v; DIM * DIM],
                    Operand::Fragment(id) => self.accumulator(id).ok_or_else(|| {
                        unsupported(
                            line,
                            "wmma.mma operand C is not an f32 accumulator fragment".into(),
                        )
                    })?,
                };
                let d = self.multiply_accumulate(ab, &a, &b, &c, (DIM, DIM, DIM), line)?;
                self.give_fragment(cta, waits, w0, &dsts, FragRole::Acc, None, FloatTy::F32, d);
            }
            Op::WmmaStore {
                layout,
                space,
                srcs,
                ..
            } => {
                let (p, stride) = Self::uniform_address(waits, line)?;
                let elems = match self.operand(cta, waits, w0, &srcs, line, "D")? {
                    Operand::Fragment(id) => self.accumulator(id),
                    Operand::Uniform(_) => None,
                }
                .ok_or_else(|| {
                    unsupported(
                        line,
                        "wmma.store of registers that are not one f32 accumulator fragment".into(),
                    )
                })?;
                if !self.rows_aligned(cta, waits[0].0, (p.bits, stride, 4), 32, pc, space) {
                    return Ok(());
                }
                for (i, v) in elems.into_iter().enumerate() {
                    if v == Val::Undef {
                        // An element a misaligned load left undefined (already a finding).
                        continue;
                    }
                    let (r, c) = ((i / DIM) as u64, (i % DIM) as u64);
                    let a = p.with_bits(element_address(p.bits, layout, stride, 4, r, c));
                    for (th, _) in waits {
                        self.access(cta, *th, space, a, 4, Access::Store(v), pc)?;
                    }
                }
            }
            _ => {
                return Err(ExecError::Invalid {
                    line,
                    msg: "wmma collective at a non-wmma instruction".into(),
                });
            }
        }
        Ok(())
    }

    /// The matrix of fragment `id` when it is an f32 accumulator (what `wmma.mma` takes as C
    /// and `wmma.store` stores).
    fn accumulator(&self, id: u32) -> Option<Vec<Val>> {
        let f = &self.frags[id as usize];
        (f.role == FragRole::Acc && f.ty == FloatTy::F32).then(|| f.elems.clone())
    }

    /// The matrix address and stride, which PTX requires to be the same in every lane.
    fn uniform_address(waits: &[(usize, WarpWait)], line: Line) -> Result<(Ptr, u64), ExecError> {
        let of = |w: &WarpWait| match w.what {
            super::Collective::Wmma { addr, stride } => (addr, stride),
            _ => (Ptr::plain(0), 0),
        };
        let first = of(&waits[0].1);
        if waits.iter().any(|(_, w)| of(w) != first) {
            return Err(unsupported(
                line,
                "wmma with different addresses or strides across the warp (undefined in PTX)"
                    .into(),
            ));
        }
        Ok(first)
    }

    /// PTX ISA 9.7.14.4.2: every row (or column) must start at a multiple of the fragment's
    /// size in bytes. Reports a misaligned matrix once and says whether to go on.
    fn rows_aligned(
        &mut self,
        cta: &Cta,
        t: usize,
        (p, stride, bytes): (u64, u64, u64),
        frag_bytes: u64,
        pc: u32,
        space: Space,
    ) -> bool {
        let step = stride.wrapping_mul(bytes);
        if p.is_multiple_of(frag_bytes) && step.is_multiple_of(frag_bytes) {
            return true;
        }
        let site = self.site(
            cta.id,
            cta.threads[t].tid,
            pc,
            format!("accesses a wmma matrix with a row step of {step} bytes"),
        );
        self.report(Finding {
            kind: FindingKind::Misaligned,
            location: Some(format!("{} address {p:#x}", space.name())),
            space: Some(space),
            sites: vec![site],
            detail: format!(
                "every row of a wmma matrix must start at a multiple of the fragment size, \
                 {frag_bytes} bytes (PTX ISA 9.7.14.4.2)"
            ),
        });
        false
    }

    /// Records a new fragment and hands lane `l` the handle of slot `e` in register `dsts[e]`.
    #[allow(clippy::too_many_arguments)]
    fn give_fragment(
        &mut self,
        cta: &mut Cta,
        waits: &[(usize, WarpWait)],
        w0: usize,
        dsts: &[Reg],
        role: FragRole,
        layout: Option<MatLayout>,
        ty: FloatTy,
        elems: Vec<Val>,
    ) {
        let id = self.frags.len() as u32;
        self.frags.push(Fragment {
            role,
            layout,
            ty,
            elems,
        });
        for (th, _) in waits {
            let lane = (th - w0) as u8;
            for (e, d) in dsts.iter().enumerate() {
                cta.threads[*th].regs[*d as usize] = Val::Frag(FragRef {
                    id,
                    lane,
                    slot: e as u8,
                });
            }
        }
    }

    /// What the registers `regs` of every lane hold: one fragment's handles, each in its own
    /// lane and slot, or one value everywhere. Anything else would make the result depend on
    /// the layout.
    fn operand(
        &self,
        cta: &Cta,
        waits: &[(usize, WarpWait)],
        w0: usize,
        regs: &[Reg],
        line: Line,
        what: &str,
    ) -> Result<Operand, ExecError> {
        let first = cta.threads[waits[0].0].regs[regs[0] as usize];
        let all = || {
            waits.iter().flat_map(|(th, _)| {
                regs.iter()
                    .enumerate()
                    .map(move |(e, r)| (*th, e, cta.threads[*th].regs[*r as usize]))
            })
        };
        if let Val::Frag(f) = first {
            let own = all().all(|(th, e, v)| {
                v == Val::Frag(FragRef {
                    id: f.id,
                    lane: (th - w0) as u8,
                    slot: e as u8,
                })
            });
            if own {
                return Ok(Operand::Fragment(f.id));
            }
        } else if !matches!(first, Val::Undef) && all().all(|(_, _, v)| v == first) {
            return Ok(Operand::Uniform(first));
        }
        Err(unsupported(
            line,
            format!(
                "wmma operand {what} is neither one fragment (each register where wmma put it) \
                 nor one value in every register: its matrix would depend on the unspecified \
                 fragment layout"
            ),
        ))
    }

    /// The matrix of an A or B operand, which must be a fragment loaded as that operand with
    /// the layout and type this `wmma.mma` names.
    #[allow(clippy::too_many_arguments)]
    fn input_fragment(
        &self,
        cta: &Cta,
        waits: &[(usize, WarpWait)],
        w0: usize,
        regs: &[Reg],
        role: FragRole,
        layout: MatLayout,
        ty: FloatTy,
        line: Line,
    ) -> Result<Vec<Val>, ExecError> {
        let what = if role == FragRole::A { "A" } else { "B" };
        let Operand::Fragment(id) = self.operand(cta, waits, w0, regs, line, what)? else {
            return Err(unsupported(
                line,
                format!("wmma operand {what} is not a fragment loaded by wmma.load"),
            ));
        };
        let f = &self.frags[id as usize];
        if f.role != role || f.layout != Some(layout) || f.ty != ty {
            return Err(unsupported(
                line,
                format!(
                    "wmma operand {what} was loaded as {:?} {:?} {:?}, used as {role:?} {layout:?} \
                     {ty:?} (undefined in PTX)",
                    f.role, f.layout, f.ty
                ),
            ));
        }
        Ok(f.elems.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::{LowerError, lower};

    /// Lowers one instruction inside a minimal entry (a parser-level unit test: tiny
    /// hand-written PTX; the kernels are real nvcc output).
    fn lower_one(inst: &str) -> Result<Op, LowerError> {
        let text = format!(
            ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{{\n\
             .reg .b32 %r<20>;\n.reg .f32 %f<20>;\n.reg .b64 %rd<4>;\n{inst}\nret;\n}}\n"
        );
        let module = crate::ptx::parse(&text).expect("parses");
        lower(&module, "k").map(|p| p.insts[0].op.clone())
    }

    #[test]
    fn nvcc_wmma_lines_lower() {
        let text = include_str!("../../../kernels/tensorcore/matmul_wmma.ptx");
        let prog = lower(&crate::ptx::parse(text).expect("parses"), "matmul_wmma").expect("lowers");
        let ops = |f: fn(&Op) -> bool| prog.insts.iter().filter(|i| f(&i.op)).count();
        assert!(
            ops(|o| matches!(
                o,
                Op::WmmaLoad {
                    role: FragRole::A,
                    layout: MatLayout::Row,
                    ty: FloatTy::F16,
                    space: Space::Shared,
                    ..
                }
            )) > 0
        );
        assert!(
            ops(|o| matches!(
                o,
                Op::WmmaLoad {
                    role: FragRole::B,
                    ..
                }
            )) > 0
        );
        assert!(
            ops(|o| matches!(
                o,
                Op::WmmaMma {
                    a_layout: MatLayout::Row,
                    b_layout: MatLayout::Row,
                    ab: FloatTy::F16,
                    ..
                }
            )) > 0
        );
        assert_eq!(
            ops(|o| matches!(
                o,
                Op::WmmaStore {
                    layout: MatLayout::Row,
                    space: Space::Global,
                    ..
                }
            )),
            1
        );
    }

    #[test]
    fn wmma_forms_lower_or_are_refused_by_name() {
        let load = lower_one(
            "wmma.load.c.sync.aligned.col.m16n16k16.global.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, [%rd1], %r1;",
        );
        assert!(matches!(
            load,
            Ok(Op::WmmaLoad {
                role: FragRole::Acc,
                layout: MatLayout::Col,
                ty: FloatTy::F32,
                ..
            })
        ));
        let bf16 = lower_one(
            "wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};",
        );
        assert!(matches!(
            bf16,
            Ok(Op::WmmaMma {
                ab: FloatTy::Bf16,
                b_layout: MatLayout::Col,
                ..
            })
        ));
        for refused in [
            // another shape
            "wmma.load.a.sync.aligned.row.m8n32k16.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1], %r9;",
            // saturation
            "wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32.satfinite {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};",
            // f16 accumulators
            "wmma.load.c.sync.aligned.row.m16n16k16.f16 {%r1,%r2,%r3,%r4}, [%rd1], %r9;",
            // no stride operand
            "wmma.store.d.sync.aligned.row.m16n16k16.f32 [%rd1], {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};",
        ] {
            assert!(
                matches!(lower_one(refused), Err(LowerError::Unsupported { .. })),
                "{refused}: {:?}",
                lower_one(refused)
            );
        }
        // A fragment of the wrong size is ill-formed.
        let short =
            lower_one("wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1,%r2,%r3,%r4}, [%rd1], %r9;");
        assert!(
            matches!(short, Err(LowerError::Invalid { .. })),
            "{short:?}"
        );
    }

    #[test]
    fn element_addresses_follow_the_layout() {
        // Row-major: element (2, 3) of a matrix with stride 40 halves is 2 * 40 + 3 halves in.
        assert_eq!(
            element_address(1000, MatLayout::Row, 40, 2, 2, 3),
            1000 + 83 * 2
        );
        // Column-major: the column is the leading dimension.
        assert_eq!(
            element_address(1000, MatLayout::Col, 40, 2, 2, 3),
            1000 + 122 * 2
        );
    }
}
