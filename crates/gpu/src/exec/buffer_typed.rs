//! Typed buffer accesses: `tbuffer_*` (MTBUF: format from the instruction, identity channel
//! selects) and `buffer_load/store_format_*` (MUBUF: format and DST_SEL from the V#), including
//! their D16 forms. Conversions are in [`super::format`].
//!
//! Each access moves one element of the data format (1 to 16 bytes), range-checked all or
//! nothing; out-of-range loads return 0 in every component (1 where a V# DST_SEL says SEL_1).
//! An element whose format is INVALID or reserved is an unbound resource: loads return 0,
//! stores write nothing. Stores write the whole element: channels the instruction does not
//! supply are stored as 0, and the V#'s DST_SEL is undone (a component takes the channel that
//! selects it; one no channel selects is 0).

use super::format;
use super::mimg::view::unswizzle;
use super::mubuf::BufAccess;
use super::{ExecCtx, Flow};
use crate::memory;
use crate::program::XInst;
use crate::wave::{Wave, M0};
use softhsa_isa::{Class, MemFlags};

/// What a typed op moves, parsed from its mnemonic.
struct Shape {
    store: bool,
    /// Components moved (x = 1 ... xyzw = 4).
    n: usize,
    d16: bool,
    /// `_d16_hi_x`: the high half of the register.
    hi: bool,
}

fn shape(x: &XInst) -> Option<Shape> {
    let name = x.inst.op.name();
    let rest = name
        .strip_prefix("tbuffer_")
        .or_else(|| name.strip_prefix("buffer_"))?;
    let (store, rest) = match (
        rest.strip_prefix("load_format_"),
        rest.strip_prefix("store_format_"),
    ) {
        (Some(r), _) => (false, r),
        (_, Some(r)) => (true, r),
        _ => return None,
    };
    let (d16, hi, comps) = match (rest.strip_prefix("d16_hi_"), rest.strip_prefix("d16_")) {
        (Some(c), _) => (true, true, c),
        (_, Some(c)) => (true, false, c),
        _ => (false, false, rest),
    };
    Some(Shape {
        store,
        n: comps.len().clamp(1, 4),
        d16,
        hi,
    })
}

/// DST_SEL values of a V#.
const SEL_0: u32 = 0;
const SEL_1: u32 = 1;

/// Executes a typed buffer op; `None` for other ops.
pub fn exec(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Option<Flow> {
    let s = shape(x)?;
    let b = BufAccess::new(w, x);
    let (dfmt, num, sel) = if x.inst.op.class() == Class::Mtbuf {
        let m = x.inst.mem().copied().unwrap_or_default();
        (m.dfmt, m.nfmt, [4, 5, 6, 7])
    } else {
        let w3 = w.s[(usize::from(x.inst.src[2].raw() & 127) + 3) & 127];
        let sel = [0, 3, 6, 9].map(|sh| (w3 >> sh) & 7);
        (((w3 >> 15) & 15) as u8, ((w3 >> 12) & 7) as u8, sel)
    };
    let bytes = format::element_bytes(dfmt);
    let exec = w.exec();
    // Per lane, the address of each dword of the element (swizzled buffers interleave them).
    let chunks = bytes.div_ceil(4) as usize;
    let mut addr = [[0u64; 64]; 4];
    let mut live = 0u64;
    for l in (0..64).filter(|l| exec >> l & 1 != 0 && bytes != 0) {
        let (index, offset) = b.lane(w, l);
        if b.in_range(index, offset, u64::from(bytes)) {
            live |= 1 << l;
            for (k, a) in addr.iter_mut().enumerate().take(chunks) {
                a[l] = b.address(index, offset + 4 * k as u64);
            }
        }
    }
    let size = u64::from(bytes.min(4));
    for a in addr.iter_mut().take(chunks) {
        if let Err(e) = cx.mem.lanes(a, live, size, s.store) {
            return Some(Flow::Fault(Box::new(e.into())));
        }
    }
    let mut elem = [0u8; 16];
    if s.store {
        let data = usize::from(x.inst.src[1].vgpr_index().unwrap_or(0));
        w.unfenced_stores |= crate::wave::UNFENCED_VECTOR;
        for l in (0..64).filter(|l| live >> l & 1 != 0) {
            // A store undoes the V#'s destination selects (identity for MTBUF), as image stores
            // do: OpenCL's writes to A, RA, BGRA or ARGB buffer images need it.
            let vals = unswizzle(sel.map(|s| s as u8), store_values(w, &s, data, l, num));
            let (b, _) = format::pack(dfmt, num, vals);
            write_element(&addr, l, &b[..bytes as usize]);
        }
    } else {
        let dst = usize::from(x.inst.dst.vgpr_index().unwrap_or(0));
        let int = format::is_integer(num);
        let to_lds = x.inst.mem_flags().has(MemFlags::LDS);
        let lds_base = (w.s[M0] & 0xffff).wrapping_add(x.inst.imm as u32);
        for l in (0..64).filter(|l| exec >> l & 1 != 0) {
            let chans = if live >> l & 1 != 0 {
                read_element(&addr, l, &mut elem[..bytes as usize]);
                format::unpack(dfmt, num, &elem[..bytes as usize])
            } else {
                [0; 4]
            };
            let one = if int { 1 } else { 1.0f32.to_bits() };
            let vals = sel.map(|s| match s {
                SEL_0 => 0,
                SEL_1 => one,
                4..=7 if live >> l & 1 != 0 => chans[(s - 4) as usize],
                _ => 0,
            });
            if to_lds {
                // `lds` bit: component X goes to LDS at M0[15:0] + offset + 4 * lane.
                let a = lds_base.wrapping_add(4 * l as u32);
                cx.lds.write_u32(a, vals[0]);
            } else {
                write_values(w, &s, dst, l, vals, num);
            }
        }
        if !to_lds {
            let regs = if s.d16 { s.n.div_ceil(2) } else { s.n };
            super::mubuf::texel_fail_status(w, x, dst + regs);
        }
    }
    Some(Flow::Next)
}

/// The element's bytes of lane `l` (checked, translated addresses per dword chunk).
fn read_element(addr: &[[u64; 64]; 4], l: usize, out: &mut [u8]) {
    for (k, chunk) in out.chunks_mut(4).enumerate() {
        let a = addr[k][l];
        // SAFETY: each chunk's [a, a + chunk length) was checked by `Checker::lanes`.
        let v = unsafe {
            match chunk.len() {
                1 => u32::from(memory::read_u8(a)),
                2 => u32::from(memory::read_u16(a)),
                _ => memory::read_u32(a),
            }
        };
        chunk.copy_from_slice(&v.to_le_bytes()[..chunk.len()]);
    }
}

fn write_element(addr: &[[u64; 64]; 4], l: usize, data: &[u8]) {
    for (k, chunk) in data.chunks(4).enumerate() {
        let a = addr[k][l];
        let mut v = [0u8; 4];
        v[..chunk.len()].copy_from_slice(chunk);
        let v = u32::from_le_bytes(v);
        // SAFETY: each chunk's [a, a + chunk length) was checked (for writing) above.
        unsafe {
            match chunk.len() {
                1 => memory::write_u8(a, v as u8),
                2 => memory::write_u16(a, v as u16),
                _ => memory::write_u32(a, v),
            }
        }
    }
}

/// The component values a store supplies for lane `l` (missing ones 0).
fn store_values(w: &Wave, s: &Shape, data: usize, l: usize, num: u8) -> [u32; 4] {
    std::array::from_fn(|c| {
        if c >= s.n {
            return 0;
        }
        if !s.d16 {
            return w.v[(data + c) & 255][l];
        }
        let reg = w.v[(data + c / 2) & 255][l];
        let half = if s.hi || c % 2 == 1 { reg >> 16 } else { reg };
        format::from_d16(half as u16, num)
    })
}

/// Writes a load's components into the destination VGPRs (D16: packed halves; the halves it
/// does not write keep their value).
fn write_values(w: &mut Wave, s: &Shape, dst: usize, l: usize, vals: [u32; 4], num: u8) {
    for (c, &v) in vals.iter().enumerate().take(s.n) {
        if !s.d16 {
            w.v[(dst + c) & 255][l] = v;
            continue;
        }
        let h = u32::from(format::to_d16(v, num));
        let r = &mut w.v[(dst + c / 2) & 255][l];
        *r = if s.hi || c % 2 == 1 {
            (*r & 0xffff) | h << 16
        } else {
            (*r & 0xffff_0000) | h
        };
    }
}
