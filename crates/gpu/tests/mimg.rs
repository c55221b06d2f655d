//! MIMG instruction semantics against host computations: mip levels (load/store/resinfo,
//! explicit and derivative LODs, point and linear mip filtering), gather4, depth compare,
//! offsets, bias, get_lod, atomics, D16, A16, packed loads, TFE, and memory faults. The
//! descriptors are built here field by field (`rsrc`), the image bytes laid out by the linear
//! rules (rows of 256 bytes, mip levels down the rows), and every expectation computed from
//! those bytes by the ISA's definitions.

mod common;
use common::*;
use softhsa_gpu::exec::mimg::rsrc::{clamp, filter, sel, ty, ImageRsrc, SamplerRsrc};

/// 256-byte aligned host storage for an image.
struct Store {
    buf: Vec<u64>,
    off: usize,
}

impl Store {
    fn new(bytes: usize) -> Store {
        let buf = vec![0u64; bytes / 8 + 64];
        let off = (256 - (buf.as_ptr() as usize & 255)) & 255;
        Store { buf, off }
    }
    fn base(&self) -> u64 {
        self.buf.as_ptr() as u64 + self.off as u64
    }
    fn bytes(&mut self) -> &mut [u8] {
        let off = self.off;
        // SAFETY: a byte view of the u64 buffer, from the aligned offset.
        let all = unsafe {
            std::slice::from_raw_parts_mut(self.buf.as_mut_ptr().cast::<u8>(), self.buf.len() * 8)
        };
        &mut all[off..]
    }
}

/// Runs one MIMG instruction over 64 lanes: v[1:8] hold `addr[lane]`, v[10:17] hold
/// `data[lane]` before it and are returned after it.
fn run_inst(
    inst: &str,
    t: &ImageRsrc,
    s: &SamplerRsrc,
    addr: &[[u32; 8]],
    data: &[[u32; 8]],
    map: &Map,
) -> Result<Vec<[u32; 8]>, softhsa_gpu::Fault> {
    let asm = format!(
        "s_load_dwordx4 s[20:23], s[0:1], 0x0\ns_load_dwordx4 s[24:27], s[0:1], 0x10\n\
         s_load_dwordx2 s[28:29], s[0:1], 0x20\ns_waitcnt lgkmcnt(0)\n\
         s_load_dwordx8 s[32:39], s[24:25], 0x0\ns_load_dwordx4 s[40:43], s[26:27], 0x0\n\
         v_lshlrev_b32 v9, 5, v0\nglobal_load_dwordx4 v[1:4], v9, s[22:23]\n\
         global_load_dwordx4 v[5:8], v9, s[22:23] offset:16\n\
         global_load_dwordx4 v[10:13], v9, s[28:29]\n\
         global_load_dwordx4 v[14:17], v9, s[28:29] offset:16\n\
         s_waitcnt vmcnt(0) lgkmcnt(0)\n{inst}\ns_waitcnt vmcnt(0)\n\
         global_store_dwordx4 v9, v[10:13], s[20:21]\n\
         global_store_dwordx4 v9, v[14:17], s[20:21] offset:16\ns_endpgm\n"
    );
    let k = kernel(&asm, descriptor());
    let mut out = vec![[0u32; 8]; 64];
    let mut a = addr.to_vec();
    a.resize(64, [0; 8]);
    let mut d = data.to_vec();
    d.resize(64, [0; 8]);
    let mut tw = t.to_words();
    let mut sw = s.to_words();
    let args = [
        map.add(&mut out),
        map.add(&mut a),
        map.add(&mut tw),
        map.add(&mut sw),
        map.add(&mut d),
    ];
    run(&device(), &k, map, &args, [64, 1, 1], [64, 1, 1])?;
    Ok(out)
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// A 2D R32_FLOAT image of `w`×`h` with `levels` mip levels: texel (x, y) of level l holds
/// `100 l + y + x / 100`. Returns the store and the T#.
fn r32f_mips(w: u32, h: u32, levels: u32) -> (Store, ImageRsrc) {
    let pitch = 64u32; // 256-byte rows of 4-byte texels (w <= 64)
    let mut heights = vec![h];
    for _ in 1..levels {
        let p = *heights.last().unwrap();
        heights.push(p.div_ceil(2).max(1));
    }
    let rows: u32 = heights.iter().sum();
    let mut st = Store::new((rows * pitch * 4) as usize);
    let mut row0 = 0;
    for l in 0..levels {
        let (lw, lh) = ((w >> l).max(1), (h >> l).max(1));
        for y in 0..lh {
            for x in 0..lw {
                let v = 100.0 * l as f32 + y as f32 + x as f32 / 100.0;
                let at = (((row0 + y) * pitch + x) * 4) as usize;
                st.bytes()[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
        row0 += heights[l as usize];
    }
    let t = ImageRsrc {
        base: st.base(),
        data_format: 4,
        num_format: 7,
        width: w,
        height: h,
        dst_sel: [sel::X, sel::ZERO, sel::ZERO, sel::ONE],
        last_level: (levels - 1) as u8,
        max_mip: (levels - 1) as u8,
        ty: ty::IMG_2D,
        depth: 1,
        pitch,
        ..Default::default()
    };
    (st, t)
}

fn mip_value(l: u32, x: u32, y: u32) -> f32 {
    100.0 * l as f32 + y as f32 + x as f32 / 100.0
}

#[test]
fn load_mip_store_mip_and_resinfo() {
    let map = Map::default();
    let (mut st, t) = r32f_mips(16, 8, 4);
    map.add(st.bytes());
    let s = SamplerRsrc::default();
    // Lane l reads (l % 9, l / 9 % 5) of level l % 5 (level 4 is past the last: zeros).
    let addr: Vec<[u32; 8]> = (0..64u32)
        .map(|l| [l % 9, l / 9 % 5, l % 5, 0, 0, 0, 0, 0])
        .collect();
    let out = run_inst(
        "image_load_mip v[10:13], v[1:3], s[32:39] dmask:0xf unorm",
        &t,
        &s,
        &addr,
        &[],
        &map,
    )
    .unwrap();
    for l in 0..64u32 {
        let (x, y, m) = (l % 9, l / 9 % 5, l % 5);
        let inside = m < 4 && x < (16 >> m).max(1) && y < (8 >> m).max(1);
        let want = if inside {
            [f(mip_value(m, x, y)), 0, 0, f(1.0)]
        } else {
            [0, 0, 0, f(1.0)]
        };
        assert_eq!(out[l as usize][..4], want, "lane {l}");
    }
    // Store into level 2 and read the bytes back.
    let data: Vec<[u32; 8]> = (0..64u32)
        .map(|l| [f(l as f32 * 0.5), 0, 0, 0, 0, 0, 0, 0])
        .collect();
    let addr: Vec<[u32; 8]> = (0..64u32)
        .map(|l| [l % 4, l / 4 % 2, 2, 0, 0, 0, 0, 0])
        .collect();
    run_inst(
        "image_store_mip v[10:13], v[1:3], s[32:39] dmask:0xf unorm",
        &t,
        &s,
        &addr,
        &data,
        &map,
    )
    .unwrap();
    for l in 56..64u32 {
        // The last lane writing each texel wins (lanes store in order).
        let (x, y) = (l % 4, l / 4 % 2);
        let at = (((8 + 4 + y) * 64 + x) * 4) as usize;
        let got = f32::from_le_bytes(st.bytes()[at..at + 4].try_into().unwrap());
        assert_eq!(got, l as f32 * 0.5, "texel ({x},{y}) of level 2");
    }
    // resinfo of levels 0..5: width, height, 0, levels.
    let addr: Vec<[u32; 8]> = (0..64u32).map(|l| [l % 6, 0, 0, 0, 0, 0, 0, 0]).collect();
    let out = run_inst(
        "image_get_resinfo v[10:13], v1, s[32:39] dmask:0xf",
        &t,
        &s,
        &addr,
        &[],
        &map,
    )
    .unwrap();
    for (l, o) in out.iter().enumerate().take(6) {
        let want = if l < 4 {
            [16 >> l, (8 >> l).max(1), 0, 4]
        } else {
            [0; 4]
        };
        assert_eq!(o[..4], want, "resinfo level {l}");
    }
}

/// The point-filtered texel of level `lvl` at normalized (u, v): fixed point with 8 fraction
/// bits, rounded to nearest even, then floor.
fn point(lvl: u32, u: f32, v: f32, w: u32, h: u32) -> f32 {
    let (lw, lh) = ((w >> lvl).max(1), (h >> lvl).max(1));
    let ix = ((u * lw as f32) as f64 * 256.0).round_ties_even() as i64 >> 8;
    let iy = ((v * lh as f32) as f64 * 256.0).round_ties_even() as i64 >> 8;
    mip_value(
        lvl,
        ix.clamp(0, lw as i64 - 1) as u32,
        iy.clamp(0, lh as i64 - 1) as u32,
    )
}

#[test]
fn explicit_lod_with_point_and_linear_mip_filters() {
    let map = Map::default();
    let (mut st, t) = r32f_mips(32, 16, 5);
    map.add(st.bytes());
    let lods = [-1.0f32, 0.0, 0.3, 0.5, 1.0, 1.25, 2.75, 3.5, 4.0, 9.0];
    let addr: Vec<[u32; 8]> = (0..64usize)
        .map(|l| {
            let (u, v) = ((l % 8) as f32 / 8.0 + 0.03, (l / 8) as f32 / 8.0 + 0.01);
            [f(u), f(v), f(lods[l % lods.len()]), 0, 0, 0, 0, 0]
        })
        .collect();
    for mip in [filter::MIP_POINT, filter::MIP_LINEAR] {
        let s = SamplerRsrc {
            clamp: [clamp::CLAMP_LAST_TEXEL; 3],
            max_lod: 4095,
            mip_filter: mip,
            ..Default::default()
        };
        let out = run_inst(
            "image_sample_l v10, v[1:3], s[32:39], s[40:43] dmask:0x1",
            &t,
            &s,
            &addr,
            &[],
            &map,
        )
        .unwrap();
        for (l, a) in addr.iter().enumerate() {
            let (u, v, lod) = (
                f32::from_bits(a[0]),
                f32::from_bits(a[1]),
                f32::from_bits(a[2]),
            );
            let q = ((lod.max(0.0) as f64) * 256.0).round_ties_even() as i32;
            let want = if mip == filter::MIP_POINT {
                point((((q + 128) >> 8) as u32).min(4), u, v, 32, 16)
            } else {
                let (l0, fr) = ((q >> 8) as u32, (q & 255) as u32);
                if l0 >= 4 || fr == 0 {
                    point(l0.min(4), u, v, 32, 16)
                } else {
                    (point(l0, u, v, 32, 16) * (256 - fr) as f32
                        + point(l0 + 1, u, v, 32, 16) * fr as f32)
                        * (1.0 / 256.0)
                }
            };
            assert_eq!(
                f32::from_bits(out[l][0]),
                want,
                "mip filter {mip} lane {l} lod {lod}"
            );
        }
    }
}

#[test]
fn implicit_derivatives_bias_and_get_lod() {
    let map = Map::default();
    let (mut st, t) = r32f_mips(32, 16, 5);
    map.add(st.bytes());
    let s = SamplerRsrc {
        clamp: [clamp::CLAMP_LAST_TEXEL; 3],
        max_lod: 4095,
        mip_filter: filter::MIP_POINT,
        ..Default::default()
    };
    // Quad q (lanes 4q..4q+3 = (0,0), (1,0), (0,1), (1,1)) steps u by 2^q / 32 per lane in x
    // and v by 1/16 in y: LOD log2(max(2^q, 1)) = q along x.
    let addr: Vec<[u32; 8]> = (0..64u32)
        .map(|l| {
            let q = (l / 4) % 6;
            let (dx, dy) = (l & 1, l >> 1 & 1);
            let u = 0.25 + dx as f32 * (1u32 << q) as f32 / 32.0;
            let v = 0.5 + dy as f32 / 16.0;
            // image_sample_b: bias first, then u, v.
            [
                f(if l >= 32 { 1.0 } else { 0.0 }),
                f(u),
                f(v),
                0,
                0,
                0,
                0,
                0,
            ]
        })
        .collect();
    let out = run_inst(
        "image_sample_b v10, v[1:3], s[32:39], s[40:43] dmask:0x1",
        &t,
        &s,
        &addr,
        &[],
        &map,
    )
    .unwrap();
    for (l, a) in addr.iter().enumerate() {
        let q = (l as u32 / 4) % 6;
        let bias = f32::from_bits(a[0]);
        let lod = (q as f32 + bias).clamp(0.0, 4.0);
        let lvl = ((lod * 256.0) as i32 + 128) >> 8;
        let want = point(
            lvl as u32,
            f32::from_bits(a[1]),
            f32::from_bits(a[2]),
            32,
            16,
        );
        assert_eq!(f32::from_bits(out[l][0]), want, "lane {l}");
    }
    // get_lod: (clamped, raw) for the same quads, without the bias operand.
    let addr2: Vec<[u32; 8]> = addr
        .iter()
        .map(|a| [a[1], a[2], 0, 0, 0, 0, 0, 0])
        .collect();
    let out = run_inst(
        "image_get_lod v[10:11], v[1:2], s[32:39], s[40:43] dmask:0x3",
        &t,
        &s,
        &addr2,
        &[],
        &map,
    )
    .unwrap();
    for (l, o) in out.iter().enumerate() {
        let q = (l as u32 / 4) % 6;
        assert_eq!(f32::from_bits(o[1]), q as f32, "raw lod lane {l}");
        assert_eq!(f32::from_bits(o[0]), q as f32, "lod lane {l}");
    }
}

/// A 2D RGBA8 UNORM image of 8×8 whose texel (x, y) bytes are (x, y, x + y, 255 - 8x - y).
fn rgba8() -> (Store, ImageRsrc) {
    let mut st = Store::new(8 * 256);
    for y in 0..8u32 {
        for x in 0..8u32 {
            let at = (y * 256 + x * 4) as usize;
            st.bytes()[at..at + 4].copy_from_slice(&[
                x as u8,
                y as u8,
                (x + y) as u8,
                (255 - 8 * x - y) as u8,
            ]);
        }
    }
    let t = ImageRsrc {
        base: st.base(),
        data_format: 10,
        num_format: 0,
        width: 8,
        height: 8,
        dst_sel: [sel::X, sel::Y, sel::Z, sel::W],
        ty: ty::IMG_2D,
        depth: 1,
        pitch: 64,
        ..Default::default()
    };
    (st, t)
}

fn texel8(x: i64, y: i64, c: usize) -> u32 {
    let (x, y) = (x.rem_euclid(8) as u32, y.rem_euclid(8) as u32);
    let b = [x, y, x + y, 255 - 8 * x - y][c];
    f(b as f32 / 255.0)
}

#[test]
fn gather4_offsets_and_packed_loads() {
    let map = Map::default();
    let (mut st, t) = rgba8();
    map.add(st.bytes());
    let s = SamplerRsrc {
        clamp: [clamp::WRAP; 3],
        xy_mag_filter: filter::XY_BILINEAR,
        xy_min_filter: filter::XY_BILINEAR,
        ..Default::default()
    };
    let addr: Vec<[u32; 8]> = (0..64u32)
        .map(|l| {
            [
                f((l % 11) as f32 / 9.0 - 0.1),
                f((l / 11) as f32 / 7.0),
                0,
                0,
                0,
                0,
                0,
                0,
            ]
        })
        .collect();
    for (dmask, c) in [(1, 0), (2, 1), (4, 2), (8, 3)] {
        let out = run_inst(
            &format!("image_gather4_lz v[10:13], v[1:2], s[32:39], s[40:43] dmask:{dmask:#x}"),
            &t,
            &s,
            &addr,
            &[],
            &map,
        )
        .unwrap();
        for (l, a) in addr.iter().enumerate() {
            let fx = |v: u32| {
                (((f32::from_bits(v) * 8.0) as f64 * 256.0).round_ties_even() as i64 - 128) >> 8
            };
            let (i0, j0) = (fx(a[0]), fx(a[1]));
            let want = [
                texel8(i0, j0 + 1, c),
                texel8(i0 + 1, j0 + 1, c),
                texel8(i0 + 1, j0, c),
                texel8(i0, j0, c),
            ];
            assert_eq!(out[l][..4], want, "gather channel {c} lane {l}");
        }
    }
    // Point sampling with texel offsets (-2..+3 in x, -1 in y), unnormalized coordinates.
    let s = SamplerRsrc {
        clamp: [clamp::CLAMP_LAST_TEXEL; 3],
        force_unnormalized: true,
        ..Default::default()
    };
    let addr: Vec<[u32; 8]> = (0..64u32)
        .map(|l| {
            let ox = (l % 6) as i32 - 2;
            [
                (ox as u32 & 63) | (63 << 8),
                f((l % 8) as f32 + 0.5),
                f((l / 8) as f32 + 0.5),
                0,
                0,
                0,
                0,
                0,
            ]
        })
        .collect();
    let out = run_inst(
        "image_sample_lz_o v[10:13], v[1:3], s[32:39], s[40:43] dmask:0xf",
        &t,
        &s,
        &addr,
        &[],
        &map,
    )
    .unwrap();
    for l in 0..64i64 {
        let x = (l % 8 + (l % 6) - 2).clamp(0, 7);
        let y = (l / 8 - 1).clamp(0, 7);
        let want: Vec<u32> = (0..4).map(|c| texel8(x, y, c)).collect();
        assert_eq!(out[l as usize][..4], want[..], "offset lane {l}");
    }
    // Raw components: load_pck (zero-extended) and load_pck_sgn (sign-extended).
    let addr: Vec<[u32; 8]> = (0..64u32)
        .map(|l| [l % 8, l / 8, 0, 0, 0, 0, 0, 0])
        .collect();
    for sgn in [false, true] {
        let op = if sgn {
            "image_load_pck_sgn"
        } else {
            "image_load_pck"
        };
        let out = run_inst(
            &format!("{op} v[10:13], v[1:2], s[32:39] dmask:0xf unorm"),
            &t,
            &s,
            &addr,
            &[],
            &map,
        )
        .unwrap();
        for l in 0..64u32 {
            let (x, y) = (l % 8, l / 8);
            let raw = [x, y, x + y, 255 - 8 * x - y];
            let want = raw.map(|v| if sgn { v as u8 as i8 as i32 as u32 } else { v });
            assert_eq!(out[l as usize][..4], want, "{op} lane {l}");
        }
    }
    // D16: two halves per register; TFE: a zero after the data.
    let data = vec![[0xdead_beefu32; 8]; 64];
    let out = run_inst(
        "image_load v[10:12], v[1:2], s[32:39] dmask:0xf unorm tfe d16",
        &t,
        &s,
        &addr,
        &data,
        &map,
    )
    .unwrap();
    for l in 0..64u32 {
        let h = |c: usize| {
            softhsa_gpu::exec::format::f32_to_f16(f32::from_bits(texel8(
                (l % 8) as i64,
                (l / 8) as i64,
                c,
            ))) as u32
        };
        assert_eq!(
            out[l as usize][..4],
            [h(0) | h(1) << 16, h(2) | h(3) << 16, 0, 0xdead_beef],
            "d16 lane {l}"
        );
    }
}

#[test]
fn depth_compare_and_a16() {
    let map = Map::default();
    let (mut st, t) = r32f_mips(16, 8, 1);
    map.add(st.bytes());
    // LESS: reference < texel; bilinear blends the 0/1 results.
    let s = SamplerRsrc {
        clamp: [clamp::CLAMP_LAST_TEXEL; 3],
        depth_compare: 1,
        xy_mag_filter: filter::XY_BILINEAR,
        xy_min_filter: filter::XY_BILINEAR,
        force_unnormalized: true,
        ..Default::default()
    };
    let addr: Vec<[u32; 8]> = (0..64u32)
        .map(|l| {
            [
                f(2.0 + (l % 4) as f32 * 0.5),
                f(3.25 + (l % 5) as f32 * 0.5),
                f(1.5 + (l / 16) as f32),
                0,
                0,
                0,
                0,
                0,
            ]
        })
        .collect();
    let out = run_inst(
        "image_sample_c_lz v10, v[1:3], s[32:39], s[40:43] dmask:0x1",
        &t,
        &s,
        &addr,
        &[],
        &map,
    )
    .unwrap();
    for (l, a) in addr.iter().enumerate() {
        let (r, u, v) = (
            f32::from_bits(a[0]),
            f32::from_bits(a[1]),
            f32::from_bits(a[2]),
        );
        let fx = |c: f32| ((c as f64 * 256.0).round_ties_even() as i64) - 128;
        let (x, y) = (fx(u), fx(v));
        let (i0, fi, j0, fj) = (x >> 8, (x & 255) as u32, y >> 8, (y & 255) as u32);
        let mut acc = 0f32;
        for (dj, wj) in [(0, 256 - fj), (1, fj)] {
            for (di, wi) in [(0, 256 - fi), (1, fi)] {
                if wi * wj == 0 {
                    continue;
                }
                let tv = mip_value(
                    0,
                    (i0 + di).clamp(0, 15) as u32,
                    (j0 + dj).clamp(0, 7) as u32,
                );
                acc += if r < tv { 1.0 } else { 0.0 } * (wi * wj) as f32;
            }
        }
        assert_eq!(f32::from_bits(out[l][0]), acc * (1.0 / 65536.0), "lane {l}");
    }
    // A16: 16-bit float coordinates packed in one register.
    let s = SamplerRsrc {
        clamp: [clamp::CLAMP_LAST_TEXEL; 3],
        ..Default::default()
    };
    let addr: Vec<[u32; 8]> = (0..64u32)
        .map(|l| {
            let (u, v) = (
                (l % 16) as f32 / 16.0 + 1.0 / 32.0,
                (l / 16) as f32 / 4.0 + 1.0 / 16.0,
            );
            let h = |x: f32| softhsa_gpu::exec::format::f32_to_f16(x) as u32;
            [h(u) | h(v) << 16, 0, 0, 0, 0, 0, 0, 0]
        })
        .collect();
    let out = run_inst(
        "image_sample_lz v10, v1, s[32:39], s[40:43] dmask:0x1 a16",
        &t,
        &s,
        &addr,
        &[],
        &map,
    )
    .unwrap();
    for l in 0..64u32 {
        assert_eq!(
            f32::from_bits(out[l as usize][0]),
            mip_value(0, l % 16, (l / 16) * 2),
            "a16 lane {l}"
        );
    }
}

#[test]
fn atomics_return_old_values() {
    let map = Map::default();
    let mut st = Store::new(256 * 2);
    let t = ImageRsrc {
        base: st.base(),
        data_format: 4,
        num_format: 4,
        width: 16,
        height: 2,
        dst_sel: [sel::X, sel::ZERO, sel::ZERO, sel::ONE],
        ty: ty::IMG_2D,
        depth: 1,
        pitch: 64,
        ..Default::default()
    };
    map.add(st.bytes());
    let s = SamplerRsrc::default();
    // 64 lanes add 1..=64 into 16 texels of row 1 (4 lanes each).
    let addr: Vec<[u32; 8]> = (0..64u32).map(|l| [l % 16, 1, 0, 0, 0, 0, 0, 0]).collect();
    let data: Vec<[u32; 8]> = (0..64u32).map(|l| [l + 1, 0, 0, 0, 0, 0, 0, 0]).collect();
    let out = run_inst(
        "image_atomic_add v10, v[1:2], s[32:39] dmask:0x1 unorm glc",
        &t,
        &s,
        &addr,
        &data,
        &map,
    )
    .unwrap();
    for x in 0..16u32 {
        let at = (256 + x * 4) as usize;
        let got = u32::from_le_bytes(st.bytes()[at..at + 4].try_into().unwrap());
        let want: u32 = (0..4).map(|k| x + 16 * k + 1).sum();
        assert_eq!(got, want, "texel {x}");
        // The old values the four lanes saw are distinct partial sums starting at 0.
        let mut olds: Vec<u32> = (0..4).map(|k| out[(x + 16 * k) as usize][0]).collect();
        olds.sort();
        assert_eq!(olds[0], 0);
    }
    // cmpswap on row 0: lane l (< 16) swaps texel l from 0 to l + 100; lanes >= 16 compare
    // with 1 and fail.
    let addr: Vec<[u32; 8]> = (0..64u32).map(|l| [l % 16, 0, 0, 0, 0, 0, 0, 0]).collect();
    let data: Vec<[u32; 8]> = (0..64u32)
        .map(|l| [l + 100, if l < 16 { 0 } else { 1 }, 0, 0, 0, 0, 0, 0])
        .collect();
    let out = run_inst(
        "image_atomic_cmpswap v[10:11], v[1:2], s[32:39] dmask:0x3 unorm glc",
        &t,
        &s,
        &addr,
        &data,
        &map,
    )
    .unwrap();
    for l in 0..64u32 {
        let want_old = if l < 16 { 0 } else { (l % 16) + 100 };
        assert_eq!(out[l as usize][0], want_old, "cmpswap old, lane {l}");
    }
}

#[test]
fn texels_outside_registered_memory_fault() {
    let map = Map::default();
    let (mut st, mut t) = rgba8();
    map.add(st.bytes());
    // An image 64 rows tall over 8 rows of memory: rows 8.. are unregistered.
    t.height = 64;
    let s = SamplerRsrc::default();
    let addr: Vec<[u32; 8]> = (0..64u32).map(|l| [0, l, 0, 0, 0, 0, 0, 0]).collect();
    let f = run_inst(
        "image_load v[10:13], v[1:2], s[32:39] dmask:0xf unorm",
        &t,
        &s,
        &addr,
        &[],
        &map,
    )
    .unwrap_err();
    let text = f.to_string();
    assert!(text.contains("memory"), "{text}");
    let past = st.base() + 8 * 256;
    assert!(
        text.contains(&format!("{past:#x}")) || f.address >= Some(past),
        "{text}"
    );
}
