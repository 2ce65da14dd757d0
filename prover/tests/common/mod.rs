//! What the tests with hand-written PTX share: a kernel instance built from a PTX text and a
//! spec text in a private scratch directory that lives as long as the instance is used.

use kcert_checker::exec::{Config, Inputs, Mode, Outcome};
use kcert_checker::instance::Instance;
use kcert_checker::spec::KernelSpec;
use std::path::PathBuf;

/// A private temporary directory, removed on drop (no extra dependency).
pub struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The instance `spec` describes, with `ptx` written to the file its `ptx = ` key names
/// (`file`); the error of a kernel that does not lower, as text.
pub fn instance(file: &str, ptx: &str, spec: &str) -> (Scratch, Result<Instance, String>) {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("kcert-test-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(file), ptx).unwrap();
    let spec = KernelSpec::parse(spec, &dir).unwrap();
    (
        Scratch(dir),
        Instance::from_spec(spec).map_err(|e| e.to_string()),
    )
}

/// The symbolic run of that instance with default inputs and limits; a kernel that does not
/// lower or a refused run as its error text.
#[allow(dead_code)] // not every test file that includes this module runs symbolically
pub fn run_symbolic(file: &str, ptx: &str, spec: &str) -> Result<Outcome, String> {
    let (_dir, inst) = instance(file, ptx, spec);
    inst?
        .run(Mode::Symbolic, &Inputs::default(), &Config::default())
        .map_err(|e| e.to_string())
}
