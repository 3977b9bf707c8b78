//! Launch geometry: one unit per item, in a grid that stays within the
//! 65535-cubes-per-dimension limit of every runtime.

use cubecl::prelude::*;

/// Units per cube.
pub(crate) const CUBE_UNITS: u32 = 256;

/// The most cubes along one grid dimension (Vulkan's and CUDA's y/z limit;
/// wgpu applies it to x as well).
const MAX_CUBES_PER_DIM: u32 = 65_535;

/// A grid of at least `units` units: a row of cubes, folded into a second
/// dimension when one row would exceed the limit. Kernels read their linear
/// position from `ABSOLUTE_POS` (which linearizes the grid) and return when
/// it is `units` or more.
pub(crate) fn grid(units: usize) -> (CubeCount, CubeDim) {
    let cubes = units.div_ceil(CUBE_UNITS as usize).max(1) as u32;
    let x = cubes.min(MAX_CUBES_PER_DIM);
    let y = cubes.div_ceil(x);
    (CubeCount::Static(x, y, 1), CubeDim::new_1d(CUBE_UNITS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_cover_every_unit_within_the_limit() {
        for units in [1, 255, 256, 257, 65_535 * 256, 65_535 * 256 + 1, 40_000_000] {
            let (CubeCount::Static(x, y, z), dim) = grid(units) else {
                unreachable!()
            };
            assert!(x <= MAX_CUBES_PER_DIM && y <= MAX_CUBES_PER_DIM && z == 1);
            assert!((x * y * dim.x) as usize >= units, "{units} units");
        }
    }
}
