//! If-conversion of a forward branch on tensor data.
//!
//! Structured kernels branch on indices and scalars only (DESIGN.md), but every `erff` that
//! nvcc inlines has `@%p bra $L` on a comparison of the data: a forward branch that skips a
//! few register computations. Such a branch is the same as running the skipped instructions
//! and then choosing, per register, between the value before them (branch taken) and after them
//! (branch not taken): `select(cond, before, after)`. That is exact, so this module does it
//! when, and only when, the branch has this shape:
//!
//! - it goes forward, and the branch target is the join point: the instructions between the
//!   branch and its target are the fall-through path, the taken path is empty;
//! - every skipped instruction only computes registers: no memory access (besides `ld.param`,
//!   a constant), no barrier, no warp collective, no further branch, no exit.
//!
//! A register that differs between the two paths is merged as a `select` when it holds a
//! float on both (a float register, or an untyped one holding a real-valued term), and as
//! `(cond && taken) || (!cond && fallen)` when it is a predicate. Anything else (an integer or
//! address, a value undefined on one path, packed halves) cannot be merged: when the register
//! may be read after the join this is an `unsupported` error naming the branch's line, and
//! when it cannot be read again it is left undefined (a read would be an error, never a value).
//! Every other data-dependent branch stays `unsupported` with its line. The concrete
//! interpreter never comes here: its predicates are bits, and it takes the branch.

use super::step::Ids;
use super::{Cta, ExecError, Machine, Val};
use crate::lower::{BoolOp, FloatTy, Op, Program, Reg, Src};
use crate::term::{Node, TermId};

/// Whether `op` only reads and writes registers (the instructions an if-converted path may
/// hold). New operations are outside until they are listed here.
pub(super) fn register_only(op: &Op) -> bool {
    matches!(
        op,
        Op::Mov { .. }
            | Op::Pack { .. }
            | Op::Unpack { .. }
            | Op::CvtPack { .. }
            | Op::Int { .. }
            | Op::MulWide { .. }
            | Op::Mad { .. }
            | Op::IntUn { .. }
            | Op::Bfe { .. }
            | Op::Bfi { .. }
            | Op::Setp { .. }
            | Op::Selp { .. }
            | Op::PredLogic { .. }
            | Op::Float { .. }
            | Op::Fma { .. }
            | Op::FloatUn { .. }
            | Op::Cvt { .. }
            | Op::LdParam { .. }
            | Op::VarAddr { .. }
            | Op::Cvta { .. }
            | Op::Undef { .. }
    )
}

/// The registers `op` reads and writes, or `None` for an operation not described here (which
/// liveness then treats as reading every register: the safe side).
pub(super) fn uses(op: &Op) -> Option<(Vec<Src>, Vec<Reg>)> {
    let some = |d: &[Option<Reg>]| d.iter().flatten().copied().collect::<Vec<_>>();
    Some(match op {
        Op::Mov { dst, src, .. } => (vec![*src], vec![*dst]),
        Op::Pack { dst, srcs, .. } => (srcs.clone(), vec![*dst]),
        Op::Unpack { dsts, src, .. } => (vec![*src], some(dsts)),
        Op::CvtPack { dst, a, b, .. }
        | Op::Int { dst, a, b, .. }
        | Op::MulWide { dst, a, b, .. }
        | Op::PredLogic { dst, a, b, .. }
        | Op::Float { dst, a, b, .. } => (vec![*a, *b], vec![*dst]),
        Op::Mad { dst, a, b, c, .. } | Op::Fma { dst, a, b, c, .. } => {
            (vec![*a, *b, *c], vec![*dst])
        }
        Op::IntUn { dst, a, .. } | Op::FloatUn { dst, a, .. } => (vec![*a], vec![*dst]),
        Op::Bfe {
            dst, a, pos, len, ..
        } => (vec![*a, *pos, *len], vec![*dst]),
        Op::Bfi {
            dst,
            a,
            b,
            pos,
            len,
            ..
        } => (vec![*a, *b, *pos, *len], vec![*dst]),
        Op::Setp {
            dst,
            dst_not,
            a,
            b,
            combine,
            ..
        } => {
            let mut srcs = vec![*a, *b];
            srcs.extend(combine.map(|(_, c)| c));
            let mut dsts = vec![*dst];
            dsts.extend(*dst_not);
            (srcs, dsts)
        }
        Op::Selp { dst, a, b, p, .. } => (vec![*a, *b, *p], vec![*dst]),
        Op::Cvt { dst, src, .. } => (vec![*src], vec![*dst]),
        Op::LdParam { dst, .. } | Op::VarAddr { dst, .. } | Op::Undef { dst } => {
            (vec![], vec![*dst])
        }
        Op::Cvta { dst, src, .. } => (vec![*src], vec![*dst]),
        Op::Ld { dsts, addr, .. } => (vec![addr.base], some(dsts)),
        Op::St { srcs, addr, .. } => {
            let mut s = srcs.clone();
            s.push(addr.base);
            (s, vec![])
        }
        Op::Bra { .. } | Op::Exit | Op::CpAsyncCommit | Op::CpAsyncWait { .. } => (vec![], vec![]),
        Op::Bar { id, count, .. } => {
            let mut s = vec![*id];
            s.extend(*count);
            (s, vec![])
        }
        _ => return None,
    })
}

fn reads(srcs: &[Src], r: Reg) -> bool {
    srcs.iter()
        .any(|s| matches!(s, Src::Reg(x) | Src::NotReg(x) if *x == r))
}

/// Whether register `r` may be read before it is written on some path from instruction
/// `start` (a plain reachability search over the control-flow graph; guarded writes do not
/// count as writes, unknown operations count as reads).
pub(crate) fn live_at(prog: &Program, start: u32, r: Reg) -> bool {
    let n = prog.insts.len();
    let mut seen = vec![false; n];
    let mut stack = vec![start as usize];
    while let Some(pc) = stack.pop() {
        if pc >= n || seen[pc] {
            continue;
        }
        seen[pc] = true;
        let inst = &prog.insts[pc];
        if inst.guard.is_some_and(|(g, _)| g == r) {
            return true;
        }
        let Some((srcs, dsts)) = uses(&inst.op) else {
            return true;
        };
        if reads(&srcs, r) {
            return true;
        }
        if inst.guard.is_none() && dsts.contains(&r) {
            continue;
        }
        match (&inst.op, inst.guard) {
            (Op::Bra { target }, None) => stack.push(*target as usize),
            (Op::Bra { target }, Some(_)) => stack.extend([*target as usize, pc + 1]),
            (Op::Exit, None) => {}
            _ => stack.push(pc + 1),
        }
    }
    false
}

impl Machine<'_> {
    /// `@p bra target` where `cond` (the condition for taking the branch) depends on tensor
    /// data; the thread's `pc` is just past the branch. Runs the fall-through path and merges
    /// (see the module documentation), then continues at `target`.
    pub(super) fn if_convert(
        &mut self,
        cta: &mut Cta,
        t: usize,
        ids: &Ids,
        target: u32,
        cond: TermId,
    ) -> Result<(), ExecError> {
        let prog = self.prog;
        let pc = cta.threads[t].pc.saturating_sub(1);
        let line = prog.insts[pc as usize].line;
        let refuse = |why: String| ExecError::Unsupported {
            line,
            what: format!(
                "a branch on a value that depends on tensor data ({why}; structured kernels branch on indices and scalars only, \
                 and only a forward branch over register computations is if-converted)"
            ),
        };
        if target <= pc {
            return Err(refuse("it goes backward".into()));
        }
        let path = pc + 1..target;
        if let Some(k) = path
            .clone()
            .find(|&k| !register_only(&prog.insts[k as usize].op))
        {
            return Err(refuse(format!(
                "the path it skips has line {}, which is not a register computation",
                prog.insts[k as usize].line
            )));
        }
        let before = cta.threads[t].regs.clone();
        for k in path {
            let inst = &prog.insts[k as usize];
            let th = &mut cta.threads[t];
            th.steps += 1;
            self.lane_instructions += 1;
            let data_guard = match inst.guard {
                None => None,
                Some((g, neg)) => match th.regs[g as usize] {
                    Val::Bits(b) if (b & 1 == 1) == neg => continue,
                    Val::Bits(_) => None,
                    Val::Cond(c) => Some(if neg { self.mk_node(Node::Not(c))? } else { c }),
                    Val::Undef => {
                        return Err(ExecError::Invalid {
                            line: inst.line,
                            msg: "a guard reads a register that was never written".into(),
                        });
                    }
                    _ => {
                        return Err(ExecError::Unsupported {
                            line: inst.line,
                            what: "a guard that is not a predicate".into(),
                        });
                    }
                },
            };
            match data_guard {
                Some(c) => self.guarded_by_data(cta, t, ids, inst, c)?,
                None => self.pure(&mut cta.threads[t], ids, &inst.op, inst.line)?,
            }
        }
        for (r, &taken) in before.iter().enumerate() {
            let fallen = cta.threads[t].regs[r];
            if fallen == taken {
                continue;
            }
            let merged = self.merge(r, cond, taken, fallen, line)?;
            let v = match merged {
                Some(v) => v,
                None if self.live_after(target, r as Reg) => {
                    let info = &prog.regs[r];
                    let what = match (taken, fallen) {
                        (Val::Undef, _) | (_, Val::Undef) => "is undefined on one of the two paths",
                        (Val::Bits(_), Val::Bits(_)) => {
                            "holds different integers or addresses on the two paths"
                        }
                        _ => "holds values on the two paths that no select can choose between",
                    };
                    let join = prog
                        .insts
                        .get(target as usize)
                        .map(|i| format!(" at line {}", i.line))
                        .unwrap_or_default();
                    return Err(refuse(format!(
                        "register {} {what} and may be read after they join{join}",
                        info.name
                    )));
                }
                // Never read again: undefined, so that a read would be an error, not a value.
                None => Val::Undef,
            };
            cta.threads[t].regs[r] = v;
        }
        cta.threads[t].pc = target;
        Ok(())
    }

    fn mk_node(&mut self, n: Node) -> Result<TermId, ExecError> {
        self.arena
            .intern(n)
            .map_err(|e| ExecError::Limit(format!("{e}; split the launch into smaller ones")))
    }

    /// `cond ? taken : fallen` for register `r`, or `None` when the two cannot be merged.
    fn merge(
        &mut self,
        r: usize,
        cond: TermId,
        taken: Val,
        fallen: Val,
        line: crate::ptx::Line,
    ) -> Result<Option<Val>, ExecError> {
        let info = &self.prog.regs[r];
        let defined = |v: Val| matches!(v, Val::Bits(_) | Val::Cond(_) | Val::Term(_));
        if !defined(taken) || !defined(fallen) {
            return Ok(None);
        }
        if info.bits == 1 {
            if matches!(taken, Val::Term(_)) || matches!(fallen, Val::Term(_)) {
                return Ok(None);
            }
            let c = Val::Cond(cond);
            let not_c = Val::Cond(self.mk_node(Node::Not(cond))?);
            let a = self.bool_op(BoolOp::And, c, taken, line)?;
            let b = self.bool_op(BoolOp::And, not_c, fallen, line)?;
            return Ok(Some(self.bool_op(BoolOp::Or, a, b, line)?));
        }
        if matches!(taken, Val::Cond(_)) || matches!(fallen, Val::Cond(_)) {
            return Ok(None);
        }
        let term = matches!(taken, Val::Term(_)) || matches!(fallen, Val::Term(_));
        let ty = match (info.float, info.bits) {
            (Some(f), _) => f,
            // Terms only ever hold floats, so an untyped register holding one holds a float.
            (None, 32) if term => FloatTy::F32,
            (None, 64) if term => FloatTy::F64,
            _ => return Ok(None),
        };
        let (a, b) = (
            self.term_of(taken, ty, line)?,
            self.term_of(fallen, ty, line)?,
        );
        Ok(Some(Val::Term(self.mk_node(Node::Select {
            cond,
            then: a,
            else_: b,
        })?)))
    }

    /// [`live_at`], remembered per (instruction, register).
    fn live_after(&mut self, start: u32, r: Reg) -> bool {
        let prog = self.prog;
        *self
            .live
            .entry((start, r))
            .or_insert_with(|| live_at(prog, start, r))
    }
}
