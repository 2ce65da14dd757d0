import Lake.Package

def package : Lake.PackageConfig := {
  name := "kcert"
  version := "0.1"
  -- `leanc` of this era compiles without optimization unless told.
  leancArgs := #["-O3", "-DNDEBUG"]
}
