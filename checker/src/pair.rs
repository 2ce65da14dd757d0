//! Pair specs: a reference and an optimized kernel instance, which inputs are the same data,
//! and which outputs must be equal. Format documented in kernels/README.md ("Pairs").

use crate::spec::{KernelSpec, Role};
use crate::spec::{line_of, toml_error};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPair {
    reference: String,
    optimized: String,
    #[serde(default)]
    inputs: Vec<Spanned<RawLink>>,
    outputs: Vec<Spanned<RawLink>>,
    #[serde(default)]
    scalars: Vec<RawLink>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLink {
    reference: String,
    optimized: String,
}

/// The exact texts a pair was read from; certificates embed and hash them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecTexts {
    pub pair: String,
    pub reference: String,
    pub optimized: String,
}

/// A validated pair: tensor links are parameter indices on each side.
#[derive(Debug, Clone)]
pub struct PairSpec {
    pub reference: KernelSpec,
    pub optimized: KernelSpec,
    /// `(reference param, optimized param)` of each linked input: the `[[inputs]]` tensors in
    /// file order, then the `[[scalars]]` (symbolic scalars). The position is the link's name
    /// in input terms, so a linked tensor element or scalar is one leaf on both sides.
    pub inputs: Vec<(usize, usize)>,
    /// `(reference param, optimized param)` of each output that must be equal.
    pub outputs: Vec<(usize, usize)>,
    pub texts: SpecTexts,
}

impl PairSpec {
    /// Reads a pair file and the two instance specs it names (relative to it). Errors name
    /// the file and line at fault.
    pub fn load(path: &Path) -> Result<PairSpec, String> {
        let read = |p: &Path| {
            std::fs::read_to_string(p).map_err(|e| format!("{}: cannot read: {e}", p.display()))
        };
        let pair = read(path)?;
        let base = path.parent().unwrap_or(Path::new("."));
        let raw = parse_raw(&pair, &path.display().to_string())?;
        let rp = base.join(&raw.reference);
        let op = base.join(&raw.optimized);
        let texts = SpecTexts {
            pair,
            reference: read(&rp)?,
            optimized: read(&op)?,
        };
        let dir = |p: &Path| {
            p.parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("."))
        };
        let names = [path, &rp, &op].map(|p| p.display().to_string());
        PairSpec::from_texts_named(
            texts,
            &dir(&rp),
            &dir(&op),
            [&names[0], &names[1], &names[2]],
        )
    }

    /// Builds a pair from its texts; the instance specs' relative paths resolve against the
    /// given directories.
    pub fn from_texts(
        texts: SpecTexts,
        ref_dir: &Path,
        opt_dir: &Path,
    ) -> Result<PairSpec, String> {
        PairSpec::from_texts_named(
            texts,
            ref_dir,
            opt_dir,
            ["pair spec", "reference spec", "optimized spec"],
        )
    }

    /// [`PairSpec::from_texts`] whose errors name the pair, reference and optimized spec as
    /// `names` says (their files, when read from files).
    pub fn from_texts_named(
        texts: SpecTexts,
        ref_dir: &Path,
        opt_dir: &Path,
        names: [&str; 3],
    ) -> Result<PairSpec, String> {
        let raw = parse_raw(&texts.pair, names[0])?;
        let reference = KernelSpec::parse_named(&texts.reference, ref_dir, names[1])
            .map_err(|e| e.to_string())?;
        let optimized = KernelSpec::parse_named(&texts.optimized, opt_dir, names[2])
            .map_err(|e| e.to_string())?;
        let at = |span: Option<std::ops::Range<usize>>, msg: String| match span {
            Some(s) => format!("{}:{}: {msg}", names[0], line_of(&texts.pair, s.start)),
            None => format!("{}: {msg}", names[0]),
        };
        let mut inputs =
            links(&reference, &optimized, &raw.inputs, Group::Inputs).map_err(|(s, m)| at(s, m))?;
        let outputs = links(&reference, &optimized, &raw.outputs, Group::Outputs)
            .map_err(|(s, m)| at(s, m))?;
        if outputs.is_empty() {
            return Err(at(
                None,
                "a pair needs at least one [[outputs]] link".into(),
            ));
        }
        check_inout([&reference, &optimized], &inputs, &outputs).map_err(|m| at(None, m))?;
        inputs.extend(scalar_links(&reference, &optimized, &raw.scalars).map_err(|m| at(None, m))?);
        Ok(PairSpec {
            reference,
            optimized,
            inputs,
            outputs,
            texts,
        })
    }
}

/// The pair file's tables, or `origin:line: key: message`.
fn parse_raw(text: &str, origin: &str) -> Result<RawPair, String> {
    toml::from_str(text).map_err(|e| match toml_error(text, &e) {
        (Some(l), m) => format!("{origin}:{l}: {m}"),
        (None, m) => format!("{origin}: {m}"),
    })
}

impl PairSpec {
    /// Whether output link `n` joins two `inout` tensors: their elements neither kernel writes
    /// keep their initial value, one linked input leaf on both sides, so they are equal too.
    pub fn output_is_inout(&self, n: usize) -> bool {
        self.outputs.get(n).is_some_and(|&(r, _)| {
            matches!(self.reference.params.get(r),
                Some(crate::spec::Binding::Tensor(t)) if t.role == Role::Inout)
        })
    }

    /// The reference names of the linked symbolic scalars: a claim holds for every value of
    /// each.
    pub fn symbolic_names(&self) -> Vec<String> {
        self.inputs
            .iter()
            .filter(|&&(r, _)| {
                matches!(
                    self.reference.params.get(r),
                    Some(crate::spec::Binding::Symbolic { .. })
                )
            })
            .map(|&(r, _)| self.reference.param_name(r))
            .collect()
    }

    /// "all inputs", and every value of the symbolic scalars when there are any.
    pub fn for_all(&self) -> String {
        let names = self.symbolic_names();
        if names.is_empty() {
            "all inputs".into()
        } else {
            format!("all inputs and every value of {}", names.join(", "))
        }
    }

    /// Whether either kernel runs only the CTAs its spec names.
    pub fn scoped(&self) -> bool {
        self.reference.ctas.is_some() || self.optimized.ctas.is_some()
    }

    /// The scope of the pair's claims, in words (see [`KernelSpec::scope`]).
    pub fn scope(&self) -> String {
        format!(
            "reference: {}; optimized: {}",
            self.reference.scope(),
            self.optimized.scope()
        )
    }
}

/// Which list of links: inputs hold the same data on both sides, outputs must be equal.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    Inputs,
    Outputs,
}

impl Group {
    fn table(self) -> &'static str {
        match self {
            Group::Inputs => "[[inputs]]",
            Group::Outputs => "[[outputs]]",
        }
    }

    /// The roles a link of this group may join: an `inout` tensor is in both groups (its
    /// initial value is an input, its final value an output).
    fn roles(self) -> &'static str {
        match self {
            Group::Inputs => "in or inout",
            Group::Outputs => "out or inout",
        }
    }

    fn admits(self, r: Role) -> bool {
        match self {
            Group::Inputs => r != Role::Out,
            Group::Outputs => r != Role::In,
        }
    }
}

/// A link error: the span of the link at fault in the pair text (none: the whole group), why.
type LinkError = (Option<std::ops::Range<usize>>, String);

/// An `inout` tensor is linked in `[[inputs]]` (its initial value: the same leaves on both
/// sides) and in `[[outputs]]` (its final value: compared), to the same partner both times.
/// (That it is linked at all in both is [`links`]' rule that every tensor of a group's roles
/// is linked.)
fn check_inout(
    [reference, optimized]: [&KernelSpec; 2],
    inputs: &[(usize, usize)],
    outputs: &[(usize, usize)],
) -> Result<(), String> {
    for &(r, o) in inputs {
        let inout = matches!(reference.params.get(r),
            Some(crate::spec::Binding::Tensor(t)) if t.role == Role::Inout);
        if inout && !outputs.contains(&(r, o)) {
            return Err(format!(
                "inout tensor {} is linked to {} in [[inputs]] but not in [[outputs]]: an inout \
                 tensor is linked to the same partner in both (its initial and its final value)",
                reference.param_name(r),
                optimized.param_name(o)
            ));
        }
    }
    Ok(())
}

/// The `[[scalars]]` links: each joins two symbolic scalars of the same dtype and the same
/// `positive` declaration (one leaf on both sides, so both kernels see one value, and the
/// claim holds for every value), each named once, and every symbolic scalar is linked (an
/// unlinked one would be a value on one side only).
fn scalar_links(
    reference: &KernelSpec,
    optimized: &KernelSpec,
    raw: &[RawLink],
) -> Result<Vec<(usize, usize)>, String> {
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(raw.len());
    for (n, l) in raw.iter().enumerate() {
        let at = format!("[[scalars]] #{}", n + 1);
        let find = |side: &str, spec: &KernelSpec, name: &str| {
            spec.symbolic_by_name(name)
                .ok_or_else(|| format!("{at}: the {side} kernel has no symbolic scalar {name}"))
        };
        let r = find("reference", reference, &l.reference)?;
        let o = find("optimized", optimized, &l.optimized)?;
        if out.iter().any(|&(a, _)| a == r) || out.iter().any(|&(_, b)| b == o) {
            return Err(format!(
                "{at}: symbolic scalar {} or {} is linked twice",
                l.reference, l.optimized
            ));
        }
        let decl = |spec: &KernelSpec, p: usize| match spec.params.get(p) {
            Some(crate::spec::Binding::Symbolic {
                dtype, positive, ..
            }) => Some((*dtype, *positive)),
            _ => None,
        };
        if decl(reference, r) != decl(optimized, o) {
            return Err(format!(
                "{at}: symbolic scalars {} {:?} and {} {:?} differ in dtype or positive",
                l.reference,
                decl(reference, r),
                l.optimized,
                decl(optimized, o)
            ));
        }
        out.push((r, o));
    }
    for (side, spec, k) in [("reference", reference, 0), ("optimized", optimized, 1)] {
        let free: Vec<&str> = spec
            .symbolics()
            .filter(|(p, _)| !out.iter().any(|l| [l.0, l.1][k] == *p))
            .map(|(_, n)| n)
            .collect();
        if !free.is_empty() {
            return Err(format!(
                "[[scalars]]: {side} symbolic scalar(s) {} not linked: every symbolic scalar is \
                 linked to one of the other kernel (reference = \"NAME\", optimized = \"NAME\"), \
                 so that both kernels see the same value",
                free.join(", ")
            ));
        }
    }
    Ok(out)
}

/// The links of one group as parameter indices, after the structural rules a pair must keep
/// (they used to live in kernels/check.py only): each link joins two tensors of one role
/// admitted by the group, with the same dtype and shape (two `in` tensors may differ in size:
/// the link then says their common leading elements are the same data, and the kernels must
/// read only those, which the checker verifies after execution), no tensor is named twice (one reference input linked
/// to two optimized inputs would assume equal data that nothing provides, and a refutation
/// would break the link), and every tensor of that role on each side is linked.
fn links(
    reference: &KernelSpec,
    optimized: &KernelSpec,
    raw: &[Spanned<RawLink>],
    group: Group,
) -> Result<Vec<(usize, usize)>, LinkError> {
    let table = group.table();
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(raw.len());
    // Per side: the parameters linked so far, each with its partner's name.
    let mut named: [Vec<(usize, &str)>; 2] = [Vec::new(), Vec::new()];
    for (n, spanned) in raw.iter().enumerate() {
        let span = Some(spanned.span());
        let l = spanned.get_ref();
        let at = format!("{table} #{}", n + 1);
        let sides = [
            ("reference", reference, &l.reference, &l.optimized),
            ("optimized", optimized, &l.optimized, &l.reference),
        ];
        let mut ends = Vec::with_capacity(2);
        for (k, (side, spec, name, partner)) in sides.into_iter().enumerate() {
            let (i, t) = spec.tensor_by_name(name).ok_or_else(|| {
                (
                    span.clone(),
                    format!("{at}: the {side} kernel has no tensor {name}"),
                )
            })?;
            if !group.admits(t.role) {
                return Err((
                    span.clone(),
                    format!(
                        "{at}: {side} tensor {name} has role {}, {table} links tensors of role {}",
                        role_name(t.role),
                        group.roles()
                    ),
                ));
            }
            if let Some((_, other)) = named[k].iter().find(|(j, _)| *j == i) {
                return Err((
                    span.clone(),
                    format!(
                        "{at}: {side} tensor {name} is linked twice (to {other} and {partner}): a \
                         pair links each tensor once; equal data in two tensors of one kernel is \
                         not something a pair can assume"
                    ),
                ));
            }
            named[k].push((i, partner.as_str()));
            ends.push((i, t));
        }
        let [(ri, rt), (oi, ot)] = [ends[0], ends[1]];
        if rt.role != ot.role {
            return Err((
                span,
                format!(
                    "{at}: {} has role {} and {} role {}: a link joins tensors of one role",
                    l.reference,
                    role_name(rt.role),
                    l.optimized,
                    role_name(ot.role)
                ),
            ));
        }
        // Inputs of role in may differ in size (only the common part may be read: checked
        // after the run, see `Outcome::reads`).
        let sized = group == Group::Inputs && rt.role == Role::In && rt.dtype == ot.dtype;
        if !sized && (rt.shape != ot.shape || rt.dtype != ot.dtype) {
            return Err((
                span,
                format!(
                    "{at}: {} {:?} {} and {} {:?} {} differ in shape or dtype",
                    l.reference,
                    rt.shape,
                    rt.dtype.suffix(),
                    l.optimized,
                    ot.shape,
                    ot.dtype.suffix()
                ),
            ));
        }
        // Linked inputs are one tensor: contents fixed on one side must be fixed alike on the
        // other, and the values a symbolic integer ranges over must be the same.
        if group == Group::Inputs && (rt.init != ot.init || rt.range != ot.range) {
            return Err((
                span,
                format!(
                    "{at}: {} and {} differ in init or range ({} vs {}): linked inputs hold the \
                     same data",
                    l.reference,
                    l.optimized,
                    data_text(rt),
                    data_text(ot)
                ),
            ));
        }
        out.push((ri, oi));
    }
    for (k, (side, spec)) in [("reference", reference), ("optimized", optimized)]
        .into_iter()
        .enumerate()
    {
        let free: Vec<&str> = spec
            .tensors()
            // An input whose contents the spec fixes (init) is no free data: it may stay
            // unlinked (an index array only one kernel reads).
            .filter(|(i, t)| {
                group.admits(t.role)
                    && !named[k].iter().any(|(j, _)| j == i)
                    && !(group == Group::Inputs && t.init.is_some())
            })
            .map(|(_, t)| t.name.as_str())
            .collect();
        if !free.is_empty() {
            let why = match group {
                Group::Inputs => "an unlinked input would be free data on one side only",
                Group::Outputs => "an unlinked output would be compared with nothing",
            };
            return Err((
                None,
                format!(
                    "{table}: {side} tensor(s) {} of role {} not linked: {why}{}",
                    free.join(", "),
                    group.roles(),
                    if spec
                        .tensors()
                        .any(|(_, t)| t.role == Role::Inout && free.contains(&t.name.as_str()))
                    {
                        " (an inout tensor is linked in both [[inputs]] and [[outputs]])"
                    } else {
                        ""
                    }
                ),
            ));
        }
    }
    Ok(out)
}

/// What a tensor's spec fixes about its data, for messages and verdicts.
fn data_text(t: &crate::spec::Tensor) -> String {
    match (t.init, t.range) {
        (Some(i), _) => format!("{} = {}", t.name, i.describe()),
        (None, Some((lo, hi))) => format!("{} in [{lo}, {hi}]", t.name),
        (None, None) => format!("{} unconstrained", t.name),
    }
}

impl PairSpec {
    /// What the claims assume about the data, as a phrase for verdict lines: the contents
    /// fixed by `init` and the declared ranges of integer inputs (reference names; optimized
    /// outputs too when they start initialized), e.g. "with idx = iota, out = zero". Empty
    /// when nothing is assumed.
    pub fn data_note(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        for (side, spec) in [("", &self.reference), ("optimized ", &self.optimized)] {
            for (i, t) in spec.tensors() {
                if t.init.is_none() && t.range.is_none() {
                    continue;
                }
                // A linked input is named once, by its reference name.
                if !side.is_empty() && self.inputs.iter().any(|&(_, o)| o == i) {
                    continue;
                }
                parts.push(format!("{side}{}", data_text(t)));
            }
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(" with {}", parts.join(", "))
        }
    }
}

fn role_name(r: Role) -> &'static str {
    match r {
        Role::In => "in",
        Role::Out => "out",
        Role::Inout => "inout",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A spec with tensors `(name, role, shape)`, all f32 unless the name starts with `h`.
    fn spec(tensors: &[(&str, &str, &str)]) -> String {
        let mut s = String::from(
            "ptx = \"k.ptx\"\nentry = \"k\"\ngrid = [1, 1, 1]\nblock = [32, 1, 1]\n\
             dynamic_shared = 0\n",
        );
        for (name, role, shape) in tensors {
            let dtype = if name.starts_with('h') { "f16" } else { "f32" };
            s += &format!(
                "[[params]]\nkind = \"tensor\"\nname = \"{name}\"\ndtype = \"{dtype}\"\n\
                 shape = {shape}\nrole = \"{role}\"\n"
            );
        }
        s
    }

    fn pair(
        r: &[(&str, &str, &str)],
        o: &[(&str, &str, &str)],
        links: &str,
    ) -> Result<PairSpec, String> {
        let texts = SpecTexts {
            pair: format!("reference = \"r.toml\"\noptimized = \"o.toml\"\n{links}"),
            reference: spec(r),
            optimized: spec(o),
        };
        PairSpec::from_texts(texts, Path::new("."), Path::new("."))
    }

    fn link(group: &str, r: &str, o: &str) -> String {
        format!("[[{group}]]\nreference = \"{r}\"\noptimized = \"{o}\"\n")
    }

    const ONE: &[(&str, &str, &str)] = &[("x", "in", "[64]"), ("out", "out", "[64]")];
    const TWO: &[(&str, &str, &str)] = &[
        ("x", "in", "[64]"),
        ("y", "in", "[64]"),
        ("out", "out", "[64]"),
    ];

    #[test]
    fn a_well_formed_pair_loads() {
        let l =
            link("inputs", "x", "y") + &link("inputs", "y", "x") + &link("outputs", "out", "out");
        let p = pair(TWO, TWO, &l).expect("valid");
        assert_eq!(p.inputs, vec![(0, 1), (1, 0)]);
        assert_eq!(p.outputs, vec![(2, 2)]);
    }

    #[test]
    fn a_tensor_linked_twice_is_refused_on_either_side() {
        let l =
            link("inputs", "x", "x") + &link("inputs", "x", "y") + &link("outputs", "out", "out");
        let e = pair(ONE, TWO, &l).expect_err("refused");
        assert!(
            e.contains("[[inputs]] #2: reference tensor x is linked twice"),
            "{e}"
        );
        let l =
            link("inputs", "x", "x") + &link("inputs", "y", "x") + &link("outputs", "out", "out");
        let e = pair(TWO, ONE, &l).expect_err("refused");
        assert!(e.contains("optimized tensor x is linked twice"), "{e}");
        let two_out = &[
            ("x", "in", "[64]"),
            ("out", "out", "[64]"),
            ("o2", "out", "[64]"),
        ];
        let l = link("inputs", "x", "x")
            + &link("outputs", "out", "out")
            + &link("outputs", "out", "o2");
        let e = pair(ONE, two_out, &l).expect_err("refused");
        assert!(
            e.contains("[[outputs]] #2: reference tensor out is linked twice"),
            "{e}"
        );
    }

    #[test]
    fn unlinked_inputs_and_outputs_are_refused() {
        let l = link("inputs", "x", "x") + &link("outputs", "out", "out");
        let e = pair(ONE, TWO, &l).expect_err("refused");
        assert!(
            e.contains("optimized tensor(s) y of role in or inout not linked"),
            "{e}"
        );
        let two_out = &[
            ("x", "in", "[64]"),
            ("out", "out", "[64]"),
            ("o2", "out", "[64]"),
        ];
        let e = pair(ONE, two_out, &l).expect_err("refused");
        assert!(
            e.contains("optimized tensor(s) o2 of role out or inout not linked"),
            "{e}"
        );
        let e = pair(ONE, ONE, &link("inputs", "x", "x")).expect_err("refused");
        assert!(e.contains("out"), "{e}");
    }

    #[test]
    fn shapes_dtypes_and_roles_must_match() {
        let ok = link("inputs", "x", "x") + &link("outputs", "out", "out");
        let flat = &[("x", "in", "[64]"), ("out", "out", "[8, 8]")];
        let e = pair(ONE, flat, &ok).expect_err("refused");
        assert!(
            e.contains("[[outputs]] #1") && e.contains("differ in shape"),
            "{e}"
        );
        let half = &[("x", "in", "[64]"), ("hout", "out", "[64]")];
        let l = link("inputs", "x", "x") + &link("outputs", "out", "hout");
        let e = pair(ONE, half, &l).expect_err("refused");
        assert!(e.contains("dtype"), "{e}");
        let l = link("inputs", "out", "out") + &link("outputs", "x", "x");
        let e = pair(ONE, ONE, &l).expect_err("refused");
        assert!(
            e.contains("has role out, [[inputs]] links tensors of role in or inout"),
            "{e}"
        );
        let io = &[("x", "in", "[64]"), ("out", "inout", "[64]")];
        let e = pair(ONE, io, &ok).expect_err("refused");
        assert!(
            e.contains("optimized tensor(s) out of role in or inout not linked")
                && e.contains("an inout tensor is linked in both"),
            "{e}"
        );
        let l = link("inputs", "x", "z") + &link("outputs", "out", "out");
        let e = pair(ONE, ONE, &l).expect_err("refused");
        assert!(e.contains("the optimized kernel has no tensor z"), "{e}");
    }

    const IO: &[(&str, &str, &str)] = &[("x", "in", "[64]"), ("c", "inout", "[64]")];

    #[test]
    fn inout_tensors_link_as_input_and_output() {
        let l = link("inputs", "x", "x") + &link("inputs", "c", "c") + &link("outputs", "c", "c");
        let p = pair(IO, IO, &l).expect("valid");
        assert_eq!(p.inputs, vec![(0, 0), (1, 1)]);
        assert_eq!(p.outputs, vec![(1, 1)]);
        // Linked only as an input: its final value would be compared with nothing.
        let only_in = link("inputs", "x", "x") + &link("inputs", "c", "c");
        let e = pair(IO, IO, &only_in).expect_err("refused");
        assert!(e.contains("missing field `outputs`"), "{e}");
        let with_out = &[
            ("x", "in", "[64]"),
            ("c", "inout", "[64]"),
            ("y", "out", "[64]"),
        ];
        let l = only_in.clone() + &link("outputs", "y", "y");
        let e = pair(with_out, with_out, &l).expect_err("refused");
        assert!(
            e.contains("[[outputs]]: reference tensor(s) c of role out or inout not linked")
                && e.contains("an inout tensor is linked in both"),
            "{e}"
        );
        // Linked only as an output: its initial value would be free data on one side.
        let l = link("inputs", "x", "x") + &link("outputs", "c", "c");
        let e = pair(IO, IO, &l).expect_err("refused");
        assert!(e.contains("[[inputs]]: reference tensor(s) c"), "{e}");
        // To one partner as input and another as output.
        let two = &[
            ("x", "in", "[64]"),
            ("c", "inout", "[64]"),
            ("d", "inout", "[64]"),
        ];
        let l = link("inputs", "x", "x")
            + &link("inputs", "c", "c")
            + &link("inputs", "d", "d")
            + &link("outputs", "c", "d")
            + &link("outputs", "d", "c");
        let e = pair(two, two, &l).expect_err("refused");
        assert!(
            e.contains("inout tensor c is linked to c in [[inputs]] but not in [[outputs]]"),
            "{e}"
        );
    }

    #[test]
    fn inputs_may_differ_in_size_but_outputs_and_inouts_may_not() {
        let big = &[("x", "in", "[96]"), ("out", "out", "[64]")];
        let ok = link("inputs", "x", "x") + &link("outputs", "out", "out");
        let p = pair(ONE, big, &ok).expect("valid");
        assert_eq!(p.inputs, vec![(0, 0)]);
        let io_big = &[("x", "in", "[64]"), ("c", "inout", "[96]")];
        let l = link("inputs", "x", "x") + &link("inputs", "c", "c") + &link("outputs", "c", "c");
        let e = pair(IO, io_big, &l).expect_err("refused");
        assert!(e.contains("differ in shape"), "{e}");
        let half = &[
            ("x", "in", "[64]"),
            ("h", "in", "[64]"),
            ("out", "out", "[64]"),
        ];
        let l =
            link("inputs", "x", "h") + &link("inputs", "y", "x") + &link("outputs", "out", "out");
        let e = pair(TWO, half, &l).expect_err("refused");
        assert!(e.contains("dtype"), "{e}");
    }

    fn with_scalar(t: &[(&str, &str, &str)], name: &str, dtype: &str, positive: bool) -> String {
        spec(t)
            + &format!(
                "[[params]]\nkind = \"symbolic\"\nname = \"{name}\"\ndtype = \"{dtype}\"\npositive = {positive}\n"
            )
    }

    fn scalar_pair(r: String, o: String, links: &str) -> Result<PairSpec, String> {
        let texts = SpecTexts {
            pair: format!("reference = \"r.toml\"\noptimized = \"o.toml\"\n{links}"),
            reference: r,
            optimized: o,
        };
        PairSpec::from_texts(texts, Path::new("."), Path::new("."))
    }

    #[test]
    fn symbolic_scalars_are_linked_once_each_with_one_declaration() {
        let base = link("inputs", "x", "x") + &link("outputs", "out", "out");
        let s = |n: &str, d: &str, p: bool| with_scalar(ONE, n, d, p);
        let l = base.clone() + &link("scalars", "alpha", "a");
        let p = scalar_pair(s("alpha", "f32", false), s("a", "f32", false), &l).expect("valid");
        // Tensor links first, then scalar links.
        assert_eq!(p.inputs, vec![(0, 0), (2, 2)]);
        let e = scalar_pair(s("alpha", "f32", false), s("alpha", "f32", false), &base)
            .expect_err("refused");
        assert!(
            e.contains("[[scalars]]: reference symbolic scalar(s) alpha not linked"),
            "{e}"
        );
        let l = base.clone() + &link("scalars", "alpha", "alpha");
        let e = scalar_pair(s("alpha", "f32", false), s("alpha", "f64", false), &l)
            .expect_err("refused");
        assert!(e.contains("differ in dtype or positive"), "{e}");
        let e = scalar_pair(s("alpha", "f32", true), s("alpha", "f32", false), &l)
            .expect_err("refused");
        assert!(e.contains("differ in dtype or positive"), "{e}");
        let l = base.clone() + &link("scalars", "alpha", "beta");
        let e = scalar_pair(s("alpha", "f32", false), s("alpha", "f32", false), &l)
            .expect_err("refused");
        assert!(
            e.contains("the optimized kernel has no symbolic scalar beta"),
            "{e}"
        );
        let l = base + &link("scalars", "alpha", "alpha") + &link("scalars", "alpha", "alpha");
        let e = scalar_pair(s("alpha", "f32", false), s("alpha", "f32", false), &l)
            .expect_err("refused");
        assert!(e.contains("linked twice"), "{e}");
    }
}
