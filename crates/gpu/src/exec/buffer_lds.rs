//! MUBUF transfers between memory and LDS that bypass the VGPRs (Vega ISA §8.1.9):
//! `buffer_load_{ubyte,sbyte,ushort,sshort,dword} ... lds` write lane `l`'s data to the
//! LDS dword at `M0[15:0] + inst_offset + 4 * l`, and `buffer_store_lds_dword` stores that dword
//! to the lane's buffer address. (`buffer_load_format_x ... lds` is in [`super::buffer_typed`].)
//!
//! Sub-dword loads write the whole LDS dword, zero or sign extended like the VGPR forms.
//! Out-of-range buffer elements load 0; LDS addresses outside the work-group's allocation are
//! dropped (the hardware masks those lanes off without a fault).

use super::mubuf::BufAccess;
use super::vmem::VmemKind;
use super::{fault, ExecCtx, Flow};
use crate::fault::FaultKind;
use crate::memory;
use crate::program::XInst;
use crate::wave::{Wave, M0};

/// The LDS address of lane `l`.
fn lds_addr(w: &Wave, x: &XInst, l: usize) -> u32 {
    (w.s[M0] & 0xffff)
        .wrapping_add(x.inst.imm as u32)
        .wrapping_add(4 * l as u32)
}

/// Per lane: the checked, translated buffer address (lanes out of range cleared from the mask).
fn addresses(
    w: &Wave,
    x: &XInst,
    cx: &mut ExecCtx,
    bytes: u64,
    write: bool,
) -> Result<([u64; 64], u64), Flow> {
    let b = BufAccess::new(w, x);
    let exec = w.exec();
    let mut addr = [0u64; 64];
    let mut live = 0u64;
    for l in (0..64).filter(|l| exec >> l & 1 != 0) {
        let (index, offset) = b.lane(w, l);
        if b.in_range(index, offset, bytes) {
            live |= 1 << l;
            addr[l] = b.address(index, offset);
        }
    }
    cx.mem
        .lanes(&mut addr, live, bytes, write)
        .map_err(|e| Flow::Fault(Box::new(e.into())))?;
    Ok((addr, live))
}

/// A raw buffer load with the `lds` bit.
pub fn exec(w: &mut Wave, x: &XInst, cx: &mut ExecCtx, kind: VmemKind) -> Flow {
    let VmemKind::Load {
        bytes: bytes @ (1 | 2 | 4),
        sext,
        d16: None,
        ..
    } = kind
    else {
        // Only the byte, short and dword loads can target LDS.
        return fault(FaultKind::IllegalInstruction);
    };
    let (addr, live) = match addresses(w, x, cx, u64::from(bytes), false) {
        Ok(a) => a,
        Err(f) => return f,
    };
    let exec = w.exec();
    for l in (0..64).filter(|l| exec >> l & 1 != 0) {
        let v = if live >> l & 1 == 0 {
            0
        } else {
            // SAFETY: lane l's [addr, addr + bytes) was checked by `Checker::lanes`.
            unsafe {
                match (bytes, sext) {
                    (1, false) => u32::from(memory::read_u8(addr[l])),
                    (1, true) => memory::read_u8(addr[l]) as i8 as i32 as u32,
                    (2, false) => u32::from(memory::read_u16(addr[l])),
                    (2, true) => memory::read_u16(addr[l]) as i16 as i32 as u32,
                    _ => memory::read_u32(addr[l]),
                }
            }
        };
        let a = lds_addr(w, x, l);
        cx.lds.write_u32(a, v);
    }
    Flow::Next
}

/// `buffer_store_lds_dword`: each lane's LDS dword to its buffer address.
pub fn store_lds_dword(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    let (addr, live) = match addresses(w, x, cx, 4, true) {
        Ok(a) => a,
        Err(f) => return f,
    };
    w.unfenced_stores |= crate::wave::UNFENCED_VECTOR;
    for l in (0..64).filter(|l| live >> l & 1 != 0) {
        let v = cx.lds.read_u32(lds_addr(w, x, l));
        // SAFETY: lane l's [addr, addr + 4) was checked for writing above.
        unsafe { memory::write_u32(addr[l], v) };
    }
    Flow::Next
}
