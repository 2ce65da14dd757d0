//! kcert's trusted checker: the PTX front end, the semantics of kernels under a launch, the
//! safety checks, and (later) the certificate rules. The prover imports all of it.

#![forbid(unsafe_code)]

pub mod cert;
pub mod check;
pub mod equiv;
pub mod exec;
pub mod instance;
pub mod lower;
pub mod pair;
pub mod ptx;
pub mod rules;
pub mod spec;
pub mod term;
