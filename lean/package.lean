import Lake.Package

def package : Lake.PackageConfig := {
  name := "kcert"
  version := "0.1"
}
