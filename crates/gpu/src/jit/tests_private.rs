//! FLAT accesses to scratch (`mem_private.rs`) against the interpreter.

use super::tests::{isas, random_wave, Rng};
use super::tests_mem::{run_cached, then_endpgm, Carry};
use super::{first_difference, JitCode};
use crate::wave::FLAT_SCRATCH_LO;
use crate::PRIVATE_APERTURE_BASE;

/// Bytes of private segment per work-item in these tests.
const PRIVATE: u32 = 64;

/// A case: each lane's address (an offset in the private aperture, or a host address),
/// EXEC, and whether the rows path serves it.
type Case = (Box<dyn Fn(usize) -> u64>, u64, bool);

/// FLAT loads and stores of 1, 2 and 4 dwords whose active lanes share one private address
/// (-O0 code's pointers to its locals) are translated, take the rows path, and leave
/// registers and memory as the interpreter does: with all lanes and a partial EXEC whose
/// inactive lanes hold other addresses, at the segment's last dwords. Where the rows path
/// does not apply (past the segment: a fault; unaligned; lanes at different addresses; some
/// lanes global) the result is still the interpreter's.
#[test]
fn flat_scratch_accesses_are_native_and_exact() {
    // (first dword without the offset, second dword, dwords, load)
    let ops: [(u32, u32, u32, bool); 6] = [
        (0xdc50_0000, 0x0a00_0002, 1, true),
        (0xdc54_0000, 0x0a00_0002, 2, true),
        (0xdc5c_0000, 0x0a00_0002, 4, true),
        (0xdc70_0000, 0x0000_1402, 1, false),
        (0xdc74_0000, 0x0000_1402, 2, false),
        (0xdc7c_0000, 0x0000_1402, 4, false),
    ];
    let mut r = Rng(29);
    let mut buf = vec![0u8; 8192];
    let init: Vec<u8> = (0..buf.len()).map(|_| r.next() as u8).collect();
    let base = buf.as_ptr() as u64;
    // The wave's scratch: rows of 64 dwords from 256 bytes into the buffer.
    let scratch = base + 256;
    let global = base + 6144;
    for (op, d1, n, load) in ops {
        for imm in [0u32, 8] {
            let prog = then_endpgm([op | imm, d1]);
            let last = PRIVATE - 4 * n - imm;
            // (lane addresses in the aperture, EXEC, the rows path applies)
            let mut cases: Vec<Case> = vec![
                (Box::new(|_| 8), !0, true),
                (Box::new(|_| 16), 0xf0f0_0000_ffff_fff0, true),
                (Box::new(move |_| u64::from(last)), !0, true),
                (Box::new(move |_| u64::from(last) + 4), !0, false),
                (Box::new(|_| 6), !0, false),
                (Box::new(|l| if l == 5 { 12 } else { 8 }), !0, false),
                (Box::new(|l| 4 * l as u64), 1 << 9 | 1 << 3, false),
            ];
            // Lane 3 private, the others global.
            cases.push((
                Box::new(move |l| if l == 3 { 8 } else { global + 16 * l as u64 }),
                0xff,
                false,
            ));
            // (Last: the scratch backing's mapped part ends two rows after its start, so
            // only a single dword at 4 is inside it: the span must cover every row.)
            cases.push((
                Box::new(move |_| u64::from(4u32.saturating_sub(imm))),
                !0,
                n == 1 && imm == 0,
            ));
            let faults = |k: usize| k == 3 || (k == cases.len() - 1 && (n > 1 || imm != 0));
            for (k, (addr, exec, rows)) in cases.iter().enumerate() {
                let mut w0 = random_wave(&mut r);
                for l in 0..64 {
                    let a = addr(l);
                    let a = if a >= base {
                        a
                    } else {
                        PRIVATE_APERTURE_BASE + a
                    };
                    let a = if exec >> l & 1 == 0 && l % 3 == 0 {
                        // An inactive lane's address must not matter.
                        u64::from(r.next() as u32) << 16
                    } else {
                        a
                    };
                    w0.v[2][l] = a as u32;
                    w0.v[3][l] = (a >> 32) as u32;
                }
                w0.set_exec(*exec);
                let scratch = if k == cases.len() - 1 {
                    base + buf.len() as u64 - 512
                } else {
                    scratch
                };
                w0.s[FLAT_SCRATCH_LO] = scratch as u32;
                w0.s[FLAT_SCRATCH_LO + 1] = (scratch >> 32) as u32;
                let what = format!("{} case {k}", prog.text(0));
                let mut carry = Carry {
                    private_size: PRIVATE,
                    ..Carry::default()
                };
                let a = run_cached(&prog, &w0, &mut buf, &init, 0, &[], None, &mut carry);
                assert_eq!(a.r.is_ok(), !faults(k), "{what}: {:?}", a.r);
                if load && a.r.is_ok() {
                    assert_ne!(a.w.v[10], w0.v[10], "{what}: the load changes registers");
                } else if a.r.is_ok() {
                    assert_ne!(a.mem, init, "{what}: the store changes memory");
                }
                for &isa in &isas() {
                    let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
                    assert_eq!(jit.native, jit.reachable, "{isa:?} {what}: translated");
                    let mut carry = Carry {
                        private_size: PRIVATE,
                        ..Carry::default()
                    };
                    let b = run_cached(&prog, &w0, &mut buf, &init, 0, &[], Some(&jit), &mut carry);
                    assert_eq!(a.r, b.r, "{isa:?} {what}: how the wave stopped");
                    let diff = first_difference(&b.w, &a.w, 0..256);
                    assert!(diff.is_none(), "{isa:?} {what}: {diff:?}");
                    assert!(a.mem == b.mem, "{isa:?} {what}: memory");
                    // Only the rows path proves a range at the site (an address in the
                    // aperture is in no range the other paths could prove).
                    let proved = carry.cache.sites.first().is_some_and(|s| s.hi > s.lo);
                    assert_eq!(proved, *rows, "{isa:?} {what}: the rows path");
                }
            }
        }
    }
}
