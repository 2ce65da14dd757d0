//! Memory accesses: address resolution, bounds, alignment, races, uninitialized reads.

use super::memory::{LOCAL_WINDOW, LoadMiss, SHARED_WINDOW, TENSOR_STRIDE, WINDOW_BYTES};
use super::race::{Earlier, Epoch};
use super::value::Base;
use super::{Cta, ExecError, Finding, FindingKind, Machine, Mode, Val};
use crate::lower::Space;
use crate::ptx::Line;
use crate::spec::Role;
use crate::term::{Exactness, Fmt, Node, TermId};
use std::ops::Range;

/// What an access does.
#[derive(Debug, Clone, Copy)]
pub(super) enum Access {
    Load,
    Store(Val),
    /// `[addr] += val` as one atomic step.
    AtomicAdd {
        val: Val,
        ty: crate::lower::Ty,
        cta_scope: bool,
    },
}

/// The address of an access: its bits in the executor's layout and the region it was derived
/// from ([`Val::Addr`]'s `base`; `None`: from no region). The bits only say where the access
/// lands in our layout; the region says where it may land.
///
/// A 32-bit address (`wrap32`, from a 32-bit register) is its bits modulo 2^32, as the hardware
/// forms it: only the address accessed must lie in the region, whatever the intermediate
/// values (`s - 4t` then `[r + 188]`). That reading is layout-independent because a 32-bit
/// address can only be a shared or local variable's, seen in its own space (see
/// `step::addr_fits`), and such a region lies below 2^32 in every layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ptr {
    pub bits: u64,
    pub base: Option<u32>,
    pub wrap32: bool,
}

impl Ptr {
    #[inline(always)]
    pub fn new(bits: u64, base: u32) -> Ptr {
        Ptr {
            bits,
            base: Some(base),
            wrap32: false,
        }
    }

    /// An address derived from no region: every access through it is a finding.
    #[inline(always)]
    pub fn plain(bits: u64) -> Ptr {
        Ptr {
            bits,
            base: None,
            wrap32: false,
        }
    }

    /// This address formed in 32 bits where `wrap32` holds (see [`Ptr`]).
    #[inline(always)]
    pub fn in_width(self, wrap32: bool) -> Ptr {
        Ptr { wrap32, ..self }.with_bits(self.bits)
    }

    /// `n` bytes further, in the same region.
    #[inline(always)]
    pub fn plus(self, n: u64) -> Ptr {
        self.with_bits(self.bits.wrapping_add(n))
    }

    /// Other bits derived from the same region by adding an offset.
    #[inline(always)]
    pub fn with_bits(self, bits: u64) -> Ptr {
        let bits = if self.wrap32 {
            bits & 0xffff_ffff
        } else {
            bits
        };
        Ptr { bits, ..self }
    }
}

/// Where an address points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Tensor(usize),
    Shared,
    Local,
}

impl Machine<'_> {
    fn resolve(&self, space: Space, addr: u64) -> (Option<Target>, u64, Space) {
        match space {
            Space::Shared => (Some(Target::Shared), addr, Space::Shared),
            Space::Local => (Some(Target::Local), addr, Space::Local),
            Space::Generic if (SHARED_WINDOW..SHARED_WINDOW + WINDOW_BYTES).contains(&addr) => {
                (Some(Target::Shared), addr - SHARED_WINDOW, Space::Shared)
            }
            Space::Generic if (LOCAL_WINDOW..LOCAL_WINDOW + WINDOW_BYTES).contains(&addr) => {
                (Some(Target::Local), addr - LOCAL_WINDOW, Space::Local)
            }
            Space::Global | Space::Const | Space::Generic => {
                let k = addr / TENSOR_STRIDE;
                let hit = (k >= 1 && ((k - 1) as usize) < self.tensors.len())
                    .then(|| Target::Tensor((k - 1) as usize));
                (hit, addr % TENSOR_STRIDE, Space::Global)
            }
        }
    }

    /// The element size of the tensor a global address points into (4 outside any tensor).
    pub(super) fn element_bytes(&self, addr: u64) -> u64 {
        match self.resolve(Space::Global, addr).0 {
            Some(Target::Tensor(k)) => self.tensors[k].elem_bytes,
            _ => 4,
        }
    }

    /// A readable name for `width` bytes at `offset` of a target.
    fn describe(&self, target: Option<Target>, space: Space, addr: u64, offset: u64) -> String {
        match target {
            Some(Target::Tensor(k)) => {
                let t = &self.tensors[k];
                let elem = offset / t.elem_bytes;
                let n: u64 = t.shape.iter().product();
                if elem < n {
                    let idx = crate::spec::Tensor {
                        name: t.name.clone(),
                        dtype: crate::ptx::ScalarType::U8,
                        shape: t.shape.clone(),
                        role: t.role,
                        init: None,
                        range: None,
                    }
                    .multi_index(elem);
                    format!("{}[{elem}] (index {idx:?})", t.name)
                } else {
                    format!("{}[{elem}] (the tensor has {n} elements)", t.name)
                }
            }
            Some(Target::Shared) => format!("shared[{offset:#x}]"),
            Some(Target::Local) => format!("local[{offset:#x}]"),
            None => {
                // Name the nearest tensor when the address is just outside one.
                let k = (addr / TENSOR_STRIDE) as usize;
                let near = [k.checked_sub(1), Some(k)]
                    .into_iter()
                    .flatten()
                    .filter_map(|i| self.tensors.get(i).map(|t| (i, t)))
                    .min_by_key(|(i, _)| addr.abs_diff((*i as u64 + 1) * TENSOR_STRIDE));
                match near {
                    Some((i, t)) => {
                        let base = (i as u64 + 1) * TENSOR_STRIDE;
                        let delta = addr as i128 - base as i128;
                        format!(
                            "{space:?} address {addr:#x} ({} byte offset {delta} from {}[0])",
                            t.name, t.name
                        )
                    }
                    None => format!("{} address {addr:#x}, in no tensor", space.name()),
                }
            }
        }
    }

    /// Whether an access at `offset` of `target` (already inside that target) lies in the
    /// region `base` its address was derived from: the same tensor, or the bytes of the same
    /// variable. An address derived from no region, or from a scratch pointer, is never legal.
    #[inline]
    fn within_origin(
        &self,
        base: Option<u32>,
        target: Option<Target>,
        offset: u64,
        width: u64,
    ) -> bool {
        let Some(base) = base else {
            return false;
        };
        if base & Base::SCRATCH != 0 {
            return false;
        }
        if base & Base::VAR == 0 {
            return target == Some(Target::Tensor(base as usize));
        }
        let Some(v) = self.prog.vars.get((base & !Base::VAR) as usize) else {
            return false;
        };
        let want = match v.space {
            Space::Shared => Target::Shared,
            _ => Target::Local,
        };
        let size = v.bytes.unwrap_or(u64::from(self.spec.dynamic_shared));
        target == Some(want)
            && offset
                .checked_sub(v.offset)
                .and_then(|o| o.checked_add(width))
                .is_some_and(|end| end <= size)
    }

    /// Whether an address of region `base` lies between the region's start and its end
    /// (inclusive), where its offset is the same on every layout.
    pub(super) fn in_region(&self, base: u32, bits: u64) -> bool {
        let (_, start, size) = self.origin(base, Space::Generic, bits);
        bits.wrapping_sub(start) <= size
    }

    /// The name, start (in our layout, as seen through an access in space `asked` at `addr`)
    /// and size of region `base`, for a finding.
    fn origin(&self, base: u32, asked: Space, addr: u64) -> (String, u64, u64) {
        if base & Base::SCRATCH != 0 {
            let p = (base & !Base::SCRATCH) as usize;
            let name = self.prog.params.get(p).map_or("?", |p| p.name.as_str());
            let start = self.param_bits.get(p).copied().unwrap_or(0);
            return (format!("unbound pointer parameter {name}"), start, 0);
        }
        if base & Base::VAR == 0 {
            let k = base as usize;
            return match self.tensors.get(k) {
                Some(t) => (
                    format!("tensor {}", t.name),
                    (k as u64 + 1) * TENSOR_STRIDE,
                    t.region.bytes,
                ),
                None => ("?".into(), 0, 0),
            };
        }
        let Some(v) = self.prog.vars.get((base & !Base::VAR) as usize) else {
            return ("?".into(), 0, 0);
        };
        let window = match v.space {
            Space::Shared => SHARED_WINDOW,
            _ => LOCAL_WINDOW,
        };
        // A generic address of a variable is its window plus its offset.
        let generic = asked == Space::Generic
            && (window..window.saturating_add(WINDOW_BYTES)).contains(&addr);
        let start = v.offset + if generic { window } else { 0 };
        let size = v.bytes.unwrap_or(u64::from(self.spec.dynamic_shared));
        (
            format!("{} variable {}", v.space.name(), v.name),
            start,
            size,
        )
    }

    /// Site of an earlier access, from its epoch.
    fn epoch_site(&self, e: &Epoch, action: &str) -> super::Site {
        let g = self.spec.grid;
        let b = self.spec.block;
        let cta = [e.cta % g[0], (e.cta / g[0]) % g[1], e.cta / (g[0] * g[1])];
        let tid = [e.tid % b[0], (e.tid / b[0]) % b[1], e.tid / (b[0] * b[1])];
        self.site(cta, tid, e.pc, action.to_string())
    }

    /// The hot case of symbolic execution, answered without the general path: an aligned,
    /// in-bounds load of one element of an `in` tensor nobody wrote, whose leaves were interned
    /// up front. It returns exactly what the general path would (no cells, no shadow: see the
    /// comment there on unwritten `in` tensors).
    #[inline]
    fn input_leaf(&mut self, space: Space, ptr: Ptr, width: u64, kind: Access) -> Option<Val> {
        if !matches!(kind, Access::Load) || !matches!(space, Space::Global | Space::Generic) {
            return None;
        }
        let addr = ptr.bits;
        let k = (addr / TENSOR_STRIDE).checked_sub(1)?;
        // Derived from this very tensor (a tensor's base is its index).
        if ptr.base != Some(k as u32) {
            return None;
        }
        let tm = self.tensors.get_mut(usize::try_from(k).ok()?)?;
        let base = tm.input_base?;
        let offset = addr % TENSOR_STRIDE;
        let inside = offset
            .checked_add(width)
            .is_some_and(|e| e <= tm.region.bytes);
        if tm.role != Role::In
            || tm.written
            || width != tm.elem_bytes
            || !offset.is_multiple_of(width)
            || !inside
        {
            return None;
        }
        let index = offset / width;
        // The read footprint, as the general path records it (`initial`).
        tm.reads = Some(match tm.reads {
            Some((a, b)) => (a.min(index), b.max(index + 1)),
            None => (index, index + 1),
        });
        Some(Val::Term(base.offset(index)))
    }

    /// The tensor and granule range `width` bytes at global address `addr` cover, if they lie
    /// in a tensor.
    pub(super) fn tensor_granules(&self, addr: u64, width: u64) -> Option<(usize, Range<u64>)> {
        let (Some(Target::Tensor(k)), offset, _) = self.resolve(Space::Global, addr) else {
            return None;
        };
        let g = self.tensors[k].region.granule;
        Some((k, offset / g..offset.checked_add(width)?.div_ceil(g)))
    }

    /// Reports a write to a granule that an in-flight `cp.async` reads.
    #[allow(clippy::too_many_arguments)]
    #[cold]
    fn written_in_flight(
        &mut self,
        cta: &mut Cta,
        t: usize,
        k: usize,
        offset: u64,
        width: u64,
        pc: u32,
    ) {
        let g = self.tensors[k].region.granule;
        let hit = (offset / g..(offset + width).div_ceil(g)).find_map(|gi| {
            cta.inflight
                .get(&(k, gi))
                .map(|&(tid, at, _)| (gi, tid, at))
        });
        let Some((gi, issuer, at)) = hit else {
            return;
        };
        cta.source_written = true;
        let b = self.spec.block;
        let itid = [
            issuer % b[0],
            (issuer / b[0]) % b[1],
            issuer / (b[0] * b[1]),
        ];
        let first = self.site(cta.id, itid, at, "starts a cp.async reading here".into());
        let second = self.site(cta.id, cta.threads[t].tid, pc, "writes".into());
        self.global_race(
            k,
            gi,
            first,
            second,
            "the source of a cp.async was written before the cp.async.wait that completes \
             the copy: the copy reads it at some moment in between",
        );
    }

    /// Records a read through the non-coherent path (`ld.global.nc`, already performed as a
    /// load) and reports it if the kernel wrote those bytes before: that path needs data
    /// read-only for the kernel's whole lifetime, which no barrier or program order
    /// replaces (a later write is reported at the write).
    pub(super) fn nc_read(&mut self, cta: &Cta, t: usize, ptr: Ptr, width: u64, pc: u32) {
        let (Some(Target::Tensor(k)), offset, _) = self.resolve(Space::Global, ptr.bits) else {
            return;
        };
        let tm = &mut self.tensors[k];
        let g = tm.region.granule;
        let Some(end) = offset.checked_add(width).filter(|&e| e <= tm.region.bytes) else {
            return;
        };
        let tid = cta.threads[t].tid;
        let mut earlier = None;
        for gi in offset / g..end.div_ceil(g) {
            tm.nc_reads.entry(gi).or_insert((cta.id, tid, pc));
            if earlier.is_none()
                && let Some(s) = tm.region.shadow(gi)
            {
                earlier = s
                    .write
                    .or(s.same_writes.first().copied())
                    .or(s.atomics.first().map(|a| a.0))
                    .map(|e| (gi, e));
            }
        }
        let Some((gi, e)) = earlier else {
            return;
        };
        let first = self.epoch_site(&e, "writes");
        let second = self.site(cta.id, tid, pc, "reads through ld.global.nc".into());
        self.nc_finding(k, gi, first, second);
    }

    /// Reports a write to bytes that an `ld.global.nc` read (see [`Machine::nc_read`]).
    #[cold]
    fn written_after_nc(
        &mut self,
        cta: &Cta,
        t: usize,
        k: usize,
        offset: u64,
        width: u64,
        pc: u32,
    ) {
        let tm = &self.tensors[k];
        let g = tm.region.granule;
        let hit = (offset / g..(offset + width).div_ceil(g))
            .find_map(|gi| tm.nc_reads.get(&gi).map(|&r| (gi, r)));
        let Some((gi, (rcta, rtid, rpc))) = hit else {
            return;
        };
        let first = self.site(rcta, rtid, rpc, "reads through ld.global.nc".into());
        let second = self.site(cta.id, cta.threads[t].tid, pc, "writes".into());
        self.nc_finding(k, gi, first, second);
    }

    fn nc_finding(&mut self, k: usize, gi: u64, first: super::Site, second: super::Site) {
        self.global_race(
            k,
            gi,
            first,
            second,
            "ld.global.nc reads data that this kernel writes: the non-coherent path requires \
             it read-only for the kernel's whole lifetime, so the read may see stale bytes \
             whatever orders the two",
        );
    }

    /// Reports a race on granule `gi` of tensor `k` between the two sites.
    fn global_race(
        &mut self,
        k: usize,
        gi: u64,
        first: super::Site,
        second: super::Site,
        detail: &str,
    ) {
        let g = self.tensors[k].region.granule;
        let addr = (k as u64 + 1) * TENSOR_STRIDE + gi * g;
        let location = self.describe(Some(Target::Tensor(k)), Space::Global, addr, gi * g);
        self.report(Finding {
            kind: FindingKind::DataRace,
            location: Some(location),
            space: Some(Space::Global),
            sites: vec![first, second],
            detail: detail.into(),
        });
    }

    /// Performs one access of `width` bytes; returns what a load reads (a store returns the
    /// stored value, an atomic [`Val::Unordered`]).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn access(
        &mut self,
        cta: &mut Cta,
        t: usize,
        space: Space,
        ptr: Ptr,
        width: u64,
        kind: Access,
        pc: u32,
    ) -> Result<Val, ExecError> {
        if let Some(v) = self.input_leaf(space, ptr, width, kind) {
            return Ok(v);
        }
        self.access_general(cta, t, space, ptr, width, kind, pc)
    }

    /// [`Machine::access`] past its input-leaf shortcut.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn access_general(
        &mut self,
        cta: &mut Cta,
        t: usize,
        space: Space,
        ptr: Ptr,
        width: u64,
        kind: Access,
        pc: u32,
    ) -> Result<Val, ExecError> {
        let line = self.prog.insts[pc as usize].line;
        let addr = ptr.bits;
        let asked = space;
        let (target, offset, space) = self.resolve(space, addr);
        let tid = cta.threads[t].tid;
        // Two 16-bit halves stored as one 32-bit float element are no number of it (the bf16
        // widening idiom `mov.b32 %f, {0, %h}` is already that bf16 value, not a pair).
        if let (Access::Store(Val::Pair(..)), Some(Target::Tensor(k))) = (kind, target)
            && self.tensors[k].is_float
            && self.tensors[k].elem_bytes == 4
        {
            let name = self.tensors[k].name.clone();
            return Err(ExecError::Unsupported {
                line,
                what: format!(
                    "two 16-bit halves stored as one 32-bit element of tensor {name} (only a \
                     bf16 value over zero bits reads as that number)"
                ),
            });
        }
        let store = match kind {
            Access::Load => None,
            Access::Store(v) => Some(v),
            Access::AtomicAdd { .. } => Some(Val::Unordered),
        };
        let verb = match kind {
            Access::Load => "reads",
            Access::Store(_) => "writes",
            Access::AtomicAdd { .. } => "atomically adds to",
        };
        let bytes = match target {
            Some(Target::Tensor(k)) => self.tensors[k].region.bytes,
            Some(Target::Shared) => cta.shared.bytes,
            Some(Target::Local) => cta.threads[t].local.bytes,
            None => 0,
        };
        let inside = target.is_some() && offset.checked_add(width).is_some_and(|e| e <= bytes);
        let legal = inside && self.within_origin(ptr.base, target, offset, width);
        if !legal {
            let mut location = self.describe(target, space, addr, offset);
            let site = self.site(cta.id, tid, pc, format!("{verb} {width} bytes"));
            let detail = match ptr.base {
                None => "the address is not derived from a tensor parameter or a variable".into(),
                Some(base) => {
                    let (name, start, size) = self.origin(base, asked, addr);
                    let o = if ptr.wrap32 {
                        i64::from(addr.wrapping_sub(start) as u32 as i32)
                    } else {
                        addr.wrapping_sub(start) as i64
                    };
                    // Where it lands in our layout means nothing unless that is its own tensor.
                    if !(base & Base::VAR == 0 && target == Some(Target::Tensor(base as usize))) {
                        location = format!("{name} + {o} bytes");
                    }
                    format!(
                        "{width} bytes at offset {o} are not inside the {size} bytes of {name}, \
                         the region the address was derived from"
                    )
                }
            };
            self.report(Finding {
                kind: FindingKind::OutOfBounds,
                location: Some(location),
                space: Some(space),
                sites: vec![site],
                detail,
            });
            return Ok(Val::Bits(0));
        }
        // `ld.const` reads a module `.const` variable, and only that; the variables are read-only.
        let module = match target {
            Some(Target::Tensor(k)) => self.tensors[k].module,
            _ => None,
        };
        if (asked == Space::Const) != (module == Some(Space::Const)) && asked != Space::Generic {
            return Err(ExecError::Unsupported {
                line,
                what: match module {
                    Some(Space::Const) => format!(
                        "a .{} access to the .const variable {}",
                        asked.name(),
                        self.describe(target, space, addr, offset)
                    ),
                    _ => "an ld.const outside a module .const variable".into(),
                },
            });
        }
        if let (Some(sp), Some(_), Some(Target::Tensor(k))) = (module, store, target) {
            let name = self.tensors[k].name.clone();
            return Err(if sp == Space::Const {
                ExecError::Invalid {
                    line,
                    msg: format!(
                        "a store to the .const variable {name}: constant memory is read-only"
                    ),
                }
            } else {
                ExecError::Unsupported {
                    line,
                    what: format!(
                        "a store to the module .global variable {name} (module variables are \
                         modeled read-only)"
                    ),
                }
            });
        }
        if let (Some(Target::Tensor(_)), Some(Val::Addr { .. })) = (target, store) {
            return Err(ExecError::Unsupported {
                line,
                what: "storing an address to global memory".into(),
            });
        }
        // Reads of an `in` tensor nobody has written need neither cells nor race shadows: a
        // race on it needs a write, and every write to an `in` tensor is itself a finding.
        if let (Some(Target::Tensor(k)), None) = (target, store) {
            let tm = &self.tensors[k];
            if tm.role == Role::In
                && tm.module.is_none()
                && !tm.written
                && width == tm.elem_bytes
                && offset % width == 0
            {
                return self.initial(target, space, addr, offset, width, cta, t, pc);
            }
        }
        // A 16-bit float tensor takes values in its own format: an f16 result stored into a
        // bf16 tensor is its bits read as another number, which the real model does not compute.
        if let (Some(Target::Tensor(k)), Some(v)) = (target, store)
            && self.tensors[k].is_float
            && self.tensors[k].elem_bytes == 2
        {
            let want = if self.tensors[k].is_bf16 {
                crate::term::Fmt::Bf16
            } else {
                crate::term::Fmt::F16
            };
            let halves = match v {
                Val::Term(a) => [Some(a), None],
                Val::Pair(a, b) => [Some(a), Some(b)],
                _ => [None, None],
            };
            for h in halves.into_iter().flatten() {
                if let Some(f) = self.format_of(h)
                    && f != want
                {
                    let name = self.tensors[k].name.clone();
                    return Err(ExecError::Unsupported {
                        line,
                        what: format!(
                            "a {f:?} value stored into the {want:?} tensor {name} (its bits \
                             would be read as another number)"
                        ),
                    });
                }
            }
        }
        if let (Some(Target::Tensor(k)), Some(Val::Int { term, .. })) = (target, store) {
            let tm = &self.tensors[k];
            let holds = match (tm.int, self.int_range(term)) {
                (Some((ty, _)), Some(r)) => {
                    let (lo, hi) = super::ints::type_range(ty);
                    lo <= r.0 && r.1 <= hi
                }
                _ => false,
            };
            if !holds {
                let name = tm.name.clone();
                return Err(ExecError::Unsupported {
                    line,
                    what: format!(
                        "integer tensor data stored into tensor {name}, whose elements cannot hold \
                         every value it may take (or are floats)"
                    ),
                });
            }
        }
        if let (Some(Target::Tensor(k)), Some(_)) = (target, store) {
            self.tensors[k].written = true;
            if !cta.inflight.is_empty() {
                self.written_in_flight(cta, t, k, offset, width, pc);
            }
            if !self.tensors[k].nc_reads.is_empty() {
                self.written_after_nc(cta, t, k, offset, width, pc);
            }
        }
        if let Some(Target::Tensor(k)) = target {
            self.whole_elements(k, width, kind, line)?;
        }
        // What the location holds now, for the benign-write test (a store only).
        let prior = match (kind, target) {
            (Access::Store(_), Some(Target::Tensor(k))) => {
                Some(self.tensors[k].region.load(offset, width))
            }
            (Access::Store(_), Some(Target::Shared)) => Some(cta.shared.load(offset, width)),
            (Access::Store(_), _) => Some(cta.threads[t].local.load(offset, width)),
            _ => None,
        };
        // Races: local memory is private, everything else is checked granule by granule. A
        // store of exactly the value already there (same bits, or the same term) is a benign
        // write: no order of such writes changes memory.
        // (Only a store asks: `load` reads nothing but the cells.)
        let mut underflow_only = false;
        let same_value = match kind {
            Access::Store(v) => match (v, prior.unwrap_or(Err(LoadMiss::Shape))) {
                // Two copies in flight to one place are a race whatever they copy.
                (Val::Pending, _) => false,
                (v, Ok(old)) if old == v => true,
                (Val::Term(new), Ok(Val::Term(old))) => {
                    let (same, visited) =
                        self.arena.equal_up_to_commutativity_counted(old, new, 4096);
                    self.compared += visited as u64;
                    same || {
                        // Contracted butterflies: fma(x, x, shfl(x*x)) on 16-bit data.
                        let exact = |x, y| product_exactness(self.format_of(x), self.format_of(y));
                        let (how, visited) = self
                            .arena
                            .equal_bits_given_exact_products(old, new, 4096, &exact);
                        self.compared += visited as u64;
                        underflow_only = how == Some(Exactness::InNormalRange);
                        how == Some(Exactness::Always)
                    }
                }
                _ => false,
            },
            Access::Load | Access::AtomicAdd { .. } => false,
        };
        // Not bit-equal but equal over the reals: a write-write conflict between such values is
        // fp-nondeterminism, a finding of its own.
        let real_same = !same_value
            && (underflow_only
                || match (kind, prior.unwrap_or(Err(LoadMiss::Shape))) {
                    (Access::Store(Val::Term(new)), Ok(Val::Term(old))) => {
                        let (same, visited) =
                            self.arena.equal_up_to_rounding_counted(old, new, 4096);
                        self.compared += visited as u64;
                        same
                    }
                    _ => false,
                });
        let region = match target {
            Some(Target::Tensor(k)) => &mut self.tensors[k].region,
            Some(Target::Shared) => &mut cta.shared,
            _ => &mut cta.threads[t].local,
        };
        let g = region.granule;
        if width < g || offset % g != 0 {
            return Err(ExecError::Unsupported {
                line,
                what: format!(
                    "{width}-byte access at offset {offset} of a region with {g}-byte elements"
                ),
            });
        }
        let mut conflict = None;
        if target != Some(Target::Local) {
            let now = cta.clocks.epoch(t as u32, pc);
            for gi in offset / g..(offset + width).div_ceil(g) {
                let shadow = region.shadow_mut(gi);
                let c = match kind {
                    Access::AtomicAdd { cta_scope, .. } => {
                        shadow.atomic(&cta.clocks, now, cta_scope)
                    }
                    _ => shadow.access(&cta.clocks, now, store.is_some(), same_value),
                };
                conflict = conflict.or(c);
            }
        }
        let result = match kind {
            Access::Store(v) => {
                region.store(offset, width, v);
                Ok(v)
            }
            Access::Load | Access::AtomicAdd { .. } => region.load(offset, width),
        };
        let part_of_address =
            matches!(result, Err(LoadMiss::Shape)) && region.holds_address(offset);
        if let Some((earlier, what)) = conflict {
            let was_write = what != Earlier::Read;
            // Only two plain writes can hold values equal over the reals.
            let plain = what == Earlier::Write;
            let location = self.describe(target, space, addr, offset);
            let first = self.epoch_site(&earlier, if was_write { "writes" } else { "reads" });
            let second = self.site(cta.id, tid, pc, verb.to_string());
            let same_cta = earlier.cta == cta.linear;
            let unordered = if same_cta {
                "no barrier orders these accesses"
            } else {
                "accesses from different blocks are never ordered"
            };
            let (kind, detail) = if plain && underflow_only {
                (
                    FindingKind::FpNondeterministic,
                    format!(
                        "{unordered}; the two values are equal over the reals, and their bits \
                         are equal as long as every product of two 16-bit values in them is 0 or \
                         in f32's normal range (then it is exact and a contracted fma adds the \
                         same number); a product that underflows can give different bits"
                    ),
                )
            } else if plain && real_same {
                (
                    FindingKind::FpNondeterministic,
                    format!(
                        "{unordered}, and the two values are equal over the reals but may differ \
                         in their bits (rounding, approximation, contraction or conversion \
                         path): which one lands is unspecified in floating point"
                    ),
                )
            } else {
                (FindingKind::DataRace, unordered.to_string())
            };
            self.report(Finding {
                kind,
                location: Some(location),
                space: Some(space),
                sites: vec![first, second],
                detail,
            });
        }
        if let (Some(Target::Tensor(k)), Some(_)) = (target, store)
            && self.tensors[k].role == Role::In
        {
            let location = self.describe(target, space, addr, offset);
            let site = self.site(cta.id, tid, pc, "writes".into());
            let name = self.tensors[k].name.clone();
            self.report(Finding {
                kind: FindingKind::WriteToInput,
                location: Some(location),
                space: Some(space),
                sites: vec![site],
                detail: format!("tensor {name} is declared role = \"in\""),
            });
        }
        let old = match result {
            Ok(Val::Pending) if store.is_none() => {
                let location = self.describe(target, space, addr, offset);
                let site = self.site(cta.id, tid, pc, format!("reads {width} bytes"));
                self.report(Finding {
                    kind: FindingKind::UninitializedRead,
                    location: Some(location),
                    space: Some(space),
                    sites: vec![site],
                    detail: "a cp.async is still copying here: its destination is undefined \
                             until the cp.async.wait_group that completes it"
                        .into(),
                });
                Val::Bits(0)
            }
            Ok(v) => v,
            Err(LoadMiss::Shape) if part_of_address => {
                return Err(ExecError::Unsupported {
                    line,
                    what: format!(
                        "{width}-byte load of part of a stored address (addresses are tracked \
                         whole: a pointer must be reloaded with the width it was stored with)"
                    ),
                });
            }
            Err(LoadMiss::Shape) if width == 4 && g == 2 => {
                // Two halves stored apart (data beside a constant, e.g. a zero fill).
                let region = match target {
                    Some(Target::Tensor(k)) => &self.tensors[k].region,
                    Some(Target::Shared) => &cta.shared,
                    _ => &cta.threads[t].local,
                };
                match (region.load(offset, 2), region.load(offset + 2, 2)) {
                    (Ok(lo), Ok(hi)) if lo != Val::Pending && hi != Val::Pending => {
                        self.pack_halves(lo, hi, line)?
                    }
                    _ => {
                        return Err(ExecError::Unsupported {
                            line,
                            what: "4-byte load of two 16-bit halves that are not both defined"
                                .into(),
                        });
                    }
                }
            }
            Err(LoadMiss::Shape) => {
                return Err(ExecError::Unsupported {
                    line,
                    what: format!(
                        "{width}-byte load of memory written with a different shape of symbolic value"
                    ),
                });
            }
            Err(LoadMiss::Uninit(_)) => {
                self.initial(target, space, addr, offset, width, cta, t, pc)?
            }
        };
        let Access::AtomicAdd { val, ty, .. } = kind else {
            return Ok(old);
        };
        // The atomic's effect: old + val, stored back. The sum of all contributions is the same
        // real number in every order (the term records one order; the rules normalize AC).
        let new = match ty {
            crate::lower::Ty::Float(f) => self.float_bin(
                crate::lower::FloatOp::Add,
                f,
                crate::lower::FloatMods::RN,
                old,
                val,
                line,
            )?,
            crate::lower::Ty::Int(it) => match (old, val) {
                (Val::Bits(a), Val::Bits(b)) => {
                    Val::Bits(a.wrapping_add(b) & super::memory::mask(u64::from(it.bits)))
                }
                (Val::Int { .. } | Val::Bits(_), Val::Int { .. } | Val::Bits(_)) => {
                    let new = match self.int_sym_atomic(it, old, val, line)? {
                        Some(v) => v,
                        None => return Err(super::step::data_int(line)),
                    };
                    // The sum lands in an element its dtype reads: it must hold every value.
                    if let (Some(Target::Tensor(k)), Val::Int { term, .. }) = (target, new) {
                        let holds = match (self.tensors[k].int, self.int_range(term)) {
                            (Some((ty, _)), Some(r)) => {
                                let (lo, hi) = super::ints::type_range(ty);
                                lo <= r.0 && r.1 <= hi
                            }
                            _ => false,
                        };
                        if !holds {
                            return Err(ExecError::Unsupported {
                                line,
                                what: format!(
                                    "an integer atomic add into {} whose sum may leave its dtype's range",
                                    self.tensors[k].name
                                ),
                            });
                        }
                    }
                    new
                }
                _ => {
                    return Err(ExecError::Unsupported {
                        line,
                        what: "integer atomic add of tensor data".into(),
                    });
                }
            },
        };
        let region = match target {
            Some(Target::Tensor(k)) => &mut self.tensors[k].region,
            Some(Target::Shared) => &mut cta.shared,
            _ => &mut cta.threads[t].local,
        };
        region.store(offset, width, new);
        Ok(Val::Unordered)
    }

    /// Refuses a store into an output tensor that is wider than its element, unless its value
    /// splits into whole elements exactly (concrete bits, or two packed halves into 16-bit
    /// elements): the bytes of a wider symbolic value (an f32 into an f16 tensor) are no
    /// element's real value, and dropping them from the footprint would compare nothing.
    fn whole_elements(
        &self,
        k: usize,
        width: u64,
        kind: Access,
        line: Line,
    ) -> Result<(), ExecError> {
        let tm = &self.tensors[k];
        let g = tm.region.granule;
        if tm.role == Role::In || width <= g {
            return Ok(());
        }
        let splits = match kind {
            Access::Store(Val::Bits(_)) => true,
            Access::Store(Val::Pair(..)) => g == 2 && width == 4,
            Access::Store(_) | Access::AtomicAdd { .. } => false,
            Access::Load => return Ok(()),
        };
        if splits {
            return Ok(());
        }
        Err(ExecError::Unsupported {
            line,
            what: format!(
                "a store of {width} bytes of a computed value into output {}, whose elements are {g} bytes: \
                 its bytes are parts of one wider value, not {} elements of their own, so they \
                 cannot be compared element by element",
                tm.name,
                width / g
            ),
        })
    }

    /// The input term of element `index` of tensor `k`.
    fn leaf(&mut self, k: usize, index: u64) -> Result<TermId, ExecError> {
        let tm = &self.tensors[k];
        // Leaves of tensors interned up front are `base + index`: no lookup.
        if let Some(base) = tm.input_base {
            return Ok(base.offset(index));
        }
        let node = Node::Input {
            tensor: tm.ordinal,
            index,
        };
        self.arena
            .intern(node)
            .map_err(|e| ExecError::Limit(e.to_string()))
    }

    /// The value of memory never written in this launch: tensor inputs, or a finding.
    #[allow(clippy::too_many_arguments)]
    fn initial(
        &mut self,
        target: Option<Target>,
        space: Space,
        addr: u64,
        offset: u64,
        width: u64,
        cta: &Cta,
        t: usize,
        pc: u32,
    ) -> Result<Val, ExecError> {
        let line = self.prog.insts[pc as usize].line;
        if let Some(Target::Tensor(k)) = target
            && self.tensors[k].init
        {
            // Contents the spec fixes: concrete in both modes, whatever the role.
            let tm = &self.tensors[k];
            let mut index = offset / tm.elem_bytes;
            if self.mode == Mode::Symbolic && super::fault::active(super::fault::Fault::InitShift) {
                index = (index + 1) % tm.data.as_ref().map_or(1, |d| d.len().max(1) as u64);
            }
            if width != tm.elem_bytes {
                return Err(ExecError::Unsupported {
                    line,
                    what: format!(
                        "{width}-byte load across {}-byte elements of {} (its contents are fixed by init)",
                        tm.elem_bytes, tm.name
                    ),
                });
            }
            return tm
                .data
                .as_ref()
                .and_then(|d| d.get(index as usize))
                .map(|&b| Val::Bits(b))
                .ok_or_else(|| ExecError::Launch(format!("no data for {}[{index}]", tm.name)));
        }
        if let Some(Target::Tensor(k)) = target {
            let tm = &mut self.tensors[k];
            if tm.role != Role::Out {
                // The read footprint of the initial contents (a pair may link tensors of
                // different sizes only where both read the common part).
                let eb = tm.elem_bytes.max(1);
                let (lo, hi) = (offset / eb, (offset + width).div_ceil(eb));
                tm.reads = Some(match tm.reads {
                    Some((a, b)) => (a.min(lo), b.max(hi)),
                    None => (lo, hi),
                });
                let tm = &self.tensors[k];
                // Two adjacent 16-bit floats read as one packed register (`ld.b32` of f16 data).
                if width == 2 * tm.elem_bytes && tm.elem_bytes == 2 && tm.is_float {
                    let index = offset / 2;
                    return match self.mode {
                        Mode::Concrete => {
                            let d = tm.data.as_ref();
                            let half = |i: u64| d.and_then(|d| d.get(i as usize)).copied();
                            match (half(index), half(index + 1)) {
                                (Some(lo), Some(hi)) => Ok(Val::Bits(lo | hi << 16)),
                                _ => Err(ExecError::Launch(format!(
                                    "no data for {}[{index}..{}]",
                                    tm.name,
                                    index + 2
                                ))),
                            }
                        }
                        Mode::Symbolic => {
                            Ok(Val::Pair(self.leaf(k, index)?, self.leaf(k, index + 1)?))
                        }
                    };
                }
                // The caller's load found this element unwritten; a wider load would mix elements.
                if width != tm.elem_bytes {
                    return Err(ExecError::Unsupported {
                        line,
                        what: format!(
                            "{width}-byte load across {}-byte elements of {}",
                            tm.elem_bytes, tm.name
                        ),
                    });
                }
                let index = offset / tm.elem_bytes;
                return match self.mode {
                    Mode::Concrete => {
                        let d = tm
                            .data
                            .as_ref()
                            .and_then(|d| d.get(index as usize))
                            .copied();
                        d.map(Val::Bits).ok_or_else(|| {
                            ExecError::Launch(format!("no data for {}[{index}]", tm.name))
                        })
                    }
                    // An integer element is an exact integer term in its interval.
                    Mode::Symbolic => match tm.int {
                        Some((ty, r)) if ty.bits >= 32 => {
                            let leaf = self.leaf(k, index)?;
                            Ok(self.int_val(leaf, r, ty.bits))
                        }
                        _ if !tm.is_float => Err(ExecError::Unsupported {
                            line,
                            what: format!(
                                "reading {}-bit integer tensor data ({}) symbolically: only 32- and \
                                 64-bit integer elements are modelled (or give the tensor an init)",
                                tm.elem_bytes * 8,
                                tm.name
                            ),
                        }),
                        _ => Ok(Val::Term(self.leaf(k, index)?)),
                    },
                };
            }
        }
        let location = self.describe(target, space, addr, offset);
        let site = self.site(
            cta.id,
            cta.threads[t].tid,
            pc,
            format!("reads {width} bytes"),
        );
        self.report(Finding {
            kind: FindingKind::UninitializedRead,
            location: Some(location),
            space: Some(space),
            sites: vec![site],
            detail: "nothing was written here before this read".into(),
        });
        Ok(Val::Bits(0))
    }
}

/// Whether a product of values in formats `a` and `b` is exact in f32: two f16 values have 22
/// significant bits and a product between 2^-48 and 2^32, always exact; with a bf16 value the
/// significand still fits (16 or 19 bits) but bf16's exponent range is f32's, so the product is
/// exact only while it is 0 or normal in f32.
fn product_exactness(a: Option<Fmt>, b: Option<Fmt>) -> Exactness {
    match (a, b) {
        (Some(Fmt::F16), Some(Fmt::F16)) => Exactness::Always,
        (Some(Fmt::F16 | Fmt::Bf16), Some(Fmt::F16 | Fmt::Bf16)) => Exactness::InNormalRange,
        _ => Exactness::Never,
    }
}
