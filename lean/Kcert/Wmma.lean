/-!
# `wmma` fragments: layout independence (`checker/src/exec/wmma.rs`)

PTX spreads a 16x16 `wmma` matrix over the 32 lanes' registers in an unspecified layout.
The executor assumes none: a load keeps the whole matrix (`Fragment.elems`, row-major) and
gives the registers opaque handles (`Val::Frag {id, lane, slot}`); only `mov` (copies a
handle), `wmma.mma` and `wmma.store` accept handles, and `mma`/`store` demand every lane and
slot of one fragment.  So the executor computes on matrices: load gives the matrix, `mma` the
matrix operation on the three matrices, store writes the matrix.

This file models the hardware with an arbitrary layout and proves that its result is the
executor's, whatever the layout:

* `Layout E S`: a bijection `elem : S → E` (register position `(lane, slot)` to matrix element)
  with inverse `pos : E → S`.  Each fragment (A, B, C, D) may have its own layout.
* `hwLoad L M`: register `s` receives element `elem s` of the memory matrix `M`.
* `hwStore L regs`: element `elem s` receives register `s` (`hwStore_at`); as a function of the
  element, `regs (pos e)`.
* `hwMma`: the matrices the registers hold (read through each operand's layout) go through the
  matrix operation `mma` (any function of three matrices that reads them pointwise, `MmaCongr`;
  PTX `D = A·B + C` is one), and the result is laid out by D's layout.

Theorems: `load_store`: load then store writes back the matrix, for every layout;
`load_mma_store`: load A, B, C, `mma`, store D writes `mma A B C`, for every four layouts
(the executor's result); `uniform_matrix`: registers that all hold one value are the constant
matrix under every layout (the uniform accumulator `wmma.mma` accepts); with handles:
`oneFragment_matrix` (registers that pass the executor's one-fragment check hold that
fragment's matrix under every layout), `checked_mma_store`, `checked_store`.  Functions are
compared pointwise (no function extensionality).
-/

namespace Kcert
namespace Wmma

/-- A fragment layout: a bijection between register positions `S` and matrix elements `E`. -/
structure Layout (E S : Type) where
  elem : S → E
  pos : E → S
  elem_pos : ∀ e, elem (pos e) = e
  pos_elem : ∀ s, pos (elem s) = s

variable {E S V : Type}

/-- `wmma.load` on the hardware: register `s` gets element `elem s`. -/
def hwLoad (L : Layout E S) (M : E → V) : S → V := fun s => M (L.elem s)

/-- `wmma.store` on the hardware: element `e` gets the register that layout `L` puts there. -/
def hwStore (L : Layout E S) (regs : S → V) : E → V := fun e => regs (L.pos e)

/-- The matrix that registers `regs` hold under layout `L`. -/
def matrixOf (L : Layout E S) (regs : S → V) : E → V := fun e => regs (L.pos e)

/-- `wmma.mma` on the hardware: the operation `mma` on the matrices the registers hold, laid
out by D's layout. -/
def hwMma (mma : (E → V) → (E → V) → (E → V) → E → V) (LA LB LC LD : Layout E S)
    (a b c : S → V) : S → V :=
  fun s => mma (matrixOf LA a) (matrixOf LB b) (matrixOf LC c) (LD.elem s)

/-- `mma` reads its operands pointwise. -/
def MmaCongr (mma : (E → V) → (E → V) → (E → V) → E → V) : Prop :=
  ∀ a a' b b' c c' : E → V, (∀ e, a e = a' e) → (∀ e, b e = b' e) → (∀ e, c e = c' e) →
    ∀ e, mma a b c e = mma a' b' c' e

/-- The store writes register `s` at element `elem s`. -/
theorem hwStore_at (L : Layout E S) (regs : S → V) (s : S) :
    hwStore L regs (L.elem s) = regs s := by
  show regs (L.pos (L.elem s)) = regs s
  rw [L.pos_elem]

/-- A loaded fragment holds the loaded matrix, under every layout. -/
theorem matrixOf_load (L : Layout E S) (M : E → V) (e : E) :
    matrixOf L (hwLoad L M) e = M e := by
  show M (L.elem (L.pos e)) = M e
  rw [L.elem_pos]

/-- Load then store writes back the matrix, whatever the layout. -/
theorem load_store (L : Layout E S) (M : E → V) (e : E) : hwStore L (hwLoad L M) e = M e :=
  matrixOf_load L M e

/-- Two layouts: a load with one and a store with the other do not agree in general; with
the same layout (`wmma` fragments of one kind) they do, and the result does not depend on it:
any two layouts give the same memory. -/
theorem load_store_indep (L L' : Layout E S) (M : E → V) (e : E) :
    hwStore L (hwLoad L M) e = hwStore L' (hwLoad L' M) e := by
  rw [load_store, load_store]

/-- Load A, B, C, `mma`, store D: the memory gets `mma A B C`, for every four layouts. -/
theorem load_mma_store (mma : (E → V) → (E → V) → (E → V) → E → V) (hm : MmaCongr mma)
    (LA LB LC LD : Layout E S) (A B C : E → V) (e : E) :
    hwStore LD (hwMma mma LA LB LC LD (hwLoad LA A) (hwLoad LB B) (hwLoad LC C)) e =
      mma A B C e := by
  show mma (matrixOf LA (hwLoad LA A)) (matrixOf LB (hwLoad LB B)) (matrixOf LC (hwLoad LC C))
    (LD.elem (LD.pos e)) = mma A B C e
  rw [LD.elem_pos]
  exact hm _ _ _ _ _ _ (matrixOf_load LA A) (matrixOf_load LB B) (matrixOf_load LC C) e

/-- The same for an accumulator that is itself the result of an `mma` (a chain of
`mma`s, as in a loop over k): layouts of intermediate fragments do not matter either. -/
theorem mma_chain_store (mma : (E → V) → (E → V) → (E → V) → E → V) (hm : MmaCongr mma)
    (LA LB LC LD LA' LB' LD' : Layout E S) (A B C A' B' : E → V) (e : E) :
    hwStore LD' (hwMma mma LA' LB' LD LD' (hwLoad LA' A') (hwLoad LB' B')
        (hwMma mma LA LB LC LD (hwLoad LA A) (hwLoad LB B) (hwLoad LC C))) e =
      mma A' B' (mma A B C) e := by
  show mma (matrixOf LA' (hwLoad LA' A')) (matrixOf LB' (hwLoad LB' B'))
    (matrixOf LD (hwMma mma LA LB LC LD (hwLoad LA A) (hwLoad LB B) (hwLoad LC C)))
    (LD'.elem (LD'.pos e)) = _
  rw [LD'.elem_pos]
  apply hm _ _ _ _ _ _ (matrixOf_load LA' A') (matrixOf_load LB' B') _ e
  intro e'
  show mma (matrixOf LA (hwLoad LA A)) (matrixOf LB (hwLoad LB B)) (matrixOf LC (hwLoad LC C))
    (LD.elem (LD.pos e')) = _
  rw [LD.elem_pos]
  exact hm _ _ _ _ _ _ (matrixOf_load LA A) (matrixOf_load LB B) (matrixOf_load LC C) e'

/-- Registers that all hold `v` are the constant matrix `v` under every layout (the uniform
accumulator `wmma.mma` accepts). -/
theorem uniform_matrix (L : Layout E S) (v : V) (e : E) : matrixOf L (fun _ => v) e = v := rfl

/-! ### Handles

The executor's registers hold handles `(id, s)` (`Val::Frag {id, lane, slot}`: fragment `id`,
register position `s = (lane, slot)`); `mov` copies them.  On the hardware the register holds
the value the layout `Ls id` of fragment `id` puts at `s`: `hwVal`.  `wmma.mma` and
`wmma.store` accept a warp's registers `h` only when one fragment's handles sit each at its
own position (`OneFragment id h`, Rust `operand`/`input_fragment`); then the hardware
registers hold exactly that fragment's matrix, under every layout (`oneFragment_matrix`), so
`load_mma_store` applies to them. -/

/-- The hardware value behind handle `(id, s)`: fragment `id` (matrix `Ms id`, layout
`Ls id`) at position `s`. -/
def hwVal (Ls : Nat → Layout E S) (Ms : Nat → E → V) (h : Nat × S) : V :=
  hwLoad (Ls h.1) (Ms h.1) h.2

/-- The registers `h` hold the handles of fragment `id`, each at its own position. -/
def OneFragment (id : Nat) (h : S → Nat × S) : Prop := ∀ s, h s = (id, s)

/-- Registers that pass the executor's check hold, on the hardware, fragment `id`'s matrix,
whatever the layouts. -/
theorem oneFragment_matrix (Ls : Nat → Layout E S) (Ms : Nat → E → V) {id : Nat}
    {h : S → Nat × S} (hf : OneFragment id h) (e : E) :
    matrixOf (Ls id) (fun s => hwVal Ls Ms (h s)) e = Ms id e := by
  show hwVal Ls Ms (h ((Ls id).pos e)) = Ms id e
  rw [hf]
  exact matrixOf_load (Ls id) (Ms id) e

/-- `wmma.mma` then `wmma.store` on registers that pass the executor's check: the memory gets
`mma` of the three fragments' matrices (the executor's `multiply_accumulate` on
`Fragment.elems`), for every layout of every fragment and of the result. -/
theorem checked_mma_store (mma : (E → V) → (E → V) → (E → V) → E → V) (hm : MmaCongr mma)
    (Ls : Nat → Layout E S) (Ms : Nat → E → V) (LD : Layout E S) {ia ib ic : Nat}
    {ha hb hc : S → Nat × S} (fa : OneFragment ia ha) (fb : OneFragment ib hb)
    (fc : OneFragment ic hc) (e : E) :
    hwStore LD (hwMma mma (Ls ia) (Ls ib) (Ls ic) LD (fun s => hwVal Ls Ms (ha s))
        (fun s => hwVal Ls Ms (hb s)) (fun s => hwVal Ls Ms (hc s))) e =
      mma (Ms ia) (Ms ib) (Ms ic) e := by
  show mma (matrixOf (Ls ia) (fun s => hwVal Ls Ms (ha s)))
    (matrixOf (Ls ib) (fun s => hwVal Ls Ms (hb s)))
    (matrixOf (Ls ic) (fun s => hwVal Ls Ms (hc s))) (LD.elem (LD.pos e)) = _
  rw [LD.elem_pos]
  exact hm _ _ _ _ _ _ (oneFragment_matrix Ls Ms fa) (oneFragment_matrix Ls Ms fb)
    (oneFragment_matrix Ls Ms fc) e

/-- `wmma.store` of registers that pass the check writes fragment `id`'s matrix. -/
theorem checked_store (Ls : Nat → Layout E S) (Ms : Nat → E → V) {id : Nat}
    {h : S → Nat × S} (hf : OneFragment id h) (e : E) :
    hwStore (Ls id) (fun s => hwVal Ls Ms (h s)) e = Ms id e :=
  oneFragment_matrix Ls Ms hf e

end Wmma
end Kcert
