//! Happens-before race detection over the canonical schedule (DESIGN.md, claim 1).
//!
//! Each thread of the running CTA has a vector clock; barriers join the clocks of their
//! participants. An access is recorded as an [`Epoch`]; two accesses to one granule, one a write,
//! race unless the earlier is ordered before the later. Threads of different CTAs are never
//! ordered (no grid-wide barrier is modeled). For barrier-only synchronization the
//! happens-before relation does not depend on the schedule, so one execution finds every race.

/// One access: which thread, at which of its clock values, from which instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Epoch {
    /// Linear CTA index in the grid.
    pub cta: u32,
    /// Linear thread index in the CTA.
    pub tid: u32,
    pub clock: u32,
    pub pc: u32,
}

/// Per-granule access history.
#[derive(Debug, Clone, Default)]
pub struct Shadow {
    pub write: Option<Epoch>,
    /// Earlier writes of the very value `write` stored, not ordered with it. Such writes are
    /// benign (every order leaves the same value: Triton's cross-warp reductions rely on it),
    /// but every later access must still be ordered with each of them.
    pub same_writes: Vec<Epoch>,
    /// Latest read of each thread of CTA `reads_cta` (kept across writes: see `access`).
    pub reads: Vec<Epoch>,
    pub reads_cta: u32,
    /// One read by an earlier CTA since the last write (all such reads conflict with any write).
    pub foreign_read: Option<Epoch>,
    /// Atomic updates (kept across plain writes, like `reads`): the latest per thread, with
    /// whether one of its atomics here had the scope of one CTA. Atomics do not race with each
    /// other within their scope; every plain access must be ordered after them.
    pub atomics: Vec<(Epoch, bool)>,
}

/// The vector clocks of one CTA: row `t` is thread `t`'s knowledge of every thread's clock.
#[derive(Debug, Clone)]
pub struct Clocks {
    pub cta: u32,
    n: usize,
    vc: Vec<u32>,
}

impl Clocks {
    pub fn new(cta: u32, n: usize) -> Self {
        let mut vc = vec![0; n * n];
        for t in 0..n {
            vc[t * n + t] = 1;
        }
        Clocks { cta, n, vc }
    }

    pub fn epoch(&self, tid: u32, pc: u32) -> Epoch {
        let t = tid as usize;
        Epoch {
            cta: self.cta,
            tid,
            clock: self.vc[t * self.n + t],
            pc,
        }
    }

    /// Whether `e` happens before the current point of thread `u` of this CTA.
    pub fn ordered(&self, e: &Epoch, u: u32) -> bool {
        e.cta == self.cta
            && (e.tid == u || self.vc[u as usize * self.n + e.tid as usize] >= e.clock)
    }

    pub fn row(&self, t: u32) -> Vec<u32> {
        let t = t as usize;
        self.vc[t * self.n..(t + 1) * self.n].to_vec()
    }

    /// A non-waiting arrival (`bar.arrive`): the clock row it contributes, after which the
    /// thread starts a new epoch at once, since it keeps running before the barrier completes.
    pub fn arrive(&mut self, t: u32) -> Vec<u32> {
        let row = self.row(t);
        let t = t as usize;
        self.vc[t * self.n + t] += 1;
        row
    }

    /// Completes a barrier: every waiter learns the join of all participants' clocks (arrivers
    /// contribute the row they had when they arrived), then each waiter starts a new epoch.
    pub fn barrier(&mut self, arrivals: &[(u32, Vec<u32>)], waiters: &[u32]) {
        let n = self.n;
        let mut join = vec![0u32; n];
        for (_, row) in arrivals {
            for (j, r) in join.iter_mut().zip(row) {
                *j = (*j).max(*r);
            }
        }
        for &w in waiters {
            let w = w as usize;
            for (v, j) in self.vc[w * n..(w + 1) * n].iter_mut().zip(&join) {
                *v = (*v).max(*j);
            }
            self.vc[w * n + w] += 1;
        }
    }
}

/// A pair of conflicting accesses: (earlier, is_write_earlier).
pub type Conflict = (Epoch, Earlier);

/// What the earlier access of a conflict was. Only two plain writes can be equal over the
/// reals (fp-nondeterministic); an atomic's addition is lost or kept by the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Earlier {
    Read,
    Write,
    Atomic,
}

impl Shadow {
    /// Records an access by `u`; returns the first earlier access it races with.
    /// `same_value`: a write that stores exactly the value the location holds from `write`.
    pub fn access(
        &mut self,
        clocks: &Clocks,
        now: Epoch,
        write: bool,
        same_value: bool,
    ) -> Option<Conflict> {
        let u = now.tid;
        let unordered_write = self
            .write
            .iter()
            .chain(&self.same_writes)
            .find(|w| !clocks.ordered(w, u))
            .copied();
        let benign = write && same_value;
        let mut conflict = if benign {
            None
        } else {
            unordered_write.map(|w| (w, Earlier::Write))
        };
        self.settle_cta(clocks.cta);
        if conflict.is_none() {
            conflict = self
                .atomics
                .iter()
                .find(|(a, _)| !clocks.ordered(a, u))
                .map(|(a, _)| (*a, Earlier::Atomic));
        }
        if write {
            // An unordered read is a race whatever the writes: it wins over a write-write
            // conflict, which the caller may find equal over the reals (fp-nondeterministic,
            // not a refutation) and which must not hide it.
            if let Some(r) = self
                .reads
                .iter()
                .chain(self.foreign_read.iter())
                .find(|r| !clocks.ordered(r, u))
                && conflict.is_none_or(|(_, e)| e == Earlier::Write)
            {
                conflict = Some((*r, Earlier::Read));
            }
            if benign {
                // Keep the earlier writes this one is not ordered with.
                self.same_writes.retain(|w| !clocks.ordered(w, u));
                if let Some(w) = self.write.filter(|w| !clocks.ordered(w, u)) {
                    self.same_writes.push(w);
                }
            } else {
                self.same_writes.clear();
            }
            self.write = Some(now);
            // Reads and atomics stay, although this write is ordered after them: a later write
            // of the same value that is not ordered with this one skips the write check, so it
            // must still meet them (thread 0 reads x then stores 1, thread 1 stores 1: thread
            // 0's read sees 0 or 1). Found by the Lean model (`Kcert.Race.benign_gap`).
            self.foreign_read = None;
        } else {
            match self.reads.iter_mut().find(|r| r.tid == u) {
                Some(r) => *r = now,
                None => self.reads.push(now),
            }
        }
        conflict
    }
}

impl Shadow {
    /// Reads by an earlier CTA conflict with every later write: when a new CTA touches the
    /// granule, keep one of them as evidence and start the new CTA's read set.
    fn settle_cta(&mut self, cta: u32) {
        if self.reads_cta != cta {
            self.foreign_read = self.foreign_read.or(self.reads.first().copied());
            self.reads.clear();
            self.reads_cta = cta;
        }
    }

    /// Records an atomic update by `now.tid`; returns the first earlier access it races with: a
    /// plain access not ordered before it, or an atomic whose scope does not cover both threads.
    pub fn atomic(&mut self, clocks: &Clocks, now: Epoch, cta_scope: bool) -> Option<Conflict> {
        let u = now.tid;
        self.settle_cta(clocks.cta);
        // Every unordered write counts, including the benign same-value ones kept beside the
        // last (found by the Lean model of this check, `Kcert.Race`): if one of them lands after
        // the addition, the addition is lost.
        let mut conflict = self
            .write
            .iter()
            .chain(&self.same_writes)
            .find(|w| !clocks.ordered(w, u))
            .map(|w| (*w, Earlier::Write));
        if conflict.is_none() {
            conflict = self
                .reads
                .iter()
                .chain(self.foreign_read.iter())
                .find(|r| !clocks.ordered(r, u))
                .map(|r| (*r, Earlier::Read));
        }
        if conflict.is_none() {
            conflict = self
                .atomics
                .iter()
                .find(|(a, scope)| (*scope || cta_scope) && a.cta != now.cta)
                .map(|(a, _)| (*a, Earlier::Atomic));
        }
        match self
            .atomics
            .iter_mut()
            .find(|(a, _)| a.cta == now.cta && a.tid == u)
        {
            // The newest epoch stands for the thread's earlier atomics (they are ordered before
            // it); the scope flag must stand for them too: once one was `.cta`, the granule has
            // an addition other CTAs' atomics are not atomic with (found by the Lean grid model,
            // `Kcert.GRace.scope_gap_reported`).
            Some(slot) => *slot = (now, slot.1 || cta_scope),
            None => self.atomics.push((now, cta_scope)),
        }
        conflict
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn barrier_orders_and_its_absence_races() {
        let mut c = Clocks::new(0, 2);
        let mut s = Shadow::default();
        assert!(s.access(&c, c.epoch(0, 1), true, false).is_none());
        // Thread 1 reads without a barrier: race with thread 0's write.
        assert!(s.access(&c, c.epoch(1, 2), false, false).is_some());
        let mut s = Shadow::default();
        assert!(s.access(&c, c.epoch(0, 1), true, false).is_none());
        let rows: Vec<(u32, Vec<u32>)> = (0..2).map(|t| (t, c.row(t))).collect();
        c.barrier(&rows, &[0, 1]);
        assert!(s.access(&c, c.epoch(1, 2), false, false).is_none());
        // Thread 0 writes again after the barrier while thread 1's read is unordered: race.
        assert!(s.access(&c, c.epoch(0, 3), true, false).is_some());
    }

    #[test]
    fn atomics_commute_but_not_with_plain_accesses() {
        let c0 = Clocks::new(0, 2);
        let c1 = Clocks::new(1, 2);
        let mut s = Shadow::default();
        assert!(s.atomic(&c0, c0.epoch(0, 0), false).is_none());
        assert!(s.atomic(&c0, c0.epoch(1, 0), false).is_none());
        assert!(
            s.atomic(&c1, c1.epoch(0, 0), false).is_none(),
            "gpu-scope atomics across CTAs"
        );
        assert!(
            s.atomic(&c1, c1.epoch(1, 0), true).is_some(),
            "a cta-scope atomic beside another CTA's"
        );
        let mut s = Shadow::default();
        assert!(s.atomic(&c0, c0.epoch(0, 0), false).is_none());
        assert!(
            s.access(&c0, c0.epoch(1, 1), false, false).is_some(),
            "a plain read beside an atomic"
        );
        let mut s = Shadow::default();
        assert!(s.access(&c0, c0.epoch(1, 1), true, false).is_none());
        assert!(
            s.atomic(&c0, c0.epoch(0, 0), false).is_some(),
            "an atomic beside a plain write"
        );
    }

    #[test]
    fn same_value_writes_are_benign_but_stay_on_record() {
        let mut c = Clocks::new(0, 3);
        let mut s = Shadow::default();
        assert!(s.access(&c, c.epoch(0, 1), true, false).is_none());
        // Thread 1 stores the same value, unordered: benign.
        assert!(s.access(&c, c.epoch(1, 1), true, true).is_none());
        // A barrier orders thread 1 (only) before thread 2; thread 2 writes a different value:
        // it still races with thread 0's unordered write.
        let rows = vec![(1, c.row(1)), (2, c.row(2))];
        c.barrier(&rows, &[1, 2]);
        assert!(s.access(&c, c.epoch(2, 2), true, false).is_some());
        // A different value, unordered, is a race as always.
        let c = Clocks::new(0, 2);
        let mut s = Shadow::default();
        assert!(s.access(&c, c.epoch(0, 1), true, false).is_none());
        assert!(s.access(&c, c.epoch(1, 1), true, false).is_some());
    }

    #[test]
    fn an_unordered_read_wins_over_a_write_write_conflict() {
        // Thread 0 writes then reads its own write; thread 1 writes, ordered with neither. The
        // write-write conflict may be equal over the reals (fp-nondeterministic, no
        // refutation), so the read it also races with must be the conflict reported.
        let c = Clocks::new(0, 2);
        let mut s = Shadow::default();
        assert!(s.access(&c, c.epoch(0, 1), true, false).is_none());
        assert!(s.access(&c, c.epoch(0, 2), false, false).is_none());
        assert_eq!(
            s.access(&c, c.epoch(1, 1), true, false)
                .map(|(e, w)| (e.tid, w)),
            Some((0, Earlier::Read))
        );
    }

    #[test]
    fn atomics_race_with_every_unordered_same_value_write() {
        let c = Clocks::new(0, 2);
        let mut s = Shadow::default();
        assert!(s.access(&c, c.epoch(0, 1), true, false).is_none());
        // Thread 1 stores the same value: benign, thread 0's write moves to `same_writes`.
        assert!(s.access(&c, c.epoch(1, 1), true, true).is_none());
        // Thread 1's own write is ordered before its atomic, thread 0's is not: a race.
        assert_eq!(
            s.atomic(&c, c.epoch(1, 2), true).map(|(e, w)| (e.tid, w)),
            Some((0, Earlier::Write))
        );
    }

    #[test]
    fn a_same_value_write_still_meets_reads_ordered_before_the_write_it_skips() {
        // Thread 0 reads, then stores 1; thread 1 stores 1, ordered with neither: benign
        // against thread 0's write, but thread 0's read sees 0 or 1 depending on the order.
        let c = Clocks::new(0, 2);
        let mut s = Shadow::default();
        assert!(s.access(&c, c.epoch(0, 1), false, false).is_none());
        assert!(s.access(&c, c.epoch(0, 2), true, false).is_none());
        assert_eq!(
            s.access(&c, c.epoch(1, 1), true, true)
                .map(|(e, w)| (e.tid, w)),
            Some((0, Earlier::Read))
        );
        // The same with the roles swapped: thread 1 reads then stores, thread 0's same-value
        // store meets thread 1's read.
        let mut t = Shadow::default();
        assert!(t.access(&c, c.epoch(1, 1), false, false).is_none());
        assert!(t.access(&c, c.epoch(1, 2), true, false).is_none());
        assert!(
            t.access(&c, c.epoch(0, 1), true, true).is_some(),
            "thread 1's read is unordered with thread 0's write"
        );
        // Negative twin: two same-value stores and no read are benign.
        let mut v = Shadow::default();
        assert!(v.access(&c, c.epoch(0, 1), true, false).is_none());
        assert!(v.access(&c, c.epoch(1, 1), true, true).is_none());
    }

    #[test]
    fn a_cta_scoped_atomic_is_remembered_after_a_gpu_scoped_one() {
        // CTA 0's thread adds with .cta scope, then with .gpu scope; CTA 1 adds with .gpu
        // scope: CTA 0's first addition is not atomic with CTA 1's, one can be lost.
        let (c0, c1) = (Clocks::new(0, 1), Clocks::new(1, 1));
        let mut s = Shadow::default();
        assert!(s.atomic(&c0, c0.epoch(0, 1), true).is_none());
        assert!(s.atomic(&c0, c0.epoch(0, 2), false).is_none());
        assert!(s.atomic(&c1, c1.epoch(0, 1), false).is_some());
        // Negative twin: .gpu scope throughout is atomic across CTAs.
        let mut t = Shadow::default();
        assert!(t.atomic(&c0, c0.epoch(0, 1), false).is_none());
        assert!(t.atomic(&c0, c0.epoch(0, 2), false).is_none());
        assert!(t.atomic(&c1, c1.epoch(0, 1), false).is_none());
    }

    #[test]
    fn different_ctas_never_order() {
        let c0 = Clocks::new(0, 1);
        let c1 = Clocks::new(1, 1);
        let mut s = Shadow::default();
        assert!(s.access(&c0, c0.epoch(0, 0), false, false).is_none());
        assert!(s.access(&c1, c1.epoch(0, 0), false, false).is_none());
        assert!(
            s.access(&c1, c1.epoch(0, 0), true, false).is_some(),
            "write after another CTA's read"
        );
    }
}
