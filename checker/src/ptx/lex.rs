//! The PTX lexer (PTX ISA 4: syntax): text to tokens with 1-based line and byte column.
//!
//! Tokens borrow their text from the input, so lexing allocates nothing; the parser copies only
//! what ends up in the tree. A directive or modifier is one token with its leading dot and any
//! `::` parts (`.shared::cta`, `.L2::128B`); an identifier never contains a dot, so `%tid.x` is
//! `%tid` followed by the adjacent `.x` and the parser joins them.

use super::ParseError;
use super::ast::{FloatLit, Line};

/// What a token is; numbers carry their value so the parser never re-reads digits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Tok {
    /// `ld`, `%r1`, `$L__BB0_2`, `_`: PTX identifiers, `%`-registers included.
    Ident,
    /// `.reg`, `.global`, `.shared::cta`, `.m16n8k16`: a dot and a name.
    Directive,
    /// An integer literal's 64-bit pattern (the parser folds a leading `-`).
    Int(u64),
    /// `0f`/`0d` bit patterns, or a decimal literal rounded to the nearest f64.
    Float(FloatLit),
    /// A double-quoted string; the token text keeps the quotes and escapes.
    Str,
    /// One of `, ; : { } [ ] ( ) + - ! @ < > = |`.
    Punct(u8),
    /// End of input.
    Eof,
}

/// A token and where it starts.
#[derive(Debug, Clone, Copy)]
pub(super) struct Token<'a> {
    pub kind: Tok,
    /// The exact source text of the token.
    pub text: &'a str,
    pub line: Line,
    /// 1-based byte column.
    pub col: u32,
    /// Byte offset of the token start; with `text.len()` it tells whether two tokens touch.
    pub start: usize,
}

impl Token<'_> {
    /// Byte offset just past the token.
    pub fn end(&self) -> usize {
        self.start + self.text.len()
    }

    /// True for the punctuation byte `p`.
    pub fn is(&self, p: u8) -> bool {
        self.kind == Tok::Punct(p)
    }

    /// True for the directive spelled `d` (with its dot).
    pub fn is_dir(&self, d: &str) -> bool {
        self.kind == Tok::Directive && self.text == d
    }
}

/// An on-demand lexer: the parser pulls one token at a time, so memory stays flat however large
/// the DWARF sections are.
pub(super) struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    line: Line,
    line_start: usize,
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

fn hex_val(b: u8) -> Option<u64> {
    (b as char).to_digit(16).map(u64::from)
}

/// Why [`Lexer::digits`] found no value.
enum DigitsError {
    Empty,
    Overflow,
}

const PUNCT: &[u8] = b",;:{}[]()+-!@<>=|";

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Self {
        Lexer {
            src,
            bytes: src.as_bytes(),
            pos: 0,
            line: 1,
            line_start: 0,
        }
    }

    /// The byte at `pos + off`, or 0 past the end (0 is never a valid PTX character).
    fn at(&self, off: usize) -> u8 {
        self.bytes.get(self.pos + off).copied().unwrap_or(0)
    }

    fn col_of(&self, pos: usize) -> u32 {
        u32::try_from(pos - self.line_start + 1).unwrap_or(u32::MAX)
    }

    fn error_here(&self, pos: usize, msg: String) -> ParseError {
        ParseError {
            line: self.line,
            col: self.col_of(pos),
            msg,
        }
    }

    /// Token boundaries are always at ASCII bytes, so this never fails; `get` keeps it panic-free.
    fn slice(&self, a: usize, b: usize) -> &'a str {
        self.src.get(a..b).unwrap_or_default()
    }

    fn newline(&mut self) {
        self.line = self.line.saturating_add(1);
        self.line_start = self.pos;
    }

    /// Skips whitespace and comments.
    fn skip_trivia(&mut self) -> Result<(), ParseError> {
        loop {
            match self.at(0) {
                b'\n' => {
                    self.pos += 1;
                    self.newline();
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.pos += 1,
                b'/' if self.at(1) == b'/' => {
                    while self.pos < self.bytes.len() && self.at(0) != b'\n' {
                        self.pos += 1;
                    }
                }
                b'/' if self.at(1) == b'*' => {
                    let (start, line, line_start) = (self.pos, self.line, self.line_start);
                    self.pos += 2;
                    loop {
                        if self.pos >= self.bytes.len() {
                            return Err(ParseError {
                                line,
                                col: u32::try_from(start - line_start + 1).unwrap_or(u32::MAX),
                                msg: "unterminated /* comment: expected */, found end of file"
                                    .into(),
                            });
                        }
                        match self.at(0) {
                            b'*' if self.at(1) == b'/' => {
                                self.pos += 2;
                                break;
                            }
                            b'\n' => {
                                self.pos += 1;
                                self.newline();
                            }
                            _ => self.pos += 1,
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// The next token; at the end, an `Eof` token positioned after the last character.
    pub fn next_token(&mut self) -> Result<Token<'a>, ParseError> {
        self.skip_trivia()?;
        let start = self.pos;
        let (line, col) = (self.line, self.col_of(start));
        let b = self.at(0);
        let kind = if start >= self.bytes.len() {
            Tok::Eof
        } else if b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b == b'%' {
            self.pos += 1;
            while is_ident_char(self.at(0)) {
                self.pos += 1;
            }
            if (b == b'%' || b == b'$') && self.pos == start + 1 {
                return Err(self.error_here(
                    start,
                    format!(
                        "expected a name after '{}', found {}",
                        b as char,
                        self.describe_here()
                    ),
                ));
            }
            Tok::Ident
        } else if b == b'.' {
            self.pos += 1;
            loop {
                let part = self.pos;
                while is_ident_char(self.at(0)) {
                    self.pos += 1;
                }
                if self.pos == part {
                    return Err(self.error_here(
                        start,
                        format!(
                            "expected a directive name after '.', found {}",
                            self.describe_here()
                        ),
                    ));
                }
                if self.at(0) == b':' && self.at(1) == b':' {
                    self.pos += 2;
                } else {
                    break;
                }
            }
            Tok::Directive
        } else if b.is_ascii_digit() {
            self.number(start)?
        } else if b == b'"' {
            self.string(start)?
        } else if PUNCT.contains(&b) {
            self.pos += 1;
            Tok::Punct(b)
        } else {
            let c = self
                .src
                .get(start..)
                .and_then(|s| s.chars().next())
                .unwrap_or('?');
            return Err(self.error_here(
                start,
                format!("unexpected character '{}'", c.escape_debug()),
            ));
        };
        Ok(Token {
            kind,
            text: self.slice(start, self.pos),
            line,
            col,
            start,
        })
    }

    /// Names the character at the current position for an error message.
    fn describe_here(&self) -> String {
        match self.src.get(self.pos..).and_then(|s| s.chars().next()) {
            None => "end of file".into(),
            Some(c) => format!("'{}'", c.escape_debug()),
        }
    }

    /// `"..."` with backslash escapes, on one line.
    fn string(&mut self, start: usize) -> Result<Tok, ParseError> {
        self.pos += 1;
        loop {
            if self.pos >= self.bytes.len() || self.at(0) == b'\n' {
                return Err(self.error_here(
                    start,
                    format!(
                        "unterminated string: expected '\"', found {}",
                        if self.pos >= self.bytes.len() {
                            "end of file"
                        } else {
                            "end of line"
                        }
                    ),
                ));
            }
            match self.at(0) {
                b'"' => {
                    self.pos += 1;
                    return Ok(Tok::Str);
                }
                b'\\' if self.at(1) != b'\n' => self.pos += 2,
                _ => self.pos += 1,
            }
        }
    }

    /// Integer and float literals (PTX ISA 4.5.1): `0x1F`, `0b101`, `017`, `12U`, `0f3F800000`,
    /// `0d3FF0000000000000`, `1.5`, `1e-3`.
    fn number(&mut self, start: usize) -> Result<Tok, ParseError> {
        let malformed = |lx: &Self| {
            lx.error_here(
                start,
                format!(
                    "malformed number '{}'",
                    lx.slice(start, lx.pos_after_word(start))
                ),
            )
        };
        let second = self.at(1);
        let kind = if self.at(0) == b'0' && matches!(second, b'f' | b'F' | b'd' | b'D') {
            let digits = if matches!(second, b'f' | b'F') { 8 } else { 16 };
            let mut bits = 0u64;
            for i in 0..digits {
                match hex_val(self.at(2 + i)) {
                    Some(v) => bits = (bits << 4) | v,
                    None => return Err(malformed(self)),
                }
            }
            self.pos += 2 + digits;
            if digits == 8 {
                Tok::Float(FloatLit::F32(bits as u32))
            } else {
                Tok::Float(FloatLit::F64(bits))
            }
        } else if self.at(0) == b'0' && matches!(second, b'x' | b'X' | b'b' | b'B') {
            let radix: u64 = if matches!(second, b'x' | b'X') { 16 } else { 2 };
            self.pos += 2;
            match self.digits(radix) {
                Ok(v) => Tok::Int(v),
                Err(e) => return Err(self.digits_error(start, e)),
            }
        } else {
            let int_start = self.pos;
            while self.at(0).is_ascii_digit() {
                self.pos += 1;
            }
            let is_float = (self.at(0) == b'.' && self.at(1).is_ascii_digit())
                || (matches!(self.at(0), b'e' | b'E')
                    && (self.at(1).is_ascii_digit()
                        || (matches!(self.at(1), b'+' | b'-') && self.at(2).is_ascii_digit())));
            if is_float {
                if self.at(0) == b'.' {
                    self.pos += 1;
                    while self.at(0).is_ascii_digit() {
                        self.pos += 1;
                    }
                }
                if matches!(self.at(0), b'e' | b'E') {
                    let save = self.pos;
                    self.pos += 1;
                    if matches!(self.at(0), b'+' | b'-') {
                        self.pos += 1;
                    }
                    if self.at(0).is_ascii_digit() {
                        while self.at(0).is_ascii_digit() {
                            self.pos += 1;
                        }
                    } else {
                        self.pos = save;
                    }
                }
                let value: f64 = self
                    .slice(start, self.pos)
                    .parse()
                    .map_err(|_| malformed(self))?;
                Tok::Float(FloatLit::F64(value.to_bits()))
            } else {
                let octal = self.bytes.get(int_start) == Some(&b'0') && self.pos - int_start > 1;
                self.pos = int_start + usize::from(octal);
                match self.digits(if octal { 8 } else { 10 }) {
                    Ok(v) => Tok::Int(v),
                    Err(e) => return Err(self.digits_error(start, e)),
                }
            }
        };
        if matches!(kind, Tok::Int(_)) && self.at(0) == b'U' {
            self.pos += 1;
        }
        if is_ident_char(self.at(0)) || self.at(0) == b'.' {
            return Err(malformed(self));
        }
        Ok(kind)
    }

    /// Reads digits of `radix` into a u64, stopping at the first non-digit.
    fn digits(&mut self, radix: u64) -> Result<u64, DigitsError> {
        let first = self.pos;
        let mut value = Some(0u64);
        while let Some(d) = (self.at(0) as char).to_digit(16).map(u64::from) {
            if d >= radix {
                break;
            }
            value = value.and_then(|v| v.checked_mul(radix)?.checked_add(d));
            self.pos += 1;
        }
        match value {
            _ if self.pos == first => Err(DigitsError::Empty),
            Some(v) => Ok(v),
            None => Err(DigitsError::Overflow),
        }
    }

    /// A literal whose digits did not fit, or had none.
    fn digits_error(&self, start: usize, e: DigitsError) -> ParseError {
        let word = self.slice(start, self.pos_after_word(start));
        match e {
            DigitsError::Overflow => self.error_here(
                start,
                format!("integer literal '{word}' does not fit in 64 bits"),
            ),
            DigitsError::Empty => self.error_here(start, format!("malformed number '{word}'")),
        }
    }

    /// End of the run of identifier characters starting at `start`, for quoting bad numbers.
    fn pos_after_word(&self, start: usize) -> usize {
        let mut p = start;
        while self
            .bytes
            .get(p)
            .is_some_and(|&b| is_ident_char(b) || b == b'.')
        {
            p += 1;
        }
        p
    }
}
