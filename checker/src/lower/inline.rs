//! Device-function calls, inlined into the entry's body before lowering.
//!
//! `call.uni (retval0), f, (param0, param1);` of a `.func f` with a body in the same module is
//! replaced by a copy of `f`'s body in which every register, label and local variable gets a
//! name of its own for this call site (`%f1` becomes `%f1#c3`; `#` cannot occur in a PTX
//! identifier, and the parser's `name#k#` never ends in `#cN`), `f`'s parameters and return
//! parameters become the call site's `.param` variables (which lowering places in local
//! memory, see `lower`), and `ret` becomes a branch to the end of the copy. Lines and `.loc`
//! stay those of `f`'s own instructions, so a report names the callee's PTX line.
//!
//! Refused, with the call's line: recursion (direct or mutual), indirect calls (through a
//! register, with a prototype), calls of functions without a body other than the two CUDA
//! runtime externs below, and argument lists that do not match the callee's parameters.
//!
//! `vprintf` (printf) and `__assertfail` (assert) are `.extern .func`s: `vprintf` is dropped
//! (printing changes no output), together with the stores of its arguments and the loads of
//! its return value, which stays an undefined register; `__assertfail` stays a `call` that
//! lowering reads as a reachable assertion (a finding), and its argument stores are dropped.
//! Their arguments are addresses of string constants (`$str`), which lowering reads as
//! undefined values: nothing may use them.

use super::{LowerError, invalid, unsupported};
use crate::ptx::{
    Address, AddressBase, Function, Instruction, Line, Module, Operand, RegDecl, StateSpace,
    Statement,
};
use std::collections::HashMap;

/// The CUDA runtime's printf.
pub(crate) const VPRINTF: &str = "vprintf";
/// The CUDA runtime's failed-assertion handler.
pub(crate) const ASSERTFAIL: &str = "__assertfail";

/// Instructions an entry may have once its calls are inlined: a bound on the copies that
/// nested calls multiply (real kernels stay far below it).
pub const MAX_INLINED: usize = 1 << 20;

/// `entry` with every call of a device function of `module` inlined; the entry itself when it
/// makes no call.
pub(crate) fn inline_calls(module: &Module, entry: &Function) -> Result<Function, LowerError> {
    if !entry.body.iter().any(is_call) {
        return Ok(entry.clone());
    }
    let mut cx = Inliner {
        module,
        sites: 0,
        stack: vec![entry.name.clone()],
        size: 0,
        dead: Vec::new(),
        regs: 0,
    };
    let mut body = Vec::with_capacity(entry.body.len());
    cx.expand(entry.body.clone(), &mut body)?;
    Ok(Function {
        body,
        ..entry.clone()
    })
}

fn is_call(s: &Statement) -> bool {
    matches!(s, Statement::Instr(i) if i.opcode == "call")
}

struct Inliner<'m> {
    module: &'m Module,
    /// Call sites inlined so far (numbers the renamed copies).
    sites: u32,
    /// The functions being inlined, outermost first: a call of one of them is recursion.
    stack: Vec<String>,
    /// Instructions emitted so far.
    size: usize,
    /// Registers the copies declare so far (bounded like an entry's).
    regs: u64,
    /// Return variables of printf calls, whose loads are dropped.
    dead: Vec<String>,
}

/// What a `call` names: return variables, the function, argument variables.
struct Call<'a> {
    rets: Vec<&'a str>,
    callee: &'a str,
    args: Vec<&'a str>,
}

fn names<'a>(op: &'a Operand, line: Line) -> Result<Vec<&'a str>, LowerError> {
    let Operand::Vector(v) = op else {
        return Err(invalid(
            line,
            "call needs a parenthesized list of .param variables",
        ));
    };
    v.iter()
        .map(|o| match o {
            Operand::Symbol(s) => Ok(s.as_str()),
            _ => Err(unsupported(
                line,
                "a call argument that is not a .param variable",
            )),
        })
        .collect()
}

fn parse_call(i: &Instruction) -> Result<Call<'_>, LowerError> {
    let line = i.line;
    if let Some(m) = i.mods.iter().find(|m| *m != "uni") {
        return Err(unsupported(line, format!("modifier `.{m}` on `call`")));
    }
    let (rets, rest) = match i.operands.first() {
        Some(Operand::Vector(_)) => (names(&i.operands[0], line)?, &i.operands[1..]),
        _ => (Vec::new(), &i.operands[..]),
    };
    let callee = match rest.first() {
        Some(Operand::Symbol(s)) => s.as_str(),
        Some(Operand::Reg(r)) => {
            return Err(unsupported(
                line,
                format!("indirect call through register {r}"),
            ));
        }
        _ => return Err(invalid(line, "call needs a function name")),
    };
    let args = match rest.get(1) {
        Some(op) => names(op, line)?,
        None => Vec::new(),
    };
    if rest.len() > 2 {
        return Err(unsupported(
            line,
            "a call with a prototype or call targets (indirect calls)",
        ));
    }
    Ok(Call { rets, callee, args })
}

/// The `.param` variable `name` declared in `out` (a call site's), with its size in bytes.
fn param_size(out: &[Statement], name: &str) -> Option<u64> {
    out.iter().rev().find_map(|s| match s {
        Statement::Var(v) if v.name == name && v.space == StateSpace::Param => {
            let n = v
                .dims
                .iter()
                .try_fold(1u64, |acc, d| d.and_then(|d| acc.checked_mul(d)))?;
            n.checked_mul(u64::from(v.ty.size()) * u64::from(v.vector.unwrap_or(1)))
        }
        _ => None,
    })
}

/// Whether instruction `i` is an `ld.param`/`st.param` whose address is variable `name`.
fn accesses(i: &Instruction, name: &str) -> bool {
    matches!(i.opcode.as_str(), "ld" | "st")
        && i.mods.iter().any(|m| m == "param")
        && i.operands.iter().any(|o| {
            matches!(o, Operand::Address(Address { base: AddressBase::Symbol(s), .. }) if s == name)
        })
}

impl Inliner<'_> {
    /// Copies `stmts` to `out`, inlining every call.
    fn expand(
        &mut self,
        stmts: Vec<Statement>,
        out: &mut Vec<Statement>,
    ) -> Result<(), LowerError> {
        for s in stmts {
            let Statement::Instr(i) = s else {
                out.push(s);
                continue;
            };
            if i.opcode == "ld" && self.dead.iter().any(|r| accesses(&i, r)) {
                continue;
            }
            if i.opcode != "call" {
                self.count(i.line)?;
                out.push(Statement::Instr(i));
                continue;
            }
            let call = parse_call(&i)?;
            if let Some(f) = self.module.functions.iter().find(|f| f.name == call.callee) {
                if f.is_entry {
                    return Err(invalid(i.line, format!("call of the entry {}", f.name)));
                }
                if self.stack.iter().any(|n| *n == f.name) {
                    return Err(unsupported(
                        i.line,
                        format!(
                            "recursive call of {} (through {}): recursion is not inlined",
                            f.name,
                            self.stack.join(" -> ")
                        ),
                    ));
                }
                self.inline(f, &i, &call, out)?;
                continue;
            }
            if !self.module.externs.iter().any(|n| n == call.callee) {
                return Err(invalid(
                    i.line,
                    format!(
                        "call of {}, which the module neither defines nor declares",
                        call.callee
                    ),
                ));
            }
            match call.callee {
                VPRINTF | ASSERTFAIL => {
                    // The arguments only serve the runtime's message: their stores go.
                    out.retain(|s| {
                        !matches!(s, Statement::Instr(x) if x.opcode == "st"
                            && call.args.iter().any(|a| accesses(x, a)))
                    });
                    if call.callee == ASSERTFAIL {
                        self.count(i.line)?;
                        out.push(Statement::Instr(i.clone()));
                    }
                    // printf's return value is left undefined: its loads go, their
                    // registers stay unwritten (a use of one is reported).
                    self.dead.extend(call.rets.iter().map(|r| r.to_string()));
                }
                other => {
                    return Err(unsupported(
                        i.line,
                        format!("call of the external function {other} (no body in this module)"),
                    ));
                }
            }
        }
        Ok(())
    }

    fn count(&mut self, line: Line) -> Result<(), LowerError> {
        self.size += 1;
        if self.size > MAX_INLINED {
            return Err(unsupported(
                line,
                format!("more than {MAX_INLINED} instructions after inlining the calls"),
            ));
        }
        Ok(())
    }

    /// Appends a renamed copy of `f`'s body for the call `i`.
    fn inline(
        &mut self,
        f: &Function,
        i: &Instruction,
        call: &Call,
        out: &mut Vec<Statement>,
    ) -> Result<(), LowerError> {
        let line = i.line;
        if call.args.len() != f.params.len() || call.rets.len() != f.returns.len() {
            return Err(invalid(
                line,
                format!(
                    "call of {} with {} arguments and {} return values; it takes {} and {}",
                    f.name,
                    call.args.len(),
                    call.rets.len(),
                    f.params.len(),
                    f.returns.len()
                ),
            ));
        }
        self.sites += 1;
        let site = self.sites;
        let tag = |n: &str| format!("{n}#c{site}");
        // Parameters are the call site's variables, of the same size.
        let mut vars: HashMap<String, String> = HashMap::new();
        for (p, a) in f
            .params
            .iter()
            .chain(&f.returns)
            .zip(call.args.iter().chain(&call.rets))
        {
            let want = u64::from(p.ty.size()) * u64::from(p.array_len.unwrap_or(1));
            match param_size(out, a) {
                Some(have) if have == want => {}
                Some(have) => {
                    return Err(invalid(
                        line,
                        format!(
                            "{a} has {have} bytes; {} of {} takes {want}",
                            p.name, f.name
                        ),
                    ));
                }
                None => {
                    return Err(invalid(
                        line,
                        format!("{a} is not a .param variable declared before the call"),
                    ));
                }
            }
            vars.insert(p.name.clone(), a.to_string());
        }
        let mut regs: Vec<&RegDecl> = Vec::new();
        let mut labels: HashMap<&str, String> = HashMap::new();
        for s in &f.body {
            match s {
                Statement::Reg(r) => regs.push(r),
                Statement::Label { name, .. } => {
                    labels.insert(name, tag(name));
                }
                Statement::Var(v) => match v.space {
                    StateSpace::Local | StateSpace::Param => {
                        vars.insert(v.name.clone(), tag(&v.name));
                    }
                    other => {
                        return Err(unsupported(
                            v.line,
                            format!(
                                "a {other:?} variable declared inside the device function {}",
                                f.name
                            ),
                        ));
                    }
                },
                Statement::Instr(_) => {}
            }
        }
        let reg = |n: &str| -> Option<String> {
            regs.iter().rev().find_map(|r| match r.count {
                None => (r.name == n).then(|| tag(n)),
                Some(c) => n
                    .strip_prefix(r.name.as_str())
                    .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|d| d.parse::<u32>().ok().filter(|k| k.to_string() == d))
                    .filter(|k| *k < c)
                    .map(|_| tag(n)),
            })
        };
        let end = format!("$L__ret#c{site}");
        let mut copy = Vec::with_capacity(f.body.len() + 2);
        if let Some(g) = &i.guard {
            // A guarded call: the threads whose guard fails branch over the copy.
            let mut skip = i.clone();
            skip.opcode = "bra".into();
            skip.mods = Vec::new();
            skip.guard = Some(crate::ptx::Guard {
                negated: !g.negated,
                reg: g.reg.clone(),
            });
            skip.operands = vec![Operand::Symbol(end.clone())];
            copy.push(Statement::Instr(skip));
        }
        for s in &f.body {
            copy.push(match s {
                Statement::Reg(r) => {
                    // `%f<3>` becomes `%f0#cN`, `%f1#cN`, `%f2#cN`: the renamed names are no
                    // longer a prefix and a number.
                    let n = r.count.unwrap_or(1);
                    self.regs = self.regs.saturating_add(u64::from(n));
                    if self.regs > super::MAX_REGISTERS {
                        return Err(unsupported(
                            r.line,
                            format!("more than {} registers", super::MAX_REGISTERS),
                        ));
                    }
                    for k in 0..n {
                        let mut d = r.clone();
                        d.name = match r.count {
                            Some(_) => tag(&format!("{}{k}", r.name)),
                            None => tag(&r.name),
                        };
                        d.count = None;
                        copy.push(Statement::Reg(d));
                    }
                    continue;
                }
                Statement::Label { name, line } => Statement::Label {
                    name: tag(name),
                    line: *line,
                },
                Statement::Var(v) => {
                    let mut v = v.clone();
                    v.name = tag(&v.name);
                    Statement::Var(v)
                }
                Statement::Instr(x) => {
                    let mut x = x.clone();
                    if let Some(g) = &mut x.guard
                        && let Some(n) = reg(&g.reg)
                    {
                        g.reg = n;
                    }
                    rename(&mut x.operands, &reg, &vars, &labels);
                    if x.opcode == "ret" {
                        x.opcode = "bra".into();
                        x.mods.retain(|m| m == "uni");
                        x.operands = vec![Operand::Symbol(end.clone())];
                    }
                    Statement::Instr(x)
                }
            });
        }
        copy.push(Statement::Label { name: end, line });
        self.stack.push(f.name.clone());
        self.expand(copy, out)?;
        self.stack.pop();
        Ok(())
    }
}

/// Renames the registers, variables and labels an instruction's operands name.
fn rename(
    ops: &mut [Operand],
    reg: &dyn Fn(&str) -> Option<String>,
    vars: &HashMap<String, String>,
    labels: &HashMap<&str, String>,
) {
    let mut stack: Vec<&mut Operand> = ops.iter_mut().collect();
    while let Some(op) = stack.pop() {
        match op {
            Operand::Reg(r) | Operand::NotReg(r) => {
                if let Some(n) = reg(r) {
                    *r = n;
                }
            }
            Operand::Symbol(s) => {
                if let Some(n) = vars.get(s.as_str()).or_else(|| labels.get(s.as_str())) {
                    *s = n.clone();
                }
            }
            Operand::Address(a) | Operand::GenericAddress(a) => match &mut a.base {
                AddressBase::Reg(r) => {
                    if let Some(n) = reg(r) {
                        *r = n;
                    }
                }
                AddressBase::Symbol(s) => {
                    if let Some(n) = vars.get(s.as_str()) {
                        *s = n.clone();
                    }
                }
                AddressBase::Absolute(_) => {}
            },
            Operand::Vector(v) => stack.extend(v.iter_mut()),
            Operand::Int(_) | Operand::Float(_) | Operand::Sink => {}
        }
    }
}
