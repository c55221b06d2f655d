//! MIMG: image loads, stores, atomics, sampling, gather, LOD and resource queries through a T#
//! (and an S# for sampling), as GFX9 hardware executes them on linear images.
//!
//! - [`rsrc`]: T#/S#/V# fields (shared with the runtime, which builds the descriptors);
//! - [`layout`]: the linear mip layout (shared with the runtime, which sizes images);
//! - [`mod@format`]: texel formats and conversions;
//! - [`view`]: an instruction's image (levels, texel addresses, wrap modes, swizzles);
//! - [`args`]: address VGPRs; [`filter`]: sampling arithmetic; [`texmem`]: checked texel memory;
//! - [`access`]: loads, stores, atomics and `image_get_resinfo`.
//!
//! Every texel access is checked against the allocation registry (one check of the image
//! extent per instruction, texel by texel when that fails), so a bad descriptor is a reported
//! memory fault of the dispatch.

pub mod access;
pub mod args;
pub mod filter;
pub mod format;
pub mod layout;
pub mod op;
pub mod rsrc;
pub mod texmem;
pub mod view;

use super::{fault, ExecCtx, ExecFault, Flow};
use crate::fault::FaultKind;
use crate::program::XInst;
use crate::wave::{Wave, UNFENCED_VECTOR};
use filter::{Query, Sampling};
use format::Texel;
use op::{Kind, MimgOp};
use rsrc::{sel, ImageRsrc, SamplerRsrc};
use softhsa_isa::MemFlags;
use texmem::TexMem;
use view::{Refused, View};

/// Executes a MIMG instruction.
pub fn exec(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    let Some(op) = MimgOp::classify(x.inst.op.name()) else {
        return fault(FaultKind::Unimplemented);
    };
    match run(w, x, &op, cx) {
        Ok(()) => Flow::Next,
        Err(e) => Flow::Fault(Box::new(e)),
    }
}

/// The instruction's fields the lanes share.
pub struct Ctl {
    pub op: MimgOp,
    pub dmask: u8,
    pub d16: bool,
    pub tfe: bool,
    pub a16: bool,
    pub glc: bool,
    pub unorm: bool,
    /// First VGPR of the address and of the data.
    pub va: usize,
    pub vd: usize,
}

fn sgprs<const N: usize>(w: &Wave, first: u16) -> [u32; N] {
    let f = usize::from(first & 127);
    std::array::from_fn(|i| w.s[(f + i) & 127])
}

fn run(w: &mut Wave, x: &XInst, op: &MimgOp, cx: &mut ExecCtx) -> Result<(), ExecFault> {
    let inst = &x.inst;
    let m = inst.mem().copied().unwrap_or_default();
    let f = m.flags;
    let data = if inst.dst.is_none() {
        inst.src[1]
    } else {
        inst.dst
    };
    let ctl = Ctl {
        op: *op,
        dmask: m.dfmt & 15,
        d16: f.has(MemFlags::D16),
        tfe: f.has(MemFlags::TFE) || f.has(MemFlags::LWE),
        a16: f.has(MemFlags::R128),
        glc: f.has(MemFlags::GLC),
        unorm: f.has(MemFlags::UNORM),
        va: usize::from(inst.src[0].vgpr_index().unwrap_or(0)),
        vd: usize::from(data.vgpr_index().unwrap_or(0)),
    };
    let exec = w.exec();
    if exec == 0 {
        return Ok(());
    }
    let r = ImageRsrc::from_words(&sgprs::<8>(w, inst.src[2].raw()));
    let v = match View::new(r) {
        Ok(v) => v,
        Err(Refused::Null) => {
            // A null image: loads return zeros, stores and atomics are dropped.
            if !matches!(op.kind, Kind::Store { .. } | Kind::Atomic(_)) || ctl.glc {
                for l in (0..64).filter(|l| exec >> l & 1 != 0) {
                    write_result(w, &ctl, l, [0; 4], false, result_regs(&ctl));
                }
            }
            return Ok(());
        }
        Err(Refused::Unsupported(k)) => return Err(ExecFault::new(k)),
    };
    if matches!(op.kind, Kind::Store { .. } | Kind::Atomic(_)) {
        w.unfenced_stores |= UNFENCED_VECTOR;
    }
    match op.kind {
        Kind::Load { .. } | Kind::Store { .. } | Kind::Atomic(_) | Kind::ResInfo => {
            access::run(w, &ctl, &v, &mut cx.mem, exec)
        }
        Kind::Sample | Kind::Gather4 | Kind::GetLod => {
            let s = SamplerRsrc::from_words(&sgprs::<4>(w, inst.src[3].raw()));
            sample_lanes(w, &ctl, &v, &s, cx, exec)
        }
    }
}

/// VGPRs of loaded data (without the TFE one): one per dmask channel, halved by D16;
/// gather4 always returns four values.
pub fn result_regs(ctl: &Ctl) -> usize {
    let n = if ctl.op.kind == Kind::Gather4 {
        4
    } else {
        (ctl.dmask.count_ones() as usize).max(1)
    };
    if ctl.d16 {
        n.div_ceil(2)
    } else {
        n
    }
}

/// Writes one lane's RGBA result: the dmask channels in order (or all four for gather4),
/// packed to 16 bits under D16 (f16 when `float`, else the low half), then 0 for TFE.
pub fn write_result(w: &mut Wave, ctl: &Ctl, l: usize, rgba: Texel, float: bool, regs: usize) {
    let mut vals = [0u32; 4];
    let mut n = 0;
    for (c, &v) in rgba.iter().enumerate() {
        if ctl.op.kind == Kind::Gather4 || ctl.dmask >> c & 1 != 0 {
            vals[n] = v;
            n += 1;
        }
    }
    if n == 0 {
        // dmask 0 still returns the first channel.
        vals[0] = rgba[0];
        n = 1;
    }
    if ctl.d16 {
        let h = |v: u32| {
            if float {
                u32::from(format::f32_to_f16(f32::from_bits(v)))
            } else {
                v & 0xffff
            }
        };
        for k in 0..regs {
            let lo = h(vals[2 * k]);
            let hi = if 2 * k + 1 < n { h(vals[2 * k + 1]) } else { 0 };
            w.v[(ctl.vd + k) & 255][l] = lo | hi << 16;
        }
    } else {
        for (k, &v) in vals.iter().enumerate().take(regs) {
            w.v[(ctl.vd + k) & 255][l] = v;
        }
    }
    if ctl.tfe {
        w.v[(ctl.vd + regs) & 255][l] = 0;
    }
}

/// Texel-space derivatives of the quad of lane `l` (lanes 4q..4q+3 form a 2×2 quad: x then
/// y), from the coordinates of its first three lanes.
fn implicit_grads(w: &Wave, ctl: &Ctl, v: &View, l: usize) -> [[f32; 3]; 2] {
    let q = l & !3;
    let c = |lane| args::read(w, ctl.va, lane, &ctl.op, v.r.ty, ctl.a16).coords;
    let (c0, c1, c2) = (c(q), c(q + 1), c(q + 2));
    let f = f32::from_bits;
    let mut g = [[0f32; 3]; 2];
    for a in 0..v.dims {
        g[0][a] = f(c1[a]) - f(c0[a]);
        g[1][a] = f(c2[a]) - f(c0[a]);
    }
    g
}

fn sample_lanes(
    w: &mut Wave,
    ctl: &Ctl,
    v: &View,
    s: &SamplerRsrc,
    cx: &mut ExecCtx,
    exec: u64,
) -> Result<(), ExecFault> {
    let sm = Sampling {
        s,
        unnorm: ctl.unorm || s.force_unnormalized,
    };
    let (lo, hi) = v.extent();
    let mut tm = TexMem::new(&mut cx.mem, lo, hi, false);
    let regs = result_regs(ctl);
    let float = !format::is_integer(v.r.num_format);
    let op = &ctl.op;
    for l in (0..64).filter(|l| exec >> l & 1 != 0) {
        let a = args::read(w, ctl.va, l, op, v.r.ty, ctl.a16);
        let fc = a.coords.map(f32::from_bits);
        let mut q = Query {
            offset: if op.offset {
                args::offsets(a.offset)
            } else {
                [0; 3]
            },
            zref: op.compare.then_some(a.zref),
            ..Query::default()
        };
        q.coords[..v.dims].copy_from_slice(&fc[..v.dims]);
        if v.r.is_array() {
            q.slice = fc[v.dims];
        }
        let extra = f32::from_bits(a.extra);
        let cl = op.clamp.then_some(extra);
        let raw = if op.lz {
            0.0
        } else if op.lod {
            extra
        } else {
            let g = if op.derivs {
                a.grads
            } else {
                implicit_grads(w, ctl, v, l)
            };
            filter::raw_lod(v, sm.unnorm, g)
        };
        let bias = if op.lz || op.lod {
            0.0
        } else {
            s.lod_bias as f32 / 256.0 + if op.bias { a.bias } else { 0.0 }
        };
        q.lod = filter::clamp_lod(v, s, raw, bias, cl);
        let rgba = match op.kind {
            Kind::GetLod => {
                let lq = filter::quantize(q.lod) as f32 / 256.0;
                [lq.to_bits(), raw.to_bits(), 0, 0]
            }
            Kind::Gather4 => {
                let ch = (ctl.dmask.trailing_zeros() as usize).min(3);
                match v.r.dst_sel[ch] {
                    s @ sel::X..=sel::W => {
                        filter::gather(v, &q, &sm, usize::from(s - sel::X), &mut tm, l)?
                    }
                    sel::ONE => [format::one(v.r.num_format); 4],
                    _ => [0; 4],
                }
            }
            _ => v.swizzle(filter::sample(v, &q, &sm, &mut tm, l)?),
        };
        write_result(w, ctl, l, rgba, float || op.kind == Kind::GetLod, regs);
    }
    Ok(())
}
