import Lake.Package
open Lake

/-! The executable Lean model of the checker's equivalence replay: a separate package, because
a Lake package of this era builds its binary from its module root (which would then have to
define `main`). It depends on the proof package `kcert` in `..`. -/
def package : Lake.PackageConfig := {
  name := "kcertexec"
  version := "0.1"
  -- `leanc` of this era compiles without optimization unless told.
  leancArgs := #["-O3", "-DNDEBUG"]
  moduleRoot := `KcertExec
  binName := "kcert-lean-check"
  dependencies := [{ name := "kcert", src := Source.path ".." }]
}
