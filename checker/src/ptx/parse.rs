//! The PTX parser: recursive descent over [`lex`](super::lex) tokens into [`ast`](super::ast).
//!
//! It follows the PTX ISA's grammar only as far as nvcc 13 and Triton 3.9 use it (ISA 9.x):
//! module directives (ISA 11.1), `.entry`/`.func` with their parameters (11.2) and
//! performance-tuning directives (11.4), debugging directives (11.5), variable declarations (5.4),
//! and instructions (9) with their operands (6), whose opcodes and modifiers are kept
//! uninterpreted for `lower`. Statements are read in loops, never by recursion,
//! so a long file cannot exhaust the stack; the only recursion is one level of operand nesting
//! (`{...}` inside an operand list). Anything unexpected is a [`ParseError`] at the offending token
//! saying what was expected and what was found.
//!
//! Decisions worth knowing:
//! - Function declarations without a body (`.extern .func f(...);` and nvcc's forward prototypes
//!   `.func (...) f (...);`) are checked and then dropped: a call to `f` must find no body rather
//!   than an empty one.
//! - Nested `{ }` scopes (nvcc call sequences, inline asm) are flattened; their declarations
//!   become ordinary body statements. A register declared inside a nested scope is local to it
//!   (PTX ISA 5.1.1): it is renamed `name#k#` (`k` numbers the scopes of the function; `#` cannot
//!   occur in a PTX identifier) and so are its uses inside that scope, so that cuda_fp16.h's
//!   inline asm `{.reg .f16 low,high; ...}` may repeat in sibling scopes. Labels repeated in
//!   sibling scopes still appear twice in the flat body, and `lower` rejects them.
//! - A name without `%` is an [`Operand::Reg`] when an earlier `.reg` in the same function
//!   declared it (inline asm writes `.reg .pred p;`); otherwise it is an [`Operand::Symbol`].
//! - `.section` blocks (DWARF) are skipped by brace matching; `.pragma` is skipped everywhere;
//!   `.callprototype`/`.calltargets` lines in a body are skipped (they only serve indirect calls).

use std::collections::HashSet;

use super::ParseError;
use super::ast::*;
use super::lex::{Lexer, Tok, Token};

/// Parses a whole module.
pub(super) fn parse_module(text: &str) -> Result<Module, ParseError> {
    let mut p = Parser::new(text)?;
    let mut m = Module {
        version: None,
        target: Vec::new(),
        address_size: None,
        vars: Vec::new(),
        functions: Vec::new(),
        externs: Vec::new(),
        files: Vec::new(),
    };
    loop {
        let t = p.tok;
        match t.kind {
            Tok::Eof => return Ok(m),
            Tok::Directive => match t.text {
                ".version" => {
                    p.bump()?;
                    if m.version.is_some() {
                        return Err(p.error_at(&t, "duplicate .version directive".into()));
                    }
                    m.version = Some(p.version()?);
                }
                ".target" => {
                    p.bump()?;
                    if !m.target.is_empty() {
                        return Err(p.error_at(&t, "duplicate .target directive".into()));
                    }
                    loop {
                        m.target
                            .push(p.expect_name("a target name such as sm_80")?.to_string());
                        if !p.eat(b',')? {
                            break;
                        }
                    }
                }
                ".address_size" => {
                    p.bump()?;
                    if m.address_size.is_some() {
                        return Err(p.error_at(&t, "duplicate .address_size directive".into()));
                    }
                    m.address_size = Some(p.expect_u32("the address size (32 or 64)")?);
                }
                ".file" => {
                    let f = p.file()?;
                    m.files.push(f);
                }
                ".section" => p.skip_section()?,
                ".pragma" => p.skip_pragma()?,
                _ => p.module_item(&mut m)?,
            },
            _ => {
                return Err(p.expected(
                    "a module directive (.version, .target, .entry, .func, .global, ...)",
                ));
            }
        }
    }
}

/// The parser state: the current token, one token of lookahead, and per-function facts.
struct Parser<'a> {
    lex: Lexer<'a>,
    /// The current token.
    tok: Token<'a>,
    /// The token after it (labels are `name :`), or the lexing error there, reported only when
    /// the parser reaches it so that errors come in text order.
    next: Result<Token<'a>, ParseError>,
    /// End offset of the last consumed token, to tell whether the current one touches it.
    prev_end: usize,
    /// Non-`%` register names declared so far in the current function (`.reg .pred p;`).
    plain_regs: HashSet<&'a str>,
    /// Non-`%` parameterized register prefixes and their counts (`.reg .b32 r<4>;`).
    plain_reg_ranges: Vec<(&'a str, u32)>,
    /// Registers declared in the open nested scopes of the current body, innermost last, as
    /// (scope depth, name or prefix, count, new name or prefix).
    scoped: Vec<(usize, String, Option<u32>, String)>,
    /// `.param` variables declared in the open nested scopes (nvcc's call sequences), as
    /// (scope depth, name, new name): each call's `param0` is its own variable.
    scoped_vars: Vec<(usize, String, String)>,
    /// Nested scopes opened so far in the current function (numbers their renamed registers).
    scope_count: u32,
    /// The name of the function [`Parser::function`] read last (for `.extern` declarations).
    last_fn_name: String,
}

/// Keeps error messages short when they quote input.
fn quote(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if s.len() < text.len() {
        s.push_str("...");
    }
    s
}

/// Describes a token for "found ..." in messages.
fn describe(t: &Token) -> String {
    match t.kind {
        Tok::Ident => format!("identifier '{}'", quote(t.text)),
        Tok::Directive => format!("directive '{}'", quote(t.text)),
        Tok::Int(_) => format!("integer {}", quote(t.text)),
        Tok::Float(_) => format!("float {}", quote(t.text)),
        Tok::Str => format!("string {}", quote(t.text)),
        Tok::Punct(c) => format!("'{}'", c as char),
        Tok::Eof => "end of file".into(),
    }
}

/// `.global` and friends; `None` for anything that is not a state space.
fn state_space(d: &str) -> Option<StateSpace> {
    Some(match d {
        ".reg" => StateSpace::Reg,
        ".sreg" => StateSpace::Sreg,
        ".const" => StateSpace::Const,
        ".global" => StateSpace::Global,
        ".local" => StateSpace::Local,
        ".param" => StateSpace::Param,
        ".shared" | ".shared::cta" => StateSpace::Shared,
        ".shared::cluster" => StateSpace::SharedCluster,
        ".tex" => StateSpace::Tex,
        _ => return None,
    })
}

/// Spaces a variable declaration may start with (PTX ISA 5.1; `.param` only inside bodies).
fn is_var_space(d: &str) -> bool {
    matches!(
        d,
        ".global" | ".const" | ".shared" | ".shared::cta" | ".shared::cluster" | ".local"
    )
}

/// `.v2`, `.v4`, `.v8` widths.
fn vector_width(d: &str) -> Option<u32> {
    match d {
        ".v2" => Some(2),
        ".v4" => Some(4),
        ".v8" => Some(8),
        _ => None,
    }
}

fn scalar_type(t: &Token) -> Option<ScalarType> {
    if t.kind != Tok::Directive {
        return None;
    }
    ScalarType::from_suffix(t.text.strip_prefix('.')?)
}

/// Flips the sign of a float literal, for `-0f3F800000` and `-1.5`.
fn negate_float(f: FloatLit) -> FloatLit {
    match f {
        FloatLit::F32(b) => FloatLit::F32(b ^ 0x8000_0000),
        FloatLit::F64(b) => FloatLit::F64(b ^ 0x8000_0000_0000_0000),
    }
}

/// Undoes the escapes of a string token (`\"`, `\\`, and `\n`/`\t` for completeness).
fn unescape(text: &str) -> String {
    let inner = text
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(text);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Result<Self, ParseError> {
        let mut lex = Lexer::new(text);
        let tok = lex.next_token()?;
        let next = if tok.kind == Tok::Eof {
            Ok(tok)
        } else {
            lex.next_token()
        };
        Ok(Parser {
            lex,
            tok,
            next,
            prev_end: 0,
            plain_regs: HashSet::new(),
            plain_reg_ranges: Vec::new(),
            scoped: Vec::new(),
            scoped_vars: Vec::new(),
            scope_count: 0,
            last_fn_name: String::new(),
        })
    }

    /// Consumes the current token and returns it.
    fn bump(&mut self) -> Result<Token<'a>, ParseError> {
        let t = self.tok;
        self.prev_end = t.end();
        self.tok = self.next.clone()?;
        if self.tok.kind != Tok::Eof {
            self.next = self.lex.next_token();
        }
        Ok(t)
    }

    /// True when the token after the current one is the punctuation `p`.
    fn next_is(&self, p: u8) -> bool {
        self.next.as_ref().is_ok_and(|t| t.is(p))
    }

    /// True when the current token starts exactly where the previous one ended.
    fn touches_prev(&self) -> bool {
        self.tok.start == self.prev_end
    }

    fn error_at(&self, t: &Token, msg: String) -> ParseError {
        ParseError {
            line: t.line,
            col: t.col,
            msg,
        }
    }

    /// "expected WHAT, found TOKEN" at the current token.
    fn expected(&self, what: &str) -> ParseError {
        self.error_at(
            &self.tok,
            format!("expected {what}, found {}", describe(&self.tok)),
        )
    }

    /// Consumes punctuation `p` if it is next.
    fn eat(&mut self, p: u8) -> Result<bool, ParseError> {
        if self.tok.is(p) {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn expect(&mut self, p: u8, context: &str) -> Result<Token<'a>, ParseError> {
        if self.tok.is(p) {
            self.bump()
        } else {
            Err(self.expected(&format!("'{}' {context}", p as char)))
        }
    }

    /// An identifier (any kind, `%` included).
    fn expect_name(&mut self, what: &str) -> Result<&'a str, ParseError> {
        if self.tok.kind == Tok::Ident {
            Ok(self.bump()?.text)
        } else {
            Err(self.expected(what))
        }
    }

    fn expect_u64(&mut self, what: &str) -> Result<u64, ParseError> {
        match self.tok.kind {
            Tok::Int(v) => {
                self.bump()?;
                Ok(v)
            }
            _ => Err(self.expected(what)),
        }
    }

    fn expect_u32(&mut self, what: &str) -> Result<u32, ParseError> {
        let t = self.tok;
        let v = self.expect_u64(what)?;
        u32::try_from(v)
            .map_err(|_| self.error_at(&t, format!("{what} {v} does not fit in 32 bits")))
    }

    /// `MAJOR.MINOR`, read from the literal's text so that `8.10` is not `8.1`.
    fn version(&mut self) -> Result<(u32, u32), ParseError> {
        let t = self.tok;
        let parts = match t.kind {
            Tok::Float(_) => t.text.split_once('.'),
            _ => None,
        };
        let parsed = parts.and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)));
        match parsed {
            Some(v) => {
                self.bump()?;
                Ok(v)
            }
            None => Err(self.expected("a version MAJOR.MINOR such as 9.0")),
        }
    }

    /// `.file N "path"` with optional `, timestamp, size` (dropped). A second string (LLVM's
    /// directory-and-name form) is joined to the first with `/`.
    fn file(&mut self) -> Result<FileDecl, ParseError> {
        let line = self.bump()?.line;
        let index = self.expect_u32("a file index after .file")?;
        if self.tok.kind != Tok::Str {
            return Err(self.expected("a quoted path after the .file index"));
        }
        let mut path = unescape(self.bump()?.text);
        if self.tok.kind == Tok::Str {
            let name = unescape(self.bump()?.text);
            if !path.is_empty() && !path.ends_with('/') {
                path.push('/');
            }
            path.push_str(&name);
        }
        if self.eat(b',')? {
            self.expect_u64("a timestamp after .file path")?;
            self.expect(b',', "between the .file timestamp and size")?;
            self.expect_u64("a file size after the .file timestamp")?;
        }
        Ok(FileDecl { index, path, line })
    }

    /// `.loc file line col` with optional `, function_name label[+N], inlined_at f l c` (dropped:
    /// the position of the innermost inlined code is the one worth reporting).
    fn loc(&mut self) -> Result<SourceLoc, ParseError> {
        self.bump()?;
        let file = self.expect_u32("a file index after .loc")?;
        let line = self.expect_u32("a line number in .loc")?;
        let col = self.expect_u32("a column number in .loc")?;
        while self.eat(b',')? {
            let kw = self.tok;
            match (kw.kind, kw.text) {
                (Tok::Ident, "function_name") => {
                    self.bump()?;
                    self.expect_name("a label after function_name")?;
                    if self.eat(b'+')? {
                        self.expect_u64("an offset after '+'")?;
                    }
                }
                (Tok::Ident, "inlined_at") => {
                    self.bump()?;
                    for what in ["a file index", "a line number", "a column number"] {
                        self.expect_u64(&format!("{what} after inlined_at"))?;
                    }
                }
                _ => return Err(self.expected("function_name or inlined_at after ',' in .loc")),
            }
        }
        Ok(SourceLoc { file, line, col })
    }

    /// `.section .debug_x { ... }`: skipped by brace matching; the content is DWARF data.
    fn skip_section(&mut self) -> Result<(), ParseError> {
        let start = self.bump()?;
        if self.tok.kind != Tok::Directive {
            return Err(self.expected("a section name such as .debug_info after .section"));
        }
        self.bump()?;
        self.expect(b'{', "to open the .section block")?;
        let mut depth = 1usize; // at most one per input byte: cannot overflow
        while depth > 0 {
            match self.tok.kind {
                Tok::Eof => {
                    return Err(self.expected(&format!(
                        "'}}' to close the .section block opened at line {}",
                        start.line
                    )));
                }
                Tok::Punct(b'{') => depth += 1,
                Tok::Punct(b'}') => depth -= 1,
                _ => {}
            }
            self.bump()?;
        }
        Ok(())
    }

    /// `.pragma "nounroll";`: compiler hints with no meaning for the semantics.
    fn skip_pragma(&mut self) -> Result<(), ParseError> {
        self.bump()?;
        loop {
            if self.tok.kind != Tok::Str {
                return Err(self.expected("a quoted string after .pragma"));
            }
            self.bump()?;
            if !self.eat(b',')? {
                break;
            }
        }
        self.expect(b';', "to end the .pragma")?;
        Ok(())
    }

    /// A linkage-prefixed or plain function or module variable.
    fn module_item(&mut self, m: &mut Module) -> Result<(), ParseError> {
        let mut is_extern = false;
        while self.tok.kind == Tok::Directive {
            match self.tok.text {
                ".visible" | ".weak" | ".common" => {}
                ".extern" => is_extern = true,
                _ => break,
            }
            self.bump()?;
        }
        let t = self.tok;
        if t.is_dir(".entry") || t.is_dir(".func") {
            match self.function(is_extern)? {
                Some(f) => m.functions.push(f),
                None if is_extern => m.externs.push(self.last_fn_name.clone()),
                None => {}
            }
            Ok(())
        } else if t.kind == Tok::Directive && is_var_space(t.text) {
            let decls = self.var_decls(is_extern)?;
            m.vars.extend(decls);
            Ok(())
        } else {
            Err(self.expected(
                "a module directive (.version, .target, .entry, .func, .global, .const, .shared, ...)",
            ))
        }
    }

    /// `.entry`/`.func` through its body; `None` for a declaration without a body.
    fn function(&mut self, is_extern: bool) -> Result<Option<Function>, ParseError> {
        let kw = self.bump()?;
        let is_entry = kw.text == ".entry";
        let returns = if !is_entry && self.tok.is(b'(') {
            self.param_list("return parameter")?
        } else {
            Vec::new()
        };
        if self.tok.kind != Tok::Ident || self.tok.text.starts_with('%') {
            return Err(self.expected(&format!("a function name after {}", kw.text)));
        }
        let name = self.bump()?.text;
        self.last_fn_name = name.to_string();
        let params = if self.tok.is(b'(') {
            self.param_list("parameter")?
        } else {
            Vec::new()
        };
        let mut directives = Vec::new();
        while self.tok.kind == Tok::Directive {
            if self.tok.is_dir(".pragma") {
                self.skip_pragma()?;
                continue;
            }
            let d = self.bump()?;
            let mut args = Vec::new();
            if matches!(self.tok.kind, Tok::Int(_)) {
                loop {
                    args.push(self.expect_u64(&format!("an integer argument of {}", d.text))?);
                    if !self.eat(b',')? {
                        break;
                    }
                }
            }
            directives.push(PerfDirective {
                name: d.text.trim_start_matches('.').to_string(),
                args,
                line: d.line,
            });
        }
        if self.eat(b';')? {
            return Ok(None);
        }
        if is_extern {
            return Err(self.expected(&format!("';' after the .extern declaration of '{name}'")));
        }
        if !self.tok.is(b'{') {
            return Err(self.expected(&format!(
                "'{{' to open the body of '{name}', or ';' for a declaration"
            )));
        }
        let body = self.body(name)?;
        Ok(Some(Function {
            name: name.to_string(),
            is_entry,
            params,
            returns,
            directives,
            body,
            line: kw.line,
        }))
    }

    /// `( .param ... , .param ... )`, possibly empty.
    fn param_list(&mut self, what: &str) -> Result<Vec<Param>, ParseError> {
        self.bump()?;
        let mut params = Vec::new();
        if self.eat(b')')? {
            return Ok(params);
        }
        loop {
            params.push(self.param(what)?);
            if self.eat(b')')? {
                return Ok(params);
            }
            if !self.eat(b',')? {
                return Err(self.expected(&format!("',' or ')' after a {what}")));
            }
        }
    }

    /// `.param .u64 .ptr .global .align 16 name` or `.param .align 8 .b8 name[16]`.
    fn param(&mut self, what: &str) -> Result<Param, ParseError> {
        if !self.tok.is_dir(".param") {
            return Err(self.expected(&format!(".param to start a {what}")));
        }
        let line = self.bump()?.line;
        let (mut ty, mut align, mut ptr, mut ptr_space) = (None, None, false, None);
        while self.tok.kind == Tok::Directive {
            let t = self.tok;
            if t.text == ".align" {
                self.bump()?;
                align = Some(self.expect_u32("an alignment after .align")?);
                continue;
            }
            if t.text == ".ptr" {
                ptr = true;
            } else if let Some(s) = state_space(t.text).filter(|_| ptr && ptr_space.is_none()) {
                ptr_space = Some(s);
            } else if let Some(st) = scalar_type(&t).filter(|_| ty.is_none()) {
                ty = Some(st);
            } else {
                return Err(self.expected(&format!(
                    "a type, .align, .ptr or a state space after .ptr in a {what}"
                )));
            }
            self.bump()?;
        }
        let Some(ty) = ty else {
            return Err(self.expected(&format!("a type such as .u64 in a {what}")));
        };
        let name = self
            .expect_name(&format!("the name of a {what}"))?
            .to_string();
        let array_len = if self.eat(b'[')? {
            let n = self.expect_u32("an array length")?;
            self.expect(b']', "after the array length")?;
            Some(n)
        } else {
            None
        };
        Ok(Param {
            name,
            ty,
            align,
            array_len,
            ptr_space,
            line,
        })
    }

    /// The body from `{` to its matching `}`, nested scopes flattened.
    fn body(&mut self, fname: &str) -> Result<Vec<Statement>, ParseError> {
        let open = self.bump()?;
        self.plain_regs.clear();
        self.plain_reg_ranges.clear();
        self.scoped.clear();
        self.scoped_vars.clear();
        self.scope_count = 0;
        let mut body = Vec::new();
        let mut loc = None;
        let mut depth = 1usize; // at most one per input byte: cannot overflow
        loop {
            let t = self.tok;
            match t.kind {
                Tok::Punct(b'}') => {
                    self.bump()?;
                    while self.scoped.last().is_some_and(|s| s.0 == depth) {
                        self.scoped.pop();
                    }
                    while self.scoped_vars.last().is_some_and(|s| s.0 == depth) {
                        self.scoped_vars.pop();
                    }
                    depth -= 1;
                    if depth == 0 {
                        return Ok(body);
                    }
                }
                Tok::Punct(b'{') => {
                    self.bump()?;
                    depth += 1;
                    self.scope_count = self.scope_count.saturating_add(1);
                }
                Tok::Eof => {
                    return Err(self.expected(&format!(
                        "'}}' to close the body of '{fname}' opened at line {}",
                        open.line
                    )));
                }
                Tok::Directive => match t.text {
                    ".reg" => {
                        let first = body.len();
                        self.reg_decls(&mut body)?;
                        if depth > 1 {
                            self.scope_regs(depth, &mut body[first..]);
                        }
                    }
                    ".loc" => loc = Some(self.loc()?),
                    ".pragma" => self.skip_pragma()?,
                    ".param" => {
                        let mut decls = self.var_decls(false)?;
                        if depth > 1 {
                            for v in &mut decls {
                                let new = format!("{}#{}#", v.name, self.scope_count);
                                let old = std::mem::replace(&mut v.name, new.clone());
                                self.scoped_vars.push((depth, old, new));
                            }
                        }
                        body.extend(decls.into_iter().map(Statement::Var));
                    }
                    ".extern" => {
                        self.bump()?;
                        if !(self.tok.kind == Tok::Directive && is_var_space(self.tok.text)) {
                            return Err(
                                self.expected("a state space such as .shared after .extern")
                            );
                        }
                        body.extend(self.var_decls(true)?.into_iter().map(Statement::Var));
                    }
                    d if is_var_space(d) => {
                        body.extend(self.var_decls(false)?.into_iter().map(Statement::Var));
                    }
                    _ => {
                        return Err(self.expected(
                            "a statement (an instruction, a label, .reg, .loc, a variable, '{' or '}')",
                        ));
                    }
                },
                Tok::Ident if self.next_is(b':') => {
                    self.bump()?;
                    self.bump()?;
                    if self.tok.is_dir(".callprototype") || self.tok.is_dir(".calltargets") {
                        self.skip_to_semicolon(t.text)?;
                    } else {
                        body.push(Statement::Label {
                            name: t.text.to_string(),
                            line: t.line,
                        });
                    }
                }
                Tok::Ident | Tok::Punct(b'@') => {
                    let mut i = self.instruction(loc)?;
                    if !self.scoped.is_empty() || !self.scoped_vars.is_empty() {
                        self.rename_scoped(&mut i);
                    }
                    body.push(Statement::Instr(i));
                }
                _ => {
                    return Err(self.expected(
                        "a statement (an instruction, a label, .reg, .loc, a variable, '{' or '}')",
                    ));
                }
            }
        }
    }

    /// Renames registers just declared in the nested scope at `depth` (see the module notes)
    /// and records them until that scope closes.
    fn scope_regs(&mut self, depth: usize, decls: &mut [Statement]) {
        let id = self.scope_count;
        for s in decls {
            if let Statement::Reg(r) = s {
                let new = format!("{}#{id}#", r.name);
                let old = std::mem::replace(&mut r.name, new.clone());
                self.scoped.push((depth, old, r.count, new));
            }
        }
    }

    /// The scoped name of register `name`: the innermost open scope declaring it wins.
    fn scoped_name(&self, name: &str) -> Option<String> {
        for (_, old, count, new) in self.scoped.iter().rev() {
            match count {
                None if old == name => return Some(new.clone()),
                Some(n) => {
                    let idx = name
                        .strip_prefix(old.as_str())
                        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                        .and_then(|d| d.parse::<u32>().ok().filter(|i| i.to_string() == d))
                        .filter(|i| i < n);
                    if let Some(i) = idx {
                        return Some(format!("{new}{i}"));
                    }
                }
                None => {}
            }
        }
        None
    }

    /// The scoped name of `.param` variable `name`: the innermost open scope declaring it wins.
    fn scoped_var(&self, name: &str) -> Option<String> {
        let (_, _, new) = self
            .scoped_vars
            .iter()
            .rev()
            .find(|(_, old, _)| old == name)?;
        Some(new.clone())
    }

    /// Applies [`Parser::scoped_name`] (and [`Parser::scoped_var`]) to every register (and
    /// call-sequence `.param` variable) an instruction names.
    fn rename_scoped(&self, i: &mut Instruction) {
        if let Some(g) = &mut i.guard
            && let Some(n) = self.scoped_name(&g.reg)
        {
            g.reg = n;
        }
        let mut stack: Vec<&mut Operand> = i.operands.iter_mut().collect();
        while let Some(op) = stack.pop() {
            match op {
                Operand::Reg(r) | Operand::NotReg(r) => {
                    if let Some(n) = self.scoped_name(r) {
                        *r = n;
                    }
                }
                Operand::Address(a) | Operand::GenericAddress(a) => match &mut a.base {
                    AddressBase::Reg(r) => {
                        if let Some(n) = self.scoped_name(r) {
                            *r = n;
                        }
                    }
                    AddressBase::Symbol(s) => {
                        if let Some(n) = self.scoped_var(s) {
                            *s = n;
                        }
                    }
                    AddressBase::Absolute(_) => {}
                },
                Operand::Symbol(s) => {
                    if let Some(n) = self.scoped_var(s) {
                        *s = n;
                    }
                }
                Operand::Vector(v) => stack.extend(v.iter_mut()),
                Operand::Int(_) | Operand::Float(_) | Operand::Sink => {}
            }
        }
    }

    /// Skips `.callprototype ...;` after its label.
    fn skip_to_semicolon(&mut self, label: &str) -> Result<(), ParseError> {
        while !self.tok.is(b';') {
            if self.tok.kind == Tok::Eof || self.tok.is(b'{') || self.tok.is(b'}') {
                return Err(self.expected(&format!("';' to end the declaration '{label}'")));
            }
            self.bump()?;
        }
        self.bump()?;
        Ok(())
    }

    /// `.reg [.vN] .type name[<N>] {, name[<N>]};` — one [`RegDecl`] per name.
    fn reg_decls(&mut self, body: &mut Vec<Statement>) -> Result<(), ParseError> {
        let line = self.bump()?.line;
        let vector = match vector_width(self.tok.text).filter(|_| self.tok.kind == Tok::Directive) {
            Some(w) => {
                self.bump()?;
                Some(w)
            }
            None => None,
        };
        let Some(ty) = scalar_type(&self.tok) else {
            return Err(self.expected("a register type such as .b32 or .pred after .reg"));
        };
        self.bump()?;
        loop {
            let name = self.expect_name("a register name in .reg")?;
            let count = if self.eat(b'<')? {
                let n = self.expect_u32("a register count after '<'")?;
                self.expect(b'>', "after the register count")?;
                Some(n)
            } else {
                None
            };
            if !name.starts_with('%') {
                match count {
                    Some(n) => self.plain_reg_ranges.push((name, n)),
                    None => {
                        self.plain_regs.insert(name);
                    }
                }
            }
            body.push(Statement::Reg(RegDecl {
                ty,
                name: name.to_string(),
                count,
                vector,
                line,
            }));
            if self.eat(b';')? {
                return Ok(());
            }
            if !self.eat(b',')? {
                return Err(self.expected("',' or ';' after a register name in .reg"));
            }
        }
    }

    /// `SPACE [.align N] [.vN] .type name[dims] [= init] {, name ...};`; the current token is the
    /// state space (after any linkage).
    fn var_decls(&mut self, is_extern: bool) -> Result<Vec<VarDecl>, ParseError> {
        let sp = self.bump()?;
        let Some(space) = state_space(sp.text) else {
            return Err(self.error_at(
                &sp,
                format!("expected a state space, found {}", describe(&sp)),
            ));
        };
        let (mut align, mut vector, mut ty) = (None, None, None);
        while self.tok.kind == Tok::Directive {
            let t = self.tok;
            if t.text == ".align" {
                self.bump()?;
                align = Some(self.expect_u32("an alignment after .align")?);
                continue;
            }
            if t.text == ".attribute" {
                // `.attribute(.managed)` marks a __managed__ variable; the tree has no place for
                // it, and dropping it silently would hide a host-visible memory kind.
                return Err(self.error_at(
                    &t,
                    format!(
                        "variable attributes (.attribute, from __managed__) are not supported, \
                         found {} in a {} variable",
                        describe(&t),
                        sp.text
                    ),
                ));
            }
            if let Some(w) = vector_width(t.text).filter(|_| vector.is_none()) {
                vector = Some(w);
            } else if let Some(st) = scalar_type(&t).filter(|_| ty.is_none()) {
                ty = Some(st);
            } else {
                return Err(self.expected(&format!(
                    "a type, .align or .v2/.v4 in a {} variable",
                    sp.text
                )));
            }
            self.bump()?;
        }
        let Some(ty) = ty else {
            return Err(self.expected(&format!("a type such as .b8 in a {} variable", sp.text)));
        };
        let mut decls = Vec::new();
        loop {
            if self.tok.kind != Tok::Ident || self.tok.text.starts_with('%') {
                return Err(self.expected(&format!("a variable name in a {} declaration", sp.text)));
            }
            let name_tok = self.bump()?;
            let mut dims = Vec::new();
            while self.eat(b'[')? {
                if self.eat(b']')? {
                    dims.push(None);
                } else {
                    dims.push(Some(self.expect_u64("an array dimension or ']'")?));
                    self.expect(b']', "after the array dimension")?;
                }
            }
            let init = if self.eat(b'=')? {
                self.initializer()?
            } else {
                Vec::new()
            };
            decls.push(VarDecl {
                space,
                is_extern,
                align,
                ty,
                vector,
                name: name_tok.text.to_string(),
                dims,
                init,
                line: name_tok.line,
            });
            if self.eat(b';')? {
                return Ok(decls);
            }
            if !self.eat(b',')? {
                return Err(self.expected(&format!(
                    "',' or ';' after the declaration of '{}'",
                    name_tok.text
                )));
            }
        }
    }

    /// `= 5` or `= {1, 2, {3, 4}}`, flattened; nesting is counted, not recursed.
    fn initializer(&mut self) -> Result<Vec<Operand>, ParseError> {
        let mut out = Vec::new();
        if !self.tok.is(b'{') {
            out.push(self.init_value()?);
            return Ok(out);
        }
        let open = self.bump()?;
        let mut depth = 1usize; // at most one per input byte: cannot overflow
        // After a value or a closing brace a separator is due; after '{' or ',' a value.
        let mut want_value = true;
        while depth > 0 {
            if want_value {
                if self.tok.is(b'{') {
                    self.bump()?;
                    depth += 1;
                } else if self.tok.is(b'}') && out.is_empty() && depth == 1 {
                    // `= {}`
                    self.bump()?;
                    depth = 0;
                } else if self.tok.kind == Tok::Eof {
                    return Err(self.expected(&format!(
                        "a value or '}}' to close the initializer opened at line {}",
                        open.line
                    )));
                } else {
                    out.push(self.init_value()?);
                    want_value = false;
                }
            } else if self.eat(b',')? {
                want_value = true;
            } else if self.eat(b'}')? {
                depth -= 1;
            } else {
                return Err(self.expected("',' or '}' in an initializer"));
            }
        }
        Ok(out)
    }

    /// One initializer value: a number, a symbol, or `generic(sym)[+N]`.
    fn init_value(&mut self) -> Result<Operand, ParseError> {
        if self.tok.kind == Tok::Ident && self.tok.text == "generic" && self.next_is(b'(') {
            self.bump()?;
            self.bump()?;
            let sym = self.expect_name("a variable name inside generic( )")?;
            self.expect(b')', "to close generic(")?;
            let offset = self.signed_offset()?;
            return Ok(Operand::GenericAddress(Address {
                base: AddressBase::Symbol(sym.to_string()),
                offset,
            }));
        }
        match self.tok.kind {
            Tok::Int(_) | Tok::Float(_) | Tok::Punct(b'-') => self.number_operand(),
            Tok::Ident if !self.tok.text.starts_with('%') => {
                let name = self.bump()?.text;
                if self.tok.is(b'+') || self.tok.is(b'-') {
                    return Err(self.expected(&format!(
                        "',' or '}}' after '{name}' (symbol+offset initializers are not supported; \
                         nvcc writes generic(sym)+offset)"
                    )));
                }
                Ok(Operand::Symbol(name.to_string()))
            }
            _ => Err(self.expected("an initializer value (a number, a symbol or generic(symbol))")),
        }
    }

    /// An optional `+N`, `+-N` or `-N` after an address base.
    fn signed_offset(&mut self) -> Result<i64, ParseError> {
        let negative = if self.eat(b'+')? {
            self.eat(b'-')?
        } else if self.eat(b'-')? {
            true
        } else {
            return Ok(0);
        };
        let v = self.expect_u64("an integer offset")? as i64;
        Ok(if negative { v.wrapping_neg() } else { v })
    }

    /// `[-]integer` or `[-]float`.
    fn number_operand(&mut self) -> Result<Operand, ParseError> {
        let negative = self.eat(b'-')?;
        match self.tok.kind {
            Tok::Int(v) => {
                self.bump()?;
                let v = v as i64;
                Ok(Operand::Int(if negative { v.wrapping_neg() } else { v }))
            }
            Tok::Float(f) => {
                self.bump()?;
                Ok(Operand::Float(if negative { negate_float(f) } else { f }))
            }
            _ => Err(self.expected("a number after '-'")),
        }
    }

    /// `[@[!]pred] opcode[.mod...] [operand {, operand}];`
    fn instruction(&mut self, loc: Option<SourceLoc>) -> Result<Instruction, ParseError> {
        let line = self.tok.line;
        let guard = if self.eat(b'@')? {
            let negated = self.eat(b'!')?;
            let reg = self.expect_name("a predicate register after '@'")?;
            Some(Guard {
                negated,
                reg: reg.to_string(),
            })
        } else {
            None
        };
        if self.tok.kind != Tok::Ident || self.tok.text.starts_with('%') {
            return Err(self.expected("an instruction opcode"));
        }
        let op = self.bump()?;
        let mut mods = Vec::new();
        while self.tok.kind == Tok::Directive && self.touches_prev() {
            let m = self.bump()?;
            mods.push(m.text.trim_start_matches('.').to_string());
        }
        let mut operands = Vec::new();
        if !self.eat(b';')? {
            loop {
                operands.push(self.operand(true)?);
                if self.eat(b';')? {
                    break;
                }
                if !self.eat(b',')? {
                    return Err(self.expected(&format!(
                        "',' or ';' after an operand of '{}' (line {line})",
                        op.text
                    )));
                }
            }
        }
        Ok(Instruction {
            guard,
            opcode: op.text.to_string(),
            mods,
            operands,
            line,
            loc,
        })
    }

    /// Whether a name without `%` was declared by `.reg` in this function.
    fn is_plain_reg(&self, name: &str) -> bool {
        if self.plain_regs.contains(name) {
            return true;
        }
        self.plain_reg_ranges.iter().any(|&(prefix, n)| {
            name.strip_prefix(prefix)
                .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|d| d.parse::<u32>().ok())
                .is_some_and(|i| i < n)
        })
    }

    /// A register or symbol name; `%tid` followed by a touching `.x` becomes `%tid.x`.
    fn named_operand(&mut self) -> Result<Operand, ParseError> {
        let t = self.bump()?;
        if t.text == "_" {
            return Ok(Operand::Sink);
        }
        if t.text.starts_with('%') {
            if self.tok.kind == Tok::Directive && self.touches_prev() {
                let suffix = self.bump()?;
                return Ok(Operand::Reg(format!("{}{}", t.text, suffix.text)));
            }
            return Ok(Operand::Reg(t.text.to_string()));
        }
        if self.is_plain_reg(t.text) {
            Ok(Operand::Reg(t.text.to_string()))
        } else {
            Ok(Operand::Symbol(t.text.to_string()))
        }
    }

    /// One operand. `nested` allows `{...}` and `(...)` lists, whose elements are plain operands.
    fn operand(&mut self, nested: bool) -> Result<Operand, ParseError> {
        let t = self.tok;
        let first = match t.kind {
            Tok::Ident => self.named_operand()?,
            Tok::Int(_) | Tok::Float(_) | Tok::Punct(b'-') => self.number_operand()?,
            Tok::Punct(b'!') => {
                self.bump()?;
                let reg = self.expect_name("a predicate register after '!'")?;
                Operand::NotReg(reg.to_string())
            }
            Tok::Punct(b'[') => self.address()?,
            Tok::Punct(open @ (b'{' | b'(')) if nested => {
                self.bump()?;
                let close = if open == b'{' { b'}' } else { b')' };
                let mut items = Vec::new();
                if !self.eat(close)? {
                    loop {
                        items.push(self.operand(false)?);
                        if self.eat(close)? {
                            break;
                        }
                        if !self.eat(b',')? {
                            return Err(self.expected(&format!(
                                "',' or '{}' in the operand list opened at line {}:{}",
                                close as char, t.line, t.col
                            )));
                        }
                    }
                }
                Operand::Vector(items)
            }
            _ => return Err(self.expected("an operand")),
        };
        if matches!(first, Operand::Reg(_)) && self.tok.is(b'|') {
            self.bump()?;
            if self.tok.kind != Tok::Ident {
                return Err(self.expected("a second register after '|'"));
            }
            let second = self.named_operand()?;
            return Ok(Operand::Vector(vec![first, second]));
        }
        Ok(first)
    }

    /// `[reg]`, `[reg+N]`, `[reg+-N]`, `[reg-N]`, `[sym+N]`, `[0x100]`.
    fn address(&mut self) -> Result<Operand, ParseError> {
        let open = self.bump()?;
        let base = match self.tok.kind {
            Tok::Ident if self.tok.text != "_" => match self.named_operand()? {
                Operand::Reg(r) => AddressBase::Reg(r),
                Operand::Symbol(s) => AddressBase::Symbol(s),
                _ => return Err(self.error_at(&open, "expected an address base".into())),
            },
            Tok::Int(_) | Tok::Punct(b'-') => match self.number_operand()? {
                Operand::Int(v) => AddressBase::Absolute(v),
                _ => return Err(self.expected("an integer address")),
            },
            _ => return Err(self.expected("a register, symbol or integer address after '['")),
        };
        let mut offset = self.signed_offset()?;
        let base = match base {
            AddressBase::Absolute(a) => {
                let folded = a.wrapping_add(offset);
                offset = 0;
                AddressBase::Absolute(folded)
            }
            b => b,
        };
        self.expect(
            b']',
            &format!(
                "to close the address opened at line {}:{}",
                open.line, open.col
            ),
        )?;
        Ok(Operand::Address(Address { base, offset }))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ParseError, parse};
    use super::*;

    fn ok(src: &str) -> Module {
        match parse(src) {
            Ok(m) => m,
            Err(e) => panic!("unexpected error {e} in:\n{src}"),
        }
    }

    fn err(src: &str) -> ParseError {
        match parse(src) {
            Ok(m) => panic!("expected an error, parsed {m:?} from:\n{src}"),
            Err(e) => e,
        }
    }

    /// Wraps body lines in a minimal entry.
    fn kernel(body: &str) -> String {
        format!(
            ".version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{{\n{body}\n}}\n"
        )
    }

    fn body(src: &str) -> Vec<Statement> {
        let mut m = ok(&kernel(src));
        m.functions.remove(0).body
    }

    fn instrs(src: &str) -> Vec<Instruction> {
        body(src)
            .into_iter()
            .filter_map(|s| match s {
                Statement::Instr(i) => Some(i),
                _ => None,
            })
            .collect()
    }

    fn one(src: &str) -> Instruction {
        let mut v = instrs(src);
        assert_eq!(v.len(), 1, "{src}");
        v.remove(0)
    }

    fn reg(s: &str) -> Operand {
        Operand::Reg(s.into())
    }

    fn sym(s: &str) -> Operand {
        Operand::Symbol(s.into())
    }

    fn addr(base: AddressBase, offset: i64) -> Operand {
        Operand::Address(Address { base, offset })
    }

    #[test]
    fn empty_and_comment_only_files_are_empty_modules() {
        for src in ["", "  \n\t\n", "// just a comment\n/* block\n comment */\n"] {
            let m = ok(src);
            assert_eq!(m.version, None);
            assert!(m.functions.is_empty() && m.vars.is_empty() && m.files.is_empty());
        }
    }

    #[test]
    fn module_header() {
        let m = ok(".version 9.0\n.target sm_90a, debug\n.address_size 64\n");
        assert_eq!(m.version, Some((9, 0)));
        assert_eq!(m.target, vec!["sm_90a", "debug"]);
        assert_eq!(m.address_size, Some(64));
        // The minor version is read as written, not as a float.
        assert_eq!(ok(".version 8.10").version, Some((8, 10)));
        let e = err(".version 9.0\n.version 9.1\n");
        assert_eq!((e.line, e.col), (2, 1));
        assert!(e.msg.contains("duplicate"), "{e}");
        let e = err(".version 9\n");
        assert!(e.msg.contains("MAJOR.MINOR"), "{e}");
    }

    #[test]
    fn file_directives() {
        let m = ok(
            ".file 1 \"/path/x.cu\"\n.file 2 \"/p/y.h\", 1700000000, 1234\n\
                    .file 3 \"/dir\" \"z.py\"\n.file 4 \"a\\\"b\"\n",
        );
        let got: Vec<_> = m
            .files
            .iter()
            .map(|f| (f.index, f.path.as_str(), f.line))
            .collect();
        assert_eq!(
            got,
            vec![
                (1, "/path/x.cu", 1),
                (2, "/p/y.h", 2),
                (3, "/dir/z.py", 3),
                (4, "a\"b", 4)
            ]
        );
    }

    #[test]
    fn loc_attaches_to_following_instructions_and_resets_per_function() {
        let src = ".entry a()\n{\n\tmov.u32 %r1, 1;\n\t.loc 1 23 5\n\tmov.u32 %r2, 2;\n\
                   $L__x:\n\tadd.s32 %r3, %r1, %r2;\n\
                   \t.loc 2 448 9, function_name $L__info_string0, inlined_at 1 30 2\n\
                   \tret;\n}\n.entry b()\n{\n\tret;\n}\n";
        let m = ok(src);
        let locs: Vec<_> = m.functions[0]
            .body
            .iter()
            .filter_map(|s| match s {
                Statement::Instr(i) => Some(i.loc.map(|l| (l.file, l.line, l.col))),
                _ => None,
            })
            .collect();
        assert_eq!(
            locs,
            vec![None, Some((1, 23, 5)), Some((1, 23, 5)), Some((2, 448, 9))]
        );
        let Statement::Instr(ret_b) = &m.functions[1].body[0] else {
            panic!("expected an instruction");
        };
        assert_eq!(ret_b.loc, None);
        // function_name with an offset, as LLVM writes it.
        let i = one(".loc 1 2 3, function_name $L__info_string0+12, inlined_at 1 4 5\nexit;");
        assert_eq!(
            i.loc,
            Some(SourceLoc {
                file: 1,
                line: 2,
                col: 3
            })
        );
    }

    #[test]
    fn sections_are_skipped() {
        // nvcc -G and Triton DWARF blocks, with LLVM's trailing comments.
        let src = ".version 8.7\n.target sm_90a\n.address_size 64\n.entry k()\n{\n\tret;\n}\n\
            \t.file\t1 \"/t/add.py\"\n\
            \t.section\t.debug_abbrev\n\t{\n.b8 1                                   // Abbreviation Code\n\
            .b8 17                                  // DW_TAG_compile_unit\n.b8 0 // EOM(3)\n\t}\n\
            \t.section\t.debug_info\n\t{\n.b32 157\n.b8 2\n.b32 .debug_abbrev  // Offset\n\
            .b64 $L__func_begin0\n.b64 $L__func_end0-$L__func_begin0\n$L__info_string0:\n\
            .b8 97,100,100,0\n.b32 .debug_line+4\n\t}\n\
            \t.section\t.debug_loc\n\t{\n\t}\n\t.section\t.debug_macinfo\t{\t}\n";
        let m = ok(src);
        assert_eq!(m.functions.len(), 1);
        assert_eq!(m.files.len(), 1);
        let e = err(".section .debug_info\n{\n.b8 1\n");
        assert_eq!(e.line, 4);
        assert!(
            e.msg
                .contains("'}' to close the .section block opened at line 1"),
            "{e}"
        );
    }

    #[test]
    fn module_variables() {
        let src = ".global .align 4 .b8 name[16] = {0, 1, 2, 255};\n\
            .const .align 4 .f32 c = 0f3F800000;\n\
            .shared .align 4 .b8 smem[1024];\n\
            .extern .shared .align 16 .b8 global_smem[];\n\
            .visible .global .u32 v;\n.weak .global .u32 w;\n.common .global .u32 cm;\n\
            .global .align 4 .f32 twod[2][2] = {{1.0, 2.0}, {3.0, -0f3F800000}};\n\
            .global .align 8 .u64 p = generic(name)+8, q = generic(name);\n\
            .global .align 8 .u64 fns[2] = {f1, f2};\n\
            .global .v4 .f32 vec;\n\
            .global .align 1 .b8 _$_str[3] = {95, 36, 0};\n";
        let m = ok(src);
        let v = &m.vars;
        assert_eq!(v.len(), 13);
        assert_eq!(
            (v[0].space, v[0].align, v[0].ty),
            (StateSpace::Global, Some(4), ScalarType::B8)
        );
        assert_eq!(v[0].dims, vec![Some(16)]);
        assert_eq!(
            v[0].init,
            vec![
                Operand::Int(0),
                Operand::Int(1),
                Operand::Int(2),
                Operand::Int(255)
            ]
        );
        assert_eq!(v[1].space, StateSpace::Const);
        assert_eq!(v[1].init, vec![Operand::Float(FloatLit::F32(0x3F80_0000))]);
        assert_eq!((v[2].space, v[2].is_extern), (StateSpace::Shared, false));
        assert_eq!(
            (v[3].space, v[3].is_extern, v[3].dims.clone()),
            (StateSpace::Shared, true, vec![None])
        );
        assert_eq!(v[3].name, "global_smem");
        assert_eq!(
            (v[4].name.as_str(), v[5].name.as_str(), v[6].name.as_str()),
            ("v", "w", "cm")
        );
        assert_eq!(v[7].dims, vec![Some(2), Some(2)]);
        assert_eq!(
            v[7].init,
            vec![
                Operand::Float(FloatLit::F64(1.0f64.to_bits())),
                Operand::Float(FloatLit::F64(2.0f64.to_bits())),
                Operand::Float(FloatLit::F64(3.0f64.to_bits())),
                Operand::Float(FloatLit::F32(0xBF80_0000)),
            ]
        );
        let g = |o| {
            Operand::GenericAddress(Address {
                base: AddressBase::Symbol("name".into()),
                offset: o,
            })
        };
        assert_eq!(v[8].init, vec![g(8)]);
        assert_eq!((v[9].name.as_str(), v[9].init.clone()), ("q", vec![g(0)]));
        assert_eq!(v[10].init, vec![sym("f1"), sym("f2")]);
        assert_eq!((v[11].vector, v[11].ty), (Some(4), ScalarType::F32));
        assert_eq!((v[12].name.as_str(), v[12].line), ("_$_str", 12));
        // Shared-memory windows.
        let m = ok(".shared::cta .b32 a;\n.shared::cluster .b32 b;\n");
        assert_eq!(m.vars[0].space, StateSpace::Shared);
        assert_eq!(m.vars[1].space, StateSpace::SharedCluster);
    }

    #[test]
    fn entry_and_func_signatures() {
        let src = ".visible .entry name(\n\t.param .u64 name_param_0,\n\
            \t.param .u64 .ptr .global .align 16 name_param_1,\n\
            \t.param .align 8 .b8 name_param_2[16]\n)\n{\n\tret;\n}\n\
            .func  (.param .b32 func_retval0) f(\n\t.param .b32 f_param_0\n)\n{\n\tret;\n}\n\
            .weak .func g()\n{\n\tret;\n}\n\
            .func (.param .align 16 .b8 rv[16]) h\n{\n\tret;\n}\n";
        let m = ok(src);
        let k = &m.functions[0];
        assert!(k.is_entry);
        assert_eq!((k.name.as_str(), k.line), ("name", 1));
        let p = &k.params;
        assert_eq!(
            (p[0].ty, p[0].ptr_space, p[0].align),
            (ScalarType::U64, None, None)
        );
        assert_eq!(
            (p[1].ty, p[1].ptr_space, p[1].align, p[1].line),
            (ScalarType::U64, Some(StateSpace::Global), Some(16), 3)
        );
        assert_eq!(
            (p[2].ty, p[2].align, p[2].array_len),
            (ScalarType::B8, Some(8), Some(16))
        );
        let f = &m.functions[1];
        assert!(!f.is_entry);
        assert_eq!(f.returns.len(), 1);
        assert_eq!(f.returns[0].name, "func_retval0");
        assert_eq!(f.params[0].name, "f_param_0");
        assert!(m.functions[2].params.is_empty());
        assert_eq!(m.functions[3].returns[0].array_len, Some(16));
    }

    #[test]
    fn declarations_without_bodies_are_dropped() {
        let src = ".extern .func  (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n\
            \t.param .b64 vprintf_param_1\n)\n;\n\
            .func  (.param .b32 func_retval0) _Z2f1i\n(\n\t.param .b32 _Z2f1i_param_0\n)\n;\n\
            .func (.param .b32 func_retval0) _Z2f1i(.param .b32 _Z2f1i_param_0)\n{\n\tret;\n}\n";
        let m = ok(src);
        assert_eq!(m.functions.len(), 1);
        assert_eq!(m.functions[0].body.len(), 1);
        let e = err(".extern .func f()\n{\n ret;\n}\n");
        assert_eq!(e.line, 2);
        assert!(
            e.msg.contains("';' after the .extern declaration of 'f'"),
            "{e}"
        );
    }

    #[test]
    fn performance_directives() {
        let src = ".entry a() .reqntid 128\n{\n ret;\n}\n\
            .entry b()\n.reqntid 128, 1, 1\n.maxntid 256, 1, 1\n.minnctapersm 1\n.maxnreg 64\n\
            .explicitcluster\n.pragma \"nounroll\";\n{\n ret;\n}\n.func c() .noreturn\n{\n exit;\n}\n";
        let m = ok(src);
        let d = |i: usize| -> Vec<(String, Vec<u64>)> {
            m.functions[i]
                .directives
                .iter()
                .map(|d| (d.name.clone(), d.args.clone()))
                .collect()
        };
        assert_eq!(d(0), vec![("reqntid".into(), vec![128])]);
        assert_eq!(
            d(1),
            vec![
                ("reqntid".into(), vec![128, 1, 1]),
                ("maxntid".into(), vec![256, 1, 1]),
                ("minnctapersm".into(), vec![1]),
                ("maxnreg".into(), vec![64]),
                ("explicitcluster".into(), vec![]),
            ]
        );
        assert_eq!(m.functions[1].directives[1].line, 7);
        assert_eq!(d(2), vec![("noreturn".into(), vec![])]);
    }

    #[test]
    fn body_declarations_labels_and_scopes() {
        let b = body(
            "\t.reg .b32 %r<12>;\n\t.reg .pred %p<3>;\n\t.reg .b64 %rd;\n\t.reg .f32 temp;\n\
             \t.reg .v4 .f32 %v;\n\t.reg .b32 %a, %b<2>;\n\
             \t.local .align 4 .b8 __local_depot0[16];\n\
             \t.shared .align 4 .f32 _ZZ6kernelE5sdata[256];\n\
             $L__BB0_2:\n\t.pragma \"nounroll\";\n\
             \t{ // callseq 0, 0\n\t.reg .b32 temp_param_reg;\n\t.param .b32 param0;\n\
             \t{ .reg .b64 %tmp;\n\t  cvt.u64.u32 %tmp, %r1; }\n\t} // callseq 0\n\tret;",
        );
        let regs: Vec<_> = b
            .iter()
            .filter_map(|s| match s {
                Statement::Reg(r) => Some((r.ty, r.name.as_str(), r.count, r.vector)),
                _ => None,
            })
            .collect();
        use ScalarType::*;
        assert_eq!(
            regs,
            vec![
                (B32, "%r", Some(12), None),
                (Pred, "%p", Some(3), None),
                (B64, "%rd", None, None),
                (F32, "temp", None, None),
                (F32, "%v", None, Some(4)),
                (B32, "%a", None, None),
                (B32, "%b", Some(2), None),
                // Declared in nested scopes: renamed (scopes numbered from 1).
                (B32, "temp_param_reg#1#", None, None),
                (B64, "%tmp#2#", None, None),
            ]
        );
        let vars: Vec<_> = b
            .iter()
            .filter_map(|s| match s {
                Statement::Var(v) => Some((v.space, v.name.as_str(), v.dims.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(
            vars,
            vec![
                (StateSpace::Local, "__local_depot0", vec![Some(16)]),
                (StateSpace::Shared, "_ZZ6kernelE5sdata", vec![Some(256)]),
                // A call sequence's `.param` is scoped like its registers.
                (StateSpace::Param, "param0#1#", vec![]),
            ]
        );
        assert!(
            b.iter()
                .any(|s| matches!(s, Statement::Label { name, line: 14 } if name == "$L__BB0_2"))
        );
        assert_eq!(
            b.iter()
                .filter(|s| matches!(s, Statement::Instr(_)))
                .count(),
            2
        );
    }

    #[test]
    fn instruction_shapes() {
        let i = one("@%p1 ld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd4+16];");
        assert_eq!(
            i.guard,
            Some(Guard {
                negated: false,
                reg: "%p1".into()
            })
        );
        assert_eq!(
            (i.opcode.as_str(), i.mods.clone()),
            (
                "ld",
                vec!["global".into(), "nc".into(), "v4".into(), "f32".into()]
            )
        );
        assert_eq!(
            i.operands,
            vec![
                Operand::Vector(vec![reg("%f1"), reg("%f2"), Operand::Sink, reg("%f4")]),
                addr(AddressBase::Reg("%rd4".into()), 16),
            ]
        );
        assert_eq!(i.line, 6);
        let i = one("@!%p2 bra.uni $L__BB0_3;");
        assert_eq!(
            i.guard,
            Some(Guard {
                negated: true,
                reg: "%p2".into()
            })
        );
        assert_eq!(i.operands, vec![sym("$L__BB0_3")]);
        let i = one(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f1,%f2,%f3,%f4};",
        );
        assert_eq!(i.mods.len(), 9);
        assert_eq!(i.operands.len(), 4);
        let i = one("ld.shared::cta.b32 %r1, [%r2];");
        assert_eq!(i.mods, vec!["shared::cta", "b32"]);
        let i = one("cp.async.cg.shared.global.L2::128B [ %r40 + 0 ], [ %rd33 + 0 ], 0x10, %r41;");
        assert_eq!(i.mods, vec!["async", "cg", "shared", "global", "L2::128B"]);
        assert_eq!(i.operands[2], Operand::Int(16));
        for (src, opcode) in [
            ("ret;", "ret"),
            ("exit;", "exit"),
            ("cp.async.commit_group;", "cp"),
        ] {
            let i = one(src);
            assert_eq!(i.opcode, opcode);
            assert!(i.operands.is_empty());
        }
        assert_eq!(one("bar.sync 0;").operands, vec![Operand::Int(0)]);
        assert_eq!(
            one("barrier.sync 1, 64;").operands,
            vec![Operand::Int(1), Operand::Int(64)]
        );
        assert_eq!(one("bar.warp.sync -1;").operands, vec![Operand::Int(-1)]);
        assert_eq!(
            one("mov.b64 %rd1, {%r1, %r2};").operands,
            vec![reg("%rd1"), Operand::Vector(vec![reg("%r1"), reg("%r2")])]
        );
        assert_eq!(
            one("cvta.to.global.u64 %rd2, %rd1;").mods,
            vec!["to", "global", "u64"]
        );
    }

    #[test]
    fn special_registers_join_their_component() {
        let src = "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ntid.y;\nmov.u32 %r3, %ctaid.z;\n\
                   mov.u32 %r4, %nctaid.x;\nmov.u32 %r5, %laneid;\nmov.u32 %r6, %warpid;\n\
                   mov.u32 %r7, %clock;\nmov.u64 %rd1, %clock64;";
        let got: Vec<_> = instrs(src)
            .into_iter()
            .map(|i| i.operands[1].clone())
            .collect();
        let want: Vec<_> = [
            "%tid.x",
            "%ntid.y",
            "%ctaid.z",
            "%nctaid.x",
            "%laneid",
            "%warpid",
            "%clock",
            "%clock64",
        ]
        .into_iter()
        .map(reg)
        .collect();
        assert_eq!(got, want);
        // Only a touching component joins.
        let e = err(&kernel("mov.u32 %r1, %tid .x;"));
        assert!(e.msg.contains("found directive '.x'"), "{e}");
    }

    #[test]
    fn integer_and_float_operands() {
        let i = one(
            "mov.b64 %rd1, 0xFFFFFFFFFFFFFFFF, 0x10, 0b101, 017, 42U, -7, 0, 18446744073709551615, \
             -0x8000000000000000, 0fFF800000, 0d3FF0000000000000, 1.0, 1e-3, 2.5E+2, -1.5, -0f3F800000;",
        );
        let f64b = |x: f64| Operand::Float(FloatLit::F64(x.to_bits()));
        assert_eq!(
            i.operands[1..],
            [
                Operand::Int(-1),
                Operand::Int(16),
                Operand::Int(5),
                Operand::Int(15),
                Operand::Int(42),
                Operand::Int(-7),
                Operand::Int(0),
                Operand::Int(-1),
                Operand::Int(i64::MIN),
                Operand::Float(FloatLit::F32(0xFF80_0000)),
                Operand::Float(FloatLit::F64(0x3FF0_0000_0000_0000)),
                f64b(1.0),
                f64b(1e-3),
                f64b(250.0),
                f64b(-1.5),
                Operand::Float(FloatLit::F32(0xBF80_0000)),
            ]
        );
    }

    #[test]
    fn address_forms() {
        let i = one(
            "foo.b32 [%rd1], [%rd1+16], [%rd1+-4], [%rd1-4], [sym], [sym+8], [0x100], [ %rd2 + 0 ], \
             [%r1+0xFFFFFFFF], [-8+4];",
        );
        let r = |s: &str| AddressBase::Reg(s.into());
        let s = |s: &str| AddressBase::Symbol(s.into());
        assert_eq!(
            i.operands,
            vec![
                addr(r("%rd1"), 0),
                addr(r("%rd1"), 16),
                addr(r("%rd1"), -4),
                addr(r("%rd1"), -4),
                addr(s("sym"), 0),
                addr(s("sym"), 8),
                addr(AddressBase::Absolute(0x100), 0),
                addr(r("%rd2"), 0),
                addr(r("%r1"), 0xFFFF_FFFF),
                addr(AddressBase::Absolute(-4), 0),
            ]
        );
        let e = err(&kernel("ld.u32 %r1, [%rd1+4;"));
        assert!(
            e.msg
                .contains("']' to close the address opened at line 6:13"),
            "{e}"
        );
    }

    #[test]
    fn predicate_pairs_negations_and_calls() {
        let i = one("setp.lt.s32 %p1|%p2, %r1, %r2;");
        assert_eq!(i.operands[0], Operand::Vector(vec![reg("%p1"), reg("%p2")]));
        let i = one("shfl.sync.bfly.b32 %r21|%p5, %r17, %r19, %r18, %r20;");
        assert_eq!(
            i.operands[0],
            Operand::Vector(vec![reg("%r21"), reg("%p5")])
        );
        let i = one("and.pred %p3, !%p1, %p2;");
        assert_eq!(i.operands[1], Operand::NotReg("%p1".into()));
        let i = one("call.uni (retval0), \n\t_Z6helperfi, \n\t(\n\tparam0, \n\tparam1\n\t);");
        assert_eq!(
            i.operands,
            vec![
                Operand::Vector(vec![sym("retval0")]),
                sym("_Z6helperfi"),
                Operand::Vector(vec![sym("param0"), sym("param1")]),
            ]
        );
        assert_eq!(
            one("call.uni _Z3foov, ();").operands[1],
            Operand::Vector(vec![])
        );
        // An indirect call: the prototype line is skipped, the call keeps its name.
        let b = instrs(
            "prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n\
             call (retval0), %rd8, (param0), prototype_0;",
        );
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].operands[3], sym("prototype_0"));
    }

    /// nvcc declares `param0` again in every call sequence: each scope's is its own, in the
    /// call's operand list and in the addresses of its ld/st.param, and a name outside every
    /// scope is left alone.
    #[test]
    fn call_sequence_params_are_scoped() {
        let i = instrs(
            "{ .param .b32 param0;\nst.param.b32 [param0+0], %r1;\ncall.uni f, (param0); }\n\
             { .param .b32 param0;\nst.param.b32 [param0+0], %r2;\ncall.uni f, (param0); }\n\
             mov.u64 %rd1, param0;",
        );
        assert_eq!(
            i[0].operands[0],
            addr(AddressBase::Symbol("param0#1#".into()), 0)
        );
        assert_eq!(i[1].operands[1], Operand::Vector(vec![sym("param0#1#")]));
        assert_eq!(
            i[2].operands[0],
            addr(AddressBase::Symbol("param0#2#".into()), 0)
        );
        assert_eq!(i[3].operands[1], Operand::Vector(vec![sym("param0#2#")]));
        assert_eq!(i[4].operands[1], sym("param0"));
    }

    #[test]
    fn names_declared_by_reg_are_registers() {
        let i = instrs(
            "{ .reg .pred p; setp.eq.u32 p, %r1, 0; @p mov.u64 %rd1, %clock64; @!p mov.u64 %rd1, 0; }\n\
             .reg .b32 r<4>;\nadd.s32 r3, r2, r4;\nmov.u32 %r9, sym;\nmov.u32 %r9, [r0];",
        );
        // `p` is declared in a nested scope: renamed there, uses included.
        assert_eq!(i[0].operands[0], reg("p#1#"));
        assert_eq!(
            i[1].guard,
            Some(Guard {
                negated: false,
                reg: "p#1#".into()
            })
        );
        assert_eq!(
            i[2].guard,
            Some(Guard {
                negated: true,
                reg: "p#1#".into()
            })
        );
        assert_eq!(i[3].operands, vec![reg("r3"), reg("r2"), sym("r4")]);
        assert_eq!(i[4].operands[1], sym("sym"));
        assert_eq!(i[5].operands[1], addr(AddressBase::Reg("r0".into()), 0));
    }

    /// cuda_fp16.h's `__half22float2` repeats `{.reg .f16 low,high; ...}` in sibling scopes:
    /// each scope's registers are its own, an outer register keeps its name, and an inner
    /// declaration shadows an outer one only inside its scope.
    #[test]
    fn registers_of_nested_scopes_are_scoped() {
        let i = instrs(
            "{.reg .f16 low,high;\n mov.b32 {low,high},%r9;\n cvt.f32.f16 %f2, low;}\n\
             {.reg .f16 low,high;\n mov.b32 {low,high},%r9;\n cvt.f32.f16 %f3, high;}\n\
             { .reg .b32 %r<2>; { .reg .b32 %r1; add.s32 %r1, %r0, %r5; } mov.u32 %r1, [%r0+4]; }\n\
             mov.u32 %r1, %r0;",
        );
        let v = |a: &str, b: &str| Operand::Vector(vec![reg(a), reg(b)]);
        assert_eq!(i[0].operands, vec![v("low#1#", "high#1#"), reg("%r9")]);
        assert_eq!(i[1].operands[1], reg("low#1#"));
        assert_eq!(i[2].operands, vec![v("low#2#", "high#2#"), reg("%r9")]);
        assert_eq!(i[3].operands[1], reg("high#2#"));
        assert_eq!(
            i[4].operands,
            vec![reg("%r1#4#"), reg("%r#3#0"), reg("%r5")]
        );
        assert_eq!(
            i[5].operands,
            vec![reg("%r#3#1"), addr(AddressBase::Reg("%r#3#0".into()), 4)]
        );
        assert_eq!(i[6].operands, vec![reg("%r1"), reg("%r0")]);
    }

    #[test]
    fn triton_style_module() {
        let src = r#"//
// Generated by LLVM NVPTX Back-End
//

.version 8.7
.target sm_90a
.address_size 64

	// .globl	add_kernel              // -- Begin function add_kernel
.extern .shared .align 16 .b8 global_smem[];
                                        // @add_kernel
.visible .entry add_kernel(
	.param .u64 .ptr .global .align 1 add_kernel_param_0,
	.param .u64 .ptr .global .align 1 add_kernel_param_1,
	.param .u32 add_kernel_param_2,
	.param .u64 .ptr .global .align 1 add_kernel_param_3,
	.param .u64 .ptr .global .align 1 add_kernel_param_4
)
.reqntid 128
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<6>;
	.loc	1 7 0                           // add.py:7:0
$L__func_begin0:
	.loc	1 7 0                           // add.py:7:0

// %bb.0:
	ld.param.b64 	%rd3, [add_kernel_param_0];
	.loc	1 12 24                         // add.py:12:24
	mov.u32 	%r3, %ctaid.x;
	.loc	1 13 24                         // add.py:13:24
	shl.b32 	%r4, %r3, 9;
	mov.u32 	%r5, %tid.x;
	setp.lt.s32 	%p1, %r4, %r6;
$L__tmp1:
	.loc	2 43 17                         // standard.py:43:17 @[ add.py:14:27 ]
	// begin inline asm
	mov.u32 %r1, 0x0;
	mov.u32 %r2, 0x0;
	@%p1 ld.global.L1::evict_last.v2.b32 { %r1, %r2 }, [ %rd1 + 0 ];
	// end inline asm
	mov.b32 	%r7, global_smem;
	.pragma "used_bytes_mask 0xff";
	createpolicy.fractional.L2::evict_first.b64 %rd5, 1.0;
	// begin inline asm
	@%p1 st.global.v2.b32 [ %rd2 + 0 ], { %r1, %r2 };
	// end inline asm
	.loc	1 17 4                          // add.py:17:4
	ret;
$L__tmp2:
$L__func_end0:
                                        // -- End function
}
	.file	1 "/home/u/add.py"
	.file	2 "/usr/lib/python3/triton/language/standard.py"
	.section	.debug_abbrev
	{
.b8 1                                   // Abbreviation Code
.b8 17                                  // DW_TAG_compile_unit
.b8 0                                   // EOM(3)
	}
	.section	.debug_info
	{
.b32 157                                // Length of Unit
.b32 .debug_abbrev                      // Offset Into Abbrev. Section
.b8 97,100,100,95,107,101,114,110,101,108,0 // string
.b64 $L__func_begin0                    // DW_AT_low_pc
	}
	.section	.debug_macinfo	{	}
"#;
        let m = ok(src);
        assert_eq!(m.target, vec!["sm_90a"]);
        assert_eq!(m.vars.len(), 1);
        assert!(m.vars[0].is_extern && m.vars[0].dims == vec![None]);
        let k = &m.functions[0];
        assert_eq!(k.params.len(), 5);
        assert_eq!(k.params[0].ptr_space, Some(StateSpace::Global));
        assert_eq!(k.params[0].align, Some(1));
        assert_eq!(k.directives[0].name, "reqntid");
        let ins: Vec<_> = k
            .body
            .iter()
            .filter_map(|s| match s {
                Statement::Instr(i) => Some(i),
                _ => None,
            })
            .collect();
        let ld = ins
            .iter()
            .find(|i| i.opcode == "ld" && i.guard.is_some())
            .expect("guarded load");
        assert_eq!(ld.mods, vec!["global", "L1::evict_last", "v2", "b32"]);
        assert_eq!(
            ld.loc,
            Some(SourceLoc {
                file: 2,
                line: 43,
                col: 17
            })
        );
        assert_eq!(ld.operands[1], addr(AddressBase::Reg("%rd1".into()), 0));
        let cp = ins
            .iter()
            .find(|i| i.opcode == "createpolicy")
            .expect("createpolicy");
        assert_eq!(
            cp.operands[1],
            Operand::Float(FloatLit::F64(1.0f64.to_bits()))
        );
        assert_eq!(m.files.len(), 2);
        let labels = k
            .body
            .iter()
            .filter(|s| matches!(s, Statement::Label { .. }))
            .count();
        assert_eq!(labels, 4);
    }

    #[test]
    fn errors_name_expected_and_found_with_a_line() {
        let cases: &[(&str, u32, &str)] = &[
            // Truncated parameter list.
            (
                ".entry k( .param .u64 a",
                1,
                "expected ',' or ')' after a parameter, found end of file",
            ),
            // Missing semicolon: reported where the next instruction starts.
            (
                ".entry k()\n{\n mov.u32 %r1, %r2\n add.s32 %r1, %r1, 1;\n}",
                4,
                "expected ',' or ';' after an operand of 'mov' (line 3), found identifier 'add'",
            ),
            // Unbalanced braces.
            (
                ".entry k()\n{\n ret;\n",
                4,
                "'}' to close the body of 'k' opened at line 2, found end of file",
            ),
            (".entry k()\n{\n ret;\n}\n}\n", 5, "found '}'"),
            (
                ".entry k()\n{\n{\n ret;\n}\n",
                6,
                "'}' to close the body of 'k'",
            ),
            // Bad register count.
            (
                ".entry k()\n{\n .reg .b32 %r<x>;\n}",
                3,
                "expected a register count after '<', found identifier 'x'",
            ),
            (
                ".entry k()\n{\n .reg .b32 %r<4;\n}",
                3,
                "expected '>' after the register count, found ';'",
            ),
            // Garbage bytes.
            (
                ".version 9.0\n\u{1}\u{2}",
                2,
                "unexpected character '\\u{1}'",
            ),
            (
                ".entry k()\n{\n mov.u32 %r1, #5;\n}",
                3,
                "unexpected character '#'",
            ),
            (
                ".entry k()\n{\n mov.u32 %r1, \u{e9};\n}",
                3,
                "unexpected character '\u{e9}'",
            ),
            // Lexical errors.
            (".pragma \"abc\n;", 1, "unterminated string"),
            ("/* open\n\n", 1, "unterminated /* comment"),
            (
                ".entry k()\n{\n mov.u32 %r1, 0x;\n}",
                3,
                "malformed number '0x'",
            ),
            (
                ".entry k()\n{\n mov.u32 %r1, 12ab;\n}",
                3,
                "malformed number '12ab'",
            ),
            (
                ".entry k()\n{\n mov.u32 %r1, 09;\n}",
                3,
                "malformed number '09'",
            ),
            (
                ".entry k()\n{\n mov.f32 %f1, 0f3F80;\n}",
                3,
                "malformed number '0f3F80'",
            ),
            (
                ".entry k()\n{\n mov.u64 %rd1, 0x1FFFFFFFFFFFFFFFF;\n}",
                3,
                "does not fit in 64 bits",
            ),
            (
                ".entry k()\n{\n mov.u64 %rd1, 18446744073709551616;\n}",
                3,
                "does not fit in 64 bits",
            ),
            (
                ".entry k()\n{\n mov.u32 %r1, %;\n}",
                3,
                "expected a name after '%'",
            ),
            (". version 9.0", 1, "expected a directive name after '.'"),
            // Structural errors.
            (
                ".version 9.0\nmov.u32 %r1, 1;",
                2,
                "expected a module directive",
            ),
            (".bogus 1", 1, "expected a module directive"),
            (".entry k()\n{\n .bogus 1;\n}", 3, "expected a statement"),
            (
                ".entry k()\n{\n .loc 1 2\n ret;\n}",
                4,
                "expected a column number in .loc, found identifier 'ret'",
            ),
            (
                ".entry k()\n{\n .loc 1 2 3, discriminator 4\n}",
                3,
                "expected function_name or inlined_at",
            ),
            (
                ".entry k(.param a)\n{\n}",
                1,
                "expected a type such as .u64 in a parameter, found identifier 'a'",
            ),
            (
                ".entry k(.reg .u32 a)\n{\n}",
                1,
                "expected .param to start a parameter",
            ),
            (
                ".global .texref t;",
                1,
                "expected a type, .align or .v2/.v4 in a .global variable, found directive '.texref'",
            ),
            (".global .u32 %x;", 1, "expected a variable name"),
            (
                ".global .attribute(.managed) .align 4 .u32 mvar;",
                1,
                "variable attributes (.attribute, from __managed__) are not supported",
            ),
            (
                ".global .u32 x = {1, 2;",
                1,
                "expected ',' or '}' in an initializer, found ';'",
            ),
            (
                ".global .u64 x = y+4;",
                1,
                "symbol+offset initializers are not supported",
            ),
            (
                ".entry k()\n{\n mov.u32 %r1, -%r2;\n}",
                3,
                "expected a number after '-'",
            ),
            (
                ".entry k()\n{\n mov.u32 {%r1, {%r2}}, 0;\n}",
                3,
                "expected an operand, found '{'",
            ),
            (
                ".entry k()\n{\n st.u32 [_], %r1;\n}",
                3,
                "a register, symbol or integer address after '['",
            ),
            (
                ".entry k()\n{\n @;\n}",
                3,
                "expected a predicate register after '@', found ';'",
            ),
            (
                ".entry k()\n{\n %r1 ret;\n}",
                3,
                "expected an instruction opcode, found identifier '%r1'",
            ),
            (
                ".target",
                1,
                "expected a target name such as sm_80, found end of file",
            ),
            (".address_size 0x100000000", 1, "does not fit in 32 bits"),
        ];
        for &(src, line, msg) in cases {
            let e = err(src);
            assert_eq!(e.line, line, "line of {e} for {src:?}");
            assert!(
                e.msg.contains(msg),
                "message {e:?} lacks {msg:?} for {src:?}"
            );
            assert!(e.col >= 1);
        }
        // Errors come in text order: a bad token after an earlier error is not reported first.
        let e = err(".version 9.0\n.bogus #");
        assert_eq!((e.line, e.col), (2, 1));
        assert!(e.msg.contains("found directive '.bogus'"), "{e}");
        // Columns are 1-based.
        let e = err(".entry k()\n{\n\tmov.u32 %r1, #5;\n}");
        assert_eq!((e.line, e.col), (3, 15));
        assert_eq!(e.to_string(), "line 3:15: unexpected character '#'");
    }

    /// Every prefix and a set of one-byte corruptions of a real-shaped module must give `Ok` or
    /// `Err`, never a panic.
    #[test]
    fn truncations_and_corruptions_never_panic() {
        let src = kernel(
            "\t.reg .b32 %r<4>;\n\t.loc 1 2 3, function_name $L__s, inlined_at 1 4 5\n\
             $L__BB0_1:\n\t@!%p1 ld.global.v2.f32 {%f1, _}, [%rd1+-4];\n\
             \tsetp.lt.s32 %p1|%p2, %r1, 0fFF800000;\n\tcall.uni (r), f, (a, b);\n\
             \tmov.u32 %r1, %tid.x;\n\t{ .reg .pred p; @p bra $L__BB0_1; }\n\tret;",
        ) + ".global .u64 g[2] = {generic(x)+4, 0x10};\n.section .debug_info { .b8 1 }\n";
        for end in (0..=src.len()).filter(|&i| src.is_char_boundary(i)) {
            let _ = parse(&src[..end]);
        }
        let bytes = src.as_bytes();
        for i in 0..bytes.len() {
            for b in [
                b'{', b'}', b'[', b'.', b'%', b'"', b'-', b';', b'0', b'\n', b'/', b'*',
            ] {
                let mut v = bytes.to_vec();
                v[i] = b;
                if let Ok(s) = std::str::from_utf8(&v) {
                    let _ = parse(s);
                }
            }
        }
    }

    #[test]
    fn deep_nesting_and_long_bodies_do_not_recurse() {
        let mut src = String::from(".entry k()\n{\n");
        for _ in 0..100_000 {
            src.push('{');
        }
        src.push_str("ret;");
        for _ in 0..100_000 {
            src.push('}');
        }
        src.push_str("\n}\n");
        assert_eq!(ok(&src).functions[0].body.len(), 1);
        let mut init = String::from(".global .u32 x[1] = ");
        init.push_str(&"{".repeat(100_000));
        init.push('1');
        init.push_str(&"}".repeat(100_000));
        init.push(';');
        assert_eq!(ok(&init).vars[0].init, vec![Operand::Int(1)]);
    }
}
