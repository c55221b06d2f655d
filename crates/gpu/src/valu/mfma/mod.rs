//! The matrix cores (gfx908, gfx90a, gfx940+): `v_mfma_*`, `D = A·B + C` over a wave.
//!
//! An instruction's shape (M×N×K, blocks, element types) comes from its mnemonic, in either
//! naming (gfx908/gfx90a `v_mfma_f32_32x32x1f32`, gfx940 `v_mfma_f32_32x32x1_2b_f32`); where the
//! name leaves the block count implicit it follows from the destination's register count. The
//! register layout is in [`layout`], the arithmetic (bit-exact per architecture) in [`arith`].
//!
//! Behaviour decided here: an MFMA reads and writes all 64 lanes whatever EXEC holds (compilers
//! only issue it with EXEC full; the ISA leaves other cases undefined).

pub mod arith;
pub mod elem;
pub mod layout;

use arith::Model;
use elem::Elem;
use layout::{a_block, b_lane, Loc};

/// The matrix-core generation, which decides the arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    /// gfx908 (MI100).
    Cdna1,
    /// gfx90a (MI200).
    Cdna2,
    /// gfx940, gfx941, gfx942 (MI300).
    Cdna3,
}

/// One MFMA instruction's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Rows of A and D (= columns of B and D).
    pub m: u32,
    /// The reduction length per block.
    pub k: u32,
    pub blocks: u32,
    pub a: Elem,
    pub b: Elem,
    /// Bits of a C/D element (32 or 64).
    pub out_bits: u32,
    /// Integer (i8 → i32) instruction.
    pub int: bool,
    /// bf16 `_1k` instruction (four products per group on CDNA2).
    pub one_k: bool,
    /// gfx940's sparse `v_smfmac_*`: A holds two of every four k values (4:2 structured
    /// sparsity), src2 their positions, and D is also C.
    pub sparse: bool,
}

/// The CBSZ, ABID and BLGP fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Mods {
    pub cbsz: u8,
    pub abid: u8,
    pub blgp: u8,
}

fn elem_of(t: &str) -> Option<Elem> {
    Some(match t {
        "f64" => Elem::F64,
        "f32" => Elem::F32,
        "xf32" => Elem::Xf32,
        "f16" => Elem::F16,
        "bf16" => Elem::Bf16,
        "i8" => Elem::I8,
        "fp8" => Elem::Fp8,
        "bf8" => Elem::Bf8,
        _ => return None,
    })
}

impl Shape {
    /// The shape of MFMA (or SMFMAC) `name` whose destination is `dst_dwords` registers;
    /// `None` for other ops.
    pub fn parse(name: &str, dst_dwords: u8) -> Option<Shape> {
        let sparse = name.starts_with("v_smfmac_");
        let rest = name
            .strip_prefix("v_mfma_")
            .or_else(|| name.strip_prefix("v_smfmac_"))?;
        let mut parts = rest.split('_');
        let out = parts.next()?;
        let dims = parts.next()?;
        let mut it = dims.splitn(3, 'x');
        let m: u32 = it.next()?.parse().ok()?;
        let n: u32 = it.next()?.parse().ok()?;
        let last = it.next()?;
        let kd = last
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(last.len());
        let k: u32 = last[..kd].parse().ok()?;
        let mut types: Vec<Elem> = Vec::new();
        if kd < last.len() {
            types.push(elem_of(&last[kd..])?);
        }
        let (mut blocks, mut one_k) = (None, false);
        for p in parts {
            if p == "1k" {
                one_k = true;
            } else if let Some(b) = p.strip_suffix('b').and_then(|b| b.parse::<u32>().ok()) {
                blocks = Some(b);
            } else {
                types.push(elem_of(p)?);
            }
        }
        let (a, b) = match types[..] {
            [t] => (t, t),
            [ta, tb] => (ta, tb),
            _ => return None,
        };
        let out_bits = if out == "f64" { 64 } else { 32 };
        if m != n || m == 0 || k == 0 {
            return None;
        }
        let blocks = blocks.unwrap_or(u32::from(dst_dwords) * 64 * 32 / (m * n * out_bits).max(1));
        if blocks == 0 {
            return None;
        }
        Some(Shape {
            m,
            k,
            blocks,
            a,
            b,
            out_bits,
            int: out == "i32",
            one_k,
            sparse,
        })
    }

    /// Registers of A (sparse: of the two values kept of every four).
    pub fn a_regs(&self) -> u32 {
        let k = if self.sparse { self.k / 2 } else { self.k };
        (self.m * k * self.blocks * self.a.bits()).div_ceil(64 * 32)
    }

    /// Registers of B.
    pub fn b_regs(&self) -> u32 {
        (self.m * self.k * self.blocks * self.b.bits()).div_ceil(64 * 32)
    }

    /// Registers of C and D.
    pub fn d_regs(&self) -> u32 {
        self.m * self.m * self.blocks * self.out_bits / (64 * 32)
    }

    /// The accumulation scheme on `arch`.
    pub fn model(&self, arch: Arch) -> Model {
        match self.a {
            Elem::I8 => Model::Int,
            Elem::F64 | Elem::F32 => Model::FmaChain,
            Elem::Xf32 => Model::Fused {
                group: 4,
                fp8: false,
            },
            Elem::Fp8 | Elem::Bf8 => Model::Fused {
                group: 16,
                fp8: true,
            },
            Elem::F16 | Elem::Bf16 if arch == Arch::Cdna3 => Model::Fused {
                group: self.k.min(8) as usize,
                fp8: false,
            },
            Elem::F16 | Elem::Bf16 => Model::Pairwise {
                group: if self.a == Elem::F16 || self.one_k {
                    4
                } else {
                    2
                },
                flush: arch == Arch::Cdna2,
            },
        }
    }
}

/// Reads the element at `loc` (`bits` wide) from registers `regs`.
fn read(regs: &[[u32; 64]], loc: Loc, bits: u32) -> u64 {
    let r = loc.reg as usize;
    let l = loc.lane as usize;
    let get = |r: usize| regs.get(r).map_or(0, |x| x[l]);
    match bits {
        64 => u64::from(get(r)) | u64::from(get(r + 1)) << 32,
        32 => u64::from(get(r)),
        _ => u64::from(get(r) >> loc.bit) & ((1 << bits) - 1),
    }
}

/// Runs one MFMA: `a`, `b`, `c` hold the operands' registers (C already expanded when it is an
/// inline constant), `d` receives the destination's registers (all lanes).
pub fn execute(
    sh: &Shape,
    arch: Arch,
    mods: Mods,
    a: &[[u32; 64]],
    b: &[[u32; 64]],
    c: &[[u32; 64]],
    d: &mut [[u32; 64]],
) {
    let model = sh.model(arch);
    // gfx940's f64 MFMA reads BLGP as negate bits for A, B and C.
    let neg = if arch == Arch::Cdna3 && sh.out_bits == 64 {
        mods.blgp
    } else {
        0
    };
    let blgp = if neg != 0 { 0 } else { mods.blgp };
    let sign = |x: u64, bits: u32, on: bool| if on { x ^ 1 << (bits - 1) } else { x };
    let k = sh.k as usize;
    let mut ra = vec![0u64; k];
    let mut rb = vec![0u64; k];
    for blk in 0..sh.blocks {
        let ablk = a_block(blk, mods.cbsz, mods.abid);
        for i in 0..sh.m {
            for (kk, x) in ra.iter_mut().enumerate() {
                *x = sign(
                    read(a, sh.a_loc(i, kk as u32, ablk), sh.a.bits()),
                    sh.a.bits(),
                    neg & 1 != 0,
                );
            }
            for j in 0..sh.m {
                for (kk, y) in rb.iter_mut().enumerate() {
                    let mut loc = sh.b_loc(kk as u32, j, blk);
                    loc.lane = b_lane(loc.lane, blgp);
                    *y = sign(read(b, loc, sh.b.bits()), sh.b.bits(), neg & 2 != 0);
                }
                let dl = sh.d_loc(i, j, blk);
                let cv = sign(read(c, dl, sh.out_bits), sh.out_bits, neg & 4 != 0);
                let v = arith::element(model, sh.a, sh.b, &ra, &rb, cv);
                let (r, l) = (dl.reg as usize, dl.lane as usize);
                if let Some(x) = d.get_mut(r) {
                    x[l] = v as u32;
                }
                if sh.out_bits == 64 {
                    if let Some(x) = d.get_mut(r + 1) {
                        x[l] = (v >> 32) as u32;
                    }
                }
            }
        }
    }
}

/// Runs one SMFMAC: `a` holds the compressed A, `b` B, `idx` the index register; `d` holds C on
/// entry and D on return. CBSZ = 0 lets ABID pick the index set.
pub fn execute_sparse(
    sh: &Shape,
    arch: Arch,
    mods: Mods,
    a: &[[u32; 64]],
    b: &[[u32; 64]],
    idx: &[[u32; 64]],
    d: &mut [[u32; 64]],
) {
    let model = sh.model(arch);
    let set = if mods.cbsz == 0 {
        u32::from(mods.abid)
    } else {
        0
    };
    let k = sh.k as usize;
    let c: Vec<[u32; 64]> = d.to_vec();
    let mut ra = vec![0u64; k];
    let mut rb = vec![0u64; k];
    for i in 0..sh.m {
        ra.fill(0);
        for g in 0..sh.k / 4 {
            let il = sh.index_loc(i, g, set);
            let field = read(idx, il, 4) as u32;
            for s in 0..2u32 {
                let pos = (4 * g + (field >> (2 * s) & 3)) as usize;
                ra[pos] = read(a, sh.a_sparse_loc(i, g, s), sh.a.bits());
            }
        }
        for j in 0..sh.m {
            for (kk, y) in rb.iter_mut().enumerate() {
                *y = read(b, sh.b_loc(kk as u32, j, 0), sh.b.bits());
            }
            let dl = sh.d_loc(i, j, 0);
            let v = arith::element(model, sh.a, sh.b, &ra, &rb, read(&c, dl, sh.out_bits));
            if let Some(x) = d.get_mut(dl.reg as usize) {
                x[dl.lane as usize] = v as u32;
            }
        }
    }
}

#[cfg(test)]
mod tests;
