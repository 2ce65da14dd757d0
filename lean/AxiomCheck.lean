import Kcert

/-!
Not part of the package: after `lake build`, run

    LEAN_PATH=build/lib lean AxiomCheck.lean

Each line must print "does not depend on any axioms" (no `sorryAx`, no `Classical.choice`,
nothing declared with `axiom`).
-/

#print axioms Kcert.ExpField.exp_ne_zero
#print axioms Kcert.ExpField.pow2_ne_zero
#print axioms Kcert.Term.evalP_rename
#print axioms Kcert.Term.eval_rename
#print axioms Kcert.Rules.congruent_sound
#print axioms Kcert.Rules.congruent_eval
#print axioms Kcert.Rules.expand_sound
#print axioms Kcert.Rules.ringNormalize_sound
#print axioms Kcert.Rules.div_eq_div_of_cross
#print axioms Kcert.Rules.posSum_ne_zero
#print axioms Kcert.Rules.positive_ne_zero
#print axioms Kcert.Rules.nfEquiv_sound
#print axioms Kcert.Rules.rep_ex2
#print axioms Kcert.Rules.atom_inv
#print axioms Kcert.Rules.norm_sound
#print axioms Kcert.Rules.fieldNormalize_sound
#print axioms Kcert.applyRule_sound
#print axioms Kcert.checkEquiv_sound
#print axioms Kcert.Rules.lattice_inv
#print axioms Kcert.Sem.next_congr
#print axioms Kcert.Sem.next_comm
#print axioms Kcert.Sem.diamond
#print axioms Kcert.Sem.confluent
#print axioms Kcert.Sem.final_unique
#print axioms Kcert.Sem.confluence_noBarrier
#print axioms Kcert.Sem.next_comm_bar
#print axioms Kcert.Sem.next_comm_gen
#print axioms Kcert.Sem.diamond_gen
#print axioms Kcert.Sem.confluence
#print axioms Kcert.Sem.no_stuck
#print axioms Kcert.Sem.memEff_atomAdd_comm
#print axioms Kcert.Sem.next_comm_atomAdd
#print axioms Kcert.Sem.diamond_atomAdd
#print axioms Kcert.Sem.diamond_atomAdd_other
#print axioms Kcert.Sem.arrivals_arrive
#print axioms Kcert.Sem.arrEff_same_comm
#print axioms Kcert.Term.evalX_noInf
#print axioms Kcert.Term.evalE_noInf
#print axioms Kcert.Rules.xAdd_ok
#print axioms Kcert.Rules.xNeg_ok
#print axioms Kcert.Rules.xMul_ok
#print axioms Kcert.Rules.xDiv_ok
#print axioms Kcert.Rules.invX_un
#print axioms Kcert.Rules.invX_bin
#print axioms Kcert.Rules.xMax_inv
#print axioms Kcert.Sem.inv_next
#print axioms Kcert.Sem.inv_reach
#print axioms Kcert.Sem.race_complete
#print axioms Kcert.Sem.raceFree_of_noEpochRace
#print axioms Kcert.Sem.deadlock_complete
#print axioms Kcert.Sem.barriersFit_of_syncAll
#print axioms Kcert.Sem.confluence_epoch
#print axioms Kcert.Sem.no_stuck_epoch
#print axioms Kcert.Sem.final_of_stuck_epoch
#print axioms Kcert.Sem.epoch_checks_complete
#print axioms Kcert.Sem.exampleProg_syncAll
#print axioms Kcert.Sem.exampleProg_dataIndep
#print axioms Kcert.Dyadic.intCast_add
#print axioms Kcert.Dyadic.intCast_mul
#print axioms Kcert.Dyadic.pow2i_add
#print axioms Kcert.Dyadic.val_add
#print axioms Kcert.Dyadic.val_mul
#print axioms Kcert.Dyadic.val_neg
#print axioms Kcert.Dyadic.isZero_sound
#print axioms Kcert.Dyadic.isPos_sound
#print axioms Kcert.Dyadic.invExact_sound
#print axioms Kcert.Dyadic.castCoeff
#print axioms Kcert.Dyadic.fieldCast
#print axioms Kcert.Dyadic.withHalves
#print axioms Kcert.Dyadic.evalP_withHalves
#print axioms Kcert.Dyadic.ringNormalize_sound_dyadic
#print axioms Kcert.Dyadic.fieldNormalize_sound_dyadic
#print axioms Kcert.Dyadic.fieldNormalize_sound_dyadic'
#print axioms Kcert.Dyadic.checkEquiv_sound_dyadic
