//! AVX2's scattered loads (`mem_lanes.rs`): the span of many lanes from vectors, their data
//! by gathers; few lanes one by one.

use super::tests::{isas, random_wave, Rng};
use super::tests_mem::{flat, run, then_endpgm};
use super::{first_difference, JitCode};

/// Page size of the test mapping.
const PAGE: usize = 4096;

/// One readable page followed by an inaccessible one: a read past the page's end faults.
struct GuardedPage(*mut u8);

impl GuardedPage {
    fn new() -> Self {
        // SAFETY: a fresh private anonymous mapping of two pages; the second is then made
        // inaccessible. Nothing else refers to it.
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                2 * PAGE,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            assert_ne!(p, libc::MAP_FAILED, "mmap");
            let guard = p.cast::<u8>().add(PAGE).cast();
            assert_eq!(libc::mprotect(guard, PAGE, libc::PROT_NONE), 0, "mprotect");
            GuardedPage(p.cast())
        }
    }

    fn page(&mut self) -> &mut [u8] {
        // SAFETY: the first page is mapped readable and writable for the life of `self`, and
        // `&mut self` makes this the only reference to it.
        unsafe { std::slice::from_raw_parts_mut(self.0, PAGE) }
    }
}

impl Drop for GuardedPage {
    fn drop(&mut self) {
        // SAFETY: the mapping made by `new`, no longer referred to.
        unsafe { libc::munmap(self.0.cast(), 2 * PAGE) };
    }
}

/// Global loads of a byte, a short (each signed and unsigned), one, two and four dwords through
/// 64-bit addresses in v[2:3] leave the interpreter's registers when their lanes' addresses
/// are scattered: with all lanes; with 40 lanes whose inactive ones hold addresses outside
/// memory; with 5 lanes (one by one); with the data register the address register; and with
/// one lane's element at the last bytes of a page followed by an inaccessible one (a gathered
/// dword there would cross into it).
#[test]
fn scattered_loads_are_exact_to_the_end_of_a_mapping() {
    // (op, bytes)
    let ops = [
        (16u32, 1u64),
        (17, 1),
        (18, 2),
        (19, 2),
        (20, 4),
        (21, 8),
        (23, 16),
    ];
    let mut r = Rng(31);
    let mut mem = GuardedPage::new();
    let init: Vec<u8> = (0..PAGE).map(|_| r.next() as u8).collect();
    let base = mem.page().as_ptr() as u64;
    for (op, bytes) in ops {
        for vdst in [10u32, 2] {
            let prog = then_endpgm(flat(op, 2, 2, 0, 0x7f, vdst, 0));
            // (EXEC, the lane whose element ends the page)
            let cases: [(u64, Option<usize>); 5] = [
                (!0, None),
                (0x00ff_0fff_f0ff_f0f0, None),
                (0x8000_0100_0012_0001, None),
                (!0, Some(0)),
                (0xffff_0000_0000_0000, Some(63)),
            ];
            for (k, &(exec, last)) in cases.iter().enumerate() {
                let mut w0 = random_wave(&mut r);
                for l in 0..64 {
                    let a = if last == Some(l) {
                        base + PAGE as u64 - bytes
                    } else if exec >> l & 1 == 0 {
                        0x1234_5678_0000 + 8 * l as u64
                    } else {
                        // Aligned to the element; in case 1 every fifth lane of a two- or
                        // four-dword load only to a dword (four dwords then go lane by lane).
                        let align = if bytes >= 8 && k == 1 && l % 5 == 0 {
                            4
                        } else {
                            bytes
                        };
                        base + (r.next() % (PAGE as u64 - 16)) / align * align
                    };
                    w0.v[2][l] = a as u32;
                    w0.v[3][l] = (a >> 32) as u32;
                }
                w0.set_exec(exec);
                let what = format!("{} case {k}", prog.text(0));
                let a = run(&prog, &w0, mem.page(), &init, 0, &[], None);
                assert!(a.r.is_ok(), "{what}: {:?}", a.r);
                assert_ne!(a.w.v[vdst as usize], w0.v[vdst as usize], "{what}: loads");
                for &isa in &isas() {
                    let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
                    assert_eq!(jit.native, jit.reachable, "{isa:?} {what}: translated");
                    let b = run(&prog, &w0, mem.page(), &init, 0, &[], Some(&jit));
                    assert_eq!(a.r, b.r, "{isa:?} {what}: how the wave stopped");
                    let diff = first_difference(&b.w, &a.w, 0..256);
                    assert!(diff.is_none(), "{isa:?} {what}: {diff:?}");
                }
            }
        }
    }
}
