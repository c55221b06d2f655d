//! One-pass machine-code encoding of the assembler's instruction list.
//!
//! iced's `BlockEncoder` picks the shortest form of every branch by iterating over the whole
//! block, with an allocation per instruction: two thirds of a kernel's compile time. Kernels
//! need no short branches (hot paths are straight lines, cold paths are far), so every branch
//! to a label is encoded in its rel32 form, each instruction once, and the displacements are
//! patched when all label positions are known.

use iced_x86::{Encoder, Instruction, OpKind};

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
    // (End of a branch instruction, the label's instruction index.)
    let mut patches: Vec<(u32, u32)> = Vec::new();
    let mut at = 0u64;
    for i in insts {
        offsets.push(at as u32);
        let is_branch = i.op_count() == 1 && i.op0_kind() == OpKind::NearBranch64;
        if i.is_ip_rel_memory_operand() {
            return Err("JIT: RIP-relative operand".into());
        }
        let len = if is_branch {
            let target = i.near_branch64();
            let k = label_inst
                .get(target as usize)
                .copied()
                .filter(|&k| k != u32::MAX)
                .ok_or("JIT: branch to an unbound label")?;
            let mut b = *i;
            b.set_code(b.code().as_near_branch());
            // A placeholder target in range; the displacement is patched below.
            b.set_near_branch64(base + at);
            let len = enc.encode(&b, base + at).map_err(|e| format!("JIT: {e}"))?;
            patches.push(((at + len as u64) as u32, k));
            len
        } else {
            enc.encode(i, base + at).map_err(|e| format!("JIT: {e}"))?
        };
        at += len as u64;
    }
    let mut bytes = enc.take_buffer();
    for (end, k) in patches {
        let target = i64::from(offsets[k as usize]);
        let disp = i32::try_from(target - i64::from(end)).map_err(|_| "JIT: branch too far")?;
        let p = end as usize - 4;
        bytes[p..p + 4].copy_from_slice(&disp.to_le_bytes());
    }
    Ok((bytes, offsets))
}
