//! Dword accesses whose lanes' low address dwords carry out across a 4 GiB boundary while
//! their high dwords stay uniform: GFX9 adds no carry, so the lanes past the carry address the
//! start of the same 4 GiB region, not the bytes after the boundary. The fast paths move
//! groups of consecutive lanes as one vector and must leave such groups to the general path.

use super::tests::{isas, random_wave, Rig, Rng};
use super::tests_mem::{flat, then_endpgm, OneBuffer};
use super::{first_difference, run_code, JitCode};
use crate::exec::ExecFault;
use crate::memory::Checker;
use crate::wave::Wave;

/// Bytes of each of the two mappings.
const LEN: usize = 1 << 16;

/// Two anonymous mappings in one 4 GiB region `hi`: its first [`LEN`] bytes, and [`LEN`] bytes
/// on each side of its end. The memory map claims the whole region (and the bytes after it)
/// valid, as one 4 GiB+ allocation would be; the accesses below touch only the mappings.
struct Straddle {
    hi: u32,
    low: *mut u8,
    top: *mut u8,
}

impl Straddle {
    /// The first candidate region whose two ranges are free, or `None`.
    fn new() -> Option<Self> {
        for hi in (0x100u32..0x7000).step_by(0x300) {
            let start = u64::from(hi) << 32;
            let top = start + (1 << 32) - LEN as u64;
            let low = map_at(start)?;
            match map_at(top) {
                Some(t) => return Some(Straddle { hi, low, top: t }),
                // SAFETY: the mapping just made, referred to by nothing.
                None => unsafe {
                    libc::munmap(low.cast(), LEN);
                },
            }
        }
        None
    }

    fn start(&self) -> u64 {
        u64::from(self.hi) << 32
    }

    /// Both mappings' bytes, in address order.
    fn bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(3 * LEN);
        // SAFETY: both mappings are LEN and 2 * LEN bytes, readable for the life of `self`.
        unsafe {
            v.extend_from_slice(std::slice::from_raw_parts(self.low, LEN));
            v.extend_from_slice(std::slice::from_raw_parts(self.top, 2 * LEN));
        }
        v
    }

    /// Writes `b` (as [`Self::bytes`] returned them) back.
    fn set(&mut self, b: &[u8]) {
        // SAFETY: as in `bytes`, writable; `&mut self` is the only reference.
        unsafe {
            std::ptr::copy_nonoverlapping(b.as_ptr(), self.low, LEN);
            std::ptr::copy_nonoverlapping(b[LEN..].as_ptr(), self.top, 2 * LEN);
        }
    }
}

impl Drop for Straddle {
    fn drop(&mut self) {
        // SAFETY: the mappings made by `new`, no longer referred to.
        unsafe {
            libc::munmap(self.low.cast(), LEN);
            libc::munmap(self.top.cast(), 2 * LEN);
        }
    }
}

/// A private anonymous mapping at exactly `addr` (`LEN` bytes, or twice that above `LEN`
/// below a 4 GiB boundary), or `None` where something is there.
pub(super) fn map_at(addr: u64) -> Option<*mut u8> {
    let len = if addr & 0xffff_ffff == 0 {
        LEN
    } else {
        2 * LEN
    };
    // SAFETY: MAP_FIXED_NOREPLACE never replaces an existing mapping; the new one is ours.
    let p = unsafe {
        libc::mmap(
            addr as *mut libc::c_void,
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED_NOREPLACE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return None;
    }
    if p as u64 != addr {
        // (A kernel without MAP_FIXED_NOREPLACE takes the address as a hint.)
        // SAFETY: the mapping just made, referred to by nothing.
        unsafe { libc::munmap(p, len) };
        return None;
    }
    Some(p.cast())
}

/// Runs `prog` on `w0` over the straddling memory (reset to `init` first); the run's result,
/// wave and memory. With `warm`, the JIT's code first runs that wave on the same checker:
/// its sites' range caches then hold what that run proved (and a fast path that served it
/// leaves no hint), so the paths that need a hit (the inline access of `mem_inline.rs`) see
/// `w0` as they would a kernel's later wave.
fn run_on(
    m: &mut Straddle,
    init: &[u8],
    prog: &crate::program::Program,
    w0: &Wave,
    code: Option<&JitCode>,
    warm: Option<&Wave>,
) -> (Result<(), ExecFault>, Wave, Vec<u8>) {
    m.set(init);
    let map = OneBuffer(m.start()..m.start() + (1 << 32) + LEN as u64);
    let mut rig = Rig::new(0);
    let mut w = w0.clone();
    let mut cx = rig.cx(prog, Checker::new(&map, 0..0), 0);
    let r = match code {
        Some(c) if warm.is_some() => {
            let mut first = warm.expect("checked").clone();
            run_code(&mut first, &mut cx, c).expect("the warm-up runs");
            m.set(init);
            run_code(&mut w, &mut cx, c)
        }
        Some(c) => run_code(&mut w, &mut cx, c),
        None => crate::exec::run(&mut w, &mut cx),
    };
    (r, w, m.bytes())
}

/// Full waves and partial ones, in rows of 8 and 16 consecutive lanes and wholly consecutive,
/// with one group of lanes whose low dwords carry out of 0xffff_fffc, or with one lane's high
/// dword in the next region (the low dwords in rows, without a carry): loads and stores leave
/// the interpreter's registers and memory.
#[test]
fn lanes_carrying_out_of_the_low_dword_stay_in_their_region() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let Some(mut m) = Straddle::new() else {
        panic!("no free 4 GiB boundary for the test's mappings");
    };
    let mut r = Rng(41);
    let init: Vec<u8> = (0..3 * LEN).map(|_| r.next() as u8).collect();
    // global_load_dword v1, v[20:21], off; global_store_dword v[20:21], v22, off
    let progs = [
        then_endpgm(flat(0x14, 2, 20, 0, 0x7f, 1, 0)),
        then_endpgm(flat(0x1c, 2, 20, 22, 0x7f, 0, 0)),
    ];
    // The low and high dwords of each lane: (what, lanes).
    let mut layouts: Vec<(&str, [u32; 64], [u32; 64])> = Vec::new();
    for (what, first, group) in [
        ("rows of 8, the second carrying", 0xffff_fff0u32, 8u32),
        ("rows of 16, the first carrying", 0xffff_ffe8, 16),
        ("consecutive, carrying at lane 60", 0xffff_ff10, 64),
    ] {
        let mut lo = [0u32; 64];
        for (l, v) in lo.iter_mut().enumerate() {
            let (g, i) = (l as u32 / group, l as u32 % group);
            let row = if group == 64 || (group == 8 && g == 1) || (group == 16 && g == 0) {
                first
            } else {
                0x100 * g
            };
            *v = row.wrapping_add(4 * i);
        }
        layouts.push((what, lo, [m.hi; 64]));
    }
    // In rows without a carry, one lane in the first bytes of the next region (mapped: the
    // top mapping runs past the boundary).
    for (what, group, odd) in [
        ("rows of 16, lane 37 in the next region", 16u32, 37),
        ("consecutive, lane 5 in the next region", 64, 5),
    ] {
        let lo = std::array::from_fn(|l| 0x100 * (l as u32 / group) + 4 * (l as u32 % group));
        let mut hi = [m.hi; 64];
        hi[odd] = m.hi + 1;
        layouts.push((what, lo, hi));
    }
    for prog in &progs {
        for (what, lo, hi) in &layouts {
            for exec in [!0u64, !0 ^ 0x0100_0000_0000_0001] {
                let mut w0 = random_wave(&mut Rng(5));
                w0.v[20] = *lo;
                w0.v[21] = *hi;
                w0.set_exec(exec);
                // The warm-up: every lane in order, in the region's first bytes.
                let mut regular = w0.clone();
                regular.v[20] = std::array::from_fn(|l| 0x40 + 4 * l as u32);
                regular.v[21] = [m.hi; 64];
                regular.set_exec(!0);
                let (ra, wa, ma) = run_on(&mut m, &init, prog, &w0, None, None);
                assert!(ra.is_ok(), "{what}: the interpreter ran: {ra:?}");
                for (&isa, warm) in isas.iter().flat_map(|i| [(i, None), (i, Some(&regular))]) {
                    let jit = JitCode::compile(prog, 0, false, false, isa).expect("compiles");
                    let (rb, wb, mb) = run_on(&mut m, &init, prog, &w0, Some(&jit), warm);
                    let ctx = format!("{isa:?}, {what}, EXEC {exec:#x}, warm {}", warm.is_some());
                    assert_eq!(ra, rb, "{ctx}");
                    assert_eq!(first_difference(&wb, &wa, 0..256), None, "{ctx}");
                    assert!(ma == mb, "{ctx}: memory differs");
                }
            }
        }
    }
}
