//! A deterministic mutator of PTX text, shared by the PTX fuzzer (`ptx_fuzz.rs`) and the
//! certificate campaign (`cert_mutation.rs`): token swaps, deletions, duplications, numeric
//! edits, opcode, modifier and register substitutions, line shuffles. No dependency: SplitMix64
//! and a tokenizer that splits `add.rn.f32` into `add`, `.rn`, `.f32`.

#![allow(dead_code)] // each test file uses part of it

use std::collections::BTreeSet;

/// SplitMix64.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> Option<&'a T> {
        if xs.is_empty() {
            None
        } else {
            xs.get(self.below(xs.len()))
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    /// `add`, `%r12`, `$L__BB0_2`, `_Z3fooPf`.
    Ident,
    /// `.rn`, `.f32`, `.reg`.
    Dot,
    /// `0`, `0f3F800000`, `0xFF`, `128`.
    Num,
    Space,
    Newline,
    Punct,
}

/// `text` split into tokens whose concatenation is `text`.
pub fn tokenize(text: &str) -> Vec<(Tok, &str)> {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let kind = if c == b'\n' {
            i += 1;
            Tok::Newline
        } else if c == b' ' || c == b'\t' || c == b'\r' {
            while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r') {
                i += 1;
            }
            Tok::Space
        } else if c.is_ascii_digit() {
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            Tok::Num
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'%' {
            i += 1;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            Tok::Ident
        } else if c == b'.' && b.get(i + 1).is_some_and(|&d| d.is_ascii_alphabetic()) {
            i += 1;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            Tok::Dot
        } else {
            // One character (UTF-8 aware, so that slicing stays on char boundaries).
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            Tok::Punct
        };
        out.push((kind, &text[start..i]));
    }
    out
}

/// Vocabulary drawn from the corpus: substitutions use real opcodes and modifiers.
#[derive(Debug, Default, Clone)]
pub struct Dictionary {
    pub opcodes: Vec<String>,
    pub dots: Vec<String>,
    pub idents: Vec<String>,
    /// Instruction lines (`add.s32 %r3, %r1, %r2;`), for splicing into other files.
    pub lines: Vec<String>,
}

impl Dictionary {
    pub fn from_corpus<'a>(texts: impl IntoIterator<Item = &'a str>) -> Dictionary {
        let (mut ops, mut dots, mut ids) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
        let mut lines = BTreeSet::new();
        for t in texts {
            for line in t.lines() {
                let l = line.trim();
                if l.ends_with(';') && !l.starts_with('.') && !l.starts_with("//") {
                    lines.insert(l.to_string());
                }
                let toks: Vec<_> = tokenize(line)
                    .into_iter()
                    .filter(|(k, _)| *k != Tok::Space)
                    .collect();
                // The opcode: the first identifier of a line, after an optional guard.
                let mut it = toks.iter().skip_while(|(k, s)| {
                    *k == Tok::Punct && *s == "@" || (*k == Tok::Ident && s.starts_with('%'))
                });
                if let Some((Tok::Ident, s)) = it.next() {
                    ops.insert(s.to_string());
                }
                for (k, s) in &toks {
                    match k {
                        Tok::Dot => {
                            dots.insert(s.to_string());
                        }
                        Tok::Ident if ids.len() < 4096 => {
                            ids.insert(s.to_string());
                        }
                        _ => {}
                    }
                }
            }
        }
        Dictionary {
            opcodes: ops.into_iter().collect(),
            dots: dots.into_iter().collect(),
            idents: ids.into_iter().collect(),
            lines: lines.into_iter().collect(),
        }
    }
}

/// Replacement numbers: boundaries of the integer widths, shift amounts, float bit patterns
/// (zeros, infinities, NaN, denormals, 1.0, f64 1.0).
const NUMBERS: [&str; 30] = [
    "0",
    "1",
    "2",
    "3",
    "4",
    "7",
    "8",
    "15",
    "16",
    "31",
    "32",
    "33",
    "63",
    "64",
    "65",
    "127",
    "128",
    "255",
    "256",
    "1024",
    "65535",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "99999999999999999999999",
    "0xFFFFFFFF",
    "0x8000000000000000",
    "0f3F800000",
];

const FLOATS: [&str; 10] = [
    "0f00000000",
    "0f80000000",
    "0f7F800000",
    "0fFF800000",
    "0f7FC00000",
    "0f00000001",
    "0f7F7FFFFF",
    "0d3FF0000000000000",
    "0dFFF0000000000000",
    "0f3FB8AA3B",
];

/// A numeric edit of the number `s`.
fn edit_number(rng: &mut Rng, s: &str) -> String {
    match rng.below(6) {
        0 => NUMBERS[rng.below(NUMBERS.len())].to_string(),
        1 => FLOATS[rng.below(FLOATS.len())].to_string(),
        2 | 3 => match s.parse::<u64>() {
            Ok(v) => match rng.below(4) {
                0 => v.wrapping_add(1).to_string(),
                1 => v.wrapping_sub(1).to_string(),
                2 => v.wrapping_mul(2).to_string(),
                _ => (v / 2).to_string(),
            },
            Err(_) => {
                // A hex literal: change one digit.
                let mut b = s.as_bytes().to_vec();
                let i = 2 + rng.below(b.len().saturating_sub(2));
                if let Some(c) = b.get_mut(i) {
                    *c = b"0123456789ABCDEF"[rng.below(16)];
                }
                String::from_utf8(b).unwrap_or_else(|_| s.to_string())
            }
        },
        4 => format!("{s}{}", rng.below(10)),
        _ => s.chars().take(s.len().saturating_sub(1).max(1)).collect(),
    }
}

/// An edit of the register `%name`: another index, another class, or far out of range.
fn edit_register(rng: &mut Rng, s: &str) -> String {
    let prefix: String = s.chars().take_while(|c| !c.is_ascii_digit()).collect();
    let idx: u64 = s[prefix.len()..].parse().unwrap_or(0);
    match rng.below(5) {
        0 => format!("{prefix}{}", idx + 1),
        1 => format!("{prefix}{}", idx.saturating_sub(1)),
        2 => format!("{prefix}{}", [0u64, 1000, 65535, 4294967295][rng.below(4)]),
        3 => {
            let classes = [
                "%r", "%rd", "%f", "%fd", "%p", "%rs", "%h", "%hh", "%tid", "%ntid",
            ];
            format!("{}{idx}", classes[rng.below(classes.len())])
        }
        _ => [
            "%tid.x", "%ctaid.y", "%laneid", "%warpid", "%clock", "%ntid.z",
        ][rng.below(6)]
        .to_string(),
    }
}

/// What kinds of edits `mutate` applied, for reports.
pub const KINDS: usize = 13;

pub const EDIT_KINDS: [&str; KINDS] = [
    "token swap",
    "token deletion",
    "token duplication",
    "numeric edit",
    "opcode substitution",
    "modifier substitution",
    "register edit",
    "token insertion",
    "line swap",
    "line deletion",
    "line duplication",
    "truncation",
    "line splice",
];

/// `text` after `edits` random edits (kinds counted into `kinds`).
pub fn mutate(
    rng: &mut Rng,
    text: &str,
    dict: &Dictionary,
    edits: usize,
    kinds: &mut [u64; KINDS],
) -> String {
    let mut cur = text.to_string();
    for _ in 0..edits {
        let k = rng.below(100);
        // Weighted towards edits that keep the text parseable (and so reach lowering and
        // execution): numbers, modifiers, registers, opcodes, whole lines.
        let kind = match k {
            0..8 => 0,
            8..14 => 1,
            14..19 => 2,
            19..39 => 3,
            39..50 => 4,
            50..66 => 5,
            66..78 => 6,
            78..80 => 7,
            80..86 => 8,
            86..90 => 9,
            90..93 => 10,
            93..94 => 11,
            _ => 12,
        };
        kinds[kind] += 1;
        cur = if kind == 12 {
            splice(rng, &cur, dict)
        } else if kind >= 8 {
            edit_lines(rng, &cur, kind)
        } else {
            edit_tokens(rng, &cur, dict, kind)
        };
    }
    cur
}

/// An instruction line of another corpus file inserted after an instruction of this one, its
/// registers renamed to registers of this file with the same prefix (`%rd`, `%f`, ...).
fn splice(rng: &mut Rng, text: &str, dict: &Dictionary) -> String {
    let Some(new) = rng.pick(&dict.lines) else {
        return text.to_string();
    };
    let prefix = |r: &str| -> String { r.chars().take_while(|c| !c.is_ascii_digit()).collect() };
    let regs: Vec<&str> = tokenize(text)
        .into_iter()
        .filter(|(k, s)| {
            *k == Tok::Ident
                && s.starts_with('%')
                && s.bytes().last().is_some_and(|b| b.is_ascii_digit())
        })
        .map(|(_, s)| s)
        .collect();
    let renamed: String = tokenize(new)
        .into_iter()
        .map(|(k, s)| {
            if k == Tok::Ident && s.starts_with('%') {
                let p = prefix(s);
                let same: Vec<&&str> = regs.iter().filter(|r| prefix(r) == p).collect();
                if let Some(r) = rng.pick(&same) {
                    return r.to_string();
                }
            }
            s.to_string()
        })
        .collect();
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    let at: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            let l = lines[i].trim();
            l.ends_with(';') && !l.starts_with('.') && !l.starts_with("//")
        })
        .collect();
    let Some(&i) = rng.pick(&at) else {
        return text.to_string();
    };
    let line = format!("\t{renamed}\n");
    lines.insert(i + 1, &line);
    lines.concat()
}

fn edit_lines(rng: &mut Rng, text: &str, kind: usize) -> String {
    if kind == 11 {
        let mut cut = rng.below(text.len() + 1);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        return text[..cut].to_string();
    }
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    if lines.is_empty() {
        return String::new();
    }
    let i = rng.below(lines.len());
    // Mostly nearby lines: reorderings inside a basic block are the interesting ones.
    let j = if rng.chance(70) {
        (i + 1 + rng.below(8)).min(lines.len() - 1)
    } else {
        rng.below(lines.len())
    };
    match kind {
        8 => lines.swap(i, j),
        9 => {
            lines.remove(i);
        }
        _ => {
            let l = lines[i];
            lines.insert(j, l);
        }
    }
    lines.concat()
}

fn edit_tokens(rng: &mut Rng, text: &str, dict: &Dictionary, kind: usize) -> String {
    let mut toks: Vec<(Tok, String)> = tokenize(text)
        .into_iter()
        .map(|(k, s)| (k, s.to_string()))
        .collect();
    let solid: Vec<usize> = (0..toks.len())
        .filter(|&i| !matches!(toks[i].0, Tok::Space | Tok::Newline))
        .collect();
    let of = |k: Tok| -> Vec<usize> { solid.iter().copied().filter(|&i| toks[i].0 == k).collect() };
    let Some(&i) = rng.pick(&solid) else {
        return text.to_string();
    };
    match kind {
        0 => {
            // Half the swaps exchange two nearby tokens of one kind (`.row` and `.col`, two
            // registers, two numbers): those tend to parse.
            let same = of(toks[i].0);
            let (pool, i) = if rng.chance(50) {
                (same.as_slice(), i)
            } else {
                (solid.as_slice(), i)
            };
            let pos = pool.iter().position(|&x| x == i).unwrap_or(0);
            let solid = pool;
            let j = if rng.chance(80) {
                solid[(pos + 1 + rng.below(6)).min(solid.len() - 1)]
            } else {
                solid[rng.below(solid.len())]
            };
            toks.swap(i, j);
        }
        1 => {
            toks.remove(i);
        }
        2 => {
            let t = toks[i].clone();
            toks.insert(i, t);
        }
        3 => {
            if let Some(&n) = rng.pick(&of(Tok::Num)) {
                toks[n].1 = edit_number(rng, &toks[n].1);
            }
        }
        4 => {
            // The first identifier of a line that is not a register or label.
            let ops: Vec<usize> = of(Tok::Ident)
                .into_iter()
                .filter(|&n| !toks[n].1.starts_with('%') && !toks[n].1.starts_with('$'))
                .collect();
            if let (Some(&n), Some(op)) = (rng.pick(&ops), rng.pick(&dict.opcodes)) {
                toks[n].1 = op.clone();
            }
        }
        5 => {
            if let Some(&n) = rng.pick(&of(Tok::Dot)) {
                match rng.below(4) {
                    0 => {
                        toks.remove(n);
                    }
                    1 => {
                        let t = toks[n].clone();
                        toks.insert(n, t);
                    }
                    _ => {
                        if let Some(d) = rng.pick(&dict.dots) {
                            toks[n].1 = d.clone();
                        }
                    }
                }
            }
        }
        6 => {
            let regs: Vec<usize> = of(Tok::Ident)
                .into_iter()
                .filter(|&n| toks[n].1.starts_with('%'))
                .collect();
            if let Some(&n) = rng.pick(&regs) {
                toks[n].1 = edit_register(rng, &toks[n].1);
            }
        }
        _ => {
            let words = [
                ";", ",", "{", "}", "[", "]", "(", ")", "+", "-", "@", "!", "<", ">", "|", ":",
            ];
            let new = match rng.below(4) {
                0 => words[rng.below(words.len())].to_string(),
                1 => rng.pick(&dict.dots).cloned().unwrap_or_default(),
                2 => rng.pick(&dict.idents).cloned().unwrap_or_default(),
                _ => NUMBERS[rng.below(NUMBERS.len())].to_string(),
            };
            toks.insert(i, (Tok::Punct, new));
            toks.insert(i + 1, (Tok::Space, " ".into()));
        }
    }
    toks.into_iter().map(|(_, s)| s).collect()
}
