//! The proof rules a certificate may cite, one function each. The checker applies exactly the
//! rule a step names and never searches.
//!
//! | rule | function | Lean theorem |
//! |---|---|---|
//! | `Congruent` | [`congruence::congruent`] | `Kcert.Rules.congruent_sound` (proved) |
//! | `RingNormalize` | [`ring::ring_normalize`] | `Kcert.Rules.ringNormalize_sound` (proved for the model) |
//! | `FieldNormalize` | [`field::field_normalize`] | `Kcert.Rules.fieldNormalize_sound` (proved for the model, without infinities) |

pub mod coef;
pub mod congruence;
pub mod field;
pub mod ring;

use crate::cert::Rule;
use crate::term::TermId;

/// The rules applied to many elements of one pair run. Field normal forms share one set of
/// tables, so the subterms that elements share (a softmax row's maximum and sum) are
/// normalized once rather than once per element.
pub struct Replay<'a> {
    side: ring::Side<'a>,
    field: field::Normalizer<'a>,
    budget: u64,
}

impl<'a> Replay<'a> {
    pub fn new(side: ring::Side<'a>, budget: u64) -> Self {
        Replay {
            side,
            field: field::Normalizer::new(side, budget),
            budget,
        }
    }

    pub fn congruent(&self, lt: TermId, ot: TermId) -> Result<(), congruence::CongruenceError> {
        congruence::congruent(&self.side, lt, &self.side, ot, self.budget)
    }

    pub fn ring(&self, lt: TermId, ot: TermId) -> Result<(), ring::RingError> {
        ring::ring_normalize(
            &self.side,
            lt,
            &self.side,
            ot,
            &mut ring::Budget::new(self.budget),
        )
    }

    pub fn field(&mut self, lt: TermId, ot: TermId) -> Result<(), field::FieldError> {
        field::field_normalize_in(&mut self.field, lt, ot)
    }

    /// Applies exactly `rule`; the error says why it does not hold.
    pub fn apply(&mut self, rule: Rule, lt: TermId, ot: TermId) -> Result<(), String> {
        match rule {
            Rule::Congruent => self
                .congruent(lt, ot)
                .map_err(|e| format!("Congruent fails: {e}")),
            Rule::RingNormalize => self
                .ring(lt, ot)
                .map_err(|e| format!("RingNormalize fails: {e}")),
            Rule::FieldNormalize => self
                .field(lt, ot)
                .map_err(|e| format!("FieldNormalize fails: {e}")),
        }
    }
}
