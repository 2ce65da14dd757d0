//! The untrusted kcert prover: drives the checker crate's semantics, generates inputs, renders
//! verdicts for people, and measures. It never re-implements semantics (DESIGN.md).

pub mod bench;
pub mod corpus;
pub mod expect;
pub mod inputs;
pub mod interval;
pub mod json;
pub mod lean_export;
pub mod literals;
pub mod prove;
pub mod reference;
pub mod screen;
pub mod verdict;
