//! The certificate format: what was proved, about which files, with which evidence.
//!
//! Layout: 8 magic bytes, a little-endian u32 format version, a u64 body length, the bincode
//! body, and the SHA-256 of the body. The reader checks each in turn and rejects unknown
//! versions, truncation, trailing bytes and corruption with a message saying which.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub const MAGIC: [u8; 8] = *b"KCERT\x00\r\n";
/// Version 2: equivalence claims state their element counts, and the certificate declares the
/// work its re-check takes.
pub const VERSION: u32 = 2;
/// Largest body a reader accepts, so that a corrupt length cannot make it allocate wildly.
pub const MAX_BODY: u64 = 1 << 30;

/// Which kernel of the pair a claim is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Kernel {
    Reference,
    Optimized,
}

/// A property the certificate asserts for the recorded launches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Claim {
    /// Race freedom, barrier correctness and memory safety of one kernel, for all CTAs of its
    /// launch, or for the CTAs its spec names (`ctas`: the claim's stated scope).
    Safe(Kernel),
    /// Output link `output` of the pair spec: both kernels write the same `elements` of the
    /// tensor's `total` elements, with equal real values for all inputs (the rest are written
    /// by neither kernel). Never over 0 elements.
    Equivalent {
        output: u32,
        elements: u64,
        total: u64,
    },
    /// PTX line `line` of one kernel makes unordered writes of values that are equal over the
    /// reals but whose bits may differ (the finding fp-nondeterministic): named, never silent.
    /// [`Claim::Safe`] holds over the reals with these lines named; the checker re-derives the
    /// set of such lines and accepts only the same set.
    FpNondeterministic { kernel: Kernel, line: u32 },
}

/// The PTX lines the claims name as kernel `kernel`'s fp-nondeterministic writes, in claim
/// order (sorted in a well-formed certificate).
pub fn fp_nondeterministic_lines(claims: &[Claim], kernel: Kernel) -> Vec<u32> {
    claims
        .iter()
        .filter_map(|c| match *c {
            Claim::FpNondeterministic { kernel: k, line } if k == kernel => Some(line),
            _ => None,
        })
        .collect()
}

impl Claim {
    /// The output link of an equivalence claim.
    pub fn equivalence(&self) -> Option<u32> {
        match self {
            Claim::Equivalent { output, .. } => Some(*output),
            Claim::Safe(_) | Claim::FpNondeterministic { .. } => None,
        }
    }
}

/// The rules a step may cite (one table, mirrored by `rules/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rule {
    /// [`crate::rules::congruence::congruent`].
    Congruent,
    /// [`crate::rules::ring::ring_normalize`].
    RingNormalize,
    /// [`crate::rules::field::field_normalize`].
    FieldNormalize,
}

/// Evidence that elements `first .. first + count` of output link `output` are equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub output: u32,
    pub first: u64,
    pub count: u64,
    pub rule: Rule,
}

/// A certificate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Certificate {
    /// SHA-256 of the three spec texts (see [`spec_digest`]).
    pub spec_sha256: [u8; 32],
    pub ref_ptx_sha256: [u8; 32],
    pub opt_ptx_sha256: [u8; 32],
    /// Where the PTX files were when proved: relative to the certificate's directory (or
    /// absolute); certificates written before 2026-12 hold paths relative to the prover's
    /// working directory. Only a hint: the SHA-256 above binds the text. See [`resolve_ptx`].
    pub ref_ptx_path: String,
    pub opt_ptx_path: String,
    /// The pair spec and both instance specs, verbatim.
    pub pair_spec: String,
    pub ref_spec: String,
    pub opt_spec: String,
    pub claims: Vec<Claim>,
    pub steps: Vec<Step>,
    /// Work the symbolic run of each kernel (reference, optimized) took when proved
    /// ([`crate::exec::Outcome::work`]: lane-instructions plus term comparisons): the checker
    /// stops a run shortly past this, so re-checking is bounded by what the certificate
    /// declares (and by the checker's own cap).
    pub work: [u64; 2],
}

/// Where the PTX a certificate records is: `recorded` itself when absolute; else relative to
/// the certificate's directory, or (certificates written before paths were recorded that way)
/// relative to the working directory. Two candidates, never a search: the SHA-256 bound in
/// the certificate decides whether the text found is the one proved. The error names both
/// places tried and `--ptx`.
pub fn resolve_ptx(
    cert_file: &std::path::Path,
    recorded: &str,
) -> Result<std::path::PathBuf, String> {
    use std::path::{Path, PathBuf};
    let rec = Path::new(recorded);
    if rec.is_absolute() {
        return match rec.is_file() {
            true => Ok(rec.to_path_buf()),
            false => Err(format!(
                "{}: the PTX file it records, {recorded}, cannot be read; name the PTX files with --ptx REF.ptx OPT.ptx",
                cert_file.display()
            )),
        };
    }
    let dir = cert_file.parent().unwrap_or(Path::new(""));
    let beside: PathBuf = dir.join(rec);
    if beside.is_file() {
        return Ok(beside);
    }
    if rec.is_file() {
        return Ok(rec.to_path_buf());
    }
    Err(format!(
        "{}: the PTX file it records, {recorded}, is neither at {} (relative to the certificate) \
         nor at {recorded} (relative to the working directory); name the PTX files with --ptx REF.ptx OPT.ptx",
        cert_file.display(),
        beside.display()
    ))
}

/// Why bytes are not a certificate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("not a kcert certificate (bad magic bytes)")]
    Magic,
    #[error(
        "certificate format version {0} is not supported (this checker reads version {VERSION})"
    )]
    Version(u32),
    #[error("truncated certificate: {0}")]
    Truncated(&'static str),
    #[error("certificate body of {0} bytes exceeds the limit of {MAX_BODY}")]
    TooLarge(u64),
    #[error("{0} trailing bytes after the certificate")]
    Trailing(usize),
    #[error("certificate corrupted: the body's SHA-256 does not match")]
    Checksum,
    #[error("certificate body does not decode: {0}")]
    Decode(String),
    #[error("certificate body does not encode: {0}")]
    Encode(String),
}

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<{ MAX_BODY as usize }>()
}

pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Digest of the three spec texts, each prefixed by its length so no two triples collide.
pub fn spec_digest(pair: &str, reference: &str, optimized: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    for t in [pair, reference, optimized] {
        h.update((t.len() as u64).to_le_bytes());
        h.update(t.as_bytes());
    }
    h.finalize().into()
}

pub fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

impl Certificate {
    pub fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        let body = bincode::serde::encode_to_vec(self, config())
            .map_err(|e| FormatError::Encode(e.to_string()))?;
        let mut out = Vec::with_capacity(body.len() + 52);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(&body);
        out.extend_from_slice(&sha256(&body));
        Ok(out)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Certificate, FormatError> {
        let take = |at: usize, n: usize, what: &'static str| {
            bytes.get(at..at + n).ok_or(FormatError::Truncated(what))
        };
        if take(0, 8, "magic")? != MAGIC {
            return Err(FormatError::Magic);
        }
        let mut v = [0u8; 4];
        v.copy_from_slice(take(8, 4, "version")?);
        let version = u32::from_le_bytes(v);
        if version != VERSION {
            return Err(FormatError::Version(version));
        }
        let mut l = [0u8; 8];
        l.copy_from_slice(take(12, 8, "body length")?);
        let len = u64::from_le_bytes(l);
        if len > MAX_BODY {
            return Err(FormatError::TooLarge(len));
        }
        let len = len as usize;
        let body = take(20, len, "body")?;
        let sum = take(20 + len, 32, "checksum")?;
        let end = 20 + len + 32;
        if bytes.len() > end {
            return Err(FormatError::Trailing(bytes.len() - end));
        }
        if sha256(body) != sum {
            return Err(FormatError::Checksum);
        }
        let (cert, used) = bincode::serde::decode_from_slice(body, config())
            .map_err(|e| FormatError::Decode(e.to_string()))?;
        if used != body.len() {
            return Err(FormatError::Trailing(body.len() - used));
        }
        Ok(cert)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Certificate {
        Certificate {
            spec_sha256: [1; 32],
            ref_ptx_sha256: [2; 32],
            opt_ptx_sha256: [3; 32],
            ref_ptx_path: "r.ptx".into(),
            opt_ptx_path: "o.ptx".into(),
            pair_spec: "p".into(),
            ref_spec: "r".into(),
            opt_spec: "o".into(),
            claims: vec![
                Claim::Safe(Kernel::Reference),
                Claim::Equivalent {
                    output: 0,
                    elements: 4,
                    total: 4,
                },
            ],
            steps: vec![Step {
                output: 0,
                first: 0,
                count: 4,
                rule: Rule::RingNormalize,
            }],
            work: [100, 200],
        }
    }

    #[test]
    fn round_trips() {
        let b = sample().to_bytes().unwrap();
        assert_eq!(Certificate::from_bytes(&b).unwrap(), sample());
    }

    #[test]
    fn every_malformation_is_named() {
        let b = sample().to_bytes().unwrap();
        let mut magic = b.clone();
        magic[0] ^= 1;
        assert_eq!(Certificate::from_bytes(&magic), Err(FormatError::Magic));
        let mut ver = b.clone();
        ver[8] = 9;
        assert_eq!(Certificate::from_bytes(&ver), Err(FormatError::Version(9)));
        // Version 1 (before element counts and declared work) is unknown now.
        let mut old = b.clone();
        old[8] = 1;
        assert_eq!(Certificate::from_bytes(&old), Err(FormatError::Version(1)));
        for cut in [3, 10, 15, 30, b.len() - 1] {
            assert!(
                matches!(
                    Certificate::from_bytes(&b[..cut]),
                    Err(FormatError::Truncated(_))
                ),
                "cut at {cut}"
            );
        }
        let mut long = b.clone();
        long.push(0);
        assert_eq!(
            Certificate::from_bytes(&long),
            Err(FormatError::Trailing(1))
        );
        let mut body = b.clone();
        body[40] ^= 0x10;
        assert_eq!(Certificate::from_bytes(&body), Err(FormatError::Checksum));
        let mut huge = b.clone();
        huge[12..20].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(
            Certificate::from_bytes(&huge),
            Err(FormatError::TooLarge(u64::MAX))
        );
        // Every single-byte flip is rejected.
        for i in 0..b.len() {
            let mut f = b.clone();
            f[i] ^= 0x01;
            assert!(
                Certificate::from_bytes(&f).is_err(),
                "flip at byte {i} accepted"
            );
        }
    }
}
