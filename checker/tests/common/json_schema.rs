//! A small JSON reader and JSON Schema validator (std only), for the tests of both crates that
//! hold `--format json` output to docs/kcert-output.schema.json. It supports the keywords that
//! schema uses: `type`, `enum`, `const`, `required`, `properties`, `additionalProperties: false`,
//! `items`, `minItems`, `maxItems`, `minimum`, `oneOf` and local `$ref`s; any other keyword in
//! the schema is an error, so the schema cannot silently outgrow the validator.

#![allow(dead_code)]

use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    /// Written without a fraction or exponent.
    Int(i128),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

pub fn parse(text: &str) -> Result<Json, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(format!("trailing text at byte {}", p.i));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && b" \t\r\n".contains(&self.s[self.i]) {
            self.i += 1;
        }
    }

    fn eat(&mut self, lit: &str) -> bool {
        if self.s[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        let c = *self.s.get(self.i).ok_or("unexpected end")?;
        match c {
            b'{' => {
                self.i += 1;
                let mut m = BTreeMap::new();
                self.ws();
                if self.eat("}") {
                    return Ok(Json::Obj(m));
                }
                loop {
                    self.ws();
                    let Json::Str(k) = self.value()? else {
                        return Err(format!("object key expected at byte {}", self.i));
                    };
                    self.ws();
                    if !self.eat(":") {
                        return Err(format!("':' expected at byte {}", self.i));
                    }
                    let v = self.value()?;
                    if m.insert(k.clone(), v).is_some() {
                        return Err(format!("duplicate key {k}"));
                    }
                    self.ws();
                    if self.eat("}") {
                        return Ok(Json::Obj(m));
                    }
                    if !self.eat(",") {
                        return Err(format!("',' expected at byte {}", self.i));
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut a = Vec::new();
                self.ws();
                if self.eat("]") {
                    return Ok(Json::Arr(a));
                }
                loop {
                    a.push(self.value()?);
                    self.ws();
                    if self.eat("]") {
                        return Ok(Json::Arr(a));
                    }
                    if !self.eat(",") {
                        return Err(format!("',' expected at byte {}", self.i));
                    }
                }
            }
            b'"' => {
                self.i += 1;
                let mut out = String::new();
                loop {
                    let c = *self.s.get(self.i).ok_or("unterminated string")?;
                    self.i += 1;
                    match c {
                        b'"' => return Ok(Json::Str(out)),
                        b'\\' => {
                            let e = *self.s.get(self.i).ok_or("unterminated escape")?;
                            self.i += 1;
                            match e {
                                b'"' => out.push('"'),
                                b'\\' => out.push('\\'),
                                b'/' => out.push('/'),
                                b'n' => out.push('\n'),
                                b't' => out.push('\t'),
                                b'r' => out.push('\r'),
                                b'b' => out.push('\u{8}'),
                                b'f' => out.push('\u{c}'),
                                b'u' => {
                                    let h = std::str::from_utf8(
                                        self.s.get(self.i..self.i + 4).ok_or("short \\u")?,
                                    )
                                    .map_err(|e| e.to_string())?;
                                    let n =
                                        u32::from_str_radix(h, 16).map_err(|e| e.to_string())?;
                                    out.push(char::from_u32(n).unwrap_or('\u{fffd}'));
                                    self.i += 4;
                                }
                                _ => return Err(format!("bad escape at byte {}", self.i)),
                            }
                        }
                        c if c < 0x20 => return Err("control character in string".into()),
                        _ => {
                            // Copy the whole UTF-8 sequence.
                            let start = self.i - 1;
                            let mut end = self.i;
                            while end < self.s.len() && (self.s[end] & 0xC0) == 0x80 {
                                end += 1;
                            }
                            out.push_str(
                                std::str::from_utf8(&self.s[start..end])
                                    .map_err(|e| e.to_string())?,
                            );
                            self.i = end;
                        }
                    }
                }
            }
            b't' if self.eat("true") => Ok(Json::Bool(true)),
            b'f' if self.eat("false") => Ok(Json::Bool(false)),
            b'n' if self.eat("null") => Ok(Json::Null),
            _ => {
                let start = self.i;
                while self.i < self.s.len() && b"+-0123456789.eE".contains(&self.s[self.i]) {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.i]).map_err(|e| e.to_string())?;
                if t.is_empty() {
                    return Err(format!("unexpected byte at {start}"));
                }
                if t.bytes().all(|b| b == b'-' || b.is_ascii_digit()) {
                    t.parse().map(Json::Int).map_err(|e| format!("{t}: {e}"))
                } else {
                    t.parse().map(Json::Num).map_err(|e| format!("{t}: {e}"))
                }
            }
        }
    }
}

fn type_ok(v: &Json, t: &str) -> bool {
    matches!(
        (t, v),
        ("null", Json::Null)
            | ("boolean", Json::Bool(_))
            | ("integer", Json::Int(_))
            | ("number", Json::Int(_) | Json::Num(_))
            | ("string", Json::Str(_))
            | ("array", Json::Arr(_))
            | ("object", Json::Obj(_))
    )
}

/// JSON equality as JSON Schema means it (1 and 1.0 are equal).
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Int(x), Json::Num(y)) | (Json::Num(y), Json::Int(x)) => *x as f64 == *y,
        _ => a == b,
    }
}

const KNOWN: [&str; 15] = [
    "$schema",
    "$id",
    "$defs",
    "$ref",
    "title",
    "description",
    "type",
    "enum",
    "const",
    "required",
    "properties",
    "additionalProperties",
    "items",
    "oneOf",
    "minimum",
];

/// The errors of `v` against `schema` (whose `$ref`s resolve in `root`), each with its path.
pub fn validate(root: &Json, schema: &Json, v: &Json, at: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let Json::Obj(s) = schema else {
        return vec![format!("{at}: schema is not an object")];
    };
    for k in s.keys() {
        if !KNOWN.contains(&k.as_str()) && k != "minItems" && k != "maxItems" {
            errs.push(format!(
                "{at}: schema keyword {k} is not supported by this validator"
            ));
        }
    }
    if let Some(Json::Str(r)) = s.get("$ref") {
        let mut target = root;
        for part in r.trim_start_matches("#/").split('/') {
            match target {
                Json::Obj(m) if m.contains_key(part) => target = &m[part],
                _ => return vec![format!("{at}: unresolved $ref {r}")],
            }
        }
        errs.extend(validate(root, target, v, at));
    }
    match s.get("type") {
        Some(Json::Str(t)) if !type_ok(v, t) => errs.push(format!("{at}: not of type {t}")),
        Some(Json::Arr(ts))
            if !ts
                .iter()
                .any(|t| matches!(t, Json::Str(t) if type_ok(v, t))) =>
        {
            errs.push(format!("{at}: not of any type {ts:?}"))
        }
        _ => {}
    }
    if let Some(Json::Arr(options)) = s.get("enum")
        && !options.iter().any(|o| same(o, v))
    {
        errs.push(format!("{at}: {v:?} is not one of {options:?}"));
    }
    if let Some(c) = s.get("const")
        && !same(c, v)
    {
        errs.push(format!("{at}: {v:?} is not {c:?}"));
    }
    if let (Some(min), Json::Int(_) | Json::Num(_)) = (s.get("minimum"), v) {
        let num = |j: &Json| match j {
            Json::Int(i) => Some(*i as f64),
            Json::Num(n) => Some(*n),
            _ => None,
        };
        if let (Some(m), Some(x)) = (num(min), num(v))
            && x < m
        {
            errs.push(format!("{at}: {x} is below the minimum {m}"));
        }
    }
    if let Json::Obj(o) = v {
        if let Some(Json::Arr(req)) = s.get("required") {
            for r in req {
                if let Json::Str(r) = r
                    && !o.contains_key(r)
                {
                    errs.push(format!("{at}: required key {r} is missing"));
                }
            }
        }
        let props = match s.get("properties") {
            Some(Json::Obj(p)) => Some(p),
            _ => None,
        };
        for (k, val) in o {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => errs.extend(validate(root, ps, val, &format!("{at}.{k}"))),
                None if s.get("additionalProperties") == Some(&Json::Bool(false)) => {
                    errs.push(format!("{at}: key {k} is not in the schema"))
                }
                None => {}
            }
        }
    }
    if let Json::Arr(a) = v {
        if let Some(items) = s.get("items") {
            for (i, x) in a.iter().enumerate() {
                errs.extend(validate(root, items, x, &format!("{at}[{i}]")));
            }
        }
        if let Some(Json::Int(n)) = s.get("minItems")
            && (a.len() as i128) < *n
        {
            errs.push(format!("{at}: fewer than {n} items"));
        }
        if let Some(Json::Int(n)) = s.get("maxItems")
            && (a.len() as i128) > *n
        {
            errs.push(format!("{at}: more than {n} items"));
        }
    }
    if let Some(Json::Arr(options)) = s.get("oneOf") {
        let fitting = options
            .iter()
            .filter(|o| validate(root, o, v, at).is_empty())
            .count();
        if fitting != 1 {
            errs.push(format!(
                "{at}: matches {fitting} of the oneOf alternatives, not exactly 1"
            ));
        }
    }
    errs
}

/// The schema of docs/kcert-output.schema.json.
pub fn schema(repo_root: &std::path::Path) -> Json {
    let p = repo_root.join("docs/kcert-output.schema.json");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    parse(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Every line of `out` must be one JSON object valid against the schema; returns them.
pub fn valid_lines(schema: &Json, out: &str) -> Vec<Json> {
    out.lines()
        .map(|l| {
            let v = parse(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"));
            let errs = validate(schema, schema, &v, "$");
            assert!(errs.is_empty(), "{l}\nviolates the schema: {errs:#?}");
            v
        })
        .collect()
}
