//! The host floating-point environment waves run under.
//!
//! Both engines compute f32/f64 results with host SSE/AVX arithmetic, which obeys the thread's
//! MXCSR: its rounding mode and its flush-to-zero (FTZ) and denormals-are-zero (DAZ) bits. A
//! host program may have changed them (a program linked with `-ffast-math` sets FTZ and DAZ at
//! startup), and threads inherit MXCSR from the thread that creates them, so the runtime's own
//! workers may start with them too. Runners therefore hold [`DefaultFpEnv`] while they run waves:
//! one MXCSR read per job a runner takes, where the generated code used to save, set and restore
//! it at every entry.

/// MXCSR at reset: round to nearest even, no flushing, every exception masked.
pub const DEFAULT_MXCSR: u32 = 0x1f80;
/// MXCSR's sticky exception flags, which arithmetic sets: they change no result.
const FLAGS: u32 = 0x3f;

/// Whether MXCSR value `v` computes as [`DEFAULT_MXCSR`] does.
pub fn is_default(v: u32) -> bool {
    v & !FLAGS == DEFAULT_MXCSR
}

/// The calling thread's MXCSR (always [`DEFAULT_MXCSR`] off x86-64).
pub fn mxcsr() -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        let mut v: u32 = 0;
        // SAFETY: `stmxcsr` stores the 4-byte register at the address of `v`, a live local.
        unsafe {
            std::arch::asm!("stmxcsr [{}]", in(reg) &mut v, options(nostack, preserves_flags));
        }
        v
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        DEFAULT_MXCSR
    }
}

/// Sets the calling thread's MXCSR.
fn set_mxcsr(v: u32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `ldmxcsr` loads the register from a live local. Every value set here is one this
    // thread had or the reset value, so no reserved bit is set (which would fault).
    unsafe {
        std::arch::asm!("ldmxcsr [{}]", in(reg) &v, options(nostack, preserves_flags));
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = v;
}

/// While alive, the thread runs with [`DEFAULT_MXCSR`]; the previous value comes back on drop
/// (also when a panic unwinds), so a host thread that runs work-groups inline keeps its own.
pub struct DefaultFpEnv {
    saved: u32,
}

impl DefaultFpEnv {
    /// Switches the calling thread to [`DEFAULT_MXCSR`] if it is not there already.
    pub fn enter() -> DefaultFpEnv {
        let saved = mxcsr();
        if !is_default(saved) {
            set_mxcsr(DEFAULT_MXCSR);
        }
        DefaultFpEnv { saved }
    }
}

impl Drop for DefaultFpEnv {
    fn drop(&mut self) {
        if !is_default(self.saved) {
            set_mxcsr(self.saved);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread with FTZ/DAZ and upward rounding runs under the default inside the guard (a
    /// denormal survives an add, which DAZ would zero) and gets its own MXCSR back after it.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn guard_sets_and_restores() {
        std::thread::spawn(|| {
            let odd = DEFAULT_MXCSR | 0x8040 | 0x4000;
            set_mxcsr(odd);
            let tiny = std::hint::black_box(f32::from_bits(3));
            assert_eq!(
                (tiny + std::hint::black_box(0.0f32)).to_bits(),
                0,
                "DAZ is on"
            );
            {
                let _g = DefaultFpEnv::enter();
                assert!(is_default(mxcsr()));
                assert_eq!((tiny + std::hint::black_box(0.0f32)).to_bits(), 3);
            }
            assert_eq!(mxcsr() & !FLAGS, odd);
            set_mxcsr(DEFAULT_MXCSR);
        })
        .join()
        .unwrap();
    }
}
