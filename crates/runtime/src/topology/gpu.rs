//! What a softhsa GPU agent reports: the properties of a real board of its model.
//!
//! gfx906 is modelled on the Radeon Instinct MI50 (Vega 20), gfx900 on the Radeon RX Vega 64 /
//! Vega Frontier Edition (Vega 10), gfx908 on the Instinct MI100, gfx90a on the MI210, gfx940 on
//! the MI300A and gfx941/gfx942 on the MI300X (values as rocminfo prints them on those boards;
//! memory clock and width from AMD's data sheets). The CU count comes from the configuration.

use crate::config::GpuModel;

/// Board properties of one GPU model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub chip_id: u32,
    pub product_name: &'static str,
    pub max_clock_mhz: u32,
    pub memory_max_mhz: u32,
    /// Bits of the memory interface.
    pub memory_width: u32,
    pub l1_bytes: u32,
    pub l2_bytes: u32,
    /// Infinity Cache (MI300's L3); 0 where the board has none.
    pub l3_bytes: u32,
    pub cacheline: u32,
    pub simds_per_cu: u32,
    /// Wave slots per SIMD (10 on GCN5 and CDNA1, 8 from CDNA2 on).
    pub waves_per_simd: u32,
    pub shader_engines: u32,
    pub shader_arrays_per_se: u32,
    pub asic_revision: u32,
    pub max_address_watch_points: u32,
}

impl Board {
    pub fn of(model: GpuModel) -> Board {
        match model {
            GpuModel::Gfx906 => Board {
                chip_id: 0x66a1,
                product_name: "softhsa Vega 20 [Radeon Instinct MI50] (gfx906)",
                max_clock_mhz: 1725,
                memory_max_mhz: 1000,
                memory_width: 4096,
                l1_bytes: 16 << 10,
                l2_bytes: 4 << 20,
                l3_bytes: 0,
                cacheline: 64,
                simds_per_cu: 4,
                waves_per_simd: 10,
                shader_engines: 4,
                shader_arrays_per_se: 1,
                asic_revision: 1,
                max_address_watch_points: 4,
            },
            GpuModel::Gfx900 => Board {
                chip_id: 0x6863,
                product_name: "softhsa Vega 10 [Radeon Vega Frontier Edition] (gfx900)",
                max_clock_mhz: 1600,
                memory_max_mhz: 945,
                memory_width: 2048,
                l1_bytes: 16 << 10,
                l2_bytes: 4 << 20,
                l3_bytes: 0,
                cacheline: 64,
                simds_per_cu: 4,
                waves_per_simd: 10,
                shader_engines: 4,
                shader_arrays_per_se: 1,
                asic_revision: 0,
                max_address_watch_points: 4,
            },
            GpuModel::Gfx908 => Board {
                chip_id: 0x738c,
                product_name: "softhsa Arcturus [AMD Instinct MI100] (gfx908)",
                max_clock_mhz: 1502,
                memory_max_mhz: 1200,
                memory_width: 4096,
                l1_bytes: 16 << 10,
                l2_bytes: 8 << 20,
                l3_bytes: 0,
                cacheline: 64,
                simds_per_cu: 4,
                waves_per_simd: 10,
                shader_engines: 8,
                shader_arrays_per_se: 1,
                asic_revision: 1,
                max_address_watch_points: 4,
            },
            GpuModel::Gfx90a => Board {
                chip_id: 0x740f,
                product_name: "softhsa Aldebaran [AMD Instinct MI210] (gfx90a)",
                max_clock_mhz: 1700,
                memory_max_mhz: 1600,
                memory_width: 4096,
                l1_bytes: 16 << 10,
                l2_bytes: 8 << 20,
                l3_bytes: 0,
                cacheline: 64,
                simds_per_cu: 4,
                waves_per_simd: 8,
                shader_engines: 8,
                shader_arrays_per_se: 1,
                asic_revision: 1,
                max_address_watch_points: 4,
            },
            GpuModel::Gfx940 => Board {
                chip_id: 0x74a0,
                product_name: "softhsa Aqua Vanjaram [AMD Instinct MI300A] (gfx940)",
                ..Board::mi300x(GpuModel::Gfx940)
            },
            GpuModel::Gfx941 | GpuModel::Gfx942 => Board::mi300x(model),
        }
    }

    /// The MI300X (rocminfo: 32 shader engines, 32 KB L1, 4 MB L2 per XCD, 256 MB L3).
    fn mi300x(model: GpuModel) -> Board {
        Board {
            chip_id: 0x74a1,
            product_name: match model {
                GpuModel::Gfx941 => "softhsa Aqua Vanjaram [AMD Instinct MI300X] (gfx941)",
                GpuModel::Gfx940 => "softhsa Aqua Vanjaram [AMD Instinct MI300A] (gfx940)",
                _ => "softhsa Aqua Vanjaram [AMD Instinct MI300X] (gfx942)",
            },
            max_clock_mhz: 2100,
            memory_max_mhz: 1300,
            memory_width: 8192,
            l1_bytes: 32 << 10,
            l2_bytes: 4 << 20,
            l3_bytes: 256 << 20,
            cacheline: 64,
            simds_per_cu: 4,
            waves_per_simd: 8,
            shader_engines: if model == GpuModel::Gfx940 { 24 } else { 32 },
            shader_arrays_per_se: 1,
            asic_revision: 1,
            max_address_watch_points: 4,
        }
    }

    /// HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU: 40 on GCN5/CDNA1, 32 on CDNA2/CDNA3.
    pub fn waves_per_cu(&self) -> u32 {
        self.simds_per_cu * self.waves_per_simd
    }
}

/// HSA queue limits of a GPU agent (rocminfo on Vega shows min 64, max 131072, 128 queues).
pub const QUEUE_MIN_SIZE: u32 = 64;
pub const QUEUE_MAX_SIZE: u32 = 131072;
pub const QUEUES_MAX: u32 = 128;

/// PCI bus/device/function id of GPU `ordinal`: bus 0x03 + ordinal, device 0, function 0.
pub fn bdf_id(ordinal: u32) -> u32 {
    (0x03 + ordinal) << 8
}

/// "GPU-" + 16 hex digits, stable per model and ordinal (ROCm derives it from the board serial).
pub fn uuid(model: GpuModel, ordinal: u32) -> String {
    let board = Board::of(model);
    format!(
        "GPU-{:08x}{:08x}",
        0x5f7_0000u32 | board.chip_id,
        0x1000_0000u32 + ordinal
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_and_bdf_shapes() {
        let u = uuid(GpuModel::Gfx906, 1);
        assert_eq!(u.len(), 20);
        assert!(u.starts_with("GPU-") && u[4..].chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(u, uuid(GpuModel::Gfx906, 0));
        assert_eq!(bdf_id(0), 0x0300);
        assert_eq!(Board::of(GpuModel::Gfx906).chip_id, 0x66a1);
        assert_eq!(Board::of(GpuModel::Gfx900).chip_id, 0x6863);
    }

    #[test]
    fn cdna_boards_match_rocminfo() {
        let mi100 = Board::of(GpuModel::Gfx908);
        assert_eq!((mi100.chip_id, mi100.waves_per_cu()), (0x738c, 40));
        let mi210 = Board::of(GpuModel::Gfx90a);
        assert_eq!((mi210.chip_id, mi210.waves_per_cu()), (0x740f, 32));
        let mi300x = Board::of(GpuModel::Gfx942);
        assert_eq!(
            (mi300x.chip_id, mi300x.shader_engines, mi300x.l3_bytes >> 10),
            (0x74a1, 32, 262144)
        );
        let mi300a = Board::of(GpuModel::Gfx940);
        assert_eq!((mi300a.chip_id, mi300a.shader_engines), (0x74a0, 24));
        assert!(mi300a.product_name.contains("MI300A"));
        for m in crate::config::GPU_MODELS {
            assert!(Board::of(m)
                .product_name
                .ends_with(&format!("({})", m.name())));
        }
    }
}
