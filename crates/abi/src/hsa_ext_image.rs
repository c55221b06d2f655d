//! Types of `hsa_ext_image.h` (Debian libhsa-runtime-dev 5.2): The images extension: image and
//! sampler handles, formats, descriptors and its function tables (HIP calls `hsa_ext_image_*`).
//!
//! Split by topic in the order of the header; everything is re-exported here.

mod image;
mod sampler;

pub use image::*;
pub use sampler::*;
