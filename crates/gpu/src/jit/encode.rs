//! One-pass machine-code encoding of the assembler's instruction list.
//!
//! iced's `BlockEncoder` picks the shortest form of every branch by iterating over the whole
//! block, with an allocation per instruction: two thirds of a kernel's compile time. Kernels
//! need no short branches (hot paths are straight lines, cold paths are far), so every branch
//! to a label is encoded in its rel32 form, each instruction once, and the displacements are
//! patched when all label positions are known.
//!
//! Most of a kernel's instructions repeat one seen before (the same chunk-loop step, the same
//! spill, the same check: about 15% are distinct): an instruction that is neither a branch
//! nor RIP-relative encodes to the same bytes anywhere, so its first encoding is copied.
//! Encoding was over half of a compile; the copies cut it by about two thirds. A branch's
//! bytes differ only in the displacement patched at the end, so its form is encoded once per
//! kind of branch too (a tenth of a kernel's instructions are branches).

use iced_x86::{Code, Encoder, Instruction, OpKind};
use rustc_hash::FxHashMap;
use std::hash::{Hash, Hasher};

/// An instruction as a key of the encodings seen: its ip (a label's id) cleared, compared bit
/// for bit (equal bits encode equally; `Instruction`'s own equality, which ignores a few
/// fields, compares field by field at twice the cost), with a hash of a few of its fields:
/// the derived hash, field by field, cost more than the encoding it saved.
struct Key(Instruction);

impl Key {
    fn of(i: &Instruction) -> Key {
        let mut k = *i;
        k.set_ip(0);
        Key(k)
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_all_bits(&other.0)
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let i = &self.0;
        let regs = u64::from(i.op0_register() as u8)
            | u64::from(i.op1_register() as u8) << 8
            | u64::from(i.op2_register() as u8) << 16
            | u64::from(i.memory_base() as u8) << 24
            | u64::from(i.memory_index() as u8) << 32
            | (i.code() as u64) << 40;
        state.write_u64(
            regs ^ i.memory_displacement64().rotate_left(29) ^ u64::from(i.immediate32()),
        );
    }
}

/// The room a copy writes (an x86 instruction is at most 15 bytes), whole, then cut to its
/// length by the next.
const COPY: usize = 16;

/// The bytes of `insts` placed at `base`, and the offset of each instruction.
pub(super) fn encode(insts: &[Instruction], base: u64) -> Result<(Vec<u8>, Vec<u32>), String> {
    // A label's id is the ip the assembler gave the instruction it was bound to.
    let max_id = insts.iter().map(|i| i.ip()).max().unwrap_or(0);
    let mut label_inst = vec![u32::MAX; max_id as usize + 1];
    for (k, i) in insts.iter().enumerate() {
        if i.ip() != 0 {
            label_inst[i.ip() as usize] = k as u32;
        }
    }
    let mut enc = Encoder::new(64);
    let mut offsets = Vec::with_capacity(insts.len());
    // Room for every copy's fixed-size move (grown when the instructions run long: five bytes
    // each is typical).
    let mut bytes = vec![0u8; insts.len() * 6 + COPY];
    // The encodings of the instructions seen so far (neither branches nor RIP-relative).
    let mut seen: FxHashMap<Key, ([u8; COPY], u8)> =
        FxHashMap::with_capacity_and_hasher(insts.len() / 4, Default::default());
    // The rel32 form of each kind of branch seen so far (its displacement a placeholder).
    let mut branches: FxHashMap<Code, ([u8; COPY], u8)> = FxHashMap::default();
    // (End of a branch instruction, the label's instruction index.)
    let mut patches: Vec<(u32, u32)> = Vec::new();
    let mut at = 0usize;
    for i in insts {
        offsets.push(at as u32);
        if i.is_ip_rel_memory_operand() {
            return Err("JIT: RIP-relative operand".into());
        }
        let (copy, len) = if i.op_count() == 1 && i.op0_kind() == OpKind::NearBranch64 {
            let target = i.near_branch64();
            let k = label_inst
                .get(target as usize)
                .copied()
                .filter(|&k| k != u32::MAX)
                .ok_or("JIT: branch to an unbound label")?;
            let code = i.code().as_near_branch();
            let copy = match branches.get(&code) {
                Some(&copy) => copy,
                None => {
                    let mut b = *i;
                    b.set_code(code);
                    // A placeholder target in range; the displacement is patched below.
                    b.set_near_branch64(base + at as u64);
                    let copy = encode_one(&mut enc, &b, base + at as u64)?;
                    branches.insert(code, copy);
                    copy
                }
            };
            patches.push(((at + usize::from(copy.1)) as u32, k));
            copy
        } else {
            let key = Key::of(i);
            match seen.get(&key) {
                Some(&copy) => copy,
                None => {
                    let copy = encode_one(&mut enc, i, base + at as u64)?;
                    seen.insert(key, copy);
                    copy
                }
            }
        };
        if at + COPY > bytes.len() {
            bytes.resize(bytes.len() * 2, 0);
        }
        bytes[at..at + COPY].copy_from_slice(&copy);
        at += usize::from(len);
    }
    bytes.truncate(at);
    for (end, k) in patches {
        let target = i64::from(offsets[k as usize]);
        let disp = i32::try_from(target - i64::from(end)).map_err(|_| "JIT: branch too far")?;
        let p = end as usize - 4;
        bytes[p..p + 4].copy_from_slice(&disp.to_le_bytes());
    }
    Ok((bytes, offsets))
}

/// Encodes `i` at `ip`: its bytes (padded) and length.
fn encode_one(enc: &mut Encoder, i: &Instruction, ip: u64) -> Result<([u8; COPY], u8), String> {
    let len = enc.encode(i, ip).map_err(|e| format!("JIT: {e}"))?;
    let mut out = enc.take_buffer();
    let mut copy = [0u8; COPY];
    copy[..len].copy_from_slice(&out[..len]);
    out.clear();
    enc.set_buffer(out);
    Ok((copy, len as u8))
}

#[cfg(test)]
mod tests {
    use super::encode;
    use iced_x86::code_asm::*;
    use iced_x86::{Code, Decoder, DecoderOptions, OpKind};

    /// Repeated instructions (copied encodings), with labels and branches between them, decode
    /// to the assembler's instructions at the offsets `encode` reports, branches to their
    /// labels' offsets.
    #[test]
    fn copied_encodings_decode_to_the_instructions() {
        let mut a = CodeAssembler::new(64).unwrap();
        let mut top = a.create_label();
        let mut end = a.create_label();
        a.set_label(&mut top).unwrap();
        a.zero_bytes().unwrap();
        for k in 0..40i32 {
            let mut here = a.create_label();
            a.set_label(&mut here).unwrap();
            a.zero_bytes().unwrap();
            a.vmovdqu(ymm1, ymmword_ptr(rdi + 32 * (k % 3))).unwrap();
            a.vpaddd(ymm2, ymm1, ymm3).unwrap();
            // Equal in every field the key hashes, different in the mask and the fourth operand.
            let m = if k % 2 == 0 { zmm2.k1() } else { zmm2.k2() };
            a.vpaddd(m, zmm1, zmmword_ptr(rsi + 64)).unwrap();
            let y = if k % 2 == 0 { ymm4 } else { ymm5 };
            a.vpblendvb(ymm1, ymm2, ymm3, y).unwrap();
            a.add(rdi, 32).unwrap();
            a.mov(rax, 0x1234_5678_9abc_def0u64 + (k % 2) as u64)
                .unwrap();
            a.mov(dword_ptr(rbx + 4 * (k % 5)), k % 4).unwrap();
            match k % 3 {
                0 => a.jne(end).unwrap(),
                1 => a.jmp(top).unwrap(),
                _ => a.jb(here).unwrap(),
            }
        }
        a.set_label(&mut end).unwrap();
        a.ret().unwrap();
        let insts = a.instructions();
        let base = 0x7f00_0000_1000u64;
        let (bytes, offsets) = encode(insts, base).unwrap();
        // A label's id is the ip of the instruction it was bound to.
        let at_label = |id: u64| {
            let k = insts.iter().position(|i| i.ip() == id).unwrap();
            base + u64::from(offsets[k])
        };
        let mut dec = Decoder::with_ip(64, &bytes, base, DecoderOptions::NONE);
        let mut decoded = 0;
        for (k, i) in insts.iter().enumerate() {
            if i.code() == Code::Zero_bytes {
                continue;
            }
            let d = dec.decode();
            assert_eq!(d.ip(), base + u64::from(offsets[k]), "offset of {i:?}");
            if i.op_count() == 1 && i.op0_kind() == OpKind::NearBranch64 {
                assert_eq!(d.code(), i.code().as_near_branch());
                assert_eq!(d.near_branch64(), at_label(i.near_branch64()), "{i:?}");
            } else {
                assert_eq!(d, *i);
            }
            decoded += 1;
        }
        assert!(!dec.can_decode(), "bytes past the last instruction");
        assert_eq!(decoded, 40 * 8 + 1);
    }
}
