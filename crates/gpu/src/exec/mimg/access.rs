//! Unfiltered image access: `image_load*`, `image_store*`, `image_atomic_*` and
//! `image_get_resinfo`. Coordinates are unsigned texel indices of the selected mip level
//! (`_mip`: base level + the trailing operand); an index outside the level or the view's
//! slices reads zeros (as texel components, then swizzled) and drops writes.
//!
//! `_pck` forms move raw component bits without conversion or swizzle (dmask selects
//! components; `_sgn` sign-extends them). Stores take the dmask channels' data in order
//! (missing channels write 0), undo the destination swizzle and convert to the texel format.
//! Atomics operate on 32-bit (one dmask channel; two for cmpswap) or 64-bit elements.

use super::args::{self, Args};
use super::format::{self, Texel};
use super::op::Kind;
use super::texmem::TexMem;
use super::view::View;
use super::{result_regs, write_result, Ctl};
use crate::exec::vmem::{host_atomic, AtomicOp};
use crate::exec::ExecFault;
use crate::fault::FaultKind;
use crate::memory::Checker;
use crate::wave::Wave;

/// The texel a load/store/atomic addresses: (level, x, y, physical slice), or `None` when
/// out of range.
fn locate(v: &View, ctl: &Ctl, a: &Args) -> Option<(u32, u32, u32, u32)> {
    let level = u32::from(v.r.base_level).checked_add(if ctl.op.mip { a.extra } else { 0 })?;
    if level > u32::from(v.r.last_level.max(v.r.base_level)) {
        return None;
    }
    let [w, h, d] = v.level_dims(level);
    let (x, y) = (a.coords[0], if v.dims > 1 { a.coords[1] } else { 0 });
    if x >= w || y >= h {
        return None;
    }
    let z = if v.r.is_array() {
        let (lo, hi) = v.slice_range();
        let s = lo.checked_add(a.coords[v.dims])?;
        if s > hi {
            return None;
        }
        s
    } else if v.dims == 3 {
        if a.coords[2] >= d {
            return None;
        }
        a.coords[2]
    } else {
        0
    };
    Some((level, x, y, z))
}

/// One lane's store data in RGBA channel order (dmask channels, D16 unpacked).
fn store_data(w: &Wave, ctl: &Ctl, l: usize, float: bool, signed: bool) -> Texel {
    let mut out = [0u32; 4];
    let mut k = 0;
    for (c, o) in out.iter_mut().enumerate() {
        if ctl.dmask >> c & 1 == 0 {
            continue;
        }
        *o = if ctl.d16 {
            let h = (w.v[(ctl.vd + k / 2) & 255][l] >> (16 * (k % 2))) as u16;
            if float {
                format::f16_to_f32(h).to_bits()
            } else if signed {
                h as i16 as i32 as u32
            } else {
                u32::from(h)
            }
        } else {
            w.v[(ctl.vd + k) & 255][l]
        };
        k += 1;
    }
    out
}

/// Runs a load, store, atomic or resinfo over the active lanes.
pub fn run(
    w: &mut Wave,
    ctl: &Ctl,
    v: &View,
    mem: &mut Checker,
    exec: u64,
) -> Result<(), ExecFault> {
    let write = matches!(ctl.op.kind, Kind::Store { .. } | Kind::Atomic(_));
    let (lo, hi) = v.extent();
    let mut tm = TexMem::new(mem, lo, hi, write);
    let regs = result_regs(ctl);
    let nf = v.r.num_format;
    let float = !format::is_integer(nf);
    let bytes = v.fmt.bytes;
    for l in (0..64).filter(|l| exec >> l & 1 != 0) {
        if ctl.op.kind == Kind::ResInfo {
            let mip = w.v[ctl.va][l];
            write_result(w, ctl, l, resinfo(v, mip), false, regs);
            continue;
        }
        let a = args::read(w, ctl.va, l, &ctl.op, v.r.ty, ctl.a16);
        let at = locate(v, ctl, &a).map(|(lv, x, y, z)| v.texel_addr(lv, x, y, z));
        match ctl.op.kind {
            Kind::Load { pck, sgn } => {
                let (vals, fl) = match at {
                    None if pck => ([0; 4], false),
                    None => (v.swizzle([0; 4]), float),
                    Some(addr) => {
                        let raw = tm.read(addr, bytes, l)?;
                        if pck {
                            let mut c = format::raw_components(&v.fmt, raw);
                            if sgn {
                                for (x, &(_, n)) in c.iter_mut().zip(v.fmt.comps()) {
                                    if n < 32 {
                                        *x = (((*x << (32 - n)) as i32) >> (32 - n)) as u32;
                                    }
                                }
                            }
                            (c, false)
                        } else {
                            let t = format::decode(&v.fmt, nf, raw)
                                .ok_or(ExecFault::new(FaultKind::Unimplemented))?;
                            (v.swizzle(t), float)
                        }
                    }
                };
                write_result(w, ctl, l, vals, fl, regs);
            }
            Kind::Store { pck } => {
                let Some(addr) = at else { continue };
                let signed = nf == format::nfmt::SINT;
                let raw = if pck {
                    format::pack_components(&v.fmt, store_data(w, ctl, l, false, false))
                } else {
                    let rgba = store_data(w, ctl, l, float, signed);
                    format::encode(&v.fmt, nf, v.unswizzle(rgba))
                        .ok_or(ExecFault::new(FaultKind::Unimplemented))?
                };
                tm.write(addr, bytes, raw, l)?;
            }
            Kind::Atomic(op) => {
                let Some(addr) = at else { continue };
                atomic(w, ctl, &mut tm, op, addr, bytes, l)?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// One lane's image atomic on the element at `addr`.
fn atomic(
    w: &mut Wave,
    ctl: &Ctl,
    tm: &mut TexMem,
    op: AtomicOp,
    addr: u64,
    bytes: u8,
    l: usize,
) -> Result<(), ExecFault> {
    let wide = match bytes {
        4 => false,
        8 => true,
        // The hardware defines atomics on 32- and 64-bit formats only.
        _ => return Err(ExecFault::new(FaultKind::Unimplemented)),
    };
    let n = if wide { 2 } else { 1 };
    let get = |k: usize| {
        (0..n).fold(0u64, |acc, i| {
            acc | u64::from(w.v[(ctl.vd + k * n + i) & 255][l]) << (32 * i)
        })
    };
    let (data, cmp) = (get(0), get(1));
    let h = tm.atomic_addr(addr, bytes, l)?;
    // SAFETY: `[h, h + bytes)` was checked for writing; alignment is checked inside.
    let old = unsafe { host_atomic(op, h, data, cmp, wide) }.ok_or(ExecFault {
        kind: FaultKind::MemoryViolation {
            address: addr,
            write: true,
        },
        lane: Some(l as u32),
        address: Some(addr),
    })?;
    if ctl.glc {
        for i in 0..n {
            w.v[(ctl.vd + i) & 255][l] = (old >> (32 * i)) as u32;
        }
    }
    Ok(())
}

/// `image_get_resinfo` of mip level `mip` (relative to the base level): width, height
/// (1D arrays: slices), depth (3D) or slices (2D arrays), and the number of levels; zeros
/// for a level past the last.
fn resinfo(v: &View, mip: u32) -> Texel {
    let base = u32::from(v.r.base_level);
    let last = u32::from(v.r.last_level).max(base);
    let Some(level) = base.checked_add(mip).filter(|&l| l <= last) else {
        return [0; 4];
    };
    let [w, h, d] = v.level_dims(level);
    let (lo, hi) = v.slice_range();
    let slices = hi + 1 - lo.min(hi);
    let levels = last - base + 1;
    match v.dims {
        1 if v.r.is_array() => [w, slices, 0, levels],
        1 => [w, 0, 0, levels],
        2 if v.r.is_array() => [w, h, slices, levels],
        2 => [w, h, 0, levels],
        _ => [w, h, d, levels],
    }
}
