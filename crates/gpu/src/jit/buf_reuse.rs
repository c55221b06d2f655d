//! A scratch store to the addresses the load before it checked: `hist[i] += k`.
//!
//! A private array indexed by data (a histogram's bins, a sort's buckets, a unit test's
//! per-thread table) is read, modified and written back: `buffer_load_dword v3, v5, s[0:3]
//! offen`, lane ops, `buffer_store_dword v3, v5, s[0:3] offen`. The store's addresses are the
//! load's, so the load's work on them (the V#'s shape checked, 64 lane offsets swizzled
//! into `JitCtx::buf_offsets`, their span from their minimum and maximum, the range cache)
//! need not be done again: on AVX2 that was about 130 of the ~300 host instructions of such
//! a store (`docs/JIT.md`, "Read-modify-write of private arrays").
//!
//! [`pairs`] finds such a load and store in a block: both single-dword MUBUF accesses with
//! OFFEN through the same V#, soffset, offset VGPR and immediate offset, and between them only
//! lane ops and scalar ALU ops that write none of those registers (nor the load its own
//! offset VGPR) and leave EXEC alone. Nothing between them touches `buf_offsets` (only a
//! buffer access writes it) or switches waves (only a barrier, `s_sleep` or the end do).
//!
//! At run time the load's stub, where it took the scattered-offsets path and the site's range
//! is the worker's scratch backing, keeps the host address of offset 0 in `JitCtx::buf_base`
//! (0 on every other path, which the load's call site sets first: a consecutive or rows path,
//! the interpreter). The store then moves its data to the kept offsets from that base without
//! a check, or takes its usual path where the base is 0. The store is exact: its active lanes
//! are the load's (EXEC unchanged), the span the load proved holds the store's bytes, and
//! scratch stores leave nothing for `s_waitcnt` to fence (`memory::PRIVATE_SITE`).

use super::emit::{bind, Emitter, R};
use super::mask_live;
use super::mem_buffer::J_BUF_OFFSETS;
use super::mem_gather32::{scatter_offsets_512, scatter_offsets_avx2};
use super::mem_vector::J_BUF_BASE;
use super::plan::Item;
use super::select::{Kind, VmemInst};
use super::stubs::Stub;
use super::vgpr_dead::lane;
use super::vx::Isa;
use crate::exec::operand::Src;
use crate::wave::EXEC_LO;
use iced_x86::code_asm::*;

impl Emitter<'_> {
    /// The store `m` of a read-modify-write: where the load kept a base, its data goes to the
    /// load's offsets from it, then on to `done`; else on past here, to its usual paths.
    pub(super) fn store_at_kept_base(&mut self, m: &VmemInst, done: CodeLabel) -> R<()> {
        let a = &mut self.a;
        let mut usual = a.create_label();
        a.mov(r8, qword_ptr(r12 + J_BUF_BASE))?;
        a.test(r8, r8)?;
        a.jz(usual)?;
        a.lea(rdi, qword_ptr(r12 + J_BUF_OFFSETS))?;
        a.lea(rsi, qword_ptr(r13 + 256 * i32::from(m.data)))?;
        self.call_stub(Stub::KeptBaseStore)?;
        let a = &mut self.a;
        a.jmp(done)?;
        bind(a, &mut usual)
    }

    /// The stub of [`Self::store_at_kept_base`] (rdi = the offsets, rsi = the data VGPR,
    /// r8 = the host base).
    pub(super) fn kept_base_store_stub(&mut self) -> R<()> {
        let a = &mut self.a;
        match self.isa {
            Isa::Avx512 => scatter_offsets_512(a)?,
            Isa::Avx2 => scatter_offsets_avx2(a)?,
        }
        Ok(a.ret()?)
    }
}

/// The (load, store) instruction pairs of a block's `items` whose store reuses the load's
/// checked addresses.
pub(super) fn pairs(items: &[Item]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for (p, item) in items.iter().enumerate() {
        let Item::Op(i, Kind::Vmem(l)) = item else {
            continue;
        };
        if !l.load || !shape_ok(l) || l.data == l.vaddr {
            continue;
        }
        let sregs = scalar_operands(l);
        for later in &items[p + 1..] {
            match later {
                Item::Op(j, Kind::Vmem(s)) if !s.load && same_addresses(l, s) => {
                    out.push((*i, *j));
                    break;
                }
                Item::Seg(insts) => {
                    let writes_addr = insts.iter().any(|(_, li)| lane(li).1.has(l.vaddr));
                    let s_writes = mask_live::item_sgpr_writes(later);
                    if writes_addr || s_writes.is_none_or(|w| w & sregs != 0) {
                        break;
                    }
                }
                Item::Op(_, Kind::Salu(_) | Kind::Waitcnt(_) | Kind::Nop) => {
                    let s_writes = mask_live::item_sgpr_writes(later);
                    if s_writes.is_none_or(|w| w & sregs != 0) {
                        break;
                    }
                }
                _ => break,
            }
        }
    }
    out
}

/// A single-dword MUBUF access with per-lane offsets: the shape whose stub keeps the base.
fn shape_ok(m: &VmemInst) -> bool {
    m.dwords == 1 && m.sub.is_none() && m.buf.is_some_and(|b| b.offen) && !m.flat
}

fn same_addresses(l: &VmemInst, s: &VmemInst) -> bool {
    let (Some(a), Some(b)) = (l.buf, s.buf) else {
        return false;
    };
    shape_ok(s)
        && a.rsrc == b.rsrc
        && a.soffset == b.soffset
        && l.vaddr == s.vaddr
        && l.offset == s.offset
}

/// The scalar registers the load's addresses depend on, and EXEC, as `mask_live`'s bits.
fn scalar_operands(m: &VmemInst) -> u128 {
    let bit = |r: u8| 1u128 << (r & 127);
    let mut r = bit(EXEC_LO as u8) | bit(EXEC_LO as u8 + 1);
    if let Some(b) = m.buf {
        (b.rsrc..b.rsrc + 4).for_each(|s| r |= bit(s));
        if let Src::S(s) = b.soffset {
            r |= bit(s);
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jit::plan::Plan;
    use crate::jit::tests::{isas, random_wave, Rng};
    use crate::jit::tests_linear::program;
    use crate::jit::tests_mem::{run_cached, Carry, BUF};
    use crate::jit::{first_difference, JitCode};

    type Line = (&'static str, &'static [u32]);

    const LOAD: Line = (
        "buffer_load_dword v3, v5, s[0:3], 0 offen",
        &[0xe050_1000, 0x8000_0305],
    );
    const STORE: Line = (
        "buffer_store_dword v3, v5, s[0:3], 0 offen",
        &[0xe070_1000, 0x8000_0305],
    );
    const ADD: Line = ("v_add_u32_e32 v3, 1, v3", &[0x6806_0681]);
    const END: Line = ("s_endpgm", &[0xbf81_0000]);

    /// The pairs of the plan of `lines` (llvm-mc's text and encoding, gfx900).
    fn found(lines: &[Line]) -> Vec<(u32, u32)> {
        let prog = program(lines);
        let plan = Plan::new(&prog, 0, false, false);
        let items: Vec<Item> = plan.blocks.into_iter().flat_map(|b| b.items).collect();
        pairs(&items)
    }

    /// The histogram's read-modify-write pairs up; a lane op writing the offset VGPR, an
    /// SALU write of the V# or EXEC, another offset VGPR, immediate or V#, or another access
    /// between do not.
    #[test]
    fn read_modify_write_pairs() {
        assert_eq!(found(&[LOAD, ADD, STORE, END]), vec![(0, 2)]);
        let bump = ("v_add_u32_e32 v5, 1, v5", &[0x680a_0a81u32][..]);
        assert!(found(&[LOAD, bump, STORE, END]).is_empty());
        let v_sharp = ("s_mov_b32 s2, 0", &[0xbe82_0080u32][..]);
        assert!(found(&[LOAD, ADD, v_sharp, STORE, END]).is_empty());
        let exec = ("s_mov_b64 exec, -1", &[0xbefe_01c1u32][..]);
        assert!(found(&[LOAD, exec, STORE, END]).is_empty());
        let other = (
            "buffer_store_dword v3, v6, s[0:3], 0 offen",
            &[0xe070_1000u32, 0x8000_0306][..],
        );
        assert!(found(&[LOAD, ADD, other, END]).is_empty());
        let imm = (
            "buffer_store_dword v3, v5, s[0:3], 0 offen offset:4",
            &[0xe070_1004u32, 0x8000_0305][..],
        );
        assert!(found(&[LOAD, ADD, imm, END]).is_empty());
        let rsrc = (
            "buffer_store_dword v3, v5, s[4:7], 0 offen",
            &[0xe070_1000u32, 0x8001_0305][..],
        );
        assert!(found(&[LOAD, ADD, rsrc, END]).is_empty());
        // The load replaces its own offset.
        let own = (
            "buffer_load_dword v5, v5, s[0:3], 0 offen",
            &[0xe050_1000u32, 0x8000_0505][..],
        );
        assert!(found(&[own, STORE, END]).is_empty());
        // A load between: the store pairs with it, not the first.
        let load4 = (
            "buffer_load_dword v4, v5, s[0:3], 0 offen",
            &[0xe050_1000u32, 0x8000_0405][..],
        );
        assert_eq!(found(&[LOAD, ADD, load4, STORE, END]), vec![(2, 3)]);
        // A wait and an SALU op on other registers between: still a pair.
        let wait = ("s_waitcnt vmcnt(0)", &[0xbf8c_0f70u32][..]);
        let s8 = ("s_mov_b32 s8, 0", &[0xbe88_0080u32][..]);
        assert_eq!(found(&[LOAD, wait, s8, ADD, STORE, END]), vec![(0, 4)]);
    }

    /// A scratch read-modify-write (`hist[i] ^= x` with an unrelated lane op between) leaves
    /// registers and memory as the interpreter does: per-lane offsets with all lanes and with
    /// lanes off, one offset for all lanes (the load's consecutive path: the store checks its
    /// own), an active lane beyond the JIT's reach (the interpreter's load), a lane past the
    /// scratch backing (a fault), and the buffer outside any scratch backing. Where the load
    /// took the offsets path into scratch, the store reused its base: its own site never
    /// proved a range; elsewhere it did.
    #[test]
    fn scratch_read_modify_write_is_native_and_exact() {
        let lines: &[Line] = &[
            (
                "buffer_load_dword v2, v24, s[12:15], s16 offen offset:8",
                &[0xe050_1008, 0x1003_0218],
            ),
            ("v_xor_b32_e32 v2, v3, v2", &[0x2a04_0503]),
            ("v_add_u32_e32 v5, 4, v24", &[0x680a_3084]),
            (
                "buffer_store_dword v2, v24, s[12:15], s16 offen offset:8",
                &[0xe070_1008, 0x1003_0218],
            ),
            END,
        ];
        let prog = program(lines);
        let mut buf = vec![0u8; BUF];
        let mut r = Rng(41);
        let init: Vec<u8> = (0..BUF).map(|_| r.next() as u8).collect();
        let base = buf.as_ptr() as u64;
        // (offsets, EXEC, scratch backing, the store reuses the load's base)
        type Case = (Box<dyn Fn(usize, &mut Rng) -> u32>, u64, bool, bool);
        let cases: Vec<Case> = vec![
            (
                Box::new(|_, r| (r.next() % 700) as u32 & !3),
                !0,
                true,
                true,
            ),
            (
                Box::new(|_, r| (r.next() % 700) as u32 & !3),
                0x0f0f_ff00_8000_0ff1,
                true,
                true,
            ),
            (Box::new(|_, _| 96), !0, true, false),
            (
                Box::new(|l, r| {
                    if l == 9 {
                        1 << 24
                    } else {
                        (r.next() % 700) as u32 & !3
                    }
                }),
                !0,
                true,
                false,
            ),
            (
                Box::new(|l, r| {
                    if l == 40 {
                        1000
                    } else {
                        (r.next() % 700) as u32 & !3
                    }
                }),
                !0,
                true,
                false,
            ),
            (
                Box::new(|_, r| (r.next() % 700) as u32 & !3),
                !0,
                false,
                false,
            ),
        ];
        for (n, (offset, exec, scratch, reused)) in cases.iter().enumerate() {
            let mut w0 = random_wave(&mut Rng(n as u64 + 7));
            w0.s[12..16].copy_from_slice(&crate::wave::private_vsharp(base));
            w0.s[16] = 1024;
            for l in 0..64 {
                w0.v[24][l] = offset(l, &mut r);
            }
            w0.set_exec(*exec);
            // The scratch backing: the buffer up to where offset 1000's rows would be.
            let backing = match scratch {
                true => base..base + 1024 + (1000 / 4) * 256,
                false => 0..0,
            };
            let carry = || Carry {
                scratch: backing.clone(),
                ..Default::default()
            };
            let a = run_cached(&prog, &w0, &mut buf, &init, 0, &[], None, &mut carry());
            for &isa in &isas() {
                let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
                assert_eq!(jit.native, jit.reachable, "{isa:?} case {n}: translated");
                let mut c = carry();
                let b = run_cached(&prog, &w0, &mut buf, &init, 0, &[], Some(&jit), &mut c);
                assert_eq!(a.r, b.r, "{isa:?} case {n}: how the wave stopped");
                let diff = first_difference(&b.w, &a.w, 0..256);
                assert!(diff.is_none(), "{isa:?} case {n}: {diff:?}");
                assert!(a.mem == b.mem, "{isa:?} case {n}: memory");
                if a.r.is_ok() {
                    let store_site = c.cache.sites.get(1).copied().unwrap_or_default();
                    let proved = store_site.lo < store_site.hi;
                    assert_eq!(
                        !proved, *reused,
                        "{isa:?} case {n}: the store reused the base"
                    );
                }
            }
        }
    }
}
