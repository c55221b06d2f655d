//! The per-site hints of the vector-memory stubs (`mem_vector.rs`): a site whose lanes were
//! scattered goes straight to the general path for a while, then tries the fast paths again;
//! the results stay the interpreter's whatever path served them. And the scalar loads' notes
//! of the address they proved (`mem_scalar.rs`).

use super::mem_vector::{PREFETCH_AHEAD, SKIP_HINTS};
use super::tests::{isas, random_wave, Rng};
use super::tests_linear::{kernel, wave, Index};
use super::tests_mem::{flat, run, run_cached, Carry, BUF};
use super::JitCode;
use crate::program::Program;
use crate::wave::UNFENCED_VECTOR;

/// How a round lays its lanes' dwords out.
#[derive(Clone, Copy, Debug)]
enum Layout {
    Scattered,
    Consecutive,
    /// Four rows of 16 consecutive lanes, 400 bytes apart (a 2-D work-group's wave).
    Rows,
}

/// The dword index of each lane (distinct, so that scattered stores never collide).
fn indices(r: &mut Rng, layout: Layout) -> [u32; 64] {
    let n = (BUF / 4) as u32;
    let mut idx = [0u32; 64];
    match layout {
        Layout::Scattered => {
            let mut used = std::collections::HashSet::new();
            for i in idx.iter_mut() {
                *i = loop {
                    let k = (r.next() % u64::from(n)) as u32;
                    if used.insert(k) {
                        break k;
                    }
                };
            }
        }
        Layout::Consecutive => {
            let start = (r.next() % u64::from(n - 64)) as u32;
            for (l, i) in idx.iter_mut().enumerate() {
                *i = start + l as u32;
            }
        }
        Layout::Rows => {
            let start = (r.next() % u64::from(n - 512)) as u32;
            for (l, i) in idx.iter_mut().enumerate() {
                *i = start + (l as u32 / 16) * 100 + l as u32 % 16;
            }
        }
    }
    idx
}

/// What rounds of a program with the sites kept from run to run share: its code for each
/// ISA, each ISA's carried cache, the buffer and its first contents.
struct Rounds {
    jits: Vec<JitCode>,
    caches: Vec<Carry>,
    buf: Vec<u8>,
    init: Vec<u8>,
}

impl Rounds {
    fn new(prog: &Program, isas: &[super::Isa], r: &mut Rng) -> Rounds {
        Rounds {
            jits: isas
                .iter()
                .map(|&isa| JitCode::compile(prog, 0, false, false, isa).expect("compiles"))
                .collect(),
            caches: isas.iter().map(|_| Carry::default()).collect(),
            buf: vec![0u8; BUF],
            init: (0..BUF).map(|_| r.next() as u8).collect(),
        }
    }
}

/// `global_load_dword v1, v[20:21], off` (site 0), `global_store_dword v22, v1, s[10:11]`
/// (site 1), `s_endpgm`.
fn load_then_store() -> Program {
    let code: Vec<u8> = [
        flat(0x14, 2, 20, 0, 0x7f, 1, 0),
        flat(0x1c, 2, 22, 1, 10, 0, 0),
        [0xbf81_0000, 0],
    ]
    .iter()
    .flatten()
    .flat_map(|d| d.to_le_bytes())
    .take(20)
    .collect();
    Program::new(&code, 0x1000)
}

/// A load and a store run 200 times with the sites' cache kept from run to run (as a worker
/// keeps it between work-groups): scattered lanes first (the countdown starts, and runs),
/// then consecutive ones (served by the general path until the countdown ends, then by the
/// consecutive path; the countdown ends at round 126), then rows (and an edge wave of rows, which starts no countdown), then all three mixed
/// under partial EXEC masks.
#[test]
fn scattered_sites_skip_the_fast_paths_for_a_while() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let prog = load_then_store();
    let mut r = Rng(0x5eed);
    let Rounds {
        jits,
        mut caches,
        mut buf,
        init,
    } = Rounds::new(&prog, &isas, &mut r);
    let base = buf.as_ptr() as u64;
    for round in 0..200u32 {
        let layout = match round {
            0..80 => Layout::Scattered,
            80..150 => Layout::Consecutive,
            150..=170 => Layout::Rows,
            _ => [Layout::Scattered, Layout::Consecutive, Layout::Rows][round as usize % 3],
        };
        let mut w0 = random_wave(&mut Rng(u64::from(round)));
        match round {
            0..170 => w0.set_exec(u64::MAX),
            // An edge wave of a 2-D grid: its first lane is inactive, with a stale address.
            170 => w0.set_exec(!1),
            _ => {}
        }
        let load = indices(&mut r, layout);
        let store = indices(&mut r, layout);
        for l in 0..64 {
            let a = base + 4 * u64::from(load[l]);
            w0.v[20][l] = a as u32;
            w0.v[21][l] = (a >> 32) as u32;
            w0.v[22][l] = 4 * store[l];
        }
        if round == 170 {
            w0.v[20][0] ^= 0x5a5a_0000; // the inactive lane's stale address
        }
        w0.set_s64(10, base);
        let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
        assert!(a.r.is_ok(), "round {round}: {:?}", a.r);
        for ((isa, jit), cache) in isas.iter().zip(&jits).zip(caches.iter_mut()) {
            let b = run_cached(&prog, &w0, &mut buf, &init, 0, &[], Some(jit), cache);
            assert_eq!(a.r, b.r, "round {round} {isa:?} ({layout:?})");
            assert_eq!(a.w.v[1], b.w.v[1], "round {round} {isa:?} ({layout:?}): v1");
            assert!(a.mem == b.mem, "round {round} {isa:?} ({layout:?}): memory");
            let hint = |site: usize| cache.cache.sites[site].hint & 0xff;
            match round {
                // The first scattered run starts both sites' countdowns (and runs them down
                // once: its retry after the checker proved the range), the next one runs
                // them down by one more.
                0 => assert_eq!(
                    (hint(0), hint(1)),
                    (SKIP_HINTS as u64 - 2, SKIP_HINTS as u64 - 2)
                ),
                1 => assert_eq!(hint(0), SKIP_HINTS as u64 - 4, "{isa:?}"),
                // Consecutive lanes since round 80; the countdown ended at round 126.
                149 => assert_eq!((hint(0), hint(1)), (0, 0), "{isa:?}"),
                // Rows: the rows path served the load.
                169 => assert_eq!(hint(0), 1, "{isa:?}"),
                // A partial wave that fails the fast paths starts no countdown.
                170 => assert!(hint(0) < 2, "{isa:?}: {}", hint(0)),
                _ => {}
            }
        }
    }
}

/// Stores into the worker's scratch backing leave nothing to fence (only the worker's thread
/// reaches it); stores anywhere else, or across it and other memory, make the next
/// `s_waitcnt vmcnt(0)` a fence. Each case runs twice with its sites kept, so that the second
/// run takes the site's range (and its note) from the cache.
#[test]
fn stores_to_the_scratch_backing_need_no_fence() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let code: Vec<u8> = [flat(0x1c, 2, 20, 1, 0x7f, 0, 0), [0xbf81_0000, 0]]
        .iter()
        .flatten()
        .flat_map(|d| d.to_le_bytes())
        .take(12)
        .collect(); // global_store_dword v[20:21], v1, off; s_endpgm
    let prog = Program::new(&code, 0x1000);
    let mut buf = vec![0u8; BUF];
    let mut r = Rng(7);
    let init: Vec<u8> = (0..BUF).map(|_| r.next() as u8).collect();
    let base = buf.as_ptr() as u64;
    let half = BUF as u64 / 2;
    // (scratch backing, lane l's dword index, whether the stores need a fence)
    type Case = (std::ops::Range<u64>, fn(usize) -> u64, bool);
    let cases: [Case; 4] = [
        (0..0, |l| l as u64, true),
        (base..base + half, |l| l as u64, false),
        (base..base + half, |l| (l as u64 * 97) % 4096, false),
        (base..base + half, |l| l as u64 * 255, true), // lanes 33.. past the backing
    ];
    for &isa in &isas {
        let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
        for (i, (scratch, index, fenced)) in cases.iter().enumerate() {
            let mut w0 = random_wave(&mut Rng(i as u64));
            w0.set_exec(u64::MAX);
            w0.unfenced_stores = 0;
            for l in 0..64 {
                let a = base + 4 * index(l);
                w0.v[20][l] = a as u32;
                w0.v[21][l] = (a >> 32) as u32;
            }
            let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
            let mut carry = Carry {
                scratch: scratch.clone(),
                ..Carry::default()
            };
            for round in 0..2 {
                let b = run_cached(&prog, &w0, &mut buf, &init, 0, &[], Some(&jit), &mut carry);
                assert_eq!(a.r, b.r, "{isa:?} case {i} round {round}");
                assert!(a.mem == b.mem, "{isa:?} case {i} round {round}: memory");
                assert_eq!(
                    b.w.unfenced_stores & UNFENCED_VECTOR != 0,
                    *fenced,
                    "{isa:?} case {i} round {round}: stores to fence"
                );
            }
        }
    }
}

/// A scalar load's site notes the address it last loaded from: the next wave loading from
/// there reads it without a range check. Rounds of one address, of another, of one outside
/// the buffer (the interpreter's fault; the note stays), of one just past the buffer's end
/// (its last dword is out), all with the sites kept from run to run, must leave the
/// interpreter's registers, faults and notes that follow the address.
#[test]
fn scalar_loads_note_the_address_they_proved() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let prog = super::tests_linear::program(&[
        (
            "s_load_dwordx2 s[0:1], s[10:11], 0x8",
            &[0xc006_0005, 0x0000_0008],
        ),
        ("s_waitcnt lgkmcnt(0)", &[0xbf8c_c07f]),
        ("v_mov_b32_e32 v1, s0", &[0x7e02_0200]),
        ("v_mov_b32_e32 v2, s1", &[0x7e04_0201]),
        ("s_endpgm", &[0xbf81_0000]),
    ]);
    let Rounds {
        jits,
        mut caches,
        mut buf,
        init,
    } = Rounds::new(&prog, &isas, &mut Rng(0x5ca1));
    let base = buf.as_ptr() as u64;
    // Byte offsets of s[10:11] from the buffer (the load adds 8, then drops the low 2 bits).
    let offsets: [u64; 12] = [
        0,
        0,
        0,
        64,
        64,
        2,
        BUF as u64,
        64,
        BUF as u64 - 12,
        0,
        1000,
        1000,
    ];
    let mut notes: Vec<u64> = vec![0; isas.len()];
    for (round, &off) in offsets.iter().enumerate() {
        let mut w0 = random_wave(&mut Rng(round as u64));
        w0.set_s64(10, base + off);
        let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
        let ok = off + 16 <= BUF as u64;
        assert_eq!(a.r.is_ok(), ok, "round {round}: {:?}", a.r);
        for (k, ((isa, jit), cache)) in isas.iter().zip(&jits).zip(caches.iter_mut()).enumerate() {
            let b = run_cached(&prog, &w0, &mut buf, &init, 0, &[], Some(jit), cache);
            assert_eq!(a.r, b.r, "round {round} {isa:?}");
            assert_eq!(a.w.pc, b.w.pc, "round {round} {isa:?}");
            assert_eq!(a.w.s[..2], b.w.s[..2], "round {round} {isa:?}: s[0:1]");
            assert_eq!(
                (a.w.v[1], a.w.v[2]),
                (b.w.v[1], b.w.v[2]),
                "round {round} {isa:?}"
            );
            if ok {
                notes[k] = ((base + off + 8) & !3) + 1;
            }
            assert_eq!(
                cache.cache.sites[0].hint, notes[k],
                "round {round} {isa:?}: note"
            );
        }
    }
}

/// Which blocks note their scalar loads' addresses: those before the first loop's head
/// ([`super::plan::Plan::once`]); none where a block's successors are unknown.
#[test]
fn only_blocks_before_a_loop_run_once() {
    let plan = |words: &[u32]| {
        let code: Vec<u8> = words.iter().flat_map(|d| d.to_le_bytes()).collect();
        let prog = Program::new(&code, 0x1000);
        super::plan::Plan::new(&prog, 0, false, false).once()
    };
    let looped = [
        0xc006_0005,
        0x0000_0008, // s_load_dwordx2 s[0:1], s[10:11], 0x8
        0xbf8c_c07f, // s_waitcnt lgkmcnt(0)
        0x8002_c102, // s_add_u32 s2, s2, -1 (the loop's head: block 1)
        0xc002_00c5,
        0x0000_0000, // s_load_dword s3, s[10:11], 0x0
        0xbf07_8002, // s_cmp_lg_u32 s2, 0
        0xbf85_fffb, // s_cbranch_scc1 back to the s_add
        0xbf81_0000, // s_endpgm
    ];
    assert_eq!(plan(&looped), 0..1);
    // No loop: every block.
    let straight = [0xc006_0005, 0x0000_0008, 0xbf8c_c07f, 0xbf81_0000];
    assert_eq!(plan(&straight), 0..1);
    // A jump through a register: its target is unknown.
    let computed = [0xbe80_1d0a, 0xbf81_0000]; // s_setpc_b64 s[10:11]
    assert_eq!(plan(&computed), 0..0);
}

/// A consecutive access prefetches where a later wave of the same instruction goes: wave 0
/// of each work-group notes its host address in the site, and from the second work-group on
/// the extra distance is the step between the two where longer than the fixed one (none
/// before, and for shorter steps). Waves other than 0 leave the notes alone. Work-groups of
/// two waves, 4 KiB and 1 KiB apart, run through the lane-linear inline path (one row) and
/// through the stub (`lin_rows` 0), the sites kept from run to run as a worker keeps them;
/// memory and registers stay the interpreter's. (Forced on: the hosts that use it are AMD's,
/// `mem_vector::far_prefetch`.)
#[test]
fn consecutive_accesses_learn_how_far_ahead_to_prefetch() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let prog = kernel(Index::Zext);
    super::mem_vector::FAR_PREFETCH.with(|c| c.set(Some(true)));
    let mut r = Rng(0xfe7c);
    let Rounds {
        jits,
        mut caches,
        mut buf,
        init,
    } = Rounds::new(&prog, &isas, &mut r);
    let base = buf.as_ptr() as u64;
    // Dwords between two work-groups' first waves.
    for (inline, step) in [(true, 1024), (false, 1024), (true, 256), (false, 256)] {
        for c in caches.iter_mut() {
            *c = Carry::default();
        }
        for group in 0..4u32 {
            for index in 0..2u32 {
                let first = group * step + 64 * index;
                let mut w0 = wave(first, inline, 16, 0, base, !0);
                w0.index = index;
                let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                assert!(a.r.is_ok(), "group {group} wave {index}: {:?}", a.r);
                for ((isa, jit), cache) in isas.iter().zip(&jits).zip(caches.iter_mut()) {
                    let b = run_cached(&prog, &w0, &mut buf, &init, 0, &[], Some(jit), cache);
                    let at =
                        format!("{isa:?} inline {inline} step {step} group {group} wave {index}");
                    assert_eq!(a.r, b.r, "{at}");
                    assert!(a.mem == b.mem, "{at}: memory");
                    assert_eq!(a.w.v[4], b.w.v[4], "{at}: v4");
                    // The load's site (0) and the store's (1, 256 bytes on).
                    for (site, off) in [(0, 0), (1, 256)] {
                        let s = cache.cache.sites[site];
                        let wave0 = base + 4 * u64::from(group * step + 16) + off;
                        assert_eq!(s.last, wave0, "{at}: site {site}'s last address");
                        let bytes = 4 * i64::from(step);
                        let want = match group {
                            1.. if bytes > i64::from(PREFETCH_AHEAD) => bytes,
                            _ => 0,
                        };
                        assert_eq!(s.ahead, want, "{at}: site {site}'s distance");
                    }
                }
            }
        }
    }
    super::mem_vector::FAR_PREFETCH.with(|c| c.set(None));
}

/// Edge waves of a 2-D grid (rows of 16, some lanes off, their addresses stale): the rows
/// path takes each group of 8's base from its active lanes (`rows_512`, `rows_avx2`), for
/// loads and stores, with a row's first lane off, its last lane off, a whole group off, and lanes
/// off at random; results are the interpreter's either way, and a scattered partial wave
/// still fails to the general path.
#[test]
fn edge_waves_of_rows_take_the_rows_path() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let prog = load_then_store();
    let mut r = Rng(0xed9e);
    let rows_of = |mask16: u64| (0..4).fold(0u64, |m, k| m | mask16 << (16 * k));
    for (case, exec) in [
        rows_of(0xfffe),
        rows_of(0x7fff),
        rows_of(0xff00),
        r.next() | 1,
        rows_of(0x7ffe) & !(0xff << 40),
    ]
    .into_iter()
    .enumerate()
    {
        for layout in [Layout::Rows, Layout::Scattered] {
            let Rounds {
                jits,
                mut caches,
                mut buf,
                init,
            } = Rounds::new(&prog, &isas, &mut r);
            let base = buf.as_ptr() as u64;
            let mut w0 = random_wave(&mut r);
            w0.set_exec(exec);
            let load = indices(&mut r, layout);
            let store = indices(&mut r, layout);
            for l in 0..64 {
                let a = base + 4 * u64::from(load[l]);
                w0.v[20][l] = a as u32;
                w0.v[21][l] = (a >> 32) as u32;
                w0.v[22][l] = 4 * store[l];
                if exec >> l & 1 == 0 {
                    // Stale addresses in the inactive lanes.
                    w0.v[20][l] ^= 0x5a5a_0000;
                    w0.v[22][l] = r.next() as u32;
                }
            }
            w0.set_s64(10, base);
            let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
            assert!(a.r.is_ok(), "case {case}: {:?}", a.r);
            for ((isa, jit), cache) in isas.iter().zip(&jits).zip(caches.iter_mut()) {
                let b = run_cached(&prog, &w0, &mut buf, &init, 0, &[], Some(jit), cache);
                let what = format!("case {case} {isa:?} {layout:?}");
                assert_eq!(a.r, b.r, "{what}");
                assert_eq!(a.w.v[1], b.w.v[1], "{what}: v1");
                assert!(a.mem == b.mem, "{what}: memory");
                let hints = [0, 1].map(|s| cache.cache.sites[s].hint & 0xff);
                // (The rows path marks the site; a partial wave's failure starts no
                // countdown.)
                let want = match layout {
                    Layout::Rows => 1,
                    _ => 0,
                };
                assert_eq!(hints, [want, want], "{what}: the sites' hints");
            }
        }
    }
}
