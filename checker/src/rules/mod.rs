//! The proof rules a certificate may cite, one function each. The checker applies exactly the
//! rule a step names and never searches.
//!
//! | rule | function | Lean theorem |
//! |---|---|---|
//! | `Congruent` | [`congruence::congruent`] | `Kcert.Rules.congruent_sound` (proved) |
//! | `RingNormalize` | [`ring::ring_normalize`] | `Kcert.Rules.ringNormalize_sound` (proved for the model) |
//! | `FieldNormalize` | [`field::field_normalize`] | `Rules.fieldNormalize_sound` (planned) |

pub mod coef;
pub mod congruence;
pub mod field;
pub mod ring;
