//! kcert's trusted checker: the PTX front end, the semantics of kernels under a launch, the
//! safety checks, and (later) the certificate rules. The prover imports all of it.

#![forbid(unsafe_code)]

/// `println!` that never panics: a closed pipe (`kcert-check ... | head`) only stops the
/// output, and the exit code still says what was found. Shared by both binaries.
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

/// `print!` that never panics (see [`outln!`]).
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($t)*);
    }};
}

/// `eprintln!` that never panics (see [`outln!`]).
#[macro_export]
macro_rules! errln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

pub mod cert;
pub mod check;
pub mod equiv;
pub mod exec;
pub mod instance;
pub mod lower;
pub mod pair;
pub mod ptx;
pub mod rules;
pub mod selfcheck;
pub mod spec;
pub mod term;
