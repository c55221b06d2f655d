//! The NaN fix-up of f32 and f64 arithmetic as shared subroutines.
//!
//! Each add, multiply or fma whose result has a NaN lane rebuilds those lanes out of line as
//! GFX9 has them (the first NaN operand quieted, else the default NaN: `nan3` in
//! `lane_float.rs`, `nan3_f64` in `lane_f64.rs`). Written out at every site, that code was
//! half of a float-heavy kernel's instructions (a 2,427-instruction f64 kernel: 92,000 of
//! 177,000 x86 instructions) and so of its compile time, for a path that runs only when a
//! NaN appears. The register allocator repeats itself, so the same registers and
//! temporaries recur across sites: each distinct shape becomes one subroutine of the
//! kernel's code (`stubs.rs`), and a site's out-of-line code is a call and a jump back.

use super::emit::{Emitter, R};
use super::stubs::Stub;
use super::vx::{M, V};

/// A fix-up's registers: the result and its NaN lanes, the operands in priority order, and
/// the temporaries it may take (free sets, as at the site).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct NanShape {
    /// f64: the registers hold qwords (one half of a chunk).
    wide: bool,
    result: u8,
    nan: u8,
    ops: [Option<u8>; 3],
    free_v: u32,
    free_m: u32,
}

impl Emitter<'_> {
    /// Lanes of `nan` in `result` = the first NaN of `ops` quieted, else the default NaN
    /// (f64 qwords if `wide`), by a call to the shared routine of this shape. Temporaries:
    /// those free now (`nan3`/`nan3_f64`'s needs); the operands may come back quieted.
    pub(super) fn nan_fix(&mut self, wide: bool, result: V, nan: M, ops: [Option<V>; 3]) -> R<()> {
        let shape = NanShape {
            wide,
            result: result.0,
            nan: nan.0,
            ops: ops.map(|o| o.map(|v| v.0)),
            free_v: self.free_v,
            free_m: self.free_m,
        };
        self.call_stub(Stub::Nan(shape))
    }

    /// The body of a [`Stub::Nan`] routine.
    pub(super) fn nan_stub(&mut self, s: NanShape) -> R<()> {
        self.free_v = s.free_v;
        self.free_m = s.free_m;
        let ops = s.ops.map(|o| o.map(V));
        if s.wide {
            self.nan3_f64(V(s.result), M(s.nan), ops)?;
        } else {
            self.nan3(V(s.result), M(s.nan), ops)?;
        }
        Ok(self.a.ret()?)
    }
}
