//! Every MFMA instruction of each CDNA processor, run in a kernel (operands loaded from memory,
//! C written to AGPRs with v_accvgpr_write, D read back with v_accvgpr_read and stored) and
//! compared with a host matrix product. Inputs are small integers, so every summation order
//! gives the exact product (the rounding models have their own tests in `valu::mfma`); i8
//! instructions use the full range and wrap. The register layout is the one the unit test
//! checks against AMD's Matrix Instruction Calculator; CBSZ/ABID and BLGP variants too.

mod common;

use common::*;
use softhsa_gpu::valu::mfma::elem::{to_f64, Elem};
use softhsa_gpu::valu::mfma::layout::{a_block, b_lane, Loc};
use softhsa_gpu::valu::mfma::Shape;
use softhsa_gpu::GfxVersion;
use softhsa_isa::{Op, OpFlags};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn small(&mut self) -> i64 {
        (self.next() % 7) as i64 - 3
    }
}

/// The bits of small integer `v` (|v| ≤ 8) in format `e`.
fn enc(e: Elem, v: i64) -> u64 {
    let f = v as f32;
    match e {
        Elem::F64 => (v as f64).to_bits(),
        Elem::F32 | Elem::Xf32 => u64::from(f.to_bits()),
        Elem::Bf16 => u64::from(f.to_bits() >> 16),
        Elem::I8 => u64::from(v as i8 as u8),
        _ if v == 0 => 0,
        Elem::F16 | Elem::Fp8 | Elem::Bf8 => {
            let (p, bias, width) = match e {
                Elem::F16 => (10, 15, 16),
                Elem::Fp8 => (3, 8, 8),
                _ => (2, 16, 8),
            };
            let b = f.to_bits();
            let exp = (b >> 23 & 0xff) as i32 - 127 + bias;
            let sign = u64::from(b >> 31) << (width - 1);
            sign | (exp as u64) << p | u64::from(b >> (23 - p) & ((1 << p) - 1))
        }
    }
}

fn put(buf: &mut [u32], loc: Loc, bits: u32, v: u64) {
    let i = (loc.reg * 64 + loc.lane) as usize;
    if bits == 64 {
        buf[i] = v as u32;
        buf[i + 64] = (v >> 32) as u32;
    } else if bits == 32 {
        buf[i] = v as u32;
    } else {
        let m = (1u32 << bits) - 1;
        buf[i] = buf[i] & !(m << loc.bit) | (v as u32 & m) << loc.bit;
    }
}

fn get(buf: &[u32], loc: Loc, bits: u32) -> u64 {
    let i = (loc.reg * 64 + loc.lane) as usize;
    match bits {
        64 => u64::from(buf[i]) | u64::from(buf[i + 64]) << 32,
        32 => u64::from(buf[i]),
        _ => u64::from(buf[i] >> loc.bit) & ((1 << bits) - 1),
    }
}

fn value(e: Elem, x: u64) -> f64 {
    if e == Elem::I8 {
        f64::from(x as u8 as i8)
    } else {
        to_f64(e, x)
    }
}

fn tuple(p: char, base: u32, n: u32) -> String {
    if n == 1 {
        format!("{p}{base}")
    } else {
        format!("{p}[{base}:{}]", base + n - 1)
    }
}

/// Loads A, B, C (C into AGPRs, or with `vgpr_acc` left in VGPRs: gfx90a+), runs `mnemonic`,
/// stores D.
fn program(mnemonic: &str, mods: &str, na: u32, nd: u32, vgpr_acc: bool) -> String {
    let mut s = String::from(
        "s_load_dwordx4 s[4:7], s[0:1], 0x0\nv_lshlrev_b32 v1, 2, v0\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v2, v1\n",
    );
    let mut load = |first: u32, n: u32| {
        for r in 0..n {
            s += &format!(
                "global_load_dword v{}, v2, s[4:5]\nv_add_u32 v2, 0x100, v2\n",
                first + r
            );
        }
    };
    load(10, na);
    load(20, na);
    load(40, nd);
    s += "s_waitcnt vmcnt(0)\n";
    let d = if vgpr_acc {
        tuple('v', 40, nd)
    } else {
        for r in 0..nd {
            s += &format!("v_accvgpr_write_b32 a{r}, v{}\n", 40 + r);
        }
        tuple('a', 0, nd)
    };
    s += &format!(
        "{mnemonic} {d}, {a}, {b}, {d}{mods}\ns_nop 7\ns_nop 7\n",
        a = tuple('v', 10, na),
        b = tuple('v', 20, na),
    );
    if !vgpr_acc {
        for r in 0..nd {
            s += &format!("v_accvgpr_read_b32 v{}, a{r}\n", 40 + r);
        }
    }
    s += "v_mov_b32 v2, v1\n";
    for r in 0..nd {
        s += &format!(
            "global_store_dword v2, v{}, s[6:7]\nv_add_u32 v2, 0x100, v2\n",
            40 + r
        );
    }
    s + "s_endpgm\n"
}

/// Runs every MFMA of `gfx` with each modifier set; returns the instructions run.
fn check_all(gfx: GfxVersion) -> usize {
    let isa = gfx.isa();
    let dev = device_for(gfx);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut ran = 0;
    for &op in Op::all() {
        if !op.flags().has(OpFlags::MAI) || !op.on(isa) || op.name().starts_with("v_smfmac") {
            continue;
        }
        let sh = Shape::parse(op.name(), op.dst_dwords()).expect("shape");
        let (na, nd) = (sh.a_regs(), sh.d_regs());
        let vgpr_acc = isa.unified_vgprs();
        let mut variants = vec![(0u8, 0u8, 0u8, false)];
        if vgpr_acc {
            variants.push((0, 0, 0, true));
        }
        if sh.blocks > 1 {
            variants.push((1, 1, 0, false));
            let top = sh.blocks.trailing_zeros() as u8;
            variants.push((top, (1 << top) - 1, 0, vgpr_acc));
        }
        if sh.out_bits == 32 {
            variants.push((0, 0, 3, false));
            variants.push((0, 0, 5, vgpr_acc));
        }
        for (cbsz, abid, blgp, in_vgprs) in variants {
            let mut mods = String::new();
            for (n, v) in [("cbsz", cbsz), ("abid", abid), ("blgp", blgp)] {
                if v != 0 {
                    mods += &format!(" {n}:{v}");
                }
            }
            let asm = program(op.name(), &mods, na, nd, in_vgprs);
            let k = kernel_for(&asm, descriptor(), gfx);
            let (ra, rd) = ((na * 64) as usize, (nd * 64) as usize);
            let mut input = vec![0u32; 2 * ra + rd];
            for w in input.iter_mut() {
                // Fill unused bits too: the instruction must not read them.
                *w = rng.next() as u32;
            }
            let (a_buf, rest) = input.split_at_mut(ra);
            let (b_buf, c_buf) = rest.split_at_mut(ra);
            let small = |rng: &mut Rng, e: Elem| {
                if e == Elem::I8 {
                    rng.next() as i8 as i64
                } else {
                    rng.small()
                }
            };
            for blk in 0..sh.blocks {
                for i in 0..sh.m {
                    for kk in 0..sh.k {
                        let v = small(&mut rng, sh.a);
                        put(a_buf, sh.a_loc(i, kk, blk), sh.a.bits(), enc(sh.a, v));
                        let v = small(&mut rng, sh.b);
                        put(b_buf, sh.b_loc(kk, i, blk), sh.b.bits(), enc(sh.b, v));
                    }
                    for j in 0..sh.m {
                        let c = if sh.int {
                            u64::from(rng.next() as u32)
                        } else if sh.out_bits == 64 {
                            (rng.small() as f64).to_bits()
                        } else {
                            u64::from((rng.small() as f32).to_bits())
                        };
                        put(c_buf, sh.d_loc(i, j, blk), sh.out_bits, c);
                    }
                }
            }
            let map = Map::default();
            let mut out = vec![0u32; rd];
            let args = [map.add_readonly(&input), map.add(&mut out)];
            run(&dev, &k, &map, &args, [64, 1, 1], [64, 1, 1])
                .unwrap_or_else(|f| panic!("{op}{mods}: {f:?}"));
            let (a_buf, rest) = input.split_at(ra);
            let (b_buf, c_buf) = rest.split_at(ra);
            for blk in 0..sh.blocks {
                for i in 0..sh.m {
                    for j in 0..sh.m {
                        let dl = sh.d_loc(i, j, blk);
                        let c = get(c_buf, dl, sh.out_bits);
                        let got = get(&out, dl, sh.out_bits);
                        let want = if sh.int {
                            let s = (0..sh.k).fold(c as u32 as i32, |acc, kk| {
                                let x = get(a_buf, sh.a_loc(i, kk, a_block(blk, cbsz, abid)), 8);
                                let mut bl = sh.b_loc(kk, j, blk);
                                bl.lane = b_lane(bl.lane, blgp);
                                let y = get(b_buf, bl, 8);
                                acc.wrapping_add(
                                    i32::from(x as u8 as i8) * i32::from(y as u8 as i8),
                                )
                            });
                            u64::from(s as u32)
                        } else {
                            let cv = if sh.out_bits == 64 {
                                f64::from_bits(c)
                            } else {
                                f64::from(f32::from_bits(c as u32))
                            };
                            let s = (0..sh.k).fold(cv, |acc, kk| {
                                let al = sh.a_loc(i, kk, a_block(blk, cbsz, abid));
                                let mut bl = sh.b_loc(kk, j, blk);
                                bl.lane = b_lane(bl.lane, blgp);
                                acc + value(sh.a, get(a_buf, al, sh.a.bits()))
                                    * value(sh.b, get(b_buf, bl, sh.b.bits()))
                            });
                            if sh.out_bits == 64 {
                                s.to_bits()
                            } else {
                                u64::from((s as f32).to_bits())
                            }
                        };
                        assert_eq!(got, want, "{op}{mods}: D[{i}][{j}] block {blk}");
                    }
                }
            }
        }
        ran += 1;
    }
    ran
}

#[test]
fn gfx908_mfma_matches_host_matrix_products() {
    assert_eq!(check_all(GfxVersion::Gfx908), 20);
}

#[test]
fn gfx90a_mfma_matches_host_matrix_products() {
    assert_eq!(check_all(GfxVersion::Gfx90a), 27);
}

/// A kernel for SMFMAC: A (compressed), B and the index loaded, C into the destination, D out.
fn sparse_program(mnemonic: &str, mods: &str, na: u32, nb: u32, nd: u32, vgpr_acc: bool) -> String {
    let mut s = String::from(
        "s_load_dwordx4 s[4:7], s[0:1], 0x0\nv_lshlrev_b32 v1, 2, v0\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v2, v1\n",
    );
    for (first, n) in [(10, na), (20, nb), (30, 1), (40, nd)] {
        for r in 0..n {
            s += &format!(
                "global_load_dword v{}, v2, s[4:5]\nv_add_u32 v2, 0x100, v2\n",
                first + r
            );
        }
    }
    s += "s_waitcnt vmcnt(0)\n";
    let d = if vgpr_acc {
        tuple('v', 40, nd)
    } else {
        for r in 0..nd {
            s += &format!("v_accvgpr_write_b32 a{r}, v{}\n", 40 + r);
        }
        tuple('a', 0, nd)
    };
    s += &format!(
        "{mnemonic} {d}, {}, {}, v30{mods}\ns_nop 7\ns_nop 7\n",
        tuple('v', 10, na),
        tuple('v', 20, nb)
    );
    if !vgpr_acc {
        for r in 0..nd {
            s += &format!("v_accvgpr_read_b32 v{}, a{r}\n", 40 + r);
        }
    }
    s += "v_mov_b32 v2, v1\n";
    for r in 0..nd {
        s += &format!(
            "global_store_dword v2, v{}, s[6:7]\nv_add_u32 v2, 0x100, v2\n",
            40 + r
        );
    }
    s + "s_endpgm\n"
}

#[test]
fn gfx940_smfmac_matches_host_matrix_products() {
    let gfx = GfxVersion::Gfx940;
    let dev = device_for(gfx);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut ran = 0;
    for &op in Op::all() {
        if !op.name().starts_with("v_smfmac") {
            continue;
        }
        let sh = Shape::parse(op.name(), op.dst_dwords()).expect("shape");
        let (na, nb, nd) = (sh.a_regs(), sh.b_regs(), sh.d_regs());
        let sets = if sh.a.bits() == 16 { 4u8 } else { 2 };
        for (cbsz, abid, in_vgprs) in [(0u8, 0u8, false), (0, sets - 1, true), (1, 1, false)] {
            let mut mods = String::new();
            for (n, v) in [("cbsz", cbsz), ("abid", abid)] {
                if v != 0 {
                    mods += &format!(" {n}:{v}");
                }
            }
            let asm = sparse_program(op.name(), &mods, na, nb, nd, in_vgprs);
            let k = kernel_for(&asm, descriptor(), gfx);
            let (ra, rb, rd) = ((na * 64) as usize, (nb * 64) as usize, (nd * 64) as usize);
            let mut input = vec![0u32; ra + rb + 64 + rd];
            for w in input.iter_mut() {
                *w = rng.next() as u32;
            }
            let set = if cbsz == 0 { u32::from(abid) } else { 0 };
            let (a_buf, rest) = input.split_at_mut(ra);
            let (b_buf, rest) = rest.split_at_mut(rb);
            let (idx_buf, c_buf) = rest.split_at_mut(64);
            // Dense A with two of every four k kept (positions chosen at random, distinct).
            let mut dense = vec![vec![0i64; sh.k as usize]; sh.m as usize];
            let small = |rng: &mut Rng, e: Elem| {
                if e == Elem::I8 {
                    rng.next() as i8 as i64
                } else {
                    rng.small()
                }
            };
            for i in 0..sh.m {
                for g in 0..sh.k / 4 {
                    let p0 = (rng.next() % 3) as u32;
                    let p1 = p0 + 1 + (rng.next() % u64::from(3 - p0)) as u32;
                    let il = sh.index_loc(i, g, set);
                    put(idx_buf, il, 4, u64::from(p0 | p1 << 2));
                    for (s, p) in [(0, p0), (1, p1)] {
                        let v = small(&mut rng, sh.a);
                        dense[i as usize][(4 * g + p) as usize] = v;
                        put(a_buf, sh.a_sparse_loc(i, g, s), sh.a.bits(), enc(sh.a, v));
                    }
                }
                for kk in 0..sh.k {
                    let v = small(&mut rng, sh.b);
                    put(b_buf, sh.b_loc(kk, i, 0), sh.b.bits(), enc(sh.b, v));
                }
                for j in 0..sh.m {
                    let c = if sh.int {
                        u64::from(rng.next() as u32)
                    } else {
                        u64::from((rng.small() as f32).to_bits())
                    };
                    put(c_buf, sh.d_loc(i, j, 0), 32, c);
                }
            }
            let map = Map::default();
            let mut out = vec![0u32; rd];
            let args = [map.add_readonly(&input), map.add(&mut out)];
            run(&dev, &k, &map, &args, [64, 1, 1], [64, 1, 1])
                .unwrap_or_else(|f| panic!("{op}{mods}: {f:?}"));
            let (_, rest) = input.split_at(ra);
            let (b_buf, rest) = rest.split_at(rb);
            let (_, c_buf) = rest.split_at(64);
            for i in 0..sh.m {
                for j in 0..sh.m {
                    let dl = sh.d_loc(i, j, 0);
                    let c = get(c_buf, dl, 32);
                    let b = |kk: u32| value(sh.b, get(b_buf, sh.b_loc(kk, j, 0), sh.b.bits()));
                    let want = if sh.int {
                        let s = (0..sh.k).fold(c as u32 as i32, |acc, kk| {
                            acc.wrapping_add((dense[i as usize][kk as usize] * b(kk) as i64) as i32)
                        });
                        u64::from(s as u32)
                    } else {
                        let s = (0..sh.k).fold(f64::from(f32::from_bits(c as u32)), |acc, kk| {
                            acc + dense[i as usize][kk as usize] as f64 * b(kk)
                        });
                        u64::from((s as f32).to_bits())
                    };
                    assert_eq!(get(&out, dl, 32), want, "{op}{mods}: D[{i}][{j}]");
                }
            }
        }
        ran += 1;
    }
    assert_eq!(ran, 14);
}

#[test]
fn gfx940_mfma_matches_host_matrix_products() {
    assert_eq!(check_all(GfxVersion::Gfx940), 32);
}

#[test]
fn gfx908_accvgpr_moves_respect_exec() {
    let asm = "s_load_dwordx2 s[4:5], s[0:1], 0x0\n\
               v_lshlrev_b32 v1, 2, v0\n\
               v_mov_b32 v3, 7\n\
               v_accvgpr_write_b32 a5, v3\n\
               v_accvgpr_write_b32 a6, -2\n\
               v_add_u32 v3, 100, v0\n\
               s_mov_b64 exec, 0xffff\n\
               v_accvgpr_write_b32 a5, v3\n\
               s_mov_b64 exec, -1\n\
               v_accvgpr_read_b32 v4, a5\n\
               v_accvgpr_read_b32 v5, a6\n\
               v_add_u32 v4, v4, v5\n\
               s_waitcnt lgkmcnt(0)\n\
               global_store_dword v1, v4, s[4:5]\n\
               s_endpgm\n";
    let dev = device_for(GfxVersion::Gfx908);
    let k = kernel_for(asm, descriptor(), GfxVersion::Gfx908);
    let map = Map::default();
    let mut out = vec![0u32; 64];
    run(&dev, &k, &map, &[map.add(&mut out)], [64, 1, 1], [64, 1, 1]).unwrap();
    for (l, &v) in out.iter().enumerate() {
        let want = if l < 16 { 100 + l as i32 } else { 7 } - 2;
        assert_eq!(v as i32, want, "lane {l}");
    }
}
