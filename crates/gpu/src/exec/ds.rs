//! DS (LDS) instructions: reads, writes, read2/write2, atomics with and without return, and the
//! cross-lane ds_swizzle / ds_permute / ds_bpermute.
//!
//! GFX9 DS opcodes are regular: 0x00–0x15 are 32-bit atomics/writes (the low 5 bits name the
//! operation), +0x20 the same with return, 0x40/0x60 the 64-bit forms. The interpreter decodes
//! that number instead of listing every op.

use super::lanes::swizzle_source;
use super::operand::Src;
use super::{fault, ExecCtx, Flow};
use crate::fault::FaultKind;
use crate::lds::Lds;
use crate::program::XInst;
use crate::wave::{data_reg, dnext, Wave, AGPR_BASE};
use softhsa_isa::MemFlags;

/// A VGPR operand's number, or a data operand's register (AGPRs from [`AGPR_BASE`]).
pub(super) fn vreg(s: Src) -> usize {
    match s {
        Src::V(r) => usize::from(r),
        Src::A(r) => AGPR_BASE + usize::from(r),
        _ => 0,
    }
}

/// One lane's atomic: new memory value from old, data0, data1 (`wide`: 64-bit).
pub(super) fn atomic(a: u16, old: u64, d0: u64, d1: u64, wide: bool) -> Option<u64> {
    let sx = |v: u64| {
        if wide {
            v as i64
        } else {
            v as u32 as i32 as i64
        }
    };
    let f32_of = |v: u64| f32::from_bits(v as u32);
    let f64_of = f64::from_bits;
    let fmin = |a: u64, b: u64, max: bool| -> u64 {
        if wide {
            let (x, y) = (f64_of(a), f64_of(b));
            (if max { x.max(y) } else { x.min(y) }).to_bits()
        } else {
            let (x, y) = (f32_of(a), f32_of(b));
            u64::from((if max { x.max(y) } else { x.min(y) }).to_bits())
        }
    };
    Some(match a {
        0x00 => old.wrapping_add(d0),
        0x01 => old.wrapping_sub(d0),
        0x02 => d0.wrapping_sub(old),
        0x03 => {
            if old >= d0 {
                0
            } else {
                old + 1
            }
        }
        0x04 => {
            if old == 0 || old > d0 {
                d0
            } else {
                old - 1
            }
        }
        0x05 => sx(old).min(sx(d0)) as u64,
        0x06 => sx(old).max(sx(d0)) as u64,
        0x07 => old.min(d0),
        0x08 => old.max(d0),
        0x09 => old & d0,
        0x0a => old | d0,
        0x0b => old ^ d0,
        0x0c => (old & !d0) | d1,
        0x0d => d0,
        0x10 => {
            if old == d0 {
                d1
            } else {
                old
            }
        }
        0x11 => {
            let eq = if wide {
                f64_of(old) == f64_of(d0)
            } else {
                f32_of(old) == f32_of(d0)
            };
            if eq {
                d1
            } else {
                old
            }
        }
        0x12 => fmin(old, d0, false),
        0x13 => fmin(old, d0, true),
        0x14 if !wide => {
            if old >= d0 {
                old.wrapping_sub(d0)
            } else {
                old.wrapping_add(d1)
            }
        }
        0x15 if !wide => u64::from(super::fatomic::add_f32(old as u32, d0 as u32)),
        // gfx90a ds_add_f64 / ds_add_rtn_f64.
        0x1c if wide => super::fatomic::apply(super::vmem::AtomicOp::AddF64, old, d0),
        _ => return None,
    })
}

#[inline]
fn lds_read(lds: &Lds, addr: u32, wide: bool) -> u64 {
    if wide {
        lds.read_u64(addr)
    } else {
        u64::from(lds.read_u32(addr))
    }
}

#[inline]
fn lds_write(lds: &mut Lds, addr: u32, v: u64, wide: bool) {
    if wide {
        lds.write_u64(addr, v)
    } else {
        lds.write_u32(addr, v as u32)
    }
}

/// The 16-bit offset `{offset1, offset0}` (the decoder keeps it whole in `imm`, or split).
pub(crate) fn offset16(inst: &softhsa_isa::Inst) -> u32 {
    let imm = inst.imm as u32;
    if imm > 255 {
        imm & 0xffff
    } else {
        imm | inst.mem().map_or(0, |m| u32::from(m.offset1)) << 8
    }
}

pub fn exec(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    let inst = &x.inst;
    if inst.mem_flags().has(MemFlags::GDS) {
        return super::ds_extra::gds(w, x);
    }
    let opc = inst.op.opcode();
    let exec = w.exec();
    let offset1 = inst.mem().map_or(0, |m| u32::from(m.offset1));
    let imm = inst.imm as u32;
    let off16 = offset16(inst);
    let (a_reg, d0, d1, dst) = (vreg(x.src[0]), vreg(x.src[1]), vreg(x.src[2]), vreg_dst(x));
    let lds = &mut *cx.lds;
    let lanes = (0..64usize).filter(|l| exec >> l & 1 != 0);
    match opc {
        // Atomics and writes, 32/64-bit, with (0x20 block) or without return.
        0x00..=0x15 | 0x20..=0x35 | 0x40..=0x53 | 0x60..=0x73 | 0x5c | 0x7c => {
            let wide = opc & 0x40 != 0;
            let rtn = opc & 0x20 != 0;
            let a = opc & 0x1f;
            let vpair = |w: &Wave, r: usize, l: usize| {
                if wide {
                    u64::from(w.dreg(r)[l]) | u64::from(w.dreg(dnext(r, 1))[l]) << 32
                } else {
                    u64::from(w.dreg(r)[l])
                }
            };
            if matches!(a, 0x0e | 0x0f) {
                // write2 / wrxchg2 (st64): two addresses, data0 and data1.
                let size = if wide { 8 } else { 4 } * if a == 0x0f { 64 } else { 1 };
                for l in lanes {
                    let base = w.v[a_reg][l];
                    let ad0 = base.wrapping_add((imm & 0xff) * size);
                    let ad1 = base.wrapping_add(offset1 * size);
                    let (o0, o1) = (lds_read(lds, ad0, wide), lds_read(lds, ad1, wide));
                    lds_write(lds, ad0, vpair(w, d0, l), wide);
                    lds_write(lds, ad1, vpair(w, d1, l), wide);
                    if rtn {
                        put(w, dst, l, o0, wide, 0);
                        put(w, dst, l, o1, wide, if wide { 2 } else { 1 });
                    }
                }
                return Flow::Next;
            }
            if a == 0x14 && !rtn {
                return Flow::Next; // ds_nop
            }
            for l in lanes {
                let addr = w.v[a_reg][l].wrapping_add(off16);
                let old = lds_read(lds, addr, wide);
                let data1 = if matches!(a, 0x0c | 0x10 | 0x11 | 0x14) {
                    vpair(w, d1, l)
                } else {
                    0
                };
                let Some(new) = atomic(a, old, vpair(w, d0, l), data1, wide) else {
                    return fault(FaultKind::Unimplemented);
                };
                lds_write(lds, addr, new, wide);
                if rtn {
                    put(w, dst, l, old, wide, 0);
                }
            }
        }
        0x1e | 0x1f | 0x54 | 0x55 => {
            let hi = opc >= 0x54;
            for l in lanes {
                let addr = w.v[a_reg][l].wrapping_add(off16);
                let v = w.dreg(d0)[l] >> if hi { 16 } else { 0 };
                if opc & 1 == 0 {
                    lds.write_u8(addr, v as u8);
                } else {
                    lds.write_u16(addr, v as u16);
                }
            }
        }
        0x36 | 0x39..=0x3c | 0x76 => {
            for l in lanes {
                let addr = w.v[a_reg][l].wrapping_add(off16);
                match opc {
                    0x36 => w.dreg_mut(dst)[l] = lds.read_u32(addr),
                    0x76 => put(w, dst, l, lds.read_u64(addr), true, 0),
                    0x39 => w.dreg_mut(dst)[l] = lds.read_u8(addr) as i8 as i32 as u32,
                    0x3a => w.dreg_mut(dst)[l] = u32::from(lds.read_u8(addr)),
                    0x3b => w.dreg_mut(dst)[l] = lds.read_u16(addr) as i16 as i32 as u32,
                    _ => w.dreg_mut(dst)[l] = u32::from(lds.read_u16(addr)),
                }
            }
        }
        0x56..=0x5b => {
            // d16 reads: 8/16-bit into one half, the other half kept.
            for l in lanes {
                let addr = w.v[a_reg][l].wrapping_add(off16);
                let v: u32 = match opc {
                    0x56 | 0x57 => u32::from(lds.read_u8(addr)),
                    0x58 | 0x59 => u32::from(lds.read_u8(addr) as i8 as i16 as u16),
                    _ => u32::from(lds.read_u16(addr)),
                };
                let old = w.dreg(dst)[l];
                w.dreg_mut(dst)[l] = if opc & 1 == 1 {
                    (old & 0xffff) | v << 16
                } else {
                    (old & 0xffff_0000) | v
                };
            }
        }
        0x37 | 0x38 | 0x77 | 0x78 => {
            let wide = opc >= 0x77;
            let size = if wide { 8 } else { 4 } * if opc & 0xf == 0x8 { 64 } else { 1 };
            for l in lanes {
                let base = w.v[a_reg][l];
                let v0 = lds_read(lds, base.wrapping_add((imm & 0xff) * size), wide);
                let v1 = lds_read(lds, base.wrapping_add(offset1 * size), wide);
                put(w, dst, l, v0, wide, 0);
                put(w, dst, l, v1, wide, if wide { 2 } else { 1 });
            }
        }
        0xde | 0xdf | 0xfe | 0xff => {
            let n = if opc & 1 == 0 { 3 } else { 4 };
            for l in lanes {
                let addr = w.v[a_reg][l].wrapping_add(off16);
                for k in 0..n {
                    let a = addr.wrapping_add(4 * k as u32);
                    if opc >= 0xfe {
                        w.dreg_mut(dnext(dst, k))[l] = lds.read_u32(a);
                    } else {
                        lds.write_u32(a, w.dreg(dnext(d0, k))[l]);
                    }
                }
            }
        }
        0x3d => {
            let src = w.v[a_reg];
            for l in lanes {
                w.dreg_mut(dst)[l] = swizzle_source(off16 as u16, l).map_or(0, |s| src[s]);
            }
        }
        0x3e => {
            // ds_permute_b32: each active lane pushes its data to lane (addr + offset) / 4.
            let mut out = [0u32; 64];
            for l in (0..64).filter(|l| exec >> l & 1 != 0) {
                let to = (w.v[a_reg][l].wrapping_add(off16) / 4 % 64) as usize;
                out[to] = w.dreg(d0)[l];
            }
            for l in lanes {
                w.dreg_mut(dst)[l] = out[l];
            }
        }
        0x3f => {
            // ds_bpermute_b32: each active lane pulls from lane (addr + offset) / 4.
            let data = *w.dreg(d0);
            let addrs = w.v[a_reg];
            for l in lanes {
                let from = (addrs[l].wrapping_add(off16) / 4 % 64) as usize;
                w.dreg_mut(dst)[l] = if exec >> from & 1 != 0 { data[from] } else { 0 };
            }
        }
        _ => return super::ds_extra::exec(w, x, cx),
    }
    Flow::Next
}

fn vreg_dst(x: &XInst) -> usize {
    data_reg(x.inst.dst)
}

/// Writes a 32/64-bit result into data register `dst + at` (and the next one when wide).
#[inline]
fn put(w: &mut Wave, dst: usize, l: usize, v: u64, wide: bool, at: usize) {
    w.dreg_mut(dnext(dst, at))[l] = v as u32;
    if wide {
        w.dreg_mut(dnext(dst, at + 1))[l] = (v >> 32) as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::atomic;

    #[test]
    fn atomic_ops_follow_the_isa() {
        assert_eq!(atomic(0x03, 5, 5, 0, false), Some(0)); // inc wraps at the limit
        assert_eq!(atomic(0x03, 4, 5, 0, false), Some(5));
        assert_eq!(atomic(0x04, 0, 7, 0, false), Some(7)); // dec wraps at 0
        assert_eq!(atomic(0x05, 0xffff_ffff, 1, 0, false), Some((-1i64) as u64));
        assert_eq!(atomic(0x10, 3, 3, 9, false), Some(9)); // cmpst: data0 compares
        assert_eq!(atomic(0x10, 4, 3, 9, false), Some(4));
        assert_eq!(atomic(0x0c, 0xff, 0x0f, 0x100, false), Some(0x1f0));
        assert_eq!(
            atomic(
                0x15,
                1.5f32.to_bits().into(),
                2.0f32.to_bits().into(),
                0,
                false
            ),
            Some(3.5f32.to_bits().into())
        );
    }
}
