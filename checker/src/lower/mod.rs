//! Lowering: one `.entry` of a parsed module to a [`Program`] in the core IR.
//!
//! Names are resolved (registers to indices, labels to instruction indices, variables to offsets
//! in their space) and every opcode and modifier is either given a meaning or rejected with its
//! PTX line. Modifiers that only matter for IEEE rounding (`.rn`, `.ftz`, `.approx`, `.full`) are
//! dropped because values are reals (DESIGN.md); cache hints (`.nc`, `.ca`, `.cg`, ...) because
//! they do not change values in a race-free kernel.

mod inline;
mod instr;
pub mod ir;
mod mods;

pub use inline::MAX_INLINED;
pub use ir::*;

use crate::ptx::{self, Line, ScalarType, StateSpace, Statement};
use std::collections::HashMap;

/// Why an entry cannot be lowered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LowerError {
    /// A construct the semantics does not model; never silently ignored.
    #[error("line {line}: unsupported: {what}")]
    Unsupported { line: Line, what: String },
    /// Ill-formed PTX: unknown names, wrong operand counts, bad types.
    #[error("line {line}: invalid PTX: {msg}")]
    Invalid { line: Line, msg: String },
    #[error("entry {name:?} not found (the module has: {available})")]
    NoEntry { name: String, available: String },
}

pub(crate) fn unsupported(line: Line, what: impl Into<String>) -> LowerError {
    LowerError::Unsupported {
        line,
        what: what.into(),
    }
}

pub(crate) fn invalid(line: Line, msg: impl Into<String>) -> LowerError {
    LowerError::Invalid {
        line,
        msg: msg.into(),
    }
}

/// Where a named variable lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VarRef {
    /// Index into [`Program::vars`].
    Space(Space, u32),
    Param(u32),
    /// Module `.global`/`.const` data without an initializer, `.tex`, ...: rejected where used.
    Unmodeled(StateSpace),
    /// A module variable whose initializer cannot be modeled: rejected where used, with the
    /// reason [`Scope::refused`]`[i]` (an unused one must not make the entry fail).
    Refused(u32),
    /// A module `.global .b8` array with an initializer: nvcc's string constants (`$str`,
    /// printf formats and assert messages), whose address may only be passed to printf or
    /// assert (an undefined value, see `Op::Undef`).
    Text,
}

/// Name tables for one function.
pub(crate) struct Scope {
    pub regs: HashMap<String, Reg>,
    pub reg_info: Vec<RegInfo>,
    pub vars: HashMap<String, VarRef>,
    pub labels: HashMap<String, u32>,
    /// Why each [`VarRef::Refused`] variable is refused.
    pub refused: Vec<String>,
}

/// Registers one entry may declare.
pub const MAX_REGISTERS: u64 = 1 << 16;

/// Where a variable of `size` bytes aligned to `align` goes when the space so far ends at
/// `end`: its offset and the new end, or `None` past the 64-bit address space (a crafted
/// length must be an error, never a wrapped and overlapping layout).
fn place(end: u64, align: u64, size: u64) -> Option<(u64, u64)> {
    let off = end.div_ceil(align).checked_mul(align)?;
    Some((off, off.checked_add(size)?))
}

/// Module variables larger than this are refused (their bytes are cells of the executor).
pub const MAX_MODULE_VAR_BYTES: u64 = 1 << 20;

/// The bytes of an initialized module variable of `size` bytes: each initializer item is one
/// element of the declared type, little-endian; bytes past the last item are zero (nvcc
/// drops trailing zero bytes of an initializer, e.g. `.b8 t[32] = {1, 0, 0, 0, ..., 8}` for
/// `int t[8] = {1, ..., 8}`, and relies on them being zero). Integers must fit the element;
/// float literals fill `.f32`/`.f64` elements only; addresses (`generic(x)`) are refused.
fn init_bytes(v: &ptx::VarDecl, size: u64) -> Result<Vec<u8>, LowerError> {
    let elem = u64::from(v.ty.size());
    let mut out = Vec::with_capacity(size as usize);
    for item in &v.init {
        let bits: u64 = match (item, v.ty) {
            (ptx::Operand::Int(x), t) if float_elem(t).is_none() && t != ScalarType::Pred => {
                let bits = elem * 8;
                let fits = bits >= 64 || {
                    let lo = -(1i64 << (bits - 1));
                    let hi = (1i64 << bits) - 1;
                    (lo..=hi).contains(x)
                };
                if !fits {
                    return Err(invalid(
                        v.line,
                        format!(
                            "initializer {x} does not fit a {elem}-byte element of {}",
                            v.name
                        ),
                    ));
                }
                *x as u64
            }
            (ptx::Operand::Float(lit), t) if float_elem(t).is_some() => {
                let f = match *lit {
                    ptx::FloatLit::F32(b) => f64::from(f32::from_bits(b)),
                    ptx::FloatLit::F64(b) => f64::from_bits(b),
                };
                match (t, *lit) {
                    (ScalarType::F32, ptx::FloatLit::F32(b)) => u64::from(b),
                    (ScalarType::F32, _) => u64::from((f as f32).to_bits()),
                    (_, ptx::FloatLit::F64(b)) => b,
                    _ => f.to_bits(),
                }
            }
            (ptx::Operand::GenericAddress(_), _) => {
                return Err(unsupported(
                    v.line,
                    format!("module variable {} initialized with an address", v.name),
                ));
            }
            (other, t) => {
                return Err(unsupported(
                    v.line,
                    format!(
                        "initializer {other:?} for a .{t:?} module variable {}",
                        v.name
                    )
                    .to_lowercase(),
                ));
            }
        };
        for i in 0..elem {
            out.push((bits >> (8 * i)) as u8);
        }
    }
    if out.len() as u64 > size {
        return Err(invalid(
            v.line,
            format!("more initializer items than {} has elements", v.name),
        ));
    }
    out.resize(size as usize, 0);
    Ok(out)
}

fn float_elem(t: ScalarType) -> Option<ScalarType> {
    matches!(t, ScalarType::F32 | ScalarType::F64).then_some(t)
}

/// Whether `target` names an `sm_NN` (any suffix) with NN at least `min`.
fn sm_at_least(target: &str, min: u32) -> bool {
    target
        .strip_prefix("sm_")
        .map(|r| {
            r.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|d| d.parse::<u32>().ok())
        .is_some_and(|n| n >= min)
}

/// Lowers the entry called `entry`.
pub fn lower(module: &ptx::Module, entry: &str) -> Result<Program, LowerError> {
    let func = module
        .functions
        .iter()
        .find(|f| f.is_entry && f.name == entry)
        .ok_or_else(|| LowerError::NoEntry {
            name: entry.to_string(),
            available: module
                .functions
                .iter()
                .filter(|f| f.is_entry)
                .map(|f| f.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })?;
    let inlined = inline::inline_calls(module, func)?;
    let func = &inlined;

    let mut scope = Scope {
        regs: HashMap::new(),
        reg_info: Vec::new(),
        vars: HashMap::new(),
        labels: HashMap::new(),
        refused: Vec::new(),
    };

    // Parameters.
    let mut params = Vec::new();
    for (i, p) in func.params.iter().enumerate() {
        let bytes =
            p.ty.size()
                .checked_mul(p.array_len.unwrap_or(1))
                .ok_or_else(|| invalid(p.line, "parameter too large"))?;
        params.push(ParamInfo {
            name: p.name.clone(),
            bytes,
            ty: p.ty,
            array: p.array_len.is_some(),
            line: p.line,
        });
        let idx = u32::try_from(i).map_err(|_| invalid(p.line, "too many parameters"))?;
        scope.vars.insert(p.name.clone(), VarRef::Param(idx));
    }

    // Variables: static shared first, in declaration order, then dynamic shared after them.
    let mut shared_end = 0u64;
    let mut local_end = 0u64;
    let mut dynamic: Vec<&ptx::VarDecl> = Vec::new();
    let mut vars: Vec<VarInfo> = Vec::new();
    let fn_vars = func.body.iter().filter_map(|s| match s {
        Statement::Var(v) => Some(v),
        _ => None,
    });
    for v in module.vars.iter().chain(fn_vars) {
        let align = u64::from(v.align.unwrap_or(v.ty.size()).max(1));
        let elem = u64::from(v.ty.size()) * u64::from(v.vector.unwrap_or(1));
        let known: Option<u64> = v
            .dims
            .iter()
            .try_fold(1u64, |acc, d| d.and_then(|d| acc.checked_mul(d)));
        match v.space {
            StateSpace::Shared if v.is_extern || known.is_none() => dynamic.push(v),
            // A call site's `.param` variables (and, once inlined, the callee's parameters)
            // are the caller's memory for the call: each thread's own, like local memory.
            StateSpace::Shared | StateSpace::Local | StateSpace::Param => {
                let size = known
                    .and_then(|n| n.checked_mul(elem))
                    .ok_or_else(|| invalid(v.line, "variable too large"))?;
                let end = if v.space == StateSpace::Shared {
                    &mut shared_end
                } else {
                    &mut local_end
                };
                let (off, new_end) = place(*end, align, size)
                    .ok_or_else(|| invalid(v.line, "variable too large"))?;
                *end = new_end;
                let space = if v.space == StateSpace::Shared {
                    Space::Shared
                } else {
                    Space::Local
                };
                if scope.vars.contains_key(&v.name) {
                    return Err(invalid(
                        v.line,
                        format!("variable {} declared twice", v.name),
                    ));
                }
                let idx =
                    u32::try_from(vars.len()).map_err(|_| invalid(v.line, "too many variables"))?;
                vars.push(VarInfo {
                    name: v.name.clone(),
                    space,
                    offset: off,
                    bytes: Some(size),
                    init: None,
                });
                scope.vars.insert(v.name.clone(), VarRef::Space(space, idx));
            }
            StateSpace::SharedCluster => {
                return Err(unsupported(v.line, "`.shared::cluster` variables"));
            }
            StateSpace::Global
                if v.ty == ScalarType::B8 && v.name.starts_with("$str") && !v.init.is_empty() =>
            {
                scope.vars.insert(v.name.clone(), VarRef::Text);
            }
            StateSpace::Global | StateSpace::Const if !v.init.is_empty() => {
                let data = known
                    .and_then(|n| n.checked_mul(elem))
                    .filter(|&n| n <= MAX_MODULE_VAR_BYTES)
                    .ok_or_else(|| {
                        unsupported(
                            v.line,
                            format!(
                                "module variable {} larger than {MAX_MODULE_VAR_BYTES} bytes or \
                                 of unknown size",
                                v.name
                            ),
                        )
                    })
                    .and_then(|size| Ok((size, init_bytes(v, size)?)));
                let (size, init) = match data {
                    Ok(d) => d,
                    // Invalid PTX is invalid whether or not the entry uses it.
                    Err(e @ LowerError::Invalid { .. }) => return Err(e),
                    Err(e) => {
                        let i = u32::try_from(scope.refused.len())
                            .map_err(|_| invalid(v.line, "too many variables"))?;
                        scope.refused.push(e.to_string());
                        scope.vars.insert(v.name.clone(), VarRef::Refused(i));
                        continue;
                    }
                };
                let space = if v.space == StateSpace::Const {
                    Space::Const
                } else {
                    Space::Global
                };
                let idx =
                    u32::try_from(vars.len()).map_err(|_| invalid(v.line, "too many variables"))?;
                vars.push(VarInfo {
                    name: v.name.clone(),
                    space,
                    offset: 0,
                    bytes: Some(size),
                    init: Some(init),
                });
                scope.vars.insert(v.name.clone(), VarRef::Space(space, idx));
            }
            other => {
                scope.vars.insert(v.name.clone(), VarRef::Unmodeled(other));
            }
        }
        if !v.init.is_empty()
            && matches!(
                v.space,
                StateSpace::Shared | StateSpace::Local | StateSpace::Param
            )
        {
            return Err(invalid(
                v.line,
                "shared and local variables cannot have initializers",
            ));
        }
    }
    let dyn_align = dynamic
        .iter()
        .map(|v| u64::from(v.align.unwrap_or(16).max(1)))
        .max()
        .unwrap_or(16);
    let dynamic_shared_offset =
        match dynamic.first() {
            Some(first) => place(shared_end, dyn_align, 0)
                .ok_or_else(|| {
                    invalid(
                        first.line,
                        "dynamic shared memory starts too late: static shared variables too large",
                    )
                })?
                .0,
            None => shared_end.div_ceil(dyn_align).saturating_mul(dyn_align),
        };
    if let Some(first) = dynamic.first() {
        let idx =
            u32::try_from(vars.len()).map_err(|_| invalid(first.line, "too many variables"))?;
        vars.push(VarInfo {
            name: dynamic
                .iter()
                .map(|v| v.name.as_str())
                .collect::<Vec<_>>()
                .join("/"),
            space: Space::Shared,
            offset: dynamic_shared_offset,
            bytes: None,
            init: None,
        });
        for v in &dynamic {
            scope
                .vars
                .insert(v.name.clone(), VarRef::Space(Space::Shared, idx));
        }
    }

    // Registers.
    for s in &func.body {
        if let Statement::Reg(r) = s {
            let bits = if r.ty == ScalarType::Pred {
                1
            } else {
                (r.ty.size() * 8) as u8
            };
            if r.vector.is_some() {
                return Err(unsupported(r.line, "vector registers (`.reg .v4`)"));
            }
            // Every thread gets a register file; a bound keeps a crafted declaration from
            // exhausting memory (real kernels declare a few thousand at most).
            if scope.reg_info.len() as u64 + u64::from(r.count.unwrap_or(1)) > MAX_REGISTERS {
                return Err(unsupported(
                    r.line,
                    format!("more than {MAX_REGISTERS} registers"),
                ));
            }
            let names: Vec<String> = match r.count {
                Some(n) => (0..n).map(|i| format!("{}{}", r.name, i)).collect(),
                None => vec![r.name.clone()],
            };
            for name in names {
                let id = u32::try_from(scope.reg_info.len())
                    .map_err(|_| invalid(r.line, "too many registers"))?;
                if scope.regs.insert(name.clone(), id).is_some() {
                    return Err(invalid(r.line, format!("register {name} declared twice")));
                }
                scope.reg_info.push(RegInfo {
                    name,
                    bits,
                    float: instr::float_ty(r.ty),
                });
            }
        }
    }

    // Labels.
    let mut count = 0u32;
    for s in &func.body {
        match s {
            Statement::Label { name, line }
                if scope.labels.insert(name.clone(), count).is_some() =>
            {
                return Err(invalid(*line, format!("label {name} defined twice")));
            }
            Statement::Instr(_) => count += 1,
            _ => {}
        }
    }

    let mut insts = Vec::with_capacity(count as usize);
    for s in &func.body {
        if let Statement::Instr(i) = s {
            insts.push(instr::lower_instruction(&scope, i)?);
        }
    }
    // "For .target sm_6x or below, barrier{.cta} instruction without .aligned modifier is
    // equivalent to .aligned variant" (PTX ISA 9.7.13.1). A module without an sm_NN target
    // is held to the stricter rule too.
    if !module.target.iter().any(|t| sm_at_least(t, 70)) {
        for i in &mut insts {
            if let Op::Bar { aligned, .. } = &mut i.op {
                *aligned = true;
            }
        }
    }
    // Falling off the end of an entry is an implicit `ret`.
    let end_line = insts.last().map(|i: &Inst| i.line).unwrap_or(func.line);
    insts.push(Inst {
        guard: None,
        op: Op::Exit,
        line: end_line,
        loc: None,
    });

    let dims = |name: &str| -> Option<[u32; 3]> {
        let d = func.directives.iter().find(|d| d.name == name)?;
        let mut out = [1u32; 3];
        for (slot, &a) in out.iter_mut().zip(&d.args) {
            *slot = u32::try_from(a).unwrap_or(u32::MAX);
        }
        Some(out)
    };
    for d in &func.directives {
        match d.name.as_str() {
            "reqntid" | "maxntid" | "minnctapersm" | "maxnreg" | "noreturn" | "maxnctapersm"
            | "pragma" => {}
            other => return Err(unsupported(d.line, format!("directive `.{other}`"))),
        }
    }

    Ok(Program {
        name: func.name.clone(),
        regs: scope.reg_info,
        params,
        vars,
        insts,
        static_shared: shared_end,
        dynamic_shared_offset,
        uses_dynamic_shared: !dynamic.is_empty(),
        local_bytes: local_end,
        reqntid: dims("reqntid"),
        maxntid: dims("maxntid"),
        files: module
            .files
            .iter()
            .map(|f| (f.index, f.path.clone()))
            .collect(),
    })
}
