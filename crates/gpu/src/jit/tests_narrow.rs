//! The JIT against the interpreter on byte and short accesses (global, flat, scratch through
//! the private-segment V#, LDS, with their `_d16`/`_d16_hi` forms) and on 3- and 4-dword LDS
//! accesses: each is translated (no call-out), and registers, memory, LDS and the fault
//! (kind, pc, lane, address) equal the interpreter's, under partial EXEC, at odd and
//! overlapping addresses, with sign bits set, at the edges of the buffer and the LDS.

use super::tests::{isas, random_wave, Rng};
use super::tests_mem::{assert_native_and_exact, ds, flat, mubuf, run, then_endpgm, BUF};
use super::{first_difference, JitCode};
use crate::program::Program;
use crate::wave::Wave;

/// Global/flat opcodes (gfx9) with their mnemonics' stems and whether they load.
const GLOBAL_OPS: [(u32, &str, bool); 14] = [
    (0x10, "load_ubyte", true),
    (0x11, "load_sbyte", true),
    (0x12, "load_ushort", true),
    (0x13, "load_sshort", true),
    (0x18, "store_byte", false),
    (0x19, "store_byte_d16_hi", false),
    (0x1a, "store_short", false),
    (0x1b, "store_short_d16_hi", false),
    (0x20, "load_ubyte_d16", true),
    (0x21, "load_ubyte_d16_hi", true),
    (0x22, "load_sbyte_d16", true),
    (0x23, "load_sbyte_d16_hi", true),
    (0x24, "load_short_d16", true),
    (0x25, "load_short_d16_hi", true),
];

/// Byte offsets of the 64 lanes from a buffer's start: consecutive bytes, shorts, odd
/// strides, every lane in 8 slots (stores: the highest lane wins), one address, random; the
/// last ones touch the buffer's last bytes (`limit` long).
fn offsets(kind: u64, r: &mut Rng, limit: u64) -> [u64; 64] {
    let mut o = [0u64; 64];
    for (l, v) in o.iter_mut().enumerate() {
        let l = l as u64;
        *v = match kind {
            0 => 5 + l,
            1 => 2 * l + 1,
            2 => 3 * l + 2,
            3 => 7 + (l % 8),
            4 => 9,
            5 => r.next() % (limit - 2),
            6 => limit - 64 + l,
            _ => limit - 128 + 2 * l,
        };
    }
    o
}

/// Global (pair and `saddr` forms) and flat byte and short loads and stores.
#[test]
fn global_bytes_and_shorts_are_native_and_exact() {
    let isas = isas();
    let mut buf = vec![0u8; BUF];
    let mut r = Rng(37);
    let init: Vec<u8> = (0..BUF).map(|_| r.next() as u8).collect();
    for (op, stem, load) in GLOBAL_OPS {
        // (seg, address VGPR, saddr): global pair, global saddr, flat.
        for (seg, vaddr, saddr, prefix) in [
            (2, 20, 0x7f, "global_"),
            (2, 22, 10, "global_"),
            (0, 20, 0, "flat_"),
        ] {
            let (data, vdst) = if load { (0, 2) } else { (2, 0) };
            let prog = then_endpgm(flat(op, seg, vaddr, data, saddr, vdst, 3));
            let name = format!("{prefix}{stem} ");
            assert!(prog.text(0).starts_with(&name), "{}", prog.text(0));
            for kind in 0..8 {
                let mut w0 = random_wave(&mut r);
                let base = buf.as_ptr() as u64;
                // The immediate offset (3) is added: the last lanes end at the buffer's end.
                let bytes = if stem.contains("short") { 2 } else { 1 };
                let o = offsets(kind, &mut r, BUF as u64 - 3 - (bytes - 1));
                for (l, &o) in o.iter().enumerate() {
                    let a = base + o;
                    w0.v[20][l] = a as u32;
                    w0.v[21][l] = (a >> 32) as u32;
                    w0.v[22][l] = o as u32;
                }
                w0.set_s64(10, base);
                w0.set_exec(r.pick(&[u64::MAX, 0xf0f0_ffff_0000_fff7, 1 << 63, 0x8000_0001]));
                let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                assert!(a.r.is_ok(), "{name} kind {kind}: {:?}", a.r);
                let what = format!("{} kind {kind}", prog.text(0));
                assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &what);
            }
        }
    }
}

/// A lane whose byte or short reaches past the buffer faults in both engines with the same
/// kind, pc, lane and address; a short ending exactly at the end does not.
#[test]
fn global_bytes_and_shorts_past_the_end_fault_alike() {
    let isas = isas();
    let mut buf = vec![0u8; BUF];
    let mut r = Rng(41);
    let init: Vec<u8> = (0..BUF).map(|_| r.next() as u8).collect();
    for (op, stem, load) in GLOBAL_OPS {
        let (data, vdst) = if load { (0, 2) } else { (2, 0) };
        let prog = then_endpgm(flat(op, 2, 20, data, 0x7f, vdst, 0));
        let bytes = if stem.contains("short") { 2 } else { 1 };
        // Lane 40 at end - bytes (inside), end - bytes + 1 (a short across the end), end.
        // Lanes 2 bytes apart (lane 40 moved), or consecutive (`bytes` apart) up to lane 40.
        for (past, consecutive) in [0u64, 1, bytes]
            .into_iter()
            .flat_map(|p| [(p, false), (p, true)])
        {
            let faults = past > 0;
            let mut w0 = random_wave(&mut r);
            let base = buf.as_ptr() as u64;
            let end = base + BUF as u64;
            for l in 0..64u64 {
                let a = match (consecutive, l) {
                    (true, _) => (end + past + bytes * l).wrapping_sub(bytes * 41),
                    (false, 40) => end - bytes + past,
                    (false, _) => base + 2 * l,
                };
                w0.v[20][l as usize] = a as u32;
                w0.v[21][l as usize] = (a >> 32) as u32;
            }
            w0.set_exec(0x0000_01ff_ffff_fffe);
            let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
            assert_eq!(a.r.is_err(), faults, "{stem} past {past}: {:?}", a.r);
            let what = format!("{} past {past} consecutive {consecutive}", prog.text(0));
            assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &what);
        }
    }
}

/// FLAT byte and short accesses whose lanes address the LDS aperture (all, or some mixed
/// with global lanes): the range check fails, the interpreter routes each lane, and both
/// engines leave the same registers, memory and LDS.
#[test]
fn flat_bytes_and_shorts_in_the_lds_aperture_match() {
    let mut r = Rng(59);
    let mut buf = vec![0u8; 4096];
    let init: Vec<u8> = (0..4096).map(|_| r.next() as u8).collect();
    let lds_init: Vec<u8> = (0..1024).map(|_| r.next() as u8).collect();
    for (op, stem, load) in GLOBAL_OPS {
        let (data, vdst) = if load { (0, 2) } else { (2, 0) };
        let prog = then_endpgm(flat(op, 0, 20, data, 0, vdst, 1));
        assert!(prog.text(0).starts_with(&format!("flat_{stem} ")));
        for mixed in [false, true] {
            let mut w0 = random_wave(&mut r);
            for l in 0..64u64 {
                let a = if mixed && l % 3 == 0 {
                    buf.as_ptr() as u64 + 5 * l
                } else {
                    crate::SHARED_APERTURE_BASE + 7 * l
                };
                w0.v[20][l as usize] = a as u32;
                w0.v[21][l as usize] = (a >> 32) as u32;
            }
            let a = run(&prog, &w0, &mut buf, &init, 1024, &lds_init, None);
            assert!(a.r.is_ok(), "{stem}: {:?}", a.r);
            for isa in isas() {
                let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
                assert_eq!(jit.native, jit.reachable, "{isa:?} {stem}: translated");
                let b = run(&prog, &w0, &mut buf, &init, 1024, &lds_init, Some(&jit));
                assert_eq!(a.r, b.r, "{isa:?} {stem}");
                let diff = first_difference(&b.w, &a.w, 0..256);
                assert!(diff.is_none(), "{isa:?} {stem} mixed {mixed}: {diff:?}");
                assert!(a.mem == b.mem && a.lds == b.lds, "{isa:?} {stem}: memory");
            }
        }
    }
}

/// Byte and short scratch accesses through the private-segment V#: uniform and per-lane
/// offsets (odd ones included: a short at offset 3 mod 4 spans two lanes' dwords).
#[test]
fn scratch_bytes_and_shorts_are_native_and_exact() {
    let isas = isas();
    let mut buf = vec![0u8; BUF];
    let mut r = Rng(43);
    let init: Vec<u8> = (0..BUF).map(|_| r.next() as u8).collect();
    for (op, stem, load) in GLOBAL_OPS {
        for (offen, imm) in [(false, 9u32), (false, 0), (true, 0), (true, 7)] {
            let prog = then_endpgm(mubuf(op, offen, 24, 2, 3, 16, imm));
            let name = format!("buffer_{stem} ");
            assert!(prog.text(0).starts_with(&name), "{}", prog.text(0));
            for per_lane in [false, true] {
                let mut w0 = random_wave(&mut r);
                w0.s[12..16].copy_from_slice(&crate::wave::private_vsharp(buf.as_ptr() as u64));
                w0.s[16] = r.pick(&[0u32, 1024, 1027]);
                let one = (r.next() % 200) as u32;
                for l in 0..64 {
                    w0.v[24][l] = if per_lane {
                        (r.next() % 200) as u32
                    } else {
                        one
                    };
                }
                w0.set_exec(r.pick(&[u64::MAX, 0xffff_fff0_ffff_ff7f]));
                let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                assert!(a.r.is_ok(), "{name}: {:?}", a.r);
                let what = format!("{} per lane {per_lane} load {load}", prog.text(0));
                assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &what);
            }
        }
    }
}

/// LDS opcodes (gfx9): bytes, shorts and their d16 forms; 3 and 4 dwords.
const DS_OPS: [(u32, &str, bool); 18] = [
    (0x3a, "ds_read_u8", true),
    (0x39, "ds_read_i8", true),
    (0x3c, "ds_read_u16", true),
    (0x3b, "ds_read_i16", true),
    (0x1e, "ds_write_b8", false),
    (0x1f, "ds_write_b16", false),
    (0x54, "ds_write_b8_d16_hi", false),
    (0x55, "ds_write_b16_d16_hi", false),
    (0x56, "ds_read_u8_d16", true),
    (0x57, "ds_read_u8_d16_hi", true),
    (0x58, "ds_read_i8_d16", true),
    (0x59, "ds_read_i8_d16_hi", true),
    (0x5a, "ds_read_u16_d16", true),
    (0x5b, "ds_read_u16_d16_hi", true),
    (0xfe, "ds_read_b96", true),
    (0xff, "ds_read_b128", true),
    (0xde, "ds_write_b96", false),
    (0xdf, "ds_write_b128", false),
];

/// Compiles `prog` for `isas`, asserts it translated, runs it on LDS `lds_init` and compares
/// how the wave stopped, its registers and the LDS with the interpreter's.
fn assert_lds_native_and_exact(prog: &Program, w0: &Wave, lds_init: &[u8], what: &str) {
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let n = lds_init.len();
    let a = run(prog, w0, &mut buf, &init, n, lds_init, None);
    for isa in isas() {
        let jit = JitCode::compile(prog, 0, false, false, isa).expect("compiles");
        assert_eq!(jit.native, jit.reachable, "{isa:?} {what}: translated");
        let b = run(prog, w0, &mut buf, &init, n, lds_init, Some(&jit));
        assert_eq!(a.r, b.r, "{isa:?} {what}: how the wave stopped");
        let diff = first_difference(&b.w, &a.w, 0..256);
        assert!(diff.is_none(), "{isa:?} {what}: {diff:?}");
        let lds_diff = a.lds.iter().zip(&b.lds).position(|(x, y)| x != y);
        assert!(lds_diff.is_none(), "{isa:?} {what}: LDS byte {lds_diff:?}");
    }
}

/// LDS byte, short, 3- and 4-dword reads and writes: odd and overlapping addresses, partial
/// EXEC, a read into its own address register, the LDS's last bytes, and lanes past its end
/// (the interpreter runs those: out-of-range reads give 0, writes are dropped).
#[test]
fn lds_bytes_shorts_and_quads_are_native_and_exact() {
    let mut r = Rng(47);
    let size = 2048u64;
    let lds_init: Vec<u8> = (0..size).map(|_| r.next() as u8).collect();
    for (op, name, load) in DS_OPS {
        let bytes = match op {
            0xfe | 0xde => 12,
            0xff | 0xdf => 16,
            _ if name.contains("16") => 2,
            _ => 1,
        };
        // (A read's data fields and a write's vdst are zero in valid encodings.) Reads into
        // v2 and, once, into the address register v23.
        let dsts: &[u32] = if load { &[2, 23] } else { &[0] };
        for &dst in dsts {
            let inst = if load {
                ds(op, 23, 0, 0, dst, 3, 0)
            } else {
                ds(op, 23, 2, 0, 0, 3, 0)
            };
            let prog = then_endpgm(inst);
            assert!(
                prog.text(0).starts_with(&format!("{name} ")),
                "{}",
                prog.text(0)
            );
            for kind in 0..12 {
                let mut w0 = random_wave(&mut r);
                // The offset (3) is added; kinds 6 and 7 end at the LDS's last byte.
                let o = offsets(kind.min(7), &mut r, size - 3 - (bytes - 1));
                for (l, &o) in o.iter().enumerate() {
                    let l = l as u64;
                    w0.v[23][l as usize] = match kind {
                        // Consecutive, the last lane's access one byte past the end.
                        9 => size - 3 + 1 - bytes * (64 - l),
                        // Consecutive, the upper half of the lanes past the end.
                        11 => size - 3 - bytes * 32 + bytes * l,
                        // Consecutive, the first two lanes' registers below 0 (the offset
                        // wraps them to 1 and 1 + bytes).
                        10 => (bytes * l).wrapping_sub(2 * bytes),
                        _ => o,
                    } as u32;
                }
                if kind == 8 {
                    w0.v[23][r.pick(&[0usize, 33, 63])] = (size - 3 - bytes + 1) as u32;
                }
                w0.set_exec(r.pick(&[u64::MAX, 0xf0f0_ffff_0000_fff7, 1 << 63, 0x8000_0001]));
                let what = format!("{} kind {kind}", prog.text(0));
                assert_lds_native_and_exact(&prog, &w0, &lds_init, &what);
            }
        }
    }
}

/// Timing (run by hand: `cargo test --release -p softhsa-gpu narrow_access_timing --
/// --ignored --nocapture`): nanoseconds per instruction per wave (all 64 lanes active) for
/// each access, consecutive lanes (and two lane by lane), under the JIT and the interpreter.
#[test]
#[ignore]
fn narrow_access_timing() {
    const N: usize = 256;
    let mut buf = vec![0u8; 4096];
    let init: Vec<u8> = (0..4096).map(|i| i as u8).collect();
    let lds_init: Vec<u8> = (0..4096).map(|i| (i * 7) as u8).collect();
    // Consecutive lanes (bytes in v[20:21] and v23, shorts in v[26:27] and v25), then a
    // byte access through the shorts' addresses (lanes 2 apart: lane by lane).
    let cases: [(&str, [u32; 2]); 10] = [
        ("global_load_ubyte", flat(0x10, 2, 20, 0, 0x7f, 2, 0)),
        ("global_store_short", flat(0x1a, 2, 26, 2, 0x7f, 0, 0)),
        (
            "global_load_ubyte, lanes 2 apart",
            flat(0x10, 2, 26, 0, 0x7f, 2, 0),
        ),
        ("buffer_load_ubyte", mubuf(0x10, false, 24, 2, 3, 16, 4)),
        ("buffer_store_byte", mubuf(0x18, false, 24, 2, 3, 16, 4)),
        ("ds_read_u8", ds(0x3a, 23, 0, 0, 2, 0, 0)),
        ("ds_write_b16", ds(0x1f, 25, 2, 0, 0, 0, 0)),
        ("ds_read_u8, lanes 2 apart", ds(0x3a, 25, 0, 0, 2, 0, 0)),
        ("ds_read_b128", ds(0xff, 22, 0, 0, 2, 0, 0)),
        ("ds_write_b128", ds(0xdf, 22, 2, 0, 0, 0, 0)),
    ];
    let program = |inst: [u32; 2], n: usize| {
        let mut words = Vec::new();
        for _ in 0..n {
            words.extend(inst);
        }
        words.push(0xbf81_0000);
        let code: Vec<u8> = words.iter().flat_map(|d| d.to_le_bytes()).collect();
        Program::new(&code, 0x1000)
    };
    let mut w0 = random_wave(&mut Rng(53));
    let base = buf.as_ptr() as u64;
    for l in 0..64 {
        let (a, a2) = (base + l as u64, base + 2 * l as u64);
        w0.v[20][l] = a as u32;
        w0.v[21][l] = (a >> 32) as u32;
        w0.v[26][l] = a2 as u32;
        w0.v[27][l] = (a2 >> 32) as u32;
        w0.v[22][l] = 16 * l as u32;
        w0.v[23][l] = l as u32;
        w0.v[25][l] = 2 * l as u32;
    }
    w0.set_exec(u64::MAX);
    w0.s[12..16].copy_from_slice(&crate::wave::private_vsharp(base));
    w0.s[16] = 0;
    // The best of 9 batches (the machine is shared).
    let time = |prog: &Program, code: Option<&JitCode>, buf: &mut [u8]| {
        let rounds = 200;
        (0..9)
            .map(|_| {
                let t = std::time::Instant::now();
                for _ in 0..rounds {
                    let o = run(prog, &w0, buf, &init, 4096, &lds_init, code);
                    assert!(o.r.is_ok());
                }
                t.elapsed().as_nanos() as f64 / f64::from(rounds)
            })
            .fold(f64::MAX, f64::min)
    };
    // Per instruction: the time of 2N copies less that of N, over N.
    for isa in isas() {
        for (name, inst) in cases {
            let (mut t_jit, mut t_int) = (0.0, 0.0);
            for (n, sign) in [(2 * N, 1.0), (N, -1.0)] {
                let prog = program(inst, n);
                let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
                assert_eq!(jit.native, jit.reachable, "{name}: translated");
                t_jit += sign * time(&prog, Some(&jit), &mut buf) / N as f64;
                t_int += sign * time(&prog, None, &mut buf) / N as f64;
            }
            eprintln!("{isa:?} {name}: JIT {t_jit:.0} ns, interpreter {t_int:.0} ns");
        }
    }
}
