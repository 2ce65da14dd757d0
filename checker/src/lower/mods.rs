//! Modifier bookkeeping: each lowering function takes the modifiers it understands, and
//! [`Mods::finish`] rejects whatever is left by name, so no modifier is ever silently ignored.

use super::{LowerError, unsupported};
use crate::ptx::{Instruction, Line, ScalarType};

pub(crate) struct Mods<'a> {
    line: Line,
    opcode: &'a str,
    left: Vec<&'a str>,
}

impl<'a> Mods<'a> {
    pub fn new(i: &'a Instruction) -> Self {
        Mods {
            line: i.line,
            opcode: &i.opcode,
            left: i.mods.iter().map(String::as_str).collect(),
        }
    }

    /// Removes `m` if present.
    pub fn take(&mut self, m: &str) -> bool {
        match self.left.iter().position(|x| *x == m) {
            Some(p) => {
                self.left.remove(p);
                true
            }
            None => false,
        }
    }

    /// Removes `seq` when it stands in the remaining modifiers as one run, in that order.
    /// Positional modifiers (mma's `.alayout.blayout`) mean different things in different
    /// places, so finding each one anywhere (as [`Mods::take`] does) would read
    /// `.col.row` as `.row.col`.
    pub fn take_seq(&mut self, seq: &[&str]) -> bool {
        let Some(p) = self.left.windows(seq.len()).position(|w| w == seq) else {
            return false;
        };
        self.left.drain(p..p + seq.len());
        true
    }

    /// Removes and returns the first modifier that is one of `set`.
    pub fn take_any(&mut self, set: &[&str]) -> Option<&'a str> {
        let p = self.left.iter().position(|x| set.contains(x))?;
        Some(self.left.remove(p))
    }

    /// Drops every modifier in `set`; the caller says why in a comment.
    pub fn ignore(&mut self, set: &[&str]) {
        self.left.retain(|x| !set.contains(x));
    }

    /// Removes all type modifiers, in order.
    pub fn take_types(&mut self) -> Vec<ScalarType> {
        let mut out = Vec::new();
        self.left.retain(|x| match ScalarType::from_suffix(x) {
            Some(t) => {
                out.push(t);
                false
            }
            None => true,
        });
        out
    }

    /// Exactly one type modifier.
    pub fn one_type(&mut self) -> Result<ScalarType, LowerError> {
        let t = self.take_types();
        match t.as_slice() {
            [t] => Ok(*t),
            _ => Err(super::invalid(
                self.line,
                format!(
                    "`{}` needs exactly one type modifier, found {}",
                    self.opcode,
                    t.len()
                ),
            )),
        }
    }

    /// A vector width modifier `.v2`/`.v4`/`.v8`, or 1.
    pub fn take_vector(&mut self) -> u8 {
        match self.take_any(&["v2", "v4", "v8"]) {
            Some("v2") => 2,
            Some("v4") => 4,
            Some("v8") => 8,
            _ => 1,
        }
    }

    pub fn finish(self) -> Result<(), LowerError> {
        match self.left.first() {
            None => Ok(()),
            Some(m) => Err(unsupported(
                self.line,
                format!("modifier `.{m}` on `{}`", self.opcode),
            )),
        }
    }
}
