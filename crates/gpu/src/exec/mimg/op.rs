//! What a MIMG opcode does, read from its mnemonic once (the ISA table names every variant:
//! `image_sample_c_d_cl_o`, `image_gather4_b`, `image_atomic_cmpswap`, ...).

use crate::exec::vmem::{atomic_op, AtomicOp};

/// The operation family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `image_load*`: `pck` raw components, `sgn` sign-extended.
    Load {
        pck: bool,
        sgn: bool,
    },
    /// `image_store*`: `pck` raw components.
    Store {
        pck: bool,
    },
    Atomic(AtomicOp),
    Sample,
    Gather4,
    GetLod,
    ResInfo,
}

/// A MIMG opcode's behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MimgOp {
    pub kind: Kind,
    /// `_mip` loads and stores: a mip level follows the coordinates.
    pub mip: bool,
    /// `_c`: a depth-compare reference precedes the coordinates.
    pub compare: bool,
    /// `_d` / `_cd`: explicit derivatives precede the coordinates.
    pub derivs: bool,
    /// `_l`: an explicit LOD follows the coordinates.
    pub lod: bool,
    /// `_b`: a LOD bias precedes the coordinates.
    pub bias: bool,
    /// `_lz`: LOD zero.
    pub lz: bool,
    /// `_cl`: a minimum-LOD clamp follows the coordinates.
    pub clamp: bool,
    /// `_o`: packed texel offsets come first.
    pub offset: bool,
}

impl MimgOp {
    const fn plain(kind: Kind) -> Self {
        MimgOp {
            kind,
            mip: false,
            compare: false,
            derivs: false,
            lod: false,
            bias: false,
            lz: false,
            clamp: false,
            offset: false,
        }
    }

    /// Classifies a MIMG mnemonic; `None` for one the software GPU does not execute.
    pub fn classify(name: &str) -> Option<MimgOp> {
        let rest = name.strip_prefix("image_")?;
        if let Some(a) = rest.strip_prefix("atomic_") {
            return Some(Self::plain(Kind::Atomic(atomic_op(a)?)));
        }
        match rest {
            "get_resinfo" => return Some(Self::plain(Kind::ResInfo)),
            "get_lod" => return Some(Self::plain(Kind::GetLod)),
            _ => {}
        }
        let mut words = rest.split('_');
        let head = words.next()?;
        let mut op = match head {
            "load" => Self::plain(Kind::Load {
                pck: false,
                sgn: false,
            }),
            "store" => Self::plain(Kind::Store { pck: false }),
            "sample" => Self::plain(Kind::Sample),
            "gather4" => Self::plain(Kind::Gather4),
            _ => return None,
        };
        for w in words {
            match (w, &mut op.kind) {
                ("mip", Kind::Load { .. } | Kind::Store { .. }) => op.mip = true,
                ("pck", Kind::Load { pck, .. } | Kind::Store { pck }) => *pck = true,
                ("sgn", Kind::Load { sgn, .. }) => *sgn = true,
                ("c", Kind::Sample | Kind::Gather4) => op.compare = true,
                ("d" | "cd", Kind::Sample) => op.derivs = true,
                ("l", Kind::Sample | Kind::Gather4) => op.lod = true,
                ("b", Kind::Sample | Kind::Gather4) => op.bias = true,
                ("lz", Kind::Sample | Kind::Gather4) => op.lz = true,
                ("cl", Kind::Sample | Kind::Gather4) => op.clamp = true,
                ("o", Kind::Sample | Kind::Gather4) => op.offset = true,
                _ => return None,
            }
        }
        Some(op)
    }

    /// Sampling ops take an S#.
    pub fn uses_sampler(&self) -> bool {
        matches!(self.kind, Kind::Sample | Kind::Gather4 | Kind::GetLod)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mimg_op_of_the_table_classifies() {
        for op in softhsa_isa::Op::all() {
            if op.class() != softhsa_isa::Class::Mimg {
                continue;
            }
            assert!(MimgOp::classify(op.name()).is_some(), "{}", op.name());
        }
        let s = MimgOp::classify("image_sample_c_b_cl_o").unwrap();
        assert!(s.compare && s.bias && s.clamp && s.offset && !s.lod && !s.derivs);
        let l = MimgOp::classify("image_load_mip_pck_sgn").unwrap();
        assert_eq!(
            l.kind,
            Kind::Load {
                pck: true,
                sgn: true
            }
        );
        assert!(l.mip);
        assert!(MimgOp::classify("image_sample_cd_cl").unwrap().derivs);
        assert_eq!(MimgOp::classify("image_msaa_load"), None);
    }
}
