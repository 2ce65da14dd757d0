//! The proof rules a certificate may cite, one function each. The checker applies exactly the
//! rule a step names and never searches.
//!
//! | rule | function | Lean theorem |
//! |---|---|---|
//! | `Congruent` | [`congruence::congruent`] | `Rules.congruent_sound` (planned) |
//! | `RingNormalize` | [`ring::ring_normalize`] | `Rules.ringNormalize_sound` (planned) |
//! | `FieldNormalize` | [`field::field_normalize`] | `Rules.fieldNormalize_sound` (planned) |

pub mod coef;
pub mod congruence;
pub mod field;
pub mod ring;
