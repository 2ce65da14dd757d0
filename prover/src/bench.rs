//! Throughput measurement of the symbolic executor: `kcert bench`.
//!
//! The figure is lane-instructions per second on one core: the instructions executed by all
//! threads, counted one per thread, while building terms and checking races as in `analyze`.

use kcert_checker::exec::{Config, Mode};
use kcert_checker::instance::{Error, Instance};
use kcert_checker::spec::{Binding, KernelSpec};
use std::path::Path;
use std::time::Instant;

/// One measured run.
#[derive(Debug, Clone)]
pub struct Measurement {
    pub name: String,
    pub lane_instructions: u64,
    pub terms: usize,
    pub seconds: f64,
    pub findings: usize,
}

impl Measurement {
    pub fn rate(&self) -> f64 {
        self.lane_instructions as f64 / self.seconds.max(1e-9)
    }
}

/// Rebinds a matmul spec (tensors A, B, C; scalars M, N, K in that order after them) to one
/// `m`×`n` output tile with reduction depth `k`, launched as a single CTA.
pub fn matmul_tile(spec: &KernelSpec, m: u64, n: u64, k: u64) -> Result<KernelSpec, String> {
    let mut s = spec.clone();
    let mut scalars = vec![m, n, k].into_iter();
    for b in &mut s.params {
        match b {
            Binding::Tensor(t) => {
                t.shape = match t.name.as_str() {
                    "A" => vec![m, k],
                    "B" => vec![k, n],
                    "C" => vec![m, n],
                    other => return Err(format!("not a matmul spec: tensor {other}")),
                }
            }
            Binding::Scalar { bits, .. } => {
                *bits = scalars
                    .next()
                    .ok_or("not a matmul spec: more than three scalars")?;
            }
            Binding::Scratch | Binding::Symbolic { .. } => {}
        }
    }
    // One CTA computes the whole m×n tile when the kernel's tile is m×n.
    s.grid = [1, 1, 1];
    Ok(s)
}

/// Runs the symbolic executor on `spec` once and measures it.
pub fn measure(name: &str, spec: KernelSpec) -> Result<Measurement, Error> {
    let inst = Instance::from_spec(spec)?;
    let start = Instant::now();
    // A throughput measurement, not a proof: no work bound.
    let config = Config {
        max_work: u64::MAX,
        ..Config::default()
    };
    let o = inst.run(Mode::Symbolic, &Default::default(), &config)?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(Measurement {
        name: name.to_string(),
        lane_instructions: o.lane_instructions,
        terms: o.arena.len(),
        seconds,
        findings: o.findings.len(),
    })
}

/// The default bench: every tiled 64×64 matmul of the corpus at K = `k`.
pub fn default_suite(kernels: &Path, k: u64) -> Result<Vec<Measurement>, String> {
    let mut out = Vec::new();
    for name in ["matmul_2d", "matmul_vec"] {
        let path = kernels.join("matmul").join(format!("{name}.toml"));
        let spec = KernelSpec::load(&path).map_err(|e| e.to_string())?;
        let spec = matmul_tile(&spec, 64, 64, k)?;
        out.push(measure(&format!("{name} 64x64 tile, K={k}"), spec).map_err(|e| e.to_string())?);
    }
    Ok(out)
}
