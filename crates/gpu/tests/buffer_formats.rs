//! Typed buffer instructions (MTBUF, `buffer_*_format_*`, D16) and buffer ↔ LDS transfers,
//! run on the software GPU and compared with host computations of the ISA's conversions.

mod common;
use common::*;

/// Runs one 64-lane wave of `body` with the address of `a` in s[20:21] and of `b` in s[22:23],
/// and `lds` bytes of LDS. V# helpers: [`vsharp`].
fn wave(body: &str, lds: u32, a: &mut [u32], b: &mut [u32]) -> Result<(), softhsa_gpu::Fault> {
    run_two_buffers(body, lds, 64, 64, a, b).map(|_| ())
}

/// Asm that builds a V# in s[first..first+4] over the buffer whose address is in s[ptr:ptr+1].
fn vsharp(first: u32, ptr: u32, stride: u32, records: u32, word3: u32) -> String {
    format!(
        "s_mov_b32 s{first}, s{ptr}\ns_and_b32 s{}, s{}, 0xffff\ns_or_b32 s{}, s{}, {:#x}\n\
         s_mov_b32 s{}, {records:#x}\ns_mov_b32 s{}, {word3:#x}\n",
        first + 1,
        ptr + 1,
        first + 1,
        first + 1,
        stride << 16,
        first + 2,
        first + 3
    )
}

/// V# word 3 with DST_SEL x/y/z/w, NUM_FORMAT and DATA_FORMAT.
fn word3(sel: [u32; 4], nfmt: u32, dfmt: u32) -> u32 {
    sel[0] | sel[1] << 3 | sel[2] << 6 | sel[3] << 9 | nfmt << 12 | dfmt << 15
}

fn unorm(v: u32, bits: u32) -> u32 {
    (v as f32 / ((1u64 << bits) - 1) as f32).to_bits()
}

fn snorm(v: u32, bits: u32) -> u32 {
    let s = ((v << (32 - bits)) as i32) >> (32 - bits);
    (s as f32 / ((1u64 << (bits - 1)) - 1) as f32)
        .max(-1.0)
        .to_bits()
}

/// An unsigned float with a 5-bit exponent and `m` mantissa bits, from its definition.
fn small_float(v: u32, m: u32) -> u32 {
    let (e, f) = (v >> m, v & ((1 << m) - 1));
    let frac = f as f64 / (1u64 << m) as f64;
    let x = match e {
        0 => frac * 2f64.powi(-14),
        31 if f == 0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + frac) * 2f64.powi(e as i32 - 15),
    };
    (x as f32).to_bits()
}

/// The four channel values a format gives for a record (its dwords).
type Reference = fn(&[u32]) -> [u32; 4];

fn pseudo(i: u32) -> u32 {
    i.wrapping_mul(0x9e37_79b9).rotate_left(7) ^ 0x5bd1_e995
}

#[test]
fn tbuffer_loads_convert_every_class_of_format() {
    // Element i of a structured buffer (stride 16) holds a pseudo-random dword pattern; each
    // lane loads record `lane` with one format and writes xyzw to out[4 * lane..].
    let mut input: Vec<u32> = (0..256).map(pseudo).collect();
    let cases: [(&str, Reference); 6] = [
        ("BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_UNORM", |d| {
            std::array::from_fn(|c| unorm(d[0] >> (8 * c) & 0xff, 8))
        }),
        ("BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_SNORM", |d| {
            [snorm(d[0] & 0xffff, 16), snorm(d[0] >> 16, 16), 0, 0]
        }),
        ("BUF_DATA_FORMAT_10_11_11,BUF_NUM_FORMAT_FLOAT", |d| {
            [
                small_float(d[0] & 0x7ff, 6),
                small_float(d[0] >> 11 & 0x7ff, 6),
                small_float(d[0] >> 22, 5),
                0,
            ]
        }),
        ("BUF_DATA_FORMAT_2_10_10_10,BUF_NUM_FORMAT_SINT", |d| {
            let s = |v: u32, n: u32| (((v << (32 - n)) as i32) >> (32 - n)) as u32;
            [
                s(d[0] & 0x3ff, 10),
                s(d[0] >> 10 & 0x3ff, 10),
                s(d[0] >> 20 & 0x3ff, 10),
                s(d[0] >> 30, 2),
            ]
        }),
        ("BUF_DATA_FORMAT_8_8,BUF_NUM_FORMAT_USCALED", |d| {
            [
                (d[0] as u8 as f32).to_bits(),
                ((d[0] >> 8) as u8 as f32).to_bits(),
                0,
                0,
            ]
        }),
        ("BUF_DATA_FORMAT_32_32_32,BUF_NUM_FORMAT_UNORM", |d| {
            [d[0], d[1], d[2], 0]
        }),
    ];
    for (fmt, reference) in cases {
        let mut out = vec![0u32; 256];
        let body = format!(
            "{}v_mov_b32 v1, v0\n\
             tbuffer_load_format_xyzw v[2:5], v1, s[24:27], 0 format:[{fmt}] idxen\n\
             s_waitcnt vmcnt(0)\nv_lshlrev_b32 v6, 4, v0\n\
             global_store_dwordx4 v6, v[2:5], s[22:23]\n",
            vsharp(24, 20, 16, 64, 0)
        );
        wave(&body, 0, &mut input, &mut out).unwrap_or_else(|f| panic!("{fmt}: {f}"));
        for l in 0..64 {
            let want = reference(&input[4 * l..4 * l + 4]);
            assert_eq!(&out[4 * l..4 * l + 4], &want, "{fmt} lane {l}");
        }
    }
}

#[test]
fn tbuffer_stores_round_and_pack() {
    // Lane l stores (l / 63, -l / 63, l * 0.25, 2.0) as 8_8_8_8 SNORM at byte 4 * l, and
    // (l, 70000 - l) as 16_16 UINT (saturating) at 256 + 4 * l.
    let mut out = vec![0u32; 128];
    let mut none = vec![0u32; 1];
    let body = format!(
        "{}v_cvt_f32_u32 v2, v0\nv_mul_f32 v2, 0x3c820821, v2\n\
         v_sub_f32 v3, 0, v2\nv_cvt_f32_u32 v4, v0\nv_mul_f32 v4, 0.25, v4\nv_mov_b32 v5, 2.0\n\
         v_lshlrev_b32 v1, 2, v0\n\
         tbuffer_store_format_xyzw v[2:5], v1, s[24:27], 0 format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_SNORM] offen\n\
         v_mov_b32 v6, v0\nv_sub_u32 v7, 70000, v0\n\
         tbuffer_store_format_xy v[6:7], v1, s[24:27], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_UINT] offen offset:256\n",
        vsharp(24, 20, 0, 512, 0)
    );
    wave(&body, 0, &mut out, &mut none).unwrap_or_else(|f| panic!("{f}"));
    let sn = |x: f32| ((x.clamp(-1.0, 1.0) * 127.0).round_ties_even() as i32 as u32) & 0xff;
    for l in 0..64u32 {
        let x = l as f32 * f32::from_bits(0x3c82_0821);
        let want = sn(x) | sn(-x) << 8 | sn(l as f32 * 0.25) << 16 | sn(2.0) << 24;
        assert_eq!(out[l as usize], want, "snorm lane {l}");
        let want = l | (70000 - l).min(0xffff) << 16;
        assert_eq!(out[64 + l as usize], want, "uint lane {l}");
    }
}

#[test]
fn buffer_format_loads_take_format_and_swizzle_from_the_vsharp() {
    // 16_16_16_16 FLOAT with DST_SEL (Z, X, 1, 0); records past num_records read 0 except
    // the SEL_1 component (1.0).
    let mut input: Vec<u32> = (0..128).map(|i| pseudo(i) & 0x7bff_7bff).collect();
    let mut out = vec![0u32; 256];
    let w3 = word3([6, 4, 1, 0], 7, 12);
    let body = format!(
        "{}buffer_load_format_xyzw v[2:5], v0, s[24:27], 0 idxen\n\
         s_waitcnt vmcnt(0)\nv_lshlrev_b32 v6, 4, v0\nglobal_store_dwordx4 v6, v[2:5], s[22:23]\n",
        vsharp(24, 20, 8, 48, w3)
    );
    wave(&body, 0, &mut input, &mut out).unwrap_or_else(|f| panic!("{f}"));
    let h = |v: u32| half_to_f32(v as u16).to_bits();
    for l in 0..64 {
        let d = &input[2 * l..2 * l + 2];
        let want = if l < 48 {
            [h(d[1]), h(d[0]), 1.0f32.to_bits(), 0]
        } else {
            [0, 0, 1.0f32.to_bits(), 0]
        };
        assert_eq!(&out[4 * l..4 * l + 4], &want, "lane {l}");
    }
}

/// f16 widened by its definition.
fn half_to_f32(h: u16) -> f32 {
    let (s, e, f) = (h >> 15, i32::from((h >> 10) & 31), f64::from(h & 0x3ff));
    let m = if e == 0 {
        f / 1024.0 * 2f64.powi(-14)
    } else {
        (1.0 + f / 1024.0) * 2f64.powi(e - 15)
    };
    (if s == 1 { -m } else { m }) as f32
}

#[test]
fn d16_format_loads_and_stores_pack_halves() {
    // 8_8_8_8 UNORM loaded as four halves into v[2:3]; then stored back as 16_16_16_16 FLOAT
    // with buffer_store_format_d16_xyzw (V# format) and read raw.
    let mut input: Vec<u32> = (0..64).map(pseudo).collect();
    let mut out = vec![0u32; 192];
    let w3 = word3([4, 5, 6, 7], 7, 12);
    let body = format!(
        "{}{}v_lshlrev_b32 v1, 2, v0\n\
         tbuffer_load_format_d16_xyzw v[2:3], v1, s[24:27], 0 format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_UNORM] offen\n\
         s_waitcnt vmcnt(0)\nv_lshlrev_b32 v4, 3, v0\n\
         buffer_store_format_d16_xyzw v[2:3], v4, s[28:31], 0 offen\n",
        vsharp(24, 20, 0, 256, 0),
        vsharp(28, 22, 0, 512, w3)
    );
    wave(&body, 0, &mut input, &mut out).unwrap_or_else(|f| panic!("{f}"));
    for l in 0..64 {
        let halves: Vec<u32> = (0..4)
            .map(|c| {
                let x = f32::from_bits(unorm(input[l] >> (8 * c) & 0xff, 8));
                u32::from(f32_to_half(x))
            })
            .collect();
        let want = [halves[0] | halves[1] << 16, halves[2] | halves[3] << 16];
        assert_eq!(&out[2 * l..2 * l + 2], &want, "lane {l}");
    }
}

/// f32 to f16 (round to nearest even) by search over the f16 values: independent of the
/// device's bit manipulation.
fn f32_to_half(x: f32) -> u16 {
    let mut best = 0u16;
    for h in 0..0x7c00u16 {
        let (d, db) = ((half_to_f32(h) - x).abs(), (half_to_f32(best) - x).abs());
        if d < db || d == db && h % 2 == 0 && best % 2 == 1 {
            best = h;
        }
    }
    best
}

#[test]
fn buffer_loads_to_lds_and_lds_to_buffer() {
    // Lane l loads dword l (and sbyte 4l) of the input into LDS at M0 + offset + 4l; a
    // ds_read gives them back. buffer_store_lds_dword then writes LDS dwords to memory.
    let mut input: Vec<u32> = (0..64).map(|i| pseudo(i) | 0x80).collect();
    let mut out = vec![0u32; 192];
    let body = format!(
        "{}{}s_mov_b32 m0, 0x100\nv_lshlrev_b32 v1, 2, v0\n\
         buffer_load_dword v1, s[24:27], 0 offen offset:0 lds\n\
         s_mov_b32 m0, 0x200\nbuffer_load_sbyte v1, s[24:27], 0 offen lds\n\
         s_waitcnt vmcnt(0)\nv_lshlrev_b32 v2, 2, v0\n\
         ds_read_b32 v3, v2 offset:0x100\nds_read_b32 v4, v2 offset:0x200\ns_waitcnt lgkmcnt(0)\n\
         global_store_dword v2, v3, s[22:23]\nglobal_store_dword v2, v4, s[22:23] offset:256\n\
         s_mov_b32 m0, 0x100\ns_movk_i32 s32, 0x200\n\
         buffer_store_lds_dword s[28:31], s32 lds\n",
        vsharp(24, 20, 0, 256, 0),
        // ADD_TID: lane l's dword goes to s32 + 4 * l.
        vsharp(28, 22, 4, 1024, 1 << 23)
    );
    wave(&body, 0x400, &mut input, &mut out).unwrap_or_else(|f| panic!("{f}"));
    for l in 0..64 {
        assert_eq!(out[l], input[l], "dword lane {l}");
        let b = (input[l] & 0xff) as u8 as i8 as i32 as u32;
        assert_eq!(out[64 + l], b, "sbyte lane {l}");
        assert_eq!(out[128 + l], input[l], "store_lds lane {l}");
    }
}

#[test]
fn tfe_loads_write_a_zero_status_after_their_data() {
    // v3 (after a one-dword format load) and v6 (after a dwordx2 load) hold 0x77 before.
    let mut input: Vec<u32> = (0..64).map(pseudo).collect();
    let mut out = vec![0u32; 128];
    let body = format!(
        "{}v_mov_b32 v3, 0x77\nv_mov_b32 v6, 0x77\nv_lshlrev_b32 v1, 2, v0\n\
         tbuffer_load_format_x v2, v1, s[24:27], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_UINT] offen tfe\n\
         buffer_load_dwordx2 v[4:5], v1, s[24:27], 0 offen tfe\ns_waitcnt vmcnt(0)\n\
         v_add_u32 v7, v2, v3\nv_add_u32 v8, v4, v6\nv_lshlrev_b32 v9, 3, v0\n\
         global_store_dwordx2 v9, v[7:8], s[22:23]\n",
        vsharp(24, 20, 0, 256, 0)
    );
    wave(&body, 0, &mut input, &mut out).unwrap_or_else(|f| panic!("{f}"));
    for l in 0..64 {
        assert_eq!(out[2 * l], input[l], "format load, lane {l}");
        // Lane 63's dwordx2 runs past num_records: all of it reads 0.
        let want = if l < 63 { input[l] } else { 0 };
        assert_eq!(out[2 * l + 1], want, "dwordx2 load, lane {l}");
    }
}
