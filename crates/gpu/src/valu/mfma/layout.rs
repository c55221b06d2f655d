//! Where each matrix element lives: register, lane and bit offset, per instruction shape (the
//! mappings AMD's Matrix Instruction Calculator documents for CDNA1–CDNA3), and the CBSZ/ABID
//! and BLGP operand modifiers.
//!
//! A and B (dense): the 64 lanes form `64 / M` groups of M lanes. Blocks take consecutive
//! groups, then the K dimension is split over the remaining groups, and each lane holds
//! `kl = K·blocks·M / 64` consecutive k values packed in its registers (low bits first):
//! `A[i][k]` of block b is in lane `M·(b + blocks·⌊k/kl⌋) + i`, element `k mod kl`.
//! C and D with 32-bit elements: rows go in chunks of 4 consecutive registers; chunk
//! `c = ⌊i/4⌋ + (M/4)·b` is in lane group `c mod (64/N)` (lanes `N·group + j`) and registers
//! `4·⌊c/(64/N)⌋ + (i mod 4)`. 64-bit D (f64): lane `16·(i mod 4) + N·b + j`, register pair
//! `⌊i/4⌋`.

use super::Shape;

/// Where one element is: (register index within the operand, lane, bit offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loc {
    pub reg: u32,
    pub lane: u32,
    pub bit: u32,
}

/// An element `q` (0-based) of a lane's packed elements of `bits` each.
fn packed(q: u32, bits: u32) -> (u32, u32) {
    if bits >= 32 {
        (q * bits / 32, 0)
    } else {
        let per = 32 / bits;
        (q / per, (q % per) * bits)
    }
}

impl Shape {
    /// k values per lane of A and B.
    fn kl(&self) -> u32 {
        (self.k * self.blocks * self.m / 64).max(1)
    }

    /// `A[i][k]` of block `b`.
    pub fn a_loc(&self, i: u32, k: u32, b: u32) -> Loc {
        let kl = self.kl();
        let (reg, bit) = packed(k % kl, self.a.bits());
        Loc {
            reg,
            lane: self.m * (b + self.blocks * (k / kl)) + i,
            bit,
        }
    }

    /// `B[k][j]` of block `b`.
    pub fn b_loc(&self, k: u32, j: u32, b: u32) -> Loc {
        let kl = self.kl();
        let (reg, bit) = packed(k % kl, self.b.bits());
        Loc {
            reg,
            lane: self.m * (b + self.blocks * (k / kl)) + j,
            bit,
        }
    }

    /// `C[i][j]` / `D[i][j]` of block `b` (for 64-bit elements `reg` is the pair's first).
    pub fn d_loc(&self, i: u32, j: u32, b: u32) -> Loc {
        let n = self.m;
        if self.out_bits == 64 {
            return Loc {
                reg: 2 * (i / 4),
                lane: 16 * (i % 4) + n * b + j,
                bit: 0,
            };
        }
        let groups = 64 / n;
        let c = i / 4 + (self.m / 4) * b;
        Loc {
            reg: 4 * (c / groups) + i % 4,
            lane: n * (c % groups) + j,
            bit: 0,
        }
    }
}

impl Shape {
    /// Sparse A: the `s`-th (0, 1) value kept of the four k values of group `g` of row `i`:
    /// the dense layout of a K/2-deep A, kept values in k order.
    pub fn a_sparse_loc(&self, i: u32, g: u32, s: u32) -> Loc {
        let kl = (self.k / 2 * self.m / 64).max(1);
        let c = 2 * g + s;
        let (reg, bit) = packed(c % kl, self.a.bits());
        Loc {
            reg,
            lane: self.m * (c / kl) + i,
            bit,
        }
    }

    /// Sparse A: the 4-bit index field (two 2-bit positions) of group `g` of row `i` in index
    /// set `set` (each lane holds one field per group it holds, sets side by side).
    pub fn index_loc(&self, i: u32, g: u32, set: u32) -> Loc {
        let kl = (self.k / 2 * self.m / 64).max(1);
        let groups = (kl / 2).max(1);
        Loc {
            reg: 0,
            lane: self.m * (2 * g / kl) + i,
            bit: 4 * groups * set + 4 * (g % groups),
        }
    }
}

/// The block whose A feeds block `b` under CBSZ/ABID: each group of 2^cbsz blocks reads block
/// `abid` of its group.
pub fn a_block(b: u32, cbsz: u8, abid: u8) -> u32 {
    let mask = (1u32 << cbsz.min(4)) - 1;
    (b & !mask) | (u32::from(abid) & mask)
}

/// The lane whose B data lane `l` reads under BLGP: 1/2 broadcast lanes 0–31/32–63 to both
/// halves, 3 rotates down by 16 lanes, 4–7 broadcast lanes 16·(blgp−4) .. +15 to all quarters.
pub fn b_lane(l: u32, blgp: u8) -> u32 {
    match blgp & 7 {
        0 => l,
        1 => l % 32,
        2 => 32 + l % 32,
        3 => (l + 16) % 64,
        g => 16 * (u32::from(g) - 4) + l % 16,
    }
}
