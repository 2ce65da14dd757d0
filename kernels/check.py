#!/usr/bin/env python3
"""Consistency check of the kernel corpus (no GPU, no nvcc needed; Python >= 3.11).

    python3 kernels/check.py

For every X.cu: X.ptx exists and is nvcc output; for every Triton source triton/X.py
(not build.py): X.ptx exists and is LLVM NVPTX (Triton) output. For every spec X.toml: the PTX
exists, the entry exists, there is one [[params]] per .entry parameter and each
kind matches the PTX parameter type, grid/block are sane, and X.expect.toml exists
with a valid verdict, lines that point at the right kind of PTX instruction for
that verdict, and a [reference] consistent with the tensors and scalars of the spec
(its optional `wrong` key a bool). For every pair pairs/OPT-vs-REF.pair.toml: both
instance specs exist and are named by the file name, the [[inputs]] / [[outputs]] map
every in / out / inout tensor of each side exactly once to a tensor of the same role, dtype
and shape on the other side (two in tensors may differ in shape; an inout tensor is linked in
both, to one partner), [[scalars]] links every symbolic scalar once to one of the same dtype
and positive declaration, and OPT-vs-REF.pair.expect.toml has a known verdict consistent with
the two instances' expectations (a not_equivalent pair needs a wrong = true optimized instance of
the reference's operator, or different_operators = true and two variants of one operator).
Prints 'N passed, N failed' and exits non-zero on any failure.
"""
import re
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Families that state each kernel's truth in its .cu and check it through their pairs, not
# as [reference] operators: adversarial/ (kernels written to provoke false verdicts) and
# ints/ (integer tensor data, whose operators the [reference] language has no form for).
SOURCE_TRUTH = ("adversarial", "ints")


def source_truth(path):
    return any(f in Path(path).resolve().relative_to(HERE).parts for f in SOURCE_TRUTH)
VERDICTS = {"safe", "race", "out_of_bounds", "barrier_divergence", "deadlock",
            "collective_mismatch", "uninitialized_read", "misaligned", "unsupported",
            "fp_nondeterministic", "invalid", "resource_limit",
            # a reachable __trap() or failed assert() (a call of __assertfail)
            "trap", "assertion"}
# pairs/*.pair.expect.toml: equivalent, not_equivalent, or the safety finding that refutes first
# "unknown": the pair must be declined (unsupported or outside the decided fragment); the
# adversarial family uses it where refusing is the only true answer (invalid PTX, say)
# invalid: the pair (or a kernel of it) is refused as invalid input (exit 3)
PAIR_VERDICTS = {"equivalent", "not_equivalent", "race", "out_of_bounds", "barrier_divergence",
                 "uninitialized_read", "collective_mismatch", "misaligned", "deadlock",
                 "fp_nondeterministic", "invalid", "literals_differ", "trap", "assertion",
                 # kcert declines (a refusal with its line, or an empty footprint), and the
                 # optimized kernel that does not terminate (kcert stops at its work budget)
                 "unknown", "resource_limit"}
PAIR_SUFFIX, PAIR_EXPECT_SUFFIX = ".pair.toml", ".pair.expect.toml"
DTYPES = {"f16", "bf16", "f32", "f64", "s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64", "pred"}
SCALAR_PTX = {  # spec dtype -> accepted .param types
    "s32": {"u32", "s32", "b32"}, "u32": {"u32", "s32", "b32"},
    "s64": {"u64", "s64", "b64"}, "u64": {"u64", "s64", "b64"},
    "f32": {"f32", "b32"}, "f64": {"f64", "b64"},
}
# instruction classes each verdict's lines may point at
# ("unsupported" is checked by unsupported_line_ok below)
LINE_RE = {
    "race": re.compile(r"^\s*(@!?%p\w+\s+)?((ld|st|atom|red)(\.volatile|\.relaxed\.\w+|\.weak)?\.(shared|global)|ldmatrix\.|cp\.async\.(c[ag]\.|wait)|wmma\.(load|store)\.)"),
    # two unordered stores of values equal over the reals with bits that may differ
    "fp_nondeterministic": re.compile(r"^\s*(@!?%p\w+\s+)?st(\.volatile|\.relaxed\.\w+|\.weak)?\.(shared|global)"),
    "out_of_bounds": re.compile(r"^\s*(@!?%p\w+\s+)?((ld|st|atom|red)(\.volatile|\.relaxed\.\w+|\.weak)?(\.global|\.shared|\.local)?[.\s]|ldmatrix\.)"),
    # an access not aligned to its whole (vector) size: any memory instruction
    "misaligned": re.compile(r"^\s*(@!?%p\w+\s+)?((ld|st|atom|red)(\.volatile|\.relaxed\.\w+|\.weak)?(\.global|\.shared|\.local)?[.\s]|ldmatrix\.|cp\.async\.c[ag]\.|wmma\.(load|store)\.)"),
    "barrier_divergence": re.compile(r"^\s*(@!?%p\w+\s+)?(bar|barrier)\.(sync|arrive|red)"),
    "deadlock": re.compile(r"^\s*(@!?%p\w+\s+)?(bar|barrier)\.(sync|arrive|red)"),
    # warp collectives taking a member mask
    "collective_mismatch": re.compile(r"^\s*(@!?%p\w+\s+)?(shfl\.sync|vote\.sync|match\.sync|redux\.sync|bar\.warp\.sync)[.\s]"),
    # shared-memory reads: ld.shared, and ldmatrix (a warp's collective read of shared rows)
    "uninitialized_read": re.compile(r"^\s*(@!?%p\w+\s+)?(ld(\.volatile|\.relaxed\.\w+|\.weak)?\.shared|ldmatrix\.|wmma\.load\.)"),
    # input outside the PTX ISA (e.g. a barrier count ptxas rejects): any instruction
    "invalid": re.compile(r"^\s*(@!?%p\w+\s+)?[a-z][\w.:]*(\s|;)"),
    "trap": re.compile(r"^\s*(@!?%p\w+\s+)?trap\s*;"),
    # the call of __assertfail (its name follows on the next line in nvcc's output)
    "assertion": re.compile(r"^\s*(@!?%p\w+\s+)?call(\.uni)?\s"),
}
# A thread's exit completes its copies never waited for (`exec/step.rs` `Op::Exit`): in a
# kernel with cp.async, ret/exit can be a race's second site.
EXIT_RE = re.compile(r"^\s*(@!?%p\w+\s+)?(ret|exit)\s*;")
CP_ASYNC_RE = re.compile(r"^\s*(@!?%p\w+\s+)?cp\.async\.c[ag]\.")
# "unsupported" lines: an atomic (atom / red, any state space), or a bra / st guarded by a
# predicate computed (through setp) from data loaded from memory.
ATOMIC_RE = re.compile(r"^\s*(@!?%p\w+\s+)?(atom|red)\.")
WMMA_USE_RE = re.compile(r"^\s*wmma\.(mma|store)\.")
GUARDED_RE = re.compile(r"^\s*@!?(%p\w+)\s+(bra|st)[.\s]")
INSTR_RE = re.compile(r"^\s*(?:@!?%p\w+\s+)?([a-z][\w.]*)\s+([^;]*);")
REG_RE = re.compile(r"%\w+")


def data_tainted_regs(ptx_lines, upto):
    """Registers whose value derives from a memory load (ld other than ld.param),
    scanning the function that contains line `upto` (1-based) linearly up to it.
    A flow-insensitive over-approximation: once tainted, a register stays tainted."""
    start = upto - 1
    while start > 0 and not re.match(r"^\s*(\.visible\s+|\.weak\s+)?\.entry\b", ptx_lines[start]):
        start -= 1
    tainted = set()
    for text in ptx_lines[start:upto - 1]:
        m = INSTR_RE.match(text)
        if not m:
            continue
        op, args = m.group(1), m.group(2)
        if op.startswith(("st.", "bra", "bar.", "ret", "red.")):
            continue
        dst, _, srcs = args.partition(",")
        if dst.strip().startswith("{"):       # vector destination {%f1, %f2, ...}
            dst, _, srcs = args.partition("}")
        dsts = REG_RE.findall(dst)
        from_mem = op.startswith(("ld.", "atom.")) and not op.startswith("ld.param")
        if from_mem or any(r in tainted for r in REG_RE.findall(srcs)):
            tainted.update(dsts)
    return tainted


def atomic_results(ptx_lines, ln):
    """Registers that hold the old value returned by an `atom` before line `ln`."""
    regs = set()
    for text in ptx_lines[: ln - 1]:
        m = re.match(r"\s*(?:@!?%\w+\s+)?atom\.[\w.:]+\s+(%\w+)\s*,", text)
        if m:
            regs.add(m.group(1))
    return regs


def fragment_misuse(ptx_lines, ln):
    """Whether line `ln` mixes wmma fragments with other instructions, which PTX's unspecified
    fragment layout makes hardware-dependent: a wmma.mma / wmma.store taking a register last
    written (scanning linearly) outside wmma, or another instruction (not a mov) reading a
    register some wmma.load / wmma.mma writes."""
    last = {}
    for text in ptx_lines[: ln - 1]:
        im = INSTR_RE.match(text)
        if im:
            args = im.group(2)
            head = args.partition("}")[0] if args.lstrip().startswith("{") else args.partition(",")[0]
            for r in REG_RE.findall(head):
                last[r] = im.group(1)
    im = INSTR_RE.match(ptx_lines[ln - 1])
    if not im:
        return False
    op, args = im.group(1), im.group(2)
    regs = REG_RE.findall(args)
    if WMMA_USE_RE.match(ptx_lines[ln - 1]):
        srcs = regs[8:] if op.startswith("wmma.mma") else regs
        return any(not last.get(r, "wmma.").startswith("wmma.") for r in srcs)
    if op.startswith(("wmma.", "mov.")):
        return False
    # Flow-insensitive: registers a wmma.load / wmma.mma writes anywhere (loops carry them).
    frag = set()
    for text in ptx_lines:
        fm = re.match(r"\s*wmma\.(load|mma)[\w.]*\s+\{([^}]*)\}", text)
        if fm:
            frag.update(REG_RE.findall(fm.group(2)))
    return any(r in frag for r in regs[1:])


# a global store of a 4- or 8-byte scalar (wider than a 2- or 4-byte output element)
WIDE_ST_RE = re.compile(r"^\s*(@!?%p\w+\s+)?st(\.volatile|\.weak)?\.global\.([bfsu])(32|64)\s")
DTYPE_BYTES = {"f16": 2, "bf16": 2, "s16": 2, "u16": 2, "s8": 1, "u8": 1, "f32": 4, "s32": 4,
               "u32": 4, "f64": 8, "s64": 8, "u64": 8}


def rounded_exponent_regs(ptx_lines, upto):
    """Registers derived (flow-insensitively, up to line `upto`) from an `fma.rm.f32` result:
    libdevice expf's floor j, which only its range reduction may use (exec/libdevice.rs)."""
    derived = set()
    for text in ptx_lines[: upto - 1]:
        m = INSTR_RE.match(text)
        if not m:
            continue
        op, args = m.group(1), m.group(2)
        dst, _, srcs = args.partition(",")
        if op.startswith("fma.rm.f32") or any(r in derived for r in REG_RE.findall(srcs)):
            derived.update(REG_RE.findall(dst))
    return derived


def unsupported_line_ok(ptx_lines, ln, out_bytes=()):
    text = ptx_lines[ln - 1]
    if ATOMIC_RE.match(text) or fragment_misuse(ptx_lines, ln):
        return True
    # A store wider than an output tensor's element (its bytes would be no element's value).
    wm = WIDE_ST_RE.match(text)
    if wm and any(int(wm.group(4)) // 8 > b for b in out_bytes):
        return True
    # A use of libdevice expf's rounded exponent outside its range reduction.
    im = INSTR_RE.match(text)
    if im and im.group(1) != "fma.rm.f32":
        srcs = REG_RE.findall(im.group(2)) if im.group(1).startswith("st.") else \
            REG_RE.findall(im.group(2).partition(",")[2])
        if any(r in rounded_exponent_regs(ptx_lines, ln) for r in srcs):
            return True
    # A use of an atomic's returned (schedule-dependent) value, as a source operand.
    operands = text.split(None, 1)[1] if len(text.split(None, 1)) > 1 else ""
    sources = operands.split(",", 1)[1] if "," in operands else ""
    if any(re.search(re.escape(r) + r"\b", sources) for r in atomic_results(ptx_lines, ln)):
        return True
    m = GUARDED_RE.match(text)
    return bool(m) and m.group(1) in data_tainted_regs(ptx_lines, ln)


def ptx_entries(text):
    """{entry name: [param ptx type, ...]} for every .entry in a PTX module."""
    out = {}
    for m in re.finditer(r"\.entry\s+(\w+)\s*\((.*?)\)", text, re.S):
        # nvcc: `.param .u64 name`, `.param .align 4 .b8 name[..]`;
        # LLVM NVPTX (Triton): `.param .u64 .ptr .global .align 1 name`
        params = re.findall(r"\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)"
                            r"(?:\s+\.ptr(?:\s+\.(?:global|shared|const|local))?(?:\s+\.align\s+\d+)?)?\s+\w+",
                            m.group(2))
        out[m.group(1)] = params
    return out


def check_spec(spec_path, errors):
    def err(msg):
        errors.append(f"{spec_path.relative_to(HERE)}: {msg}")

    spec = tomllib.loads(spec_path.read_text())
    for key in ("ptx", "entry", "grid", "block", "dynamic_shared", "params"):
        if key not in spec:
            err(f"missing key {key!r}")
            return
    ptx_path = spec_path.parent / spec["ptx"]
    if not ptx_path.exists():
        err(f"ptx {spec['ptx']} not found")
        return
    ptx = ptx_path.read_text()
    ptx_lines = ptx.splitlines()
    entries = ptx_entries(ptx)
    if spec["entry"] not in entries:
        err(f"entry {spec['entry']!r} not in {ptx_path.name} (has {sorted(entries)})")
        return
    ptypes = entries[spec["entry"]]
    params = spec["params"]
    if len(params) != len(ptypes):
        err(f"{len(params)} [[params]] but .entry has {len(ptypes)} parameters")
        return
    for key in ("grid", "block"):
        v = spec[key]
        if not (isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) and x >= 1 for x in v)):
            err(f"{key} must be 3 positive ints")
    if spec["block"][0] * spec["block"][1] * spec["block"][2] > 1024:
        err("block has more than 1024 threads")
    if not (isinstance(spec["dynamic_shared"], int) and spec["dynamic_shared"] >= 0):
        err("dynamic_shared must be a non-negative int")
    tensors, scalars, symbolics = {}, [], {}
    # ctas = [[x, y, z], ...]: the CTAs to execute, inside the grid and distinct
    if "ctas" in spec:
        ctas = spec["ctas"]
        ids = []
        if not (isinstance(ctas, list) and ctas):
            err("ctas must be a non-empty list of CTA ids")
        else:
            for c in ctas:
                if not (isinstance(c, list) and 1 <= len(c) <= 3 and all(isinstance(x, int) and x >= 0 for x in c)):
                    err(f"ctas: {c!r} is not a CTA id")
                    continue
                c = c + [0] * (3 - len(c))
                if any(c[d] >= spec["grid"][d] for d in range(3)):
                    err(f"ctas: {c} is outside the grid {spec['grid']}")
                if c in ids:
                    err(f"ctas: {c} named twice")
                ids.append(c)
    for idx, (p, pt) in enumerate(zip(params, ptypes)):
        kind = p.get("kind")
        if kind == "tensor":
            if pt not in ("u64", "b64", "s64"):
                err(f"param {idx}: tensor but PTX param is .{pt}")
            for key in ("name", "dtype", "shape", "role"):
                if key not in p:
                    err(f"param {idx}: tensor without {key!r}")
            if p.get("dtype") not in DTYPES:
                err(f"param {idx}: bad dtype {p.get('dtype')!r}")
            if p.get("role") not in ("in", "out", "inout"):
                err(f"param {idx}: bad role {p.get('role')!r}")
            if not all(isinstance(x, int) and x >= 1 for x in p.get("shape", [])):
                err(f"param {idx}: bad shape")
            tensors[p.get("name")] = p
        elif kind == "scalar":
            dt = p.get("dtype")
            if dt not in SCALAR_PTX:
                err(f"param {idx}: bad scalar dtype {dt!r}")
            elif pt not in SCALAR_PTX[dt]:
                err(f"param {idx}: scalar {dt} but PTX param is .{pt}")
            if "value" not in p:
                err(f"param {idx}: scalar without value")
            scalars.append(p.get("value"))
        elif kind == "symbolic":
            # a float scalar bound to no value: a leaf of its own, linked by name in a pair
            dt = p.get("dtype")
            if dt not in ("f32", "f64"):
                err(f"param {idx}: symbolic scalar of dtype {dt!r} (only f32 and f64)")
            elif pt not in SCALAR_PTX[dt]:
                err(f"param {idx}: symbolic {dt} but PTX param is .{pt}")
            if not isinstance(p.get("name"), str):
                err(f"param {idx}: symbolic scalar without a name")
            if not isinstance(p.get("positive", False), bool):
                err(f"param {idx}: positive must be a bool")
            extra = sorted(set(p) - {"kind", "name", "dtype", "positive"})
            if extra:
                err(f"param {idx}: symbolic scalar takes no other keys (has {extra})")
            symbolics[p.get("name")] = p
        elif kind == "scratch":
            # a pointer the kernel never dereferences (Triton's trailing scratch pointers)
            if pt not in ("u64", "b64", "s64"):
                err(f"param {idx}: scratch but PTX param is .{pt}")
            extra = sorted(set(p) - {"kind"})
            if extra:
                err(f"param {idx}: scratch takes no other keys (has {extra})")
        else:
            err(f"param {idx}: bad kind {kind!r}")

    exp_path = spec_path.with_name(spec_path.name[: -len(".toml")] + ".expect.toml")
    if not exp_path.exists():
        err(f"missing {exp_path.name}")
        return
    exp = tomllib.loads(exp_path.read_text())
    verdict = exp.get("verdict")
    lines = exp.get("lines")
    if verdict not in VERDICTS:
        err(f"expect: bad verdict {verdict!r}")
        return
    if not isinstance(lines, list):
        err("expect: lines must be a list")
        return
    also = exp.get("also", [])
    if not isinstance(also, list) or any(a not in VERDICTS - {"safe", "unsupported", verdict} for a in also):
        err("expect: also must list other finding kinds than the verdict's")
    if also and verdict in ("safe", "unsupported"):
        err("expect: also only beside a finding verdict")
    if verdict in ("safe", "resource_limit") and lines:
        err(f"expect: a {verdict} verdict lists no lines")
    if verdict not in ("safe", "resource_limit") and not lines:
        err("expect: a non-safe verdict must list lines")
    for ln in lines:
        if not (isinstance(ln, int) and 1 <= ln <= len(ptx_lines)):
            err(f"expect: line {ln} out of range")
            continue
        text = ptx_lines[ln - 1]
        # The adversarial family refuses other constructs too (invalid modifiers, say); each
        # .cu there states why its line is refused.
        adversarial = source_truth(spec_path)
        if verdict == "unsupported":
            out_bytes = [DTYPE_BYTES.get(t.get("dtype"), 8) for t in tensors.values()
                         if t.get("role") in ("out", "inout")]
            if not adversarial and not unsupported_line_ok(ptx_lines, ln, out_bytes):
                err(f"expect: line {ln} ({text.strip()!r}) is neither an atomic, a use of an atomic's result, a bra/st "
                    "guarded by a predicate computed from loaded data, nor a store wider than an output's element")
        elif (verdict == "race" and EXIT_RE.match(text)
              and any(CP_ASYNC_RE.match(l) for l in ptx_lines)):
            pass  # the exit completes copies never waited for (a cp.async's second site)
        elif not LINE_RE[verdict].match(text):
            err(f"expect: line {ln} ({text.strip()!r}) is not a {verdict} instruction")

    ref = exp.get("reference")
    if ref is None and source_truth(spec_path):
        return  # these families state their truth in the .cu and check it by pairs
    if not isinstance(ref, dict):
        err("expect: missing [reference]")
        return
    op = ref.get("op")
    if "wrong" in ref and not isinstance(ref["wrong"], bool):
        err("reference: wrong must be a bool (true: the kernel does NOT compute this operator)")
    if ref.get("wrong") is True and verdict not in ("safe", "fp_nondeterministic"):
        err("reference: wrong = true marks a value bug, only for a safe verdict")

    def numel(t):
        n = 1
        for d in t["shape"]:
            n *= d
        return n

    def in_out():
        """(input tensor, output tensor) named by the reference, or (None, None) after an error."""
        x, out = tensors.get(ref.get("input")), tensors.get(ref.get("output"))
        if x is None or out is None:
            err("reference: input/output must name tensors of the spec")
            return None, None
        if x.get("role") not in ("in", "inout") or out.get("role") not in ("out", "inout"):
            err("reference: input must have role in/inout and output role out/inout")
        return x, out

    if op in ("relu", "copy"):
        x, out = in_out()
        if x is not None and numel(x) != numel(out):
            err(f"reference: {op} needs input and output of the same size")
        # written = N: the kernel writes only the first N elements (the rest stay unwritten)
        w = ref.get("written")
        if w is not None and out is not None and not (isinstance(w, int) and 0 <= w <= numel(out)):
            err(f"reference: written = {w!r} must be an int from 0 to the output's {numel(out)} elements")
    elif op == "vadd":
        x, y, out = (tensors.get(ref.get(k)) for k in ("x", "y", "output"))
        if x is None or y is None or out is None:
            err("reference: x/y/output must name tensors of the spec")
        else:
            if x.get("role") not in ("in", "inout") or y.get("role") not in ("in", "inout") \
                    or out.get("role") not in ("out", "inout"):
                err("reference: x, y must have role in/inout and output role out/inout")
            if not numel(x) == numel(y) == numel(out):
                err("reference: vadd needs x, y and output of the same size")
    elif op == "axpy":
        x, y, out = (tensors.get(ref.get(k)) for k in ("x", "y", "output"))
        alpha = ref.get("alpha")
        if x is None or y is None or out is None:
            err("reference: x/y/output must name tensors of the spec")
        else:
            if x.get("role") != "in" or y.get("role") != "in" or out.get("role") != "out":
                err("reference: x, y must have role in and output role out")
            if not numel(x) == numel(y) == numel(out):
                err("reference: axpy needs x, y and output of the same size")
        if not isinstance(alpha, float):
            err("reference: axpy needs a float alpha")
        elif alpha not in scalars:
            err(f"reference: alpha = {alpha} is not a scalar param of the spec ({scalars})")
    elif op in ("matvec", "row_sum", "bias_add"):
        rows, cols = ref.get("rows"), ref.get("cols")
        if not all(isinstance(v, int) and v >= 1 for v in (rows, cols)):
            err("reference: rows/cols must be positive ints")
            return
        if op == "matvec":
            a, x, out = (tensors.get(ref.get(k)) for k in ("a", "x", "output"))
            shapes = [[rows, cols], [cols], [rows]]
        elif op == "row_sum":
            a, out = in_out()
            x, shapes = None, [[rows, cols], None, [rows]]
        else:
            a, x, out = (tensors.get(ref.get(k)) for k in ("input", "bias", "output"))
            shapes = [[rows, cols], [cols], [rows, cols]]
        if a is None or out is None or (shapes[1] is not None and x is None):
            err(f"reference: {op} must name tensors of the spec")
        else:
            got = [a["shape"], x["shape"] if x is not None else None, out["shape"]]
            if got != shapes:
                err(f"reference: {op} needs shapes {shapes}, the spec has {got}")
            if any(t.get("role") != "in" for t in (a, x) if t is not None) or out.get("role") != "out":
                err(f"reference: {op} needs inputs of role in and an output of role out")
        # one program per row (Triton) passes cols only: the grid is the rows
        if scalars[:2] != [rows, cols] and scalars != [cols]:
            err(f"reference: scalar params {scalars} are not rows, cols = {[rows, cols]}")
    elif op == "warp_sum":
        x, out = in_out()
        if x is not None:
            threads = spec["block"][0] * spec["block"][1] * spec["block"][2]
            ctas = spec["grid"][0] * spec["grid"][1] * spec["grid"][2]
            if numel(out) != ctas * ((threads + 31) // 32):
                err("reference: warp_sum expects one output per warp of the grid")
            if numel(out) * 32 > numel(x):
                err(f"reference: {numel(out)} warps x 32 exceeds input size {numel(x)}")
    elif op == "total_sum":
        x, out = in_out()
        if out is not None and out.get("role") != "inout":
            err("reference: total_sum accumulates into out[0]: output role must be inout")
    elif op == "transpose":
        x, out = in_out()
        rows, cols = ref.get("rows"), ref.get("cols")
        if not all(isinstance(v, int) and v >= 1 for v in (rows, cols)):
            err("reference: rows/cols must be positive ints")
        elif x is not None:
            if x["shape"] != [rows, cols] or out["shape"] != [cols, rows]:
                err("reference: transpose needs input rows x cols and output cols x rows")
            if scalars[:2] != [rows, cols]:
                err(f"reference: scalar params {scalars} are not rows, cols = {[rows, cols]}")
    elif op == "softmax":
        x, out = in_out()
        rows, cols = ref.get("rows"), ref.get("cols")
        if not all(isinstance(v, int) and v >= 1 for v in (rows, cols)):
            err("reference: rows/cols must be positive ints")
        elif x is not None:
            if x["shape"] != [rows, cols] or out["shape"] != [rows, cols]:
                err("reference: softmax needs input and output of shape rows x cols")
            if scalars[:2] != [rows, cols]:
                err(f"reference: scalar params {scalars} are not rows, cols = {[rows, cols]}")
        if "scale" in ref and ref["scale"] not in symbolics:
            err("reference: scale (softmax of scale * x) must name a symbolic scalar of the spec")
    elif op == "column_sum":
        x, out = in_out()
        rows, cols = ref.get("rows"), ref.get("cols")
        if not all(isinstance(v, int) and v >= 1 for v in (rows, cols)):
            err("reference: rows/cols must be positive ints")
        elif x is not None and out is not None:
            if x["shape"] != [rows, cols] or out["shape"] != [cols]:
                err("reference: column_sum needs input rows x cols and output cols")
    elif op == "block_sum":
        x, out, chunk = tensors.get(ref.get("input")), tensors.get(ref.get("output")), ref.get("chunk")
        if x is None or out is None:
            err("reference: input/output must name tensors of the spec")
        elif not isinstance(chunk, int) or chunk < 1:
            err("reference: chunk must be a positive int")
        else:
            nx = 1
            for d in x["shape"]:
                nx *= d
            nout = 1
            for d in out["shape"]:
                nout *= d
            if nout * chunk > nx:
                err(f"reference: {nout} outputs x chunk {chunk} exceeds input size {nx}")
            if nout != spec["grid"][0] * spec["grid"][1] * spec["grid"][2]:
                err("reference: block_sum expects one output per CTA")
    elif op == "matmul":
        a, b, c = (tensors.get(ref.get(k)) for k in ("a", "b", "c"))
        m, n, k = ref.get("m"), ref.get("n"), ref.get("k")
        if a is None or b is None or c is None:
            err("reference: a/b/c must name tensors of the spec")
        else:
            if a["shape"] != [m, k] or b["shape"] != [k, n] or c["shape"] != [m, n]:
                err("reference: tensor shapes do not match m, n, k")
            if scalars and scalars[:3] != [m, n, k]:
                err(f"reference: scalar params {scalars} are not M, N, K = {[m, n, k]}")
        if not isinstance(ref.get("relu", False), bool):
            err("reference: relu must be a bool (a max(., 0) epilogue)")
    elif op == "gemm":
        # C = alpha A B + beta C, C inout, alpha and beta named symbolic scalars
        a, b, c = (tensors.get(ref.get(k)) for k in ("a", "b", "c"))
        m, n, k = ref.get("m"), ref.get("n"), ref.get("k")
        if a is None or b is None or c is None:
            err("reference: a/b/c must name tensors of the spec")
        else:
            if a["shape"] != [m, k] or b["shape"] != [k, n] or c["shape"] != [m, n]:
                err("reference: tensor shapes do not match m, n, k")
            if c.get("role") != "inout":
                err("reference: gemm reads and writes c: its role must be inout")
            if scalars and scalars[:3] != [m, n, k]:
                err(f"reference: scalar params {scalars} are not M, N, K = {[m, n, k]}")
        for key in ("alpha", "beta"):
            if ref.get(key) not in symbolics:
                err(f"reference: {key} must name a symbolic scalar of the spec")
    elif op in ("layernorm", "rmsnorm"):
        x, out = in_out()
        rows, cols, eps = ref.get("rows"), ref.get("cols"), ref.get("eps")
        if isinstance(eps, str):
            # the name of a symbolic scalar declared positive
            if eps not in symbolics or symbolics[eps].get("positive") is not True:
                err("reference: eps names no symbolic scalar declared positive")
            eps = 1e-5
        names = ("gamma", "beta") if op == "layernorm" else ("gamma",)
        vecs = [tensors.get(ref.get(k)) for k in names]
        if not all(isinstance(v, int) and v >= 1 for v in (rows, cols)):
            err("reference: rows/cols must be positive ints")
        elif not (isinstance(eps, float) and eps >= 0):
            err("reference: eps must be a non-negative float")
        elif any(v is None for v in vecs):
            err(f"reference: {'/'.join(names)} must name tensors of the spec")
        elif x is not None:
            if x["shape"] != [rows, cols] or out["shape"] != [rows, cols]:
                err(f"reference: {op} needs input and output of shape rows x cols")
            if any(v["shape"] != [cols] or v.get("role") != "in" for v in vecs):
                err(f"reference: {'/'.join(names)} must be inputs of shape [cols]")
            # one program per row (Triton) passes cols only: the grid is the rows
            if scalars[:2] != [rows, cols] and scalars != [cols]:
                err(f"reference: scalar params {scalars} are not rows, cols = {[rows, cols]}")
    elif op in ("attention", "mla_decode", "conv2d"):
        # tensor keys and their expected shapes, from the operator's size keys
        g = {k: ref.get(k) for k in ("tq", "tk", "d", "heads", "t", "dc", "dh", "dv",
                                     "cin", "cout", "h", "w", "kh", "kw")}
        if op == "attention":
            used = ("tq", "tk", "d")
            dims = lambda g: {"q": ("in", [g["tq"], g["d"]]), "k": ("in", [g["tk"], g["d"]]),
                              "v": ("in", [g["tk"], g["d"]]), "output": ("out", [g["tq"], g["d"]])}
            if "causal" in ref and not isinstance(ref["causal"], bool):
                err("reference: causal must be a bool")
        elif op == "mla_decode":
            used = ("heads", "t", "dc", "dh", "dv")
            dims = lambda g: {"q": ("in", [g["heads"], g["dh"]]), "c": ("in", [g["t"], g["dc"]]),
                              "w_uk": ("in", [g["dc"], g["heads"] * g["dh"]]),
                              "w_uv": ("in", [g["dc"], g["heads"] * g["dv"]]),
                              "output": ("out", [g["heads"], g["dv"]])}
        else:
            used = ("cin", "cout", "h", "w", "kh", "kw")
            dims = lambda g: {"input": ("in", [g["cin"], g["h"], g["w"]]),
                              "weight": ("in", [g["cout"], g["cin"], g["kh"], g["kw"]]),
                              "output": ("out", [g["cout"], g["h"] - g["kh"] + 1, g["w"] - g["kw"] + 1])}
        if not all(isinstance(g[k], int) and g[k] >= 1 for k in used):
            err(f"reference: {op} needs positive ints {list(used)}")
        elif op != "conv2d" and not isinstance(ref.get("scale"), float):
            err("reference: scale must be a float")
        else:
            for key, (role, want) in dims(g).items():
                t = tensors.get(ref.get(key))
                if t is None:
                    err(f"reference: {key} must name a tensor of the spec")
                elif t["shape"] != want or t.get("role") != role:
                    err(f"reference: {key} must be a tensor of role {role} and shape {want}")
    elif op == "gelu":
        x, out = in_out()
        if x is not None and numel(x) != numel(out):
            err("reference: gelu needs input and output of the same size")
        if ref.get("approximate", "none") not in ("none", "tanh"):
            err("reference: approximate must be none or tanh")
    elif op == "hardswish":
        x, out = in_out()
        if x is not None and numel(x) != numel(out):
            err("reference: hardswish needs input and output of the same size")
        if ref.get("sixth", "exact") not in ("exact", "f32"):
            err("reference: sixth must be exact or f32")
    elif op == "exp2":
        x, out = in_out()
        if x is not None and numel(x) != numel(out):
            err("reference: exp2 needs input and output of the same size")
        for key in ("scale", "shift"):
            if not isinstance(ref.get(key), (int, float)) or isinstance(ref.get(key), bool):
                err(f"reference: exp2 needs a number {key}")
    else:
        err(f"reference: unknown op {op!r}")


def load_instance(spec_path):
    """(spec, expectation) of an instance spec X.toml; expectation None if X.expect.toml is missing."""
    spec = tomllib.loads(spec_path.read_text())
    exp_path = spec_path.with_name(spec_path.name[: -len(".toml")] + ".expect.toml")
    exp = tomllib.loads(exp_path.read_text()) if exp_path.exists() else None
    return spec, exp


def check_pair(pair_path, errors):
    """A pair OPT-vs-REF.pair.toml and its OPT-vs-REF.pair.expect.toml."""
    def err(msg):
        errors.append(f"{pair_path.relative_to(HERE)}: {msg}")

    # The structural rules of a pair, which the Rust pair loader (checker/src/pair.rs) enforces
    # too: a pair expected "invalid" must break one of them (or hold an invalid instance).
    structural = []

    def serr(msg):
        structural.append(msg)

    pair = tomllib.loads(pair_path.read_text())
    unknown = set(pair) - {"reference", "optimized", "inputs", "outputs", "scalars"}
    if unknown:
        serr(f"unknown keys {sorted(unknown)}")
    sides = {}
    for side in ("reference", "optimized"):
        rel = pair.get(side)
        if not isinstance(rel, str):
            serr(f"missing {side} = \"path/to/X.toml\"")
            err(structural[-1])
            return
        path = (pair_path.parent / rel).resolve()
        if not path.is_file():
            err(f"{side} {rel} not found")
            return
        if not path.name.endswith(".toml") or path.name.endswith(".expect.toml") \
                or path.name.endswith(PAIR_SUFFIX):
            err(f"{side} {rel} is not an instance spec X.toml")
            return
        spec, exp = load_instance(path)
        sides[side] = (path, spec, exp)
    # the adversarial family states its truth in each .cu, not as [reference] operators
    adversarial = any(source_truth(p) for (p, _, _) in sides.values())
    ref_stem = sides["reference"][0].name[: -len(".toml")]
    opt_stem = sides["optimized"][0].name[: -len(".toml")]
    want_name = f"{opt_stem}-vs-{ref_stem}{PAIR_SUFFIX}"
    if pair_path.name != want_name:
        err(f"file name must be {want_name} (OPT-vs-REF)")

    tensors = {side: {p.get("name"): p for p in spec.get("params", []) if p.get("kind") == "tensor"}
               for side, (_, spec, _) in sides.items()}
    renaming = {}   # reference tensor name -> optimized tensor name
    linked = {}     # group -> list of (reference name, optimized name)
    for group, roles in (("inputs", ("in", "inout")), ("outputs", ("out", "inout"))):
        # no [[inputs]] is fine where neither kernel has an in tensor (checked below)
        rows = pair.get(group, [] if group == "inputs" else None)
        if not isinstance(rows, list) or (group == "outputs" and not rows):
            serr(f"needs at least one [[{group}]]")
            continue
        linked[group] = []
        seen = {"reference": set(), "optimized": set()}
        for i, row in enumerate(rows):
            if not isinstance(row, dict) or set(row) != {"reference", "optimized"}:
                serr(f"[[{group}]] #{i + 1} must have exactly the keys reference and optimized")
                continue
            shapes = {}
            for side in ("reference", "optimized"):
                name = row[side]
                t = tensors[side].get(name)
                if t is None:
                    serr(f"[[{group}]] #{i + 1}: {side} has no tensor {name!r}")
                    continue
                if t.get("role") not in roles:
                    serr(f"[[{group}]] #{i + 1}: {side} tensor {name!r} has role "
                        f"{t.get('role')!r}, {group} need role {' or '.join(roles)}")
                if name in seen[side]:
                    serr(f"[[{group}]]: {side} tensor {name!r} named twice")
                seen[side].add(name)
                shapes[side] = (t.get("dtype"), t.get("shape"), t.get("role"))
            if len(shapes) == 2:
                (rd, rs, rr), (od, os_, orole) = shapes["reference"], shapes["optimized"]
                if rr != orole:
                    serr(f"[[{group}]] #{i + 1}: roles {rr!r} and {orole!r} differ")
                # two in tensors may differ in size (the common leading part is the same data;
                # kcert checks that both kernels read only that part)
                elif rd != od or (rs != os_ and not (group == "inputs" and rr == "in")):
                    serr(f"[[{group}]] #{i + 1}: {row['reference']!r} {shapes['reference']} vs "
                        f"{row['optimized']!r} {shapes['optimized']}: dtype/shape differ")
                # linked inputs are one tensor: the same fixed contents and declared range
                data = [(tensors[sd][row[sd]].get("init"), tensors[sd][row[sd]].get("range"))
                        for sd in ("reference", "optimized")]
                if group == "inputs" and data[0] != data[1]:
                    serr(f"[[{group}]] #{i + 1}: {row['reference']!r} and {row['optimized']!r} "
                         f"differ in init or range: {data[0]} vs {data[1]}")
                renaming[row["reference"]] = row["optimized"]
                linked[group].append((row["reference"], row["optimized"]))
        # every in (out) tensor of each side is paired: no free input, no unchecked output
        for side in ("reference", "optimized"):
            # an input whose contents the spec fixes (init) is no free data: it may stay unlinked
            missing = sorted(n for n, t in tensors[side].items()
                             if t.get("role") in roles and n not in seen[side]
                             and not (group == "inputs" and "init" in t))
            if missing:
                serr(f"[[{group}]]: {side} tensor(s) {missing} with role {' or '.join(roles)} not paired")
    # an inout tensor is linked to one partner as an input (its initial value) and an output
    for r, o in linked.get("inputs", []):
        if tensors["reference"].get(r, {}).get("role") == "inout" and (r, o) not in linked.get("outputs", []):
            serr(f"inout tensor {r!r} linked to {o!r} in [[inputs]] but not in [[outputs]]")
    # [[scalars]]: every symbolic scalar of each side linked once, same dtype and positive
    symbolics = {side: {p.get("name"): p for p in spec.get("params", []) if p.get("kind") == "symbolic"}
                 for side, (_, spec, _) in sides.items()}
    rows = pair.get("scalars", [])
    seen = {"reference": set(), "optimized": set()}
    if not isinstance(rows, list):
        serr("[[scalars]] must be a list of tables")
        rows = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or set(row) != {"reference", "optimized"}:
            serr(f"[[scalars]] #{i + 1} must have exactly the keys reference and optimized")
            continue
        decl = {}
        for side in ("reference", "optimized"):
            p = symbolics[side].get(row[side])
            if p is None:
                serr(f"[[scalars]] #{i + 1}: {side} has no symbolic scalar {row[side]!r}")
                continue
            if row[side] in seen[side]:
                serr(f"[[scalars]]: {side} symbolic scalar {row[side]!r} named twice")
            seen[side].add(row[side])
            decl[side] = (p.get("dtype"), p.get("positive", False))
        if len(decl) == 2 and decl["reference"] != decl["optimized"]:
            serr(f"[[scalars]] #{i + 1}: dtype/positive differ: {decl}")
        renaming[row["reference"]] = row["optimized"]
    for side in ("reference", "optimized"):
        missing = sorted(n for n in symbolics[side] if n not in seen[side])
        if missing:
            serr(f"[[scalars]]: {side} symbolic scalar(s) {missing} not linked")

    exp_path = pair_path.with_name(pair_path.name[: -len(PAIR_SUFFIX)] + PAIR_EXPECT_SUFFIX)
    if not exp_path.exists():
        err(f"missing {exp_path.name}")
        return
    pexp = tomllib.loads(exp_path.read_text())
    if pexp.get("fp_nondeterministic", False) not in (True, False) or (
            pexp.get("fp_nondeterministic") and pexp.get("verdict") != "equivalent"):
        err(f"{exp_path.name}: fp_nondeterministic = true goes with verdict = \"equivalent\" only")
    if "verdict" not in pexp or set(pexp) - {"verdict", "different_operators", "invalid",
                                             "fp_nondeterministic"}:
        err(f"{exp_path.name}: must hold the key verdict (and optionally different_operators, "
            "or invalid)")
    verdict = pexp.get("verdict")
    if verdict not in PAIR_VERDICTS:
        err(f"{exp_path.name}: bad verdict {verdict!r} (one of {sorted(PAIR_VERDICTS)})")
        return
    # verdict = "invalid": `invalid` is a fragment of kcert's refusal message (prover/tests/pairs.rs)
    if (verdict == "invalid") != isinstance(pexp.get("invalid"), str):
        err(f"{exp_path.name}: invalid = \"message fragment\" goes with verdict = \"invalid\" only")
    if verdict == "invalid":
        exps = {side: e for side, (_, _, e) in sides.items()}
        bad_instance = any(e is not None and e.get("verdict") == "invalid" for e in exps.values())
        if not structural and not bad_instance:
            err(f"{exp_path.name}: verdict invalid, but the pair keeps every structural rule and "
                "neither instance is invalid")
        return
    for msg in structural:
        err(msg)
    # different_operators = true: a not_equivalent pair of two correct kernels of two different
    # (documented) variants of one operator, close to each other (GELU exact vs tanh): refuted by
    # a certified witness (prover/tests/pairs.rs), not by a wrong = true twin
    different = pexp.get("different_operators", False)
    if not isinstance(different, bool):
        err(f"{exp_path.name}: different_operators must be a bool")
        return
    if different and verdict != "not_equivalent":
        err(f"{exp_path.name}: different_operators = true only for verdict not_equivalent")

    # consistency with the instances' own expectations
    exps = {side: e for side, (_, _, e) in sides.items()}
    if any(e is None for e in exps.values()):
        err("an instance of the pair has no X.expect.toml")
        return
    iv = {side: e.get("verdict") for side, e in exps.items()}
    # fp-nondeterministic writes are safe over the reals: the pair's proof names them
    fp_pair = pexp.get("fp_nondeterministic", False)
    if verdict in ("equivalent", "not_equivalent"):
        fp_sides = [side for side in iv if iv[side] == "fp_nondeterministic"]
        if verdict == "equivalent" and bool(fp_sides) != bool(fp_pair):
            err(f"{exp_path.name}: fp_nondeterministic = {str(bool(fp_pair)).lower()} but the "
                f"instances with fp-nondeterministic writes are {fp_sides}")
        iv = {side: ("safe" if v == "fp_nondeterministic" else v) for side, v in iv.items()}
    refs = {side: (e.get("reference") or {}) for side, e in exps.items()}
    wrong = {side: refs[side].get("wrong") is True for side in refs}
    if iv["reference"] != "safe" or wrong["reference"]:
        err("the reference instance must be safe and compute its [reference] (no wrong = true)")
    if verdict in ("equivalent", "not_equivalent"):
        if iv["optimized"] != "safe":
            err(f"verdict {verdict} but the optimized instance's verdict is {iv['optimized']!r}")
        # both [reference] operators, tensor names of the reference side renamed to the optimized side
        a = {k: renaming.get(v, v) if isinstance(v, str) and k != "op" else v
             for k, v in refs["reference"].items() if k != "wrong"}
        b = {k: v for k, v in refs["optimized"].items() if k != "wrong"}
        if different:
            if a == b or a.get("op") != b.get("op"):
                err(f"different_operators = true needs two variants of one op, documented: {a} vs {b}")
            if wrong["optimized"]:
                err("different_operators = true but the optimized instance has wrong = true")
        elif a != b:
            err(f"the two instances document different operators: {a} vs {b} "
                "(a not_equivalent pair of two operator variants says different_operators = true)")
        if verdict == "equivalent" and wrong["optimized"]:
            err("verdict equivalent but the optimized instance has wrong = true")
        if verdict == "not_equivalent" and not different and not wrong["optimized"] and not adversarial:
            err("verdict not_equivalent but the optimized instance lacks wrong = true")
    elif verdict == "unknown":
        # kcert declines: the optimized kernel is refused (unsupported), or both are safe and
        # the pair gives nothing to compare (an empty footprint); the adversarial family also
        # declines pairs whose kernels run but read bits in a way the model refuses
        if iv["optimized"] not in ("safe", "unsupported") and not adversarial:
            err(f"verdict unknown but the optimized instance's verdict is {iv['optimized']!r}")
    elif verdict == "literals_differ":
        # two safe kernels whose terms differ only in how literals were rounded
        if iv["optimized"] != "safe":
            err(f"verdict literals_differ but the optimized instance's verdict is {iv['optimized']!r}")
    elif iv["optimized"] != verdict:
        err(f"verdict {verdict} but the optimized instance's verdict is {iv['optimized']!r}")


def main():
    passed = failed = 0

    def record(errs):
        nonlocal passed, failed
        for e in errs:
            print("FAIL", e)
        if errs:
            failed += 1
        else:
            passed += 1

    for cu in sorted(HERE.rglob("*.cu")):
        errs = []
        ptx = cu.with_suffix(".ptx")
        if not ptx.exists():
            errs.append(f"{cu.relative_to(HERE)}: no {ptx.name} (run build.sh)")
        elif not any("Generated by NVIDIA NVVM Compiler" in h for h in ptx.read_text().splitlines()[:3]):
            errs.append(f"{ptx.relative_to(HERE)}: not nvcc output")
        # a kernel the tools cannot handle yet keeps its spec under pending/ (see pending/README.md)
        pending = HERE / "pending" / cu.parent.relative_to(HERE) / f"{cu.stem}.toml.pending"
        # an adversarial kernel may run only under instance names of its own (X_pos0.toml)
        launched = any(f'ptx = "{ptx.name}"' in t.read_text() for t in cu.parent.glob("*.toml")) \
            if source_truth(cu) else False
        if not cu.with_suffix(".toml").exists() and not pending.exists() and not launched:
            errs.append(f"{cu.relative_to(HERE)}: no spec {cu.stem}.toml (nor pending/.../{cu.stem}.toml.pending)")
        record(errs)
    for py in sorted((HERE / "triton").glob("*.py")):
        if py.name == "build.py":
            continue
        errs = []
        ptx = py.with_suffix(".ptx")
        if not ptx.exists():
            errs.append(f"{py.relative_to(HERE)}: no {ptx.name} (run triton/build.py)")
        elif "Generated by LLVM NVPTX Back-End" not in ptx.read_text()[:4000]:
            errs.append(f"{ptx.relative_to(HERE)}: not Triton (LLVM NVPTX) output")
        if not py.with_suffix(".toml").exists():
            errs.append(f"{py.relative_to(HERE)}: no spec {py.stem}.toml")
        record(errs)
    for spec in sorted(HERE.rglob("*.toml")):
        errs = []
        if spec.name.endswith(PAIR_EXPECT_SUFFIX):
            if not spec.with_name(spec.name[: -len(PAIR_EXPECT_SUFFIX)] + PAIR_SUFFIX).exists():
                errs.append(f"{spec.relative_to(HERE)}: pair expectation without a pair")
                record(errs)
            continue
        if spec.name.endswith(PAIR_SUFFIX):
            try:
                check_pair(spec, errs)
            except (tomllib.TOMLDecodeError, KeyError, TypeError, AttributeError) as e:
                errs.append(f"{spec.relative_to(HERE)}: {type(e).__name__}: {e}")
            record(errs)
            continue
        if spec.name.endswith(".expect.toml"):
            if not spec.with_name(spec.name.replace(".expect.toml", ".toml")).exists():
                errs.append(f"{spec.relative_to(HERE)}: expectation without a spec")
                record(errs)
            continue
        try:
            check_spec(spec, errs)
        except (tomllib.TOMLDecodeError, KeyError, TypeError) as e:
            errs.append(f"{spec.relative_to(HERE)}: {type(e).__name__}: {e}")
        record(errs)
    print(f"check: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
