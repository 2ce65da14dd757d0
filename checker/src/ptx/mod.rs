//! The PTX front end: text to [`ast::Module`], with a line for every item.
//!
//! Accepts what nvcc 13 and Triton 3.9 emit (PTX ISA 8.x/9.x): module directives, entries and
//! device functions, declarations, labels, guarded instructions. DWARF `.section` blocks are
//! skipped; `.file`/`.loc` are kept for source mapping. Anything else is a [`ParseError`].

pub mod ast;
mod lex;
mod parse;

pub use ast::*;

/// A syntax error, located at a 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}:{col}: {msg}")]
pub struct ParseError {
    pub line: Line,
    pub col: u32,
    pub msg: String,
}

/// Parses a whole PTX file.
pub fn parse(text: &str) -> Result<Module, ParseError> {
    parse::parse_module(text)
}
