//! Dispatch geometry: grid → work-groups (partial at the edges) → waves of 64 work-items.

use crate::fault::PacketField;

/// Lanes per wave on GFX9.
pub const WAVE_SIZE: u32 = 64;

/// The work-group decomposition of one dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    pub grid: [u32; 3],
    pub wg: [u32; 3],
    /// Work-groups per dimension: ceil(grid / wg).
    pub counts: [u32; 3],
}

impl Grid {
    /// Validates sizes (1–3 dims, non-zero, work-group of at most 1024 work-items); an error
    /// names the packet field at fault.
    pub fn new(grid: [u32; 3], wg: [u16; 3]) -> Result<Grid, (PacketField, String)> {
        let wg = wg.map(u32::from);
        if wg.contains(&0) {
            return Err((
                PacketField::WorkGroupSize,
                format!("zero-sized work-group {wg:?}"),
            ));
        }
        if grid.contains(&0) {
            return Err((PacketField::GridSize, format!("zero-sized grid {grid:?}")));
        }
        // In 64 bits: three 16-bit sizes overflow 32 (a wrapped product could pass the check).
        let items = wg.iter().map(|&w| u64::from(w)).product::<u64>();
        if items > 1024 {
            return Err((
                PacketField::WorkGroupSize,
                format!("work-group {wg:?} of {items} work-items (at most 1024)"),
            ));
        }
        let counts = [0, 1, 2].map(|d| grid[d].div_ceil(wg[d]));
        Ok(Grid { grid, wg, counts })
    }

    pub fn workgroup_count(&self) -> u64 {
        self.counts.iter().map(|&c| u64::from(c)).product()
    }

    /// Work-group id of linear index `i` (X fastest).
    pub fn workgroup_id(&self, i: u64) -> [u32; 3] {
        let x = i % u64::from(self.counts[0]);
        let yz = i / u64::from(self.counts[0]);
        let y = yz % u64::from(self.counts[1]);
        let z = yz / u64::from(self.counts[1]);
        [x as u32, y as u32, z as u32]
    }

    /// The id of the work-group after `id` in linear order (`workgroup_id(i + 1)` where `id`
    /// is `workgroup_id(i)`), without `workgroup_id`'s divisions.
    pub fn next_id(&self, id: [u32; 3]) -> [u32; 3] {
        let [mut x, mut y, mut z] = id;
        x += 1;
        if x == self.counts[0] {
            x = 0;
            y += 1;
            if y == self.counts[1] {
                y = 0;
                z += 1;
            }
        }
        [x, y, z]
    }

    /// Work-items per dimension of the work-group `id`: smaller at the grid's upper edges.
    pub fn workgroup_extent(&self, id: [u32; 3]) -> [u32; 3] {
        [0, 1, 2].map(|d| self.wg[d].min(self.grid[d] - id[d] * self.wg[d]))
    }
}

/// The work-items of one work-group, packed into waves using the actual (possibly partial)
/// extent, X fastest, as the hardware packs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkGroupShape {
    pub extent: [u32; 3],
    pub items: u32,
    pub waves: u32,
}

impl WorkGroupShape {
    pub fn new(extent: [u32; 3]) -> Self {
        let items = extent[0] * extent[1] * extent[2];
        WorkGroupShape {
            extent,
            items,
            waves: items.div_ceil(WAVE_SIZE),
        }
    }

    /// EXEC of wave `w`: one bit per work-item that exists.
    pub fn exec(&self, w: u32) -> u64 {
        let n = self.items.saturating_sub(w * WAVE_SIZE).min(WAVE_SIZE);
        if n == 64 {
            u64::MAX
        } else {
            (1u64 << n) - 1
        }
    }

    /// Work-item id (x, y, z) of lane `lane` of wave `w` (lanes past the end get ids past the
    /// end too; they are inactive).
    pub fn workitem_id(&self, w: u32, lane: u32) -> [u32; 3] {
        let flat = w * WAVE_SIZE + lane;
        let [ex, ey, _] = self.extent;
        [flat % ex, (flat / ex) % ey, flat / (ex * ey)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_workgroups_at_edges() {
        let g = Grid::new([100, 10, 1], [64, 4, 1]).unwrap();
        assert_eq!(g.counts, [2, 3, 1]);
        assert_eq!(g.workgroup_count(), 6);
        assert_eq!(g.workgroup_id(5), [1, 2, 0]);
        assert_eq!(g.workgroup_extent([1, 2, 0]), [36, 2, 1]);
        let s = WorkGroupShape::new(g.workgroup_extent([1, 2, 0]));
        assert_eq!((s.items, s.waves), (72, 2));
        assert_eq!(s.exec(0), u64::MAX);
        assert_eq!(s.exec(1), 0xff);
        // Lane 0 of wave 1 is work-item 64 = (28, 1) in a 36-wide group.
        assert_eq!(s.workitem_id(1, 0), [28, 1, 0]);
    }

    #[test]
    fn next_id_steps_as_the_linear_index() {
        for (grid, wg) in [
            ([1000, 1, 1], [256, 1, 1]),
            ([100, 10, 1], [64, 4, 1]),
            ([33, 17, 9], [4, 4, 2]),
        ] {
            let g = Grid::new(grid, wg).unwrap();
            for i in 0..g.workgroup_count() - 1 {
                assert_eq!(g.next_id(g.workgroup_id(i)), g.workgroup_id(i + 1), "{i}");
            }
        }
    }

    #[test]
    fn rejects_bad_sizes() {
        let field = |g, w| Grid::new(g, w).unwrap_err().0;
        assert_eq!(field([0, 1, 1], [1, 1, 1]), PacketField::GridSize);
        assert_eq!(field([1, 1, 1], [64, 32, 1]), PacketField::WorkGroupSize);
        assert_eq!(field([1, 1, 1], [0, 1, 1]), PacketField::WorkGroupSize);
        // 2^15 * 2^15 * 4 = 2^32 work-items: a 32-bit product wraps to 0 and would pass.
        assert_eq!(
            field([1, 1, 1], [32768, 32768, 4]),
            PacketField::WorkGroupSize
        );
        assert_eq!(
            field([1, 1, 1], [65535, 65535, 65535]),
            PacketField::WorkGroupSize
        );
    }
}
