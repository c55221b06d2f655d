//! JIT compile time for a 1,000-instruction kernel.
//!
//! Usage: `cargo run --release -p softhsa-gpu --example jit_compile [instructions] [runs]`.
//! The kernel mixes what compilers emit (32/64-bit VALU, f32 math, compares and EXEC masking,
//! SALU, scalar loads, global and LDS loads and stores, forward and backward branches) in
//! LLVM's proportions, generated from a fixed seed; every instruction is reachable. Prints the
//! median and minimum compile time for each ISA the host runs.

use softhsa_gpu::jit::{host_isa, Isa, JitCode};
use softhsa_gpu::Program;
use std::time::Instant;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 as u32
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.next() as usize % xs.len()]
    }
}

fn vop2(op: u32, vdst: u32, vsrc1: u32, src0: u32) -> Vec<u32> {
    vec![op << 25 | vdst << 17 | vsrc1 << 9 | src0]
}

fn vop3(op: u32, vdst: u32, s0: u32, s1: u32, s2: u32) -> Vec<u32> {
    vec![0x34 << 26 | op << 16 | vdst, s0 | s1 << 9 | s2 << 18]
}

/// One instruction of the mix (VGPRs v0..v15, SGPRs s0..s15, v20:21 global addresses).
fn inst(r: &mut Rng, at: usize, n: usize) -> Vec<u32> {
    let v = |r: &mut Rng| 256 + r.next() % 16;
    let vd = |r: &mut Rng| r.next() % 16;
    match r.next() % 100 {
        // 32-bit integer VALU: add, sub, and, or, xor, shifts, mul, min/max (VOP2)
        0..=24 => {
            let op = r.pick(&[0x34, 0x35, 0x13, 0x14, 0x15, 0x12, 0x10, 0x11, 0x0a, 0x0d]);
            vop2(op, vd(r), r.next() % 16, v(r))
        }
        // f32: add, sub, mul, fmac, min, max
        25..=39 => {
            let op = r.pick(&[0x01, 0x02, 0x05, 0x3b, 0x0a, 0x0b]);
            vop2(op, vd(r), r.next() % 16, v(r))
        }
        // 64-bit address arithmetic: v_lshlrev_b64, v_add_co/addc pairs, v_mad_u64_u32
        40..=47 => match r.next() % 3 {
            0 => vop3(0x28f, 2 * (r.next() % 8), 130, v(r) & !1, 0),
            1 => vop2(0x19, vd(r), r.next() % 16, v(r)),
            _ => vop3(0x1e8, 2 * (r.next() % 8), v(r), v(r), 128),
        },
        // compares into VCC, EXEC save/restore
        48..=55 => match r.next() % 3 {
            0 => vec![0x3e << 25 | 0xc4 << 17 | (r.next() % 16) << 9 | v(r)], // v_cmp_gt_u32
            1 => vec![0xbe80_2000 | 2 << 16 | 106], // s_and_saveexec_b64 s[2:3], vcc
            _ => vec![0x87fe_027e],                 // s_or_b64 exec, exec, s[2:3]
        },
        // SALU
        56..=67 => {
            let op = r.pick(&[0x00, 0x02, 0x0c, 0x0e, 0x1c, 0x24]);
            vec![
                2 << 30 | op << 23 | (r.next() % 16) << 16 | (r.next() % 16) << 8 | (r.next() % 16),
            ]
        }
        // scalar loads from s[4:5]
        68..=72 => vec![
            0xc002_0000 | (r.next() % 2) << 18 | (r.next() % 14) << 6 | 2,
            (r.next() % 64) * 4,
        ],
        // global loads and stores through v[20:21]
        73..=84 => {
            let (op, load) = r.pick(&[(0x14, true), (0x15, true), (0x1c, false), (0x1d, false)]);
            let d = r.next() % 14;
            vec![0xdc00_8000 | op << 18, d << 24 | 0x7f << 16 | d << 8 | 20]
                .into_iter()
                .map(|w| if load { w } else { w & !(0xff << 24) })
                .collect()
        }
        // LDS reads and writes
        85..=92 => {
            let op = r.pick(&[0x36, 0x0d, 0x37, 0x76]);
            vec![
                0x36 << 26 | op << 17,
                (r.next() % 14) << 24 | (r.next() % 14) << 8 | 22,
            ]
        }
        // s_waitcnt
        93..=95 => vec![0xbf8c_0000],
        // branches: forward, or back to an earlier instruction
        _ => {
            let forward = (n - at).min(20) as i32;
            let back = -(at.min(30) as i32) - 1;
            let off = if r.next().is_multiple_of(2) {
                forward
            } else {
                back
            };
            let op = r.pick(&[0x04u32, 0x05, 0x08, 0x09]); // scc0/1, execz/nz
            vec![0xbf80_0000 | op << 16 | (off as u32 & 0xffff)]
        }
    }
}

fn program(n: usize) -> Program {
    let mut r = Rng(0x1234_5678_9abc_def1);
    let mut words = Vec::new();
    let mut count = 0;
    while count < n {
        let i = inst(&mut r, count, n);
        let bytes: Vec<u8> = i.iter().flat_map(|w| w.to_le_bytes()).collect();
        if softhsa_isa::decode(&bytes).is_err() {
            continue;
        }
        words.extend(i);
        count += 1;
    }
    words.push(0xbf81_0000); // s_endpgm
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    Program::new(&code, 0x1000)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(1000, |a| a.parse().expect("instructions"));
    let runs: usize = args.next().map_or(21, |a| a.parse().expect("runs"));
    let Some(best) = host_isa() else {
        println!("this host runs no generated code (no AVX2)");
        return;
    };
    let prog = program(n);
    let isas = if best == Isa::Avx512 {
        vec![Isa::Avx512, Isa::Avx2]
    } else {
        vec![Isa::Avx2]
    };
    for isa in isas {
        let mut times = Vec::new();
        let mut stats = (0, 0);
        for _ in 0..runs {
            let t = Instant::now();
            let c = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
            times.push(t.elapsed().as_secs_f64() * 1e3);
            stats = (c.native, c.reachable);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "JIT compile, {}: {n} instructions ({} reachable, {} translated): median {:.2} ms, \
             min {:.2} ms ({:.2} us per instruction)",
            isa.name(),
            stats.1,
            stats.0,
            times[times.len() / 2],
            times[0],
            times[times.len() / 2] * 1e3 / n as f64
        );
    }
}
