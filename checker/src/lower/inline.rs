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

fn names(op: &Operand, line: Line) -> Result<Vec<&str>, LowerError> {
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
                if self.stack.contains(&f.name) {
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

#[cfg(test)]
mod tests {
    use crate::lower::{LowerError, Op, Program, Space, lower};

    /// A module with device function `f` (one float in, one out) and an entry whose body is
    /// `body` (which may call `f`).
    fn module(funcs: &str, body: &str) -> String {
        format!(
            ".version 9.5\n.target sm_80\n.address_size 64\n\
             .extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n\
             .extern .func other(.param .b64 a);\n\
             .func (.param .b32 func_retval0) f(.param .b32 f_param_0)\n{{\n\
             .reg .f32 %f<3>;\n\
             ld.param.f32 %f1, [f_param_0];\n\
             add.f32 %f2, %f1, %f1;\n\
             st.param.f32 [func_retval0+0], %f2;\n\
             ret;\n}}\n{funcs}\
             .visible .entry k(.param .u64 k_param_0)\n{{\n\
             .reg .f32 %f<9>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n{body}\nret;\n}}\n"
        )
    }

    fn lowered(text: &str) -> Result<Program, LowerError> {
        lower(&crate::ptx::parse(text).expect("parses"), "k")
    }

    const CALL: &str = "{\n.param .b32 param0;\nst.param.f32 [param0+0], %f1;\n\
                        .param .b32 retval0;\ncall.uni (retval0), f, (param0);\n\
                        ld.param.f32 %f2, [retval0+0];\n}\n";

    #[test]
    fn each_call_site_gets_its_own_registers_and_variables() {
        let p = lowered(&module(
            "",
            &format!("mov.f32 %f1, 0f3F800000;\n{CALL}{CALL}"),
        ))
        .unwrap();
        let names: Vec<&str> = p.regs.iter().map(|r| r.name.as_str()).collect();
        assert!(
            names.contains(&"%f1#c1") && names.contains(&"%f1#c2"),
            "{names:?}"
        );
        // Two calls' `param0` are two local variables; the callee reads its copy's.
        let locals: Vec<&str> = p
            .vars
            .iter()
            .filter(|v| v.space == Space::Local)
            .map(|v| v.name.as_str())
            .collect();
        assert_eq!(locals.len(), 4, "{locals:?}");
        // `ret` of each copy became a branch past it, not an exit of the thread.
        let exits = p.insts.iter().filter(|i| i.op == Op::Exit).count();
        assert_eq!(exits, 2, "the entry's ret and the implicit one");
        // The callee's instructions keep the callee's PTX lines.
        assert!(p.insts.iter().any(|i| i.line == 9));
    }

    #[test]
    fn vector_params_are_local_accesses() {
        let g = ".func (.param .align 8 .b8 func_retval0[8]) g(.param .align 8 .b8 g_param_0[8])\n{\n\
                 .reg .f32 %f<3>;\nld.param.v2.f32 {%f1, %f2}, [g_param_0];\n\
                 st.param.v2.f32 [func_retval0+0], {%f2, %f1};\nret;\n}\n";
        let body = "{\n.param .align 8 .b8 param0[8];\nst.param.v2.f32 [param0+0], {%f1, %f2};\n\
                    .param .align 8 .b8 retval0[8];\ncall.uni (retval0), g, (param0);\n\
                    ld.param.v2.f32 {%f3, %f4}, [retval0+0];\n}";
        let p = lowered(&module(g, body)).unwrap();
        let vec_local = p
            .insts
            .iter()
            .filter(|i| {
                matches!(&i.op, Op::Ld { space: Space::Local, dsts, .. } if dsts.len() == 2)
                    || matches!(&i.op, Op::St { space: Space::Local, srcs, .. } if srcs.len() == 2)
            })
            .count();
        assert_eq!(vec_local, 4);
    }

    /// The line of the first occurrence of `needle`.
    fn line_of(text: &str, needle: &str) -> u32 {
        let at = text.find(needle).expect("present");
        text[..at].matches('\n').count() as u32 + 1
    }

    fn unsupported_at(text: &str, needle: &str, what: &str) {
        let line = line_of(text, needle);
        match lowered(text) {
            Err(LowerError::Unsupported { line: l, what: w }) => {
                assert_eq!(l, line, "{w}");
                assert!(w.contains(what), "{w}");
            }
            other => panic!("expected unsupported at {line}, got {other:?}"),
        }
    }

    #[test]
    fn recursion_is_refused_with_the_call_line() {
        // Direct: h calls h; the refusal names h's own call.
        let h = ".func h(.param .b32 h_param_0)\n{\n.reg .b32 %r<2>;\n{\n.param .b32 param0;\n\
                 call.uni h, (param0);\n}\nret;\n}\n";
        let body = "{\n.param .b32 param0;\ncall.uni h, (param0);\n}";
        unsupported_at(&module(h, body), "call.uni h", "recursive call of h");
        // Mutual: a calls b calls a.
        let ab = ".func a()\n{\ncall.uni b, ();\nret;\n}\n.func b()\n{\ncall.uni a, ();\nret;\n}\n";
        unsupported_at(
            &module(ab, "call.uni a, ();"),
            "call.uni a",
            "recursive call of a",
        );
    }

    #[test]
    fn indirect_and_external_calls_are_refused() {
        let body = "{\n.param .b32 param0;\n.param .b32 retval0;\n\
                    call (retval0), %rd1, (param0), proto;\n}";
        unsupported_at(&module("", body), "call (retval0)", "indirect call");
        let body = "{\n.param .b64 param0;\ncall.uni other, (param0);\n}";
        unsupported_at(
            &module("", body),
            "call.uni other",
            "external function other",
        );
        let text = module("", "call.uni nowhere, ();");
        let e = lowered(&text).unwrap_err();
        let want = line_of(&text, "call.uni nowhere");
        assert!(
            matches!(e, LowerError::Invalid { line, .. } if line == want),
            "{e}"
        );
        // A wrong argument count is invalid, not guessed.
        let body = "{\n.param .b32 param0;\ncall.uni (param0), f, ();\n}";
        let e = lowered(&module("", body)).unwrap_err();
        assert!(e.to_string().contains("it takes 1 and 1"), "{e}");
        // So is an argument of another size than the parameter.
        let body = "{\n.param .b64 param0;\n.param .b32 retval0;\n\
                    call.uni (retval0), f, (param0);\n}";
        let e = lowered(&module("", body)).unwrap_err();
        assert!(e.to_string().contains("param0#1# has 8 bytes"), "{e}");
    }

    /// A string constant's address is an undefined value (only printf and assert may take it);
    /// the constant itself is never data.
    #[test]
    fn string_constants_are_not_data() {
        let m = |body: &str| {
            module("", body).replace(
                ".visible .entry",
                ".global .align 1 .b8 $str[3] = {104, 105, 0};\n.visible .entry",
            )
        };
        let p = lowered(&m("mov.u64 %rd1, $str;")).unwrap();
        assert!(p.insts.iter().any(|i| matches!(i.op, Op::Undef { .. })));
        let text = m("ld.global.u8 %rd1, [$str];");
        match lowered(&text) {
            Err(LowerError::Unsupported { what, .. }) => {
                assert!(what.contains("string constant $str used as data"), "{what}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn printf_is_dropped_and_its_result_stays_undefined() {
        let body = "{\n.param .b64 param0;\nst.param.b64 [param0+0], %rd1;\n.param .b64 param1;\n\
                    st.param.b64 [param1+0], %rd1;\n.param .b32 retval0;\n\
                    call.uni (retval0), vprintf, (param0, param1);\nld.param.b32 %f3, [retval0+0];\n}";
        let p = lowered(&module("", body)).unwrap();
        // Only the entry's ret and the implicit exit remain: stores, call and load are gone.
        assert_eq!(p.insts.len(), 2, "{:?}", p.insts);
    }
}
