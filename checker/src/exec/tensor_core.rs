//! Tensor-core data movement and arithmetic: `mma.sync` and `ldmatrix` as warp collectives with
//! the per-lane fragment layouts of PTX ISA 9.7.14.5, and `cp.async` copies that land at the
//! `cp.async.wait_group` completing them.
//!
//! Values stay reals: an `mma` output element is `c + a_0 b_0 + ... + a_{K-1} b_{K-1}`, written
//! as a chain of fused multiply-adds in `k` order (any order denotes the same real number; this
//! one is what a naive loop over `k` builds, so such pairs are often congruent).

use super::access::{Access, Ptr};
use super::{Collective, Cta, ExecError, Machine, Mode, Val, WarpWait};
use crate::lower::{FloatTy, MmaShape, Op, Space};
use crate::ptx::Line;

/// One `cp.async` in flight: the source values read at issue, to be stored at completion.
#[derive(Debug, Clone)]
pub(crate) struct AsyncCopy {
    dst: Ptr,
    /// `(byte offset, width, value, read from the source)`; bytes past the source size are
    /// zero.
    chunks: Vec<(u64, u64, Val, bool)>,
    src: Ptr,
    pc: u32,
}

/// Row and column of element `i` of the A fragment (`M16n8k16`: 8 halves in 4 registers,
/// `M16n8k8`: 4 halves in 2) held by lane `g * 4 + t`.
pub fn a_element(shape: MmaShape, lane: u32, i: u32) -> (u32, u32) {
    let (g, t) = (lane / 4, lane % 4);
    match shape {
        MmaShape::M16n8k16 => {
            let row = if i < 2 || (4..6).contains(&i) {
                g
            } else {
                g + 8
            };
            let col = t * 2 + (i & 1) + if i >= 4 { 8 } else { 0 };
            (row, col)
        }
        MmaShape::M16n8k8 => (if i < 2 { g } else { g + 8 }, t * 2 + (i & 1)),
    }
}

/// Row (k) and column (n) of element `i` of the B fragment held by a lane.
pub fn b_element(shape: MmaShape, lane: u32, i: u32) -> (u32, u32) {
    let (g, t) = (lane / 4, lane % 4);
    match shape {
        MmaShape::M16n8k16 => (t * 2 + (i & 1) + if i >= 2 { 8 } else { 0 }, g),
        MmaShape::M16n8k8 => (t * 2 + i, g),
    }
}

/// Row and column of element `i` (0..4) of the C/D accumulator fragment held by a lane.
pub fn c_element(lane: u32, i: u32) -> (u32, u32) {
    let (g, t) = (lane / 4, lane % 4);
    (if i < 2 { g } else { g + 8 }, t * 2 + (i & 1))
}

/// The element (row, column) of matrix `m` of an `ldmatrix` that lands in the low (`j = 0`) or
/// high half of a lane's register `m` (row `r` of matrix `m` comes from lane `8m + r`).
pub fn ldmatrix_element(trans: bool, lane: u32, j: u32) -> (u32, u32) {
    let (g, t) = (lane / 4, lane % 4);
    if trans {
        (2 * t + j, g)
    } else {
        (g, 2 * t + j)
    }
}

fn unsupported(line: Line, what: &str) -> ExecError {
    ExecError::Unsupported {
        line,
        what: what.into(),
    }
}

impl Machine<'_> {
    /// The two 16-bit halves of a packed register, low first.
    fn halves(v: Val, line: Line) -> Result<[Val; 2], ExecError> {
        Ok(match v {
            Val::Bits(b) => [Val::Bits(b & 0xffff), Val::Bits(b >> 16 & 0xffff)],
            Val::Pair(lo, hi) => [Val::Term(lo), Val::Term(hi)],
            Val::Undef => {
                return Err(ExecError::Invalid {
                    line,
                    msg: "an mma fragment register was never written".into(),
                });
            }
            _ => {
                return Err(unsupported(
                    line,
                    "an mma A/B register that does not hold two packed 16-bit values",
                ));
            }
        })
    }

    /// The line and operation of a `.sync.aligned` collective, which all 32 lanes must execute
    /// at one instruction.
    pub(super) fn aligned_collective(
        &self,
        waits: &[(usize, WarpWait)],
        name: &str,
    ) -> Result<(Line, Op), ExecError> {
        let pc = waits.first().map(|(_, w)| w.pc).unwrap_or(0);
        let inst = &self.prog.insts[pc as usize];
        if waits.len() != 32 || waits.iter().any(|(_, w)| w.pc != pc) {
            return Err(ExecError::Unsupported {
                line: inst.line,
                what: format!(
                    "{name}.aligned executed by a partial warp or at different instructions"
                ),
            });
        }
        Ok((inst.line, inst.op.clone()))
    }

    /// Completes an `mma.sync` whose 32 lanes have all arrived.
    pub(super) fn complete_mma(
        &mut self,
        cta: &mut Cta,
        waits: &[(usize, WarpWait)],
        w0: usize,
    ) -> Result<(), ExecError> {
        let (line, op) = self.aligned_collective(waits, "mma.sync")?;
        let Op::Mma {
            shape, ab, dsts, ..
        } = op
        else {
            return Err(ExecError::Invalid {
                line,
                msg: "mma collective at a non-mma instruction".into(),
            });
        };
        let k = shape.k();
        let mut a = vec![Val::Undef; 16 * k];
        let mut b = vec![Val::Undef; k * 8];
        let mut c = [Val::Undef; 16 * 8];
        for (th, w) in waits {
            let Collective::Mma {
                a: fa,
                b: fb,
                c: fc,
            } = w.what
            else {
                continue;
            };
            let lane = (th - w0) as u32;
            for (r, v) in fa[..k / 4].iter().enumerate() {
                for (j, h) in Self::halves(*v, line)?.into_iter().enumerate() {
                    let (row, col) = a_element(shape, lane, 2 * r as u32 + j as u32);
                    a[row as usize * k + col as usize] = h;
                }
            }
            for (r, v) in fb[..k / 8].iter().enumerate() {
                for (j, h) in Self::halves(*v, line)?.into_iter().enumerate() {
                    let (row, col) = b_element(shape, lane, 2 * r as u32 + j as u32);
                    b[row as usize * 8 + col as usize] = h;
                }
            }
            for (i, v) in fc.iter().enumerate() {
                let (row, col) = c_element(lane, i as u32);
                c[row as usize * 8 + col as usize] = *v;
            }
        }
        let d = self.multiply_accumulate(ab, &a, &b, &c, (16, 8, k), line)?;
        for (th, _) in waits {
            let lane = (th - w0) as u32;
            // The test fault `MmaLane` reads the layout one lane off (symbolic runs only).
            let lane = if self.mode == Mode::Symbolic
                && super::fault::active(super::fault::Fault::MmaLane)
            {
                (lane + 1) % 32
            } else {
                lane
            };
            for (i, dst) in dsts.iter().enumerate() {
                let (row, col) = c_element(lane, i as u32);
                cta.threads[*th].regs[*dst as usize] = d[row as usize * 8 + col as usize];
            }
        }
        Ok(())
    }

    /// `D = C + A B` for row-major `A` (m x k), `B` (k x n) and `C` (m x n) with 16-bit float
    /// inputs of type `ab`: one fused multiply-add per k, in k order (concrete: in f32, like the
    /// hardware's f32 accumulation up to its internal rounding).
    pub(super) fn multiply_accumulate(
        &mut self,
        ab: FloatTy,
        a: &[Val],
        b: &[Val],
        c: &[Val],
        (m, n, k): (usize, usize, usize),
        line: Line,
    ) -> Result<Vec<Val>, ExecError> {
        let mut d = vec![Val::Undef; m * n];
        for row in 0..m {
            for col in 0..n {
                let mut acc = c[row * n + col];
                for kk in 0..k {
                    let (x, y) = (a[row * k + kk], b[kk * n + col]);
                    acc = match (self.mode, x, y, acc) {
                        (Mode::Concrete, Val::Bits(x), Val::Bits(y), Val::Bits(z)) => {
                            let h = |v: u64| super::step::to_f64(v, ab) as f32;
                            let z = f32::from_bits(z as u32);
                            Val::Bits(u64::from(h(x).mul_add(h(y), z).to_bits()))
                        }
                        _ => {
                            let (tx, ty) = (self.term_of(x, ab, line)?, self.term_of(y, ab, line)?);
                            self.fma(
                                FloatTy::F32,
                                crate::lower::FloatMods::RN,
                                Val::Term(tx),
                                Val::Term(ty),
                                acc,
                                line,
                            )?
                        }
                    };
                }
                d[row * n + col] = acc;
            }
        }
        Ok(d)
    }

    /// An `ldmatrix` row address without a state space is generic, and the ISA requires it to
    /// fall in the shared window (undefined otherwise): one outside is an out-of-bounds finding.
    fn in_shared_window(&mut self, cta: &Cta, t: usize, addr: u64, pc: u32, space: Space) -> bool {
        use super::memory::{SHARED_WINDOW, WINDOW_BYTES};
        if space != Space::Generic || (SHARED_WINDOW..SHARED_WINDOW + WINDOW_BYTES).contains(&addr)
        {
            return true;
        }
        let site = self.site(cta.id, cta.threads[t].tid, pc, "reads 16 bytes".into());
        self.report(super::Finding {
            kind: super::FindingKind::OutOfBounds,
            location: Some(format!("generic address {addr:#x}")),
            space: Some(Space::Generic),
            sites: vec![site],
            detail: "ldmatrix reads shared memory only: a generic row address must fall in the \
                     shared window (PTX ISA, ldmatrix; undefined otherwise)"
                .into(),
        });
        false
    }

    /// Completes an `ldmatrix` whose 32 lanes have all arrived: lane `8m + r` supplies the
    /// address of row `r` of matrix `m` (16 bytes), and each row is read on that lane's behalf.
    pub(super) fn complete_ldmatrix(
        &mut self,
        cta: &mut Cta,
        waits: &[(usize, WarpWait)],
    ) -> Result<(), ExecError> {
        let (line, op) = self.aligned_collective(waits, "ldmatrix.sync")?;
        let Op::Ldmatrix {
            space, trans, dsts, ..
        } = op
        else {
            return Err(ExecError::Invalid {
                line,
                msg: "ldmatrix collective at a non-ldmatrix instruction".into(),
            });
        };
        let pc = waits[0].1.pc;
        let addr = |lane: usize| match waits[lane].1.what {
            Collective::Ldmatrix { addr } => addr,
            _ => Ptr::plain(0),
        };
        // mats[m][row][col]
        let mut mats = vec![[[Val::Undef; 8]; 8]; dsts.len()];
        for (m, mat) in mats.iter_mut().enumerate() {
            let mut undefined = false;
            for (r, row) in mat.iter_mut().enumerate() {
                let lane = 8 * m + r;
                let (th, base) = (waits[lane].0, addr(lane));
                if !self.in_shared_window(cta, th, base.bits, pc, space)
                    || !self.aligned(cta, th, base.bits, 16, pc, space)
                {
                    undefined = true;
                    continue;
                }
                for (col, slot) in row.iter_mut().enumerate() {
                    *slot = self.access(
                        cta,
                        th,
                        space,
                        base.plus(2 * col as u64),
                        2,
                        Access::Load,
                        pc,
                    )?;
                }
            }
            // A row left unread (already a finding) makes the matrix undefined: it reads as 0,
            // so that the fragment's uses (the mma) do not turn the finding into an error.
            if undefined {
                *mat = [[Val::Bits(0); 8]; 8];
            }
        }
        for (lane, (th, _)) in waits.iter().enumerate() {
            for (m, dst) in dsts.iter().enumerate() {
                let mut h = [Val::Undef; 2];
                for (j, slot) in h.iter_mut().enumerate() {
                    let (row, col) = ldmatrix_element(trans, lane as u32, j as u32);
                    *slot = mats[m][row as usize][col as usize];
                }
                let v = match h {
                    [Val::Undef, _] | [_, Val::Undef] => Val::Undef,
                    [lo, hi] => self.pack_halves(lo, hi, line)?,
                };
                cta.threads[*th].regs[*dst as usize] = v;
            }
        }
        Ok(())
    }

    /// Issues a `cp.async`: reads the source now, and marks the destination as being written
    /// (a write for the race check, undefined to readers) until the copy completes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn cp_async_issue(
        &mut self,
        cta: &mut Cta,
        t: usize,
        dst: Ptr,
        src: Ptr,
        bytes: u64,
        src_bytes: u64,
        pc: u32,
    ) -> Result<(), ExecError> {
        let line = self.prog.insts[pc as usize].line;
        if src_bytes > bytes {
            return Err(ExecError::Invalid {
                line,
                msg: format!("cp.async source size {src_bytes} exceeds the copy size {bytes}"),
            });
        }
        // With no byte read (source size 0, or ignore-src), the source address is never used.
        if !self.aligned(cta, t, dst.bits, bytes, pc, Space::Shared)
            || (src_bytes > 0 && !self.aligned(cta, t, src.bits, bytes, pc, Space::Global))
        {
            return Ok(());
        }
        let w = self.element_bytes(src.bits).min(bytes);
        if !src_bytes.is_multiple_of(w) {
            return Err(unsupported(
                line,
                "cp.async source size that splits a tensor element",
            ));
        }
        let mut chunks = Vec::with_capacity((bytes / w) as usize);
        let tid = cta.threads[t].linear;
        for off in (0..bytes).step_by(w as usize) {
            let from_source = off < src_bytes;
            let v = if from_source {
                // Read now, and held until the wait (see `Cta::inflight`).
                if let Some((k, granules)) = self.tensor_granules(src.plus(off).bits, w) {
                    for gi in granules {
                        cta.inflight.entry((k, gi)).or_insert((tid, pc, 0)).2 += 1;
                    }
                }
                self.access(cta, t, Space::Global, src.plus(off), w, Access::Load, pc)?
            } else {
                Val::Bits(0)
            };
            chunks.push((off, w, v, from_source));
        }
        for &(off, w, ..) in &chunks {
            self.access(
                cta,
                t,
                Space::Shared,
                dst.plus(off),
                w,
                Access::Store(Val::Pending),
                pc,
            )?;
        }
        cta.threads[t].async_open.push(AsyncCopy {
            dst,
            chunks,
            src,
            pc,
        });
        Ok(())
    }

    /// `cp.async.commit_group`.
    pub(super) fn cp_async_commit(&mut self, cta: &mut Cta, t: usize) {
        let th = &mut cta.threads[t];
        let group = std::mem::take(&mut th.async_open);
        th.async_groups.push_back(group);
    }

    /// `cp.async.wait_group n` / `wait_all`: completes the oldest groups until at most `n` are
    /// pending. Each copy re-reads its source (a source that changed in flight has no defined
    /// result) and stores into the destination now, as a write at this point of the thread.
    /// `by` names the completing instruction in a finding (`exit` completes what was never
    /// waited for).
    pub(super) fn cp_async_wait(
        &mut self,
        cta: &mut Cta,
        t: usize,
        pending: Option<u32>,
        pc: u32,
        by: &str,
    ) -> Result<(), ExecError> {
        let keep = match pending {
            Some(n) => n as usize,
            None => {
                self.cp_async_commit(cta, t);
                0
            }
        };
        while cta.threads[t].async_groups.len() > keep {
            let Some(group) = cta.threads[t].async_groups.pop_front() else {
                break;
            };
            for copy in group {
                for (off, w, v, from_source) in copy.chunks {
                    if let (true, Some((k, granules))) = (
                        from_source,
                        self.tensor_granules(copy.src.plus(off).bits, w),
                    ) {
                        for gi in granules {
                            if let Some(e) = cta.inflight.get_mut(&(k, gi)) {
                                e.2 -= 1;
                                if e.2 == 0 {
                                    cta.inflight.remove(&(k, gi));
                                }
                            }
                        }
                    }
                    if from_source {
                        let again = self.access(
                            cta,
                            t,
                            Space::Global,
                            copy.src.plus(off),
                            w,
                            Access::Load,
                            copy.pc,
                        )?;
                        // Every write in flight was reported (`written_in_flight`) and the
                        // run is unsafe; without one, a change means a write path bypassed it.
                        if again != v && !cta.source_written {
                            return Err(ExecError::Unsupported {
                                line: self.prog.insts[pc as usize].line,
                                what: "the source of a cp.async changed while the copy was in \
                                       flight"
                                    .into(),
                            });
                        }
                    }
                    // The destination must still be the copy's: a store that landed there
                    // while the copy was in flight (by this thread, or by one ordered after the
                    // issue) is unordered with the copy's write on the hardware.
                    let at = copy.dst.plus(off).bits;
                    let here = cta.shared.load(at, w);
                    if here != Ok(Val::Pending) && cta.shared.contains(at, w) {
                        let tid = cta.threads[t].tid;
                        let first = self.site(cta.id, tid, copy.pc, "starts a cp.async".into());
                        let second = self.site(cta.id, tid, pc, format!("completes it at {by}"));
                        self.report(super::Finding {
                            kind: super::FindingKind::DataRace,
                            location: Some(format!("shared[{at:#x}]")),
                            space: Some(Space::Shared),
                            sites: vec![first, second],
                            detail: "the destination was written while the cp.async was in \
                                     flight"
                                .into(),
                        });
                    }
                    self.access(
                        cta,
                        t,
                        Space::Shared,
                        copy.dst.plus(off),
                        w,
                        Access::Store(v),
                        pc,
                    )?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fragment layout places each matrix element in exactly one (lane, slot).
    fn covers_once(rows: u32, cols: u32, slots: u32, at: impl Fn(u32, u32) -> (u32, u32)) {
        let mut seen = vec![0u32; (rows * cols) as usize];
        for lane in 0..32 {
            for i in 0..slots {
                let (r, c) = at(lane, i);
                assert!(r < rows && c < cols, "lane {lane} slot {i} -> ({r}, {c})");
                seen[(r * cols + c) as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
    }

    #[test]
    fn fragment_layouts_are_bijections() {
        covers_once(16, 16, 8, |l, i| a_element(MmaShape::M16n8k16, l, i));
        covers_once(16, 8, 4, |l, i| a_element(MmaShape::M16n8k8, l, i));
        covers_once(16, 8, 4, |l, i| b_element(MmaShape::M16n8k16, l, i));
        covers_once(8, 8, 2, |l, i| b_element(MmaShape::M16n8k8, l, i));
        covers_once(16, 8, 4, c_element);
        covers_once(8, 8, 2, |l, j| ldmatrix_element(false, l, j));
        covers_once(8, 8, 2, |l, j| ldmatrix_element(true, l, j));
    }

    /// Spot values from the PTX ISA figures (9.7.14.5.8): lane 5 is group 1, thread 1.
    #[test]
    fn fragment_layouts_match_the_isa() {
        assert_eq!(a_element(MmaShape::M16n8k16, 5, 0), (1, 2));
        assert_eq!(a_element(MmaShape::M16n8k16, 5, 3), (9, 3));
        assert_eq!(a_element(MmaShape::M16n8k16, 5, 4), (1, 10));
        assert_eq!(a_element(MmaShape::M16n8k16, 5, 7), (9, 11));
        assert_eq!(b_element(MmaShape::M16n8k16, 5, 1), (3, 1));
        assert_eq!(b_element(MmaShape::M16n8k16, 5, 2), (10, 1));
        assert_eq!(c_element(5, 3), (9, 3));
        // ldmatrix: lane 5 holds row 1, columns 2 and 3; transposed, rows 2 and 3 of column 1.
        assert_eq!(ldmatrix_element(false, 5, 1), (1, 3));
        assert_eq!(ldmatrix_element(true, 5, 1), (3, 1));
    }
}
