//! Fault injection for the semantic self-check's tests: each fault breaks one reading of the
//! symbolic path (never the interpreter's), and `selfcheck`'s tests demand that the check
//! catch it on corpus pairs. Outside `cfg(test)` no fault can be switched on: [`active`] is
//! the constant `false`.

/// One deliberately wrong reading of the symbolic executor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A constant 16-bit float decoded in the other 16-bit format (f16 read as bf16).
    HalfFormat,
    /// `fma(a, b, c)` built as `a * b`, the addend dropped.
    DropFmaAddend,
    /// An mma result written to the registers of the next lane (a fragment layout off by one).
    MmaLane,
    /// An integer add of tensor data built as a subtraction.
    IntAddAsSub,
    /// Contents fixed by `init` read one element further on (symbolic runs only).
    InitShift,
}

#[cfg(test)]
thread_local! {
    static ACTIVE: std::cell::Cell<Option<Fault>> = const { std::cell::Cell::new(None) };
}

/// Whether `f` is switched on (only ever in this crate's tests).
#[inline(always)]
pub fn active(f: Fault) -> bool {
    #[cfg(test)]
    {
        ACTIVE.with(|a| a.get() == Some(f))
    }
    #[cfg(not(test))]
    {
        let _ = f;
        false
    }
}

/// Runs `body` with `f` switched on in this thread.
#[cfg(test)]
pub fn with<T>(f: Fault, body: impl FnOnce() -> T) -> T {
    ACTIVE.with(|a| a.set(Some(f)));
    let r = body();
    ACTIVE.with(|a| a.set(None));
    r
}
