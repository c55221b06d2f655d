//! Checked texel memory: one check of the image's whole extent per instruction (the fast path),
//! then each texel access is inside it; an image that reaches past its allocation is checked
//! texel by texel, so the first bad texel is the reported fault (lane and address), never a
//! host SIGSEGV.

use crate::exec::ExecFault;
use crate::memory::{self, Checker, MemErr};

/// Texel reads and writes of one instruction.
pub struct TexMem<'c, 'a> {
    mem: &'c mut Checker<'a>,
    /// The image extent that passed the check, and its host translation delta.
    fast: Option<(u64, u64, u64)>,
    write: bool,
}

impl<'c, 'a> TexMem<'c, 'a> {
    /// Starts with a check of `[lo, hi)` (the whole image), for writes too when `write`.
    pub fn new(mem: &'c mut Checker<'a>, lo: u64, hi: u64, write: bool) -> Self {
        let fast = (hi > lo)
            .then(|| mem.span(lo, hi, write).ok().map(|d| (lo, hi, d)))
            .flatten();
        TexMem { mem, fast, write }
    }

    /// The host address of `[addr, addr + bytes)`, checked.
    fn host(&mut self, addr: u64, bytes: u64, lane: usize) -> Result<u64, ExecFault> {
        if let Some((lo, hi, d)) = self.fast {
            // (`hi - addr`, not `addr + bytes`: an address near the top must not wrap in.)
            if addr >= lo && addr < hi && bytes <= hi - addr {
                return Ok(addr.wrapping_add(d));
            }
        }
        let end = addr.checked_add(bytes).ok_or(MemErr {
            address: addr,
            write: self.write,
            lane: Some(lane as u32),
        })?;
        match self.mem.span(addr, end, self.write) {
            Ok(d) => Ok(addr.wrapping_add(d)),
            Err(mut e) => {
                e.lane = Some(lane as u32);
                Err(e.into())
            }
        }
    }

    /// Reads an element of `bytes` (1, 2, 4, 8, 12 or 16) at `addr`.
    pub fn read(&mut self, addr: u64, bytes: u8, lane: usize) -> Result<u128, ExecFault> {
        let h = self.host(addr, bytes.into(), lane)?;
        // SAFETY: `[h, h + bytes)` was checked against the registry (or the scratch backing).
        Ok(unsafe {
            match bytes {
                1 => memory::read_u8(h).into(),
                2 => memory::read_u16(h).into(),
                4 => memory::read_u32(h).into(),
                8 => memory::read_u64(h).into(),
                12 => {
                    let mut d = [0u32; 3];
                    memory::read_dwords(h, &mut d);
                    u128::from(d[0]) | u128::from(d[1]) << 32 | u128::from(d[2]) << 64
                }
                _ => u128::from(memory::read_u64(h)) | u128::from(memory::read_u64(h + 8)) << 64,
            }
        })
    }

    /// Writes an element of `bytes` at `addr`.
    pub fn write(&mut self, addr: u64, bytes: u8, v: u128, lane: usize) -> Result<(), ExecFault> {
        let h = self.host(addr, bytes.into(), lane)?;
        // SAFETY: `[h, h + bytes)` was checked for writing.
        unsafe {
            match bytes {
                1 => memory::write_u8(h, v as u8),
                2 => memory::write_u16(h, v as u16),
                4 => memory::write_u32(h, v as u32),
                8 => memory::write_u64(h, v as u64),
                12 => memory::write_dwords(h, &[v as u32, (v >> 32) as u32, (v >> 64) as u32]),
                _ => {
                    memory::write_u64(h, v as u64);
                    memory::write_u64(h + 8, (v >> 64) as u64);
                }
            }
        }
        Ok(())
    }

    /// The host address of an element for an atomic (checked for writing).
    pub fn atomic_addr(&mut self, addr: u64, bytes: u8, lane: usize) -> Result<u64, ExecFault> {
        self.host(addr, bytes.into(), lane)
    }
}
