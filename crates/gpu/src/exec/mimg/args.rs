//! The address VGPRs of a MIMG instruction, in the hardware's order: offsets (`_o`), bias
//! (`_b`), depth-compare reference (`_c`), derivatives (`_d`/`_cd`: every axis along x, then
//! along y), the coordinates (x, y, z or the array slice or cube face, as many as the T#
//! type has), then one of LOD (`_l`), minimum-LOD clamp (`_cl`) or mip level (`_mip`).
//!
//! With A16 (the `a16` bit, GFX9's reuse of R128) derivatives, coordinates and the trailing
//! LOD / clamp / mip are 16-bit, two per VGPR (low half first; derivatives along x and along
//! y each start a new VGPR); offsets, bias and reference stay 32-bit.

use super::format::f16_to_f32;
use super::op::{Kind, MimgOp};
use super::rsrc::ty;
use crate::wave::Wave;

/// One lane's address operands, as raw bits (f32 for sampling, integers for loads/stores).
#[derive(Clone, Copy, Debug, Default)]
pub struct Args {
    pub offset: u32,
    pub bias: f32,
    pub zref: f32,
    pub grads: [[f32; 3]; 2],
    pub coords: [u32; 3],
    /// LOD, clamp or mip level.
    pub extra: u32,
}

/// Coordinates and derivative axes of a resource type.
pub fn counts(t: u8) -> (usize, usize) {
    match t {
        ty::IMG_1D => (1, 1),
        ty::IMG_1D_ARRAY | ty::IMG_2D => (2, if t == ty::IMG_2D { 2 } else { 1 }),
        ty::IMG_2D_ARRAY | ty::IMG_CUBE => (3, 2),
        ty::IMG_3D => (3, 3),
        _ => (2, 2),
    }
}

/// Reads address words in order, 32 or 16 bits at a time.
struct Reader<'w> {
    w: &'w Wave,
    va: usize,
    lane: usize,
    dword: usize,
    half: bool,
}

impl Reader<'_> {
    fn dword(&mut self) -> u32 {
        self.align();
        let v = self.w.v[(self.va + self.dword) & 255][self.lane];
        self.dword += 1;
        v
    }
    fn half(&mut self) -> u16 {
        let v = self.w.v[(self.va + self.dword) & 255][self.lane];
        let h = if self.half { v >> 16 } else { v } as u16;
        if self.half {
            self.dword += 1;
        }
        self.half = !self.half;
        h
    }
    fn align(&mut self) {
        if self.half {
            self.half = false;
            self.dword += 1;
        }
    }
    /// A coordinate-group value: a 32-bit word, or a 16-bit one widened (f16 → f32 for
    /// floats, zero-extended for integers).
    fn value(&mut self, a16: bool, float: bool) -> u32 {
        if !a16 {
            self.dword()
        } else if float {
            f16_to_f32(self.half()).to_bits()
        } else {
            u32::from(self.half())
        }
    }
}

/// Reads lane `lane`'s address operands from VGPRs starting at `va`.
pub fn read(w: &Wave, va: usize, lane: usize, op: &MimgOp, t: u8, a16: bool) -> Args {
    let float = matches!(op.kind, Kind::Sample | Kind::Gather4 | Kind::GetLod);
    let (nc, ng) = counts(t);
    let mut r = Reader {
        w,
        va,
        lane,
        dword: 0,
        half: false,
    };
    let mut a = Args::default();
    if op.offset {
        a.offset = r.dword();
    }
    if op.bias {
        a.bias = f32::from_bits(r.dword());
    }
    if op.compare {
        a.zref = f32::from_bits(r.dword());
    }
    if op.derivs {
        for g in a.grads.iter_mut() {
            for v in g.iter_mut().take(ng) {
                *v = f32::from_bits(r.value(a16, true));
            }
            if a16 {
                r.align();
            }
        }
    }
    for c in a.coords.iter_mut().take(nc) {
        *c = r.value(a16, float);
    }
    if op.lod || op.clamp || op.mip {
        a.extra = r.value(a16, float);
    }
    a
}

/// The signed 6-bit texel offsets of an `_o` word: x in bits 5:0, y in 13:8, z in 21:16.
pub fn offsets(word: u32) -> [i32; 3] {
    [0, 8, 16].map(|s| ((word >> s) as i32) << 26 >> 26)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_and_a16_packing() {
        let mut w = Wave::new();
        for k in 0..9 {
            w.v[10 + k][3] = 100 + k as u32;
        }
        let op = MimgOp::classify("image_sample_c_d_cl_o").unwrap();
        let a = read(&w, 10, 3, &op, ty::IMG_2D, false);
        assert_eq!(a.offset, 100);
        assert_eq!(a.zref.to_bits(), 101);
        assert_eq!(a.grads[0][..2], [f32::from_bits(102), f32::from_bits(103)]);
        assert_eq!(a.grads[1][..2], [f32::from_bits(104), f32::from_bits(105)]);
        assert_eq!(a.coords[..2], [106, 107]);
        assert_eq!(a.extra, 108);
        // A16 load_mip on a 2D array: x, y | slice, mip.
        w.v[20][0] = 0x0002_0001;
        w.v[21][0] = 0x0004_0003;
        let op = MimgOp::classify("image_load_mip").unwrap();
        let a = read(&w, 20, 0, &op, ty::IMG_2D_ARRAY, true);
        assert_eq!(a.coords, [1, 2, 3]);
        assert_eq!(a.extra, 4);
        assert_eq!(offsets(0x003f_0801), [1, 8, -1]);
    }
}
