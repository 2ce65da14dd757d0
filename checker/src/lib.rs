//! kcert's trusted checker: the PTX front end, the semantics of kernels under a launch, the
//! safety checks, and (later) the certificate rules. The prover imports all of it.

#![forbid(unsafe_code)]

pub mod exec;
pub mod instance;
pub mod lower;
pub mod ptx;
pub mod spec;
pub mod term;
