//! Inputs found by the fuzzing campaigns (`prover/tests/ptx_fuzz.rs`,
//! `prover/tests/cert_mutation.rs`) that made the trusted checker panic, minimized. Each must
//! now be an error value naming the line.

use kcert_checker::exec::{self, Config, ExecError, Inputs, Mode};
use kcert_checker::lower::{self, LowerError};
use kcert_checker::ptx;
use kcert_checker::spec::KernelSpec;

fn lowered(body: &str, params: &str) -> Result<lower::Program, LowerError> {
    let text = format!(
        ".version 8.5\n.target sm_80\n.address_size 64\n\n.visible .entry k({params})\n{{\n{body}\tret;\n}}\n"
    );
    let m = ptx::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    lower::lower(&m, "k")
}

fn assert_invalid(r: Result<lower::Program, LowerError>, what: &str) {
    match r {
        Err(LowerError::Invalid { msg, .. }) => assert!(msg.contains(what), "{msg}"),
        Err(e) => panic!("expected an invalid-PTX error about {what}, got {e}"),
        Ok(p) => panic!(
            "expected an error about {what}, lowered with {} shared and {} local bytes",
            p.static_shared, p.local_bytes
        ),
    }
}

/// Found by the certificate campaign (a numeric edit of a shared array's length): the layout
/// of the next variable overflowed (`attempt to multiply with overflow` in `lower`); in a
/// release build the offsets wrapped and two variables could overlap.
#[test]
fn a_shared_array_near_the_address_space_end_is_an_error() {
    assert_invalid(
        lowered(
            "\t.shared .align 4 .b8 a[18446744073709551615];\n\t.shared .align 4 .b8 b[4];\n",
            "",
        ),
        "too large",
    );
}

#[test]
fn dynamic_shared_after_a_huge_static_array_is_an_error() {
    assert_invalid(
        lowered(
            "\t.shared .align 4 .b8 a[18446744073709551615];\n\t.extern .shared .align 16 .b8 d[];\n",
            "",
        ),
        "too large",
    );
}

#[test]
fn local_arrays_whose_sizes_sum_past_u64_are_an_error() {
    assert_invalid(
        lowered(
            "\t.local .align 1 .b8 a[18446744073709551615];\n\t.local .align 1 .b8 b[2];\n",
            "",
        ),
        "too large",
    );
}

#[test]
fn a_parameter_array_past_u32_bytes_is_an_error() {
    assert_invalid(
        lowered("", "\n\t.param .align 8 .b64 p[4294967295]\n"),
        "too large",
    );
}

/// The same layout, lowered without overflow (static shared just below 2^64, then dynamic
/// shared): adding the launch's dynamic bytes overflowed in `exec::run`.
#[test]
fn dynamic_shared_bytes_past_u64_are_a_launch_error() {
    let p = lowered(
        "\t.shared .align 1 .b8 a[18446744073709551600];\n\t.extern .shared .align 1 .b8 d[];\n",
        "",
    )
    .unwrap();
    let spec = KernelSpec::parse(
        "ptx = \"k.ptx\"\nentry = \"k\"\ngrid = [1, 1, 1]\nblock = [1, 1, 1]\ndynamic_shared = 64\n",
        std::path::Path::new("."),
    )
    .unwrap();
    let r = exec::run(
        &p,
        &spec,
        Mode::Symbolic,
        &Inputs::default(),
        &Config::default(),
    );
    assert!(matches!(r, Err(ExecError::Launch(_))), "{r:?}");
}
