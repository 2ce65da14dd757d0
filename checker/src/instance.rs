//! A kernel instance ready to execute: its spec, its PTX (text and digest-ready bytes) and the
//! lowered entry. This is the one place that turns files into semantics.

use crate::exec::{self, Config, ExecError, Inputs, Mode, Outcome};
use crate::lower::{self, LowerError, Program};
use crate::ptx::{self, ParseError};
use crate::spec::{KernelSpec, SpecError};
use std::path::{Path, PathBuf};

/// Every way loading or running an instance can fail, grouped by DESIGN.md's outcomes.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Spec(#[from] SpecError),
    #[error("{path}: cannot read: {msg}")]
    Io { path: PathBuf, msg: String },
    #[error("{path}:{err}")]
    Parse { path: PathBuf, err: ParseError },
    #[error("{path}: {err}")]
    Lower { path: PathBuf, err: LowerError },
    #[error("{path}: {err}")]
    Exec { path: PathBuf, err: ExecError },
}

/// DESIGN.md's four outcomes (a finding is a refutation and not an error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorClass {
    Unsupported,
    InvalidInput,
    ResourceLimit,
}

impl Error {
    pub fn class(&self) -> ErrorClass {
        match self {
            Error::Spec(_) | Error::Io { .. } | Error::Parse { .. } => ErrorClass::InvalidInput,
            Error::Lower { err, .. } => match err {
                LowerError::Unsupported { .. } => ErrorClass::Unsupported,
                _ => ErrorClass::InvalidInput,
            },
            Error::Exec { err, .. } => match err {
                ExecError::Unsupported { .. } => ErrorClass::Unsupported,
                ExecError::Limit(_) | ExecError::Work { .. } => ErrorClass::ResourceLimit,
                ExecError::Invalid { .. } | ExecError::Launch(_) => ErrorClass::InvalidInput,
            },
        }
    }
}

/// A loaded instance.
#[derive(Debug, Clone)]
pub struct Instance {
    pub spec: KernelSpec,
    pub ptx_text: String,
    pub program: Program,
}

impl Instance {
    /// Reads the spec at `path`, then its PTX, then lowers the entry.
    pub fn load(path: &Path) -> Result<Instance, Error> {
        let spec = KernelSpec::load(path)?;
        Instance::from_spec(spec)
    }

    pub fn from_spec(spec: KernelSpec) -> Result<Instance, Error> {
        let ptx_path = spec.ptx.clone();
        let ptx_text = std::fs::read_to_string(&ptx_path).map_err(|e| Error::Io {
            path: ptx_path.clone(),
            msg: e.to_string(),
        })?;
        let module = ptx::parse(&ptx_text).map_err(|err| Error::Parse {
            path: ptx_path.clone(),
            err,
        })?;
        let program = lower::lower(&module, &spec.entry).map_err(|err| Error::Lower {
            path: ptx_path.clone(),
            err,
        })?;
        Ok(Instance {
            spec,
            ptx_text,
            program,
        })
    }

    /// Executes the instance.
    pub fn run(&self, mode: Mode, inputs: &Inputs, config: &Config) -> Result<Outcome, Error> {
        exec::run(&self.program, &self.spec, mode, inputs, config).map_err(|err| Error::Exec {
            path: self.spec.ptx.clone(),
            err,
        })
    }
}
