//! What a softhsa GPU agent reports: the properties of a real Vega board of its model.
//!
//! gfx906 is modelled on the Radeon Instinct MI50 (Vega 20), gfx900 on the Radeon RX Vega 64 /
//! Vega Frontier Edition (Vega 10). The CU count comes from the configuration.

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
    pub cacheline: u32,
    pub simds_per_cu: u32,
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
                cacheline: 64,
                simds_per_cu: 4,
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
                cacheline: 64,
                simds_per_cu: 4,
                shader_engines: 4,
                shader_arrays_per_se: 1,
                asic_revision: 0,
                max_address_watch_points: 4,
            },
        }
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
}
