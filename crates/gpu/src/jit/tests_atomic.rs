//! LDS atomics (`mem_lds_atomic.rs`) and global ones (`mem_atomic.rs`) against the interpreter: every operation the JIT
//! translates, 32- and 64-bit, with and without return, on lanes that collide on one address,
//! hit consecutive or scattered ones, or lie partly outside the LDS, under full and sparse
//! EXEC, with the destination apart from or on top of the address and data registers.

use super::tests::{isas, random_wave, Rng};
use super::tests_mem::{assert_native_and_exact, ds, flat, run, then_endpgm, BUF};
use super::{first_difference, JitCode};

/// The operations `select::ds_atomic` passes (the low five opcode bits; 0x15, `ds_add_f32`,
/// 32-bit only).
const OPS: [u32; 16] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x10, 0x15,
];

/// f32 bit patterns for `ds_add_f32`: signaling and quiet NaNs of both signs with payloads,
/// infinities, zeros, denormals, the largest finite value (overflows), the smallest normal and
/// its neighbour of the other sign (their sum is denormal), ordinary numbers.
const FLOATS: [u32; 16] = [
    0x7f80_0001,
    0xff80_1234,
    0x7fc0_0000,
    0xffc0_0042,
    0x7f80_0000,
    0xff80_0000,
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x807f_ffff,
    0x7f7f_ffff,
    0x0080_0001,
    0x8080_0000,
    0x3f80_0000,
    0xbfc0_0000,
    0x4049_0fdb,
];

#[test]
fn lds_atomics_are_native_and_exact() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let mut r = Rng(0x5eed_a70c);
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    const LDS: usize = 1024;
    let mut cases = 0;
    for op in OPS {
        for wide in [false, true] {
            for rtn in [false, true] {
                // (0x0d without return is ds_write, not an atomic; 0x55 is no f64 add.)
                if (op == 0x0d && !rtn) || (op == 0x15 && wide) {
                    continue;
                }
                let opc = op | u32::from(rtn) << 5 | u32::from(wide) << 6;
                let bytes = if wide { 8u32 } else { 4 };
                // (addr, data0, data1, vdst): apart; vdst on the address; vdst on data0.
                for (addr, d0, d1, vdst) in
                    [(10u32, 2u32, 4u32, 6u32), (10, 2, 4, 10), (10, 2, 4, 2)]
                {
                    if !rtn && vdst != 6 {
                        continue;
                    }
                    // (Valid encodings leave the fields an op does not use zero.)
                    let vdst = if rtn { vdst } else { 0 };
                    let d1 = if matches!(op, 0x0c | 0x10) { d1 } else { 0 };
                    let offset = r.pick(&[0u32, 8, 0x104]);
                    let prog = then_endpgm(ds(opc, addr, d0, d1, vdst, offset & 0xff, offset >> 8));
                    let text = prog.text(0);
                    for pattern in 0..5 {
                        let mut w0 = random_wave(&mut r);
                        let exec = match pattern % 3 {
                            0 => u64::MAX,
                            1 => r.next() | 1 << 63,
                            _ => r.next() & r.next(),
                        };
                        w0.set_exec(exec);
                        for l in 0..64 {
                            let a = match pattern {
                                // One address for all lanes: every lane sees the last's result.
                                0 => 64,
                                // Consecutive elements.
                                1 => bytes * l as u32,
                                // A few slots, colliding.
                                2 => bytes * (r.next() % 4) as u32,
                                // Anywhere inside (unaligned too).
                                3 => (r.next() % (LDS as u64 - 0x110 - 8)) as u32,
                                // Some lanes past the end (the interpreter's way).
                                _ => (r.next() % (LDS as u64 + 64)) as u32,
                            };
                            w0.v[addr as usize][l] = a.wrapping_sub(offset);
                            // Small data now and then, so compares, inc and dec take each side;
                            // special floats for the float add.
                            for v in [d0, d0 + 1, 4, 5] {
                                if op == 0x15 {
                                    if !r.next().is_multiple_of(4) {
                                        w0.v[v as usize][l] =
                                            FLOATS[r.next() as usize % FLOATS.len()];
                                    }
                                } else if r.next().is_multiple_of(2) {
                                    w0.v[v as usize][l] = (r.next() % 4) as u32;
                                }
                            }
                        }
                        let lds_init: Vec<u8> = match op {
                            0x15 => (0..LDS / 4)
                                .flat_map(|_| {
                                    FLOATS[r.next() as usize % FLOATS.len()].to_le_bytes()
                                })
                                .collect(),
                            _ => (0..LDS)
                                .map(|i| if i % 4 == 0 { (r.next() % 4) as u8 } else { 0 })
                                .collect(),
                        };
                        let a = run(&prog, &w0, &mut buf, &init, LDS, &lds_init, None);
                        assert!(a.r.is_ok(), "{text}: {:?}", a.r);
                        for &isa in &isas {
                            let jit =
                                JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
                            assert_eq!(jit.native, jit.reachable, "{isa:?} {text}: translated");
                            let b = run(&prog, &w0, &mut buf, &init, LDS, &lds_init, Some(&jit));
                            assert_eq!(a.r, b.r, "{isa:?} {text}");
                            let diff = first_difference(&b.w, &a.w, 0..256);
                            assert!(diff.is_none(), "{isa:?} {text} pattern {pattern}: {diff:?}");
                            let at = a.lds.iter().zip(&b.lds).position(|(x, y)| x != y);
                            assert!(
                                at.is_none(),
                                "{isa:?} {text} pattern {pattern}: LDS byte {at:?}"
                            );
                            cases += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(cases > 300, "{cases} cases");
}

/// `global_atomic_*` and `flat_atomic_*` (`mem_atomic.rs`) against the interpreter: every
/// integer operation, 32- and 64-bit, with and without GLC, through a VGPR pair and through
/// `saddr` plus 32-bit offsets, on lanes that collide on one address, hit consecutive or
/// scattered ones, are misaligned or lie outside the buffer (faults: the interpreter's, from
/// the same lane) or, for FLAT, in the LDS or private aperture (the interpreter's), under
/// full and sparse EXEC, with the destination apart from or on top of the data registers.
#[test]
fn global_atomics_are_native_and_exact() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let mut r = Rng(0x61_0bad);
    let mut buf = vec![0u8; BUF];
    let init: Vec<u8> = (0..BUF)
        .map(|i| if i % 4 == 0 { (r.next() % 4) as u8 } else { 0 })
        .collect();
    let (mut cases, mut faults) = (0, 0);
    // swap, cmpswap, add, sub, smin, umin, smax, umax, and, or, xor, inc, dec
    for op in 0x40..=0x4c_u32 {
        for wide in [false, true] {
            for glc in [false, true] {
                let opc = op + if wide { 0x20 } else { 0 };
                let n = if wide { 2 } else { 1 };
                // (addr, data, vdst): apart; vdst on the data.
                for (addr, data, vdst) in [(10u32, 2u32, 6u32), (10, 2, 2)] {
                    if !glc && vdst != 6 {
                        continue;
                    }
                    let vdst = if glc { vdst } else { 0 };
                    // A global pair, `saddr` and offsets, a FLAT pair.
                    for form in 0..3 {
                        let (saddr, is_flat) = (form == 1, form == 2);
                        let off = match is_flat {
                            true => r.pick(&[0i32, 8, 16]),
                            false => r.pick(&[0i32, 8, -16]),
                        };
                        let (seg, sa) = match form {
                            0 => (2, 0x7f),
                            1 => (2, 10),
                            _ => (0, 0),
                        };
                        let mut inst = flat(opc, seg, addr, data, sa, vdst, off);
                        inst[0] |= u32::from(glc) << 16;
                        let prog = then_endpgm(inst);
                        let text = prog.text(0);
                        // (FLAT: also lanes in the LDS and the private aperture.)
                        for pattern in 0..if is_flat { 8 } else { 6 } {
                            let mut w0 = random_wave(&mut r);
                            let base = buf.as_ptr() as u64;
                            w0.set_s64(10, base);
                            w0.set_exec(match pattern % 3 {
                                0 => u64::MAX,
                                1 => r.next() | 1 << 63,
                                _ => r.next() & r.next(),
                            });
                            let bytes = 4 * n as u64;
                            for l in 0..64 {
                                let at: u64 = match pattern {
                                    // One address for all lanes.
                                    0 => 64,
                                    1 => 256 + bytes * l as u64,
                                    2 => 128 + bytes * (r.next() % 4),
                                    3 => 64 + bytes * (r.next() % 1000),
                                    // Now and then a misaligned lane.
                                    4 => {
                                        64 + bytes * (r.next() % 1000)
                                            + u64::from(r.next().is_multiple_of(40)) * 2
                                    }
                                    // Now and then a lane in an aperture (as a GPU address,
                                    // not from the buffer).
                                    6 | 7 if r.next().is_multiple_of(16) => {
                                        let ap = match pattern {
                                            6 => crate::SHARED_APERTURE_BASE,
                                            _ => crate::PRIVATE_APERTURE_BASE,
                                        };
                                        (ap + bytes * (r.next() % 16)).wrapping_sub(base)
                                    }
                                    6 | 7 => 64 + bytes * (r.next() % 1000),
                                    // Now and then a lane past the buffer.
                                    _ => {
                                        64 + bytes * (r.next() % 1000)
                                            + u64::from(r.next().is_multiple_of(40)) * BUF as u64
                                    }
                                };
                                let at = at.wrapping_sub(off as i64 as u64);
                                if saddr {
                                    w0.v[addr as usize][l] = at as u32;
                                } else {
                                    let a = base + at;
                                    w0.v[addr as usize][l] = a as u32;
                                    w0.v[addr as usize + 1][l] = (a >> 32) as u32;
                                }
                                for v in data..data + 2 * n {
                                    if r.next().is_multiple_of(2) {
                                        w0.v[v as usize][l] = (r.next() % 4) as u32;
                                    }
                                }
                            }
                            let lds = [0u8; 256];
                            let a = run(&prog, &w0, &mut buf, &init, 256, &lds, None);
                            faults += usize::from(a.r.is_err());
                            for &isa in &isas {
                                let jit = JitCode::compile(&prog, 0, false, false, isa)
                                    .expect("compiles");
                                assert_eq!(jit.native, jit.reachable, "{isa:?} {text}: translated");
                                let b = run(&prog, &w0, &mut buf, &init, 256, &lds, Some(&jit));
                                assert_eq!(a.r, b.r, "{isa:?} {text} pattern {pattern}");
                                let diff = first_difference(&b.w, &a.w, 0..256);
                                assert!(
                                    diff.is_none(),
                                    "{isa:?} {text} pattern {pattern}: {diff:?}"
                                );
                                let at = a.mem.iter().zip(&b.mem).position(|(x, y)| x != y);
                                assert!(a.lds == b.lds, "{isa:?} {text} pattern {pattern}: LDS");
                                assert!(
                                    at.is_none(),
                                    "{isa:?} {text} pattern {pattern}: byte {at:?}"
                                );
                                cases += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        cases > 1000 && faults > 20,
        "{cases} cases, {faults} faults"
    );
}

/// `global_atomic_add_f32` (gfx908, gfx90a) and `global_atomic_add_f64` (gfx90a), native compare-and-
/// swap loops (`mem_atomic.rs`), against the interpreter (`exec::fatomic`): lanes on one
/// address, consecutive and colliding, full and sparse EXEC, with and without GLC, data and
/// memory drawn from NaNs with payloads, infinities, signed zeros, denormals and numbers.
#[test]
fn global_float_adds_are_native_and_exact() {
    use softhsa_isa::Gfx;
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let mut r = Rng(0xf1_0a75);
    let mut buf = vec![0u8; BUF];
    const F64S: [u64; 10] = [
        0x7ff0_0000_0000_0003,
        0xfff8_0000_0000_0042,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x8000_0000_0000_0000,
        0x0000_0000_0000_0001,
        0x7fef_ffff_ffff_ffff,
        0x3ff0_0000_0000_0000,
        0xc004_0000_0000_0000,
        0x0000_0000_0000_0000,
    ];
    let mut cases = 0;
    // (gfx908's f32 add has no returning form.)
    for (gfx, op, wide, glcs) in [
        (Gfx::Gfx908, 0x4du32, false, &[false][..]),
        (Gfx::Gfx90a, 0x4d, false, &[false, true][..]),
        (Gfx::Gfx90a, 0x4f, true, &[false, true][..]),
    ] {
        let value = |r: &mut Rng| match wide {
            true => F64S[r.next() as usize % F64S.len()],
            false => u64::from(FLOATS[r.next() as usize % FLOATS.len()]),
        };
        let n = if wide { 2 } else { 1 };
        for &glc in glcs {
            let vdst = if glc { 6 } else { 0 };
            let mut inst = flat(op, 2, 10, 2, 0x7f, vdst, 0);
            inst[0] |= u32::from(glc) << 16;
            let code: Vec<u8> = [inst[0], inst[1], 0xbf81_0000]
                .iter()
                .flat_map(|d| d.to_le_bytes())
                .collect();
            let prog = crate::program::Program::new_for(&code, 0x1000, gfx);
            let text = prog.text(0);
            assert!(text.contains("_add_f"), "{text}");
            for pattern in 0..6 {
                let mut init = vec![0u8; BUF];
                for c in init.chunks_mut(4 * n as usize) {
                    c.copy_from_slice(&value(&mut r).to_le_bytes()[..4 * n as usize]);
                }
                let mut w0 = random_wave(&mut r);
                let base = buf.as_ptr() as u64;
                w0.set_exec(match pattern % 3 {
                    0 => u64::MAX,
                    1 => r.next() | 1 << 63,
                    _ => r.next() & r.next(),
                });
                let bytes = 4 * n as u64;
                for l in 0..64 {
                    let at = match pattern / 3 {
                        0 => 64 + bytes * (r.next() % 3),
                        _ => 256 + bytes * l as u64,
                    };
                    let a = base + at;
                    w0.v[10][l] = a as u32;
                    w0.v[11][l] = (a >> 32) as u32;
                    let v = value(&mut r);
                    w0.v[2][l] = v as u32;
                    w0.v[3][l] = (v >> 32) as u32;
                }
                let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                assert!(a.r.is_ok(), "{text}: {:?}", a.r);
                let what = format!("{text} pattern {pattern}");
                assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &what);
                cases += isas.len();
            }
        }
    }
    assert!(cases >= 30, "{cases} cases");
}
