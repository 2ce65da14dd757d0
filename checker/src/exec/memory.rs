//! Memory regions: tensors, the CTA's shared memory, each thread's local memory.
//!
//! Every region is an array of granules (a tensor's element size; 2 bytes elsewhere). A stored
//! value wider than a granule is split into parts so that a later load of the same width gets the
//! same value back, and a load of a different shape is either exact bit surgery on concrete
//! values or rejected. Each granule also carries race-detection [`Shadow`] state.

use super::race::Shadow;
use super::value::Val;
use crate::term::FxBuildHasher;
use std::collections::HashMap;

/// Tensors are laid out this far apart in the global address space, so a stray address almost
/// never lands in another tensor (spec tensors are at most 16 GiB).
pub const TENSOR_STRIDE: u64 = 1 << 36;
/// Generic addresses of shared memory (`cvta.shared`).
pub const SHARED_WINDOW: u64 = 0x7f00_0000_0000_0000;
/// Generic addresses of local memory (`cvta.local`).
pub const LOCAL_WINDOW: u64 = 0x7e00_0000_0000_0000;
/// Size of each generic window.
pub const WINDOW_BYTES: u64 = 1 << 40;

/// A granule's content: `part` of a value `width` bytes wide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    pub val: Val,
    pub width: u8,
    pub part: u8,
}

#[derive(Debug, Clone)]
enum Store<T> {
    Dense(Vec<Option<T>>),
    Sparse(HashMap<u64, T, FxBuildHasher>),
}

impl<T> Store<T> {
    fn get(&self, i: u64) -> Option<&T> {
        match self {
            Store::Dense(v) => v.get(i as usize)?.as_ref(),
            Store::Sparse(m) => m.get(&i),
        }
    }

    fn get_mut_or(&mut self, i: u64, make: impl FnOnce() -> T) -> &mut T {
        match self {
            Store::Dense(v) => {
                let slot = &mut v[i as usize];
                slot.get_or_insert_with(make)
            }
            Store::Sparse(m) => m.entry(i).or_insert_with(make),
        }
    }

    fn set(&mut self, i: u64, x: T) {
        match self {
            Store::Dense(v) => v[i as usize] = Some(x),
            Store::Sparse(m) => {
                m.insert(i, x);
            }
        }
    }

    fn iter(&self) -> Box<dyn Iterator<Item = (u64, &T)> + '_> {
        match self {
            Store::Dense(v) => Box::new(
                v.iter()
                    .enumerate()
                    .filter_map(|(i, x)| Some((i as u64, x.as_ref()?))),
            ),
            Store::Sparse(m) => Box::new(m.iter().map(|(i, x)| (*i, x))),
        }
    }
}

/// One addressable region.
#[derive(Debug, Clone)]
pub struct Region {
    pub granule: u64,
    pub bytes: u64,
    cells: Store<Cell>,
    shadow: Store<Shadow>,
}

/// Why a load could not be answered from the cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadMiss {
    /// Granule `index` was never written.
    Uninit(u64),
    /// Pieces of different values, or a part of a symbolic value.
    Shape,
}

impl Region {
    /// A region whose cells are a dense array (shared, local): small and hot.
    pub fn dense(bytes: u64, granule: u64) -> Region {
        let n = bytes.div_ceil(granule) as usize;
        Region {
            granule,
            bytes,
            cells: Store::Dense(vec![None; n]),
            shadow: Store::Dense(vec![None; n]),
        }
    }

    /// A tensor's region: dense up to `DENSE_ELEMENTS` granules, sparse beyond.
    pub fn tensor(bytes: u64, granule: u64) -> Region {
        if bytes / granule <= super::DENSE_ELEMENTS {
            Region::dense(bytes, granule)
        } else {
            Region::sparse(bytes, granule)
        }
    }

    /// A region whose cells are a hash map (tensors): large and touched sparsely.
    pub fn sparse(bytes: u64, granule: u64) -> Region {
        Region {
            granule,
            bytes,
            cells: Store::Sparse(HashMap::default()),
            shadow: Store::Sparse(HashMap::default()),
        }
    }

    /// Whether `[offset, offset + width)` lies inside.
    pub fn contains(&self, offset: u64, width: u64) -> bool {
        offset
            .checked_add(width)
            .is_some_and(|end| end <= self.bytes)
    }

    pub fn shadow(&self, granule: u64) -> Option<&Shadow> {
        self.shadow.get(granule)
    }

    pub fn shadow_mut(&mut self, granule: u64) -> &mut Shadow {
        self.shadow.get_mut_or(granule, Shadow::default)
    }

    /// Stores `val`, `width` bytes wide, at a granule-aligned `offset`.
    pub fn store(&mut self, offset: u64, width: u64, val: Val) {
        let g = self.granule;
        let first = offset / g;
        let parts = width.div_ceil(g).max(1);
        if let (Val::Pair(lo, hi), 2, 2) = (val, g, parts) {
            // Packed halves are two elements of their own: each half can be read alone.
            for (p, t) in [lo, hi].into_iter().enumerate() {
                self.cells.set(
                    first + p as u64,
                    Cell {
                        val: Val::Term(t),
                        width: 2,
                        part: 0,
                    },
                );
            }
            return;
        }
        if parts == 1 {
            self.cells.set(
                first,
                Cell {
                    val,
                    width: width as u8,
                    part: 0,
                },
            );
            return;
        }
        for p in 0..parts {
            let val = match val {
                // Concrete values are split into their own bits, so any later shape can read them.
                Val::Bits(b) => Val::Bits(b >> (p * g * 8) & mask(g * 8)),
                other => other,
            };
            let (width, part) = if matches!(val, Val::Bits(_)) {
                (g as u8, 0)
            } else {
                (width as u8, p as u8)
            };
            self.cells.set(first + p, Cell { val, width, part });
        }
    }

    /// Whether the granule at `offset` holds part of a stored address, so that a load of
    /// another shape there can say so (addresses are kept whole, never split into bits).
    pub fn holds_address(&self, offset: u64) -> bool {
        self.cells
            .get(offset / self.granule)
            .is_some_and(|c| matches!(c.val, Val::Addr { .. }))
    }

    /// Loads `width` bytes at a granule-aligned `offset`.
    pub fn load(&self, offset: u64, width: u64) -> Result<Val, LoadMiss> {
        let g = self.granule;
        let first = offset / g;
        let parts = width.div_ceil(g).max(1);
        let cell = |i: u64| {
            self.cells
                .get(first + i)
                .copied()
                .ok_or(LoadMiss::Uninit(first + i))
        };
        // Unwritten granules are reported before any shape question.
        for p in 0..parts {
            cell(p)?;
        }
        let c0 = cell(0)?;
        if parts == 1 {
            return match c0 {
                Cell {
                    val,
                    width: w,
                    part: 0,
                } if u64::from(w) == width => Ok(val),
                Cell {
                    val: Val::Bits(b), ..
                } => Ok(Val::Bits(b & mask(width * 8))),
                _ => Err(LoadMiss::Shape),
            };
        }
        if let (2, 2, Val::Term(lo), 2) = (g, parts, c0.val, c0.width) {
            return match cell(1)? {
                Cell {
                    val: Val::Term(hi),
                    width: 2,
                    part: 0,
                } => Ok(Val::Pair(lo, hi)),
                _ => Err(LoadMiss::Shape),
            };
        }
        if u64::from(c0.width) == width && !matches!(c0.val, Val::Bits(_)) {
            for p in 1..parts {
                let c = cell(p)?;
                if c.val != c0.val || u64::from(c.part) != p || u64::from(c.width) != width {
                    return Err(LoadMiss::Shape);
                }
            }
            return Ok(c0.val);
        }
        let mut bits = 0u64;
        for p in 0..parts {
            match cell(p)? {
                Cell {
                    val: Val::Bits(b), ..
                } => bits |= (b & mask(g * 8)) << (p * g * 8),
                _ => return Err(LoadMiss::Shape),
            }
        }
        Ok(Val::Bits(bits))
    }

    /// Every written granule with its cell, in no particular order.
    pub fn cells(&self) -> impl Iterator<Item = (u64, &Cell)> {
        self.cells.iter()
    }

    /// Clears contents and access history.
    pub fn reset(&mut self) {
        match (&mut self.cells, &mut self.shadow) {
            (Store::Dense(c), Store::Dense(s)) => {
                c.iter_mut().for_each(|x| *x = None);
                s.iter_mut().for_each(|x| *x = None);
            }
            (c, s) => {
                *c = Store::Sparse(HashMap::default());
                *s = Store::Sparse(HashMap::default());
            }
        }
    }
}

pub fn mask(bits: u64) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_concrete_stores_split_into_granules() {
        let mut r = Region::dense(16, 2);
        r.store(0, 8, Val::Bits(0x1122_3344_5566_7788));
        assert_eq!(r.load(0, 4), Ok(Val::Bits(0x5566_7788)));
        assert_eq!(r.load(4, 2), Ok(Val::Bits(0x3344)));
        assert_eq!(r.load(0, 8), Ok(Val::Bits(0x1122_3344_5566_7788)));
        assert_eq!(r.load(8, 4), Err(LoadMiss::Uninit(4)));
    }

    #[test]
    fn byte_granules_hold_neighbouring_bytes_apart() {
        // A shared `bool` beside a float: each byte its own cell, a word reads them together.
        let mut r = Region::dense(8, 1);
        r.store(4, 1, Val::Bits(1));
        r.store(5, 1, Val::Bits(0));
        assert_eq!(r.load(4, 1), Ok(Val::Bits(1)));
        assert_eq!(r.load(5, 1), Ok(Val::Bits(0)));
        assert_eq!(r.load(4, 2), Ok(Val::Bits(1)));
        assert_eq!(r.load(4, 4), Err(LoadMiss::Uninit(6)));
        r.store(0, 4, Val::Bits(0x3f80_0000));
        assert_eq!(r.load(0, 4), Ok(Val::Bits(0x3f80_0000)));
        assert_eq!(r.load(3, 1), Ok(Val::Bits(0x3f)));
    }

    #[test]
    fn symbolic_values_read_back_only_whole() {
        let mut arena = crate::term::TermArena::new();
        let t = arena
            .intern(crate::term::Node::Input {
                tensor: 0,
                index: 0,
            })
            .unwrap();
        let mut r = Region::dense(16, 2);
        r.store(4, 4, Val::Term(t));
        assert_eq!(r.load(4, 4), Ok(Val::Term(t)));
        assert_eq!(r.load(4, 2), Err(LoadMiss::Shape));
        assert_eq!(r.load(4, 8), Err(LoadMiss::Uninit(4)));
    }
}
