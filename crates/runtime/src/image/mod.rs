//! The images extension (`hsa_ext_image_*`, `hsa_amd_image_create`): formats and capabilities,
//! image and sampler objects whose handles are the addresses of their GFX9 descriptors (as in
//! ROCm: a kernel's image argument is that address), and host-side transfers.
//!
//! - [`formats`]: what each (channel order, channel type, geometry) maps to, swizzles, limits;
//! - [`geometry`]: descriptor validation, the linear storage plan, the 12-dword image object;
//! - [`transfer`]: import, export, copy and clear; `slab`: descriptor memory.

pub mod formats;
pub mod geometry;
mod slab;
pub mod transfer;

use crate::memory::Memory;
use crate::topology::Agent;
use crate::{Error, Result};
use geometry::{Layout, Plan};
use slab::Slab;
use softhsa_abi::*;
use softhsa_gpu::exec::mimg::format as texel;
use softhsa_gpu::exec::mimg::layout::{Shape, ALIGN};
use softhsa_gpu::exec::mimg::rsrc::{border, clamp, filter, ImageRsrc, SamplerRsrc};
use softhsa_gpu::exec::mimg::view::{self, View};
use softhsa_gpu::MemoryMap;
use std::collections::HashMap;
use std::sync::Mutex;
use transfer::{Rect, Surface};

/// A live image.
#[derive(Clone, Copy, Debug)]
struct ImageObj {
    agent: usize,
    plan: Plan,
    /// Agent address of the data.
    data: u64,
}

enum Object {
    Image(ImageObj),
    Sampler { agent: usize },
}

/// Image and sampler objects of one runtime instance.
#[derive(Default)]
pub struct Images {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    slab: Slab,
    objects: HashMap<u64, Object>,
}

fn invalid(msg: impl Into<String>) -> Error {
    Error::with_message(HSA_STATUS_ERROR_INVALID_ARGUMENT, msg.into())
}

fn check_access(access: u32) -> Result<()> {
    match access {
        HSA_ACCESS_PERMISSION_RO..=HSA_ACCESS_PERMISSION_RW => Ok(()),
        _ => Err(invalid(format!("access permission {access}"))),
    }
}

/// `hsa_ext_image_get_capability(_with_layout)`: the capability mask of `format` in
/// `geometry` on `agent` (0 on a CPU agent).
pub fn capability(agent: &Agent, geometry: u32, format: hsa_ext_image_format_t) -> Result<u32> {
    if geometry > HSA_EXT_IMAGE_GEOMETRY_2DADEPTH {
        return Err(invalid(format!("unknown image geometry {geometry}")));
    }
    Ok(if agent.is_gpu() {
        formats::property(format, geometry).map_or(0, |p| p.capability)
    } else {
        0
    })
}

/// `hsa_ext_image_data_get_info(_with_layout)`: size and alignment of an image's data.
pub fn data_info(
    agent: &Agent,
    desc: &hsa_ext_image_descriptor_t,
    access: u32,
    layout: Layout,
) -> Result<hsa_ext_image_data_info_t> {
    check_access(access)?;
    if !agent.is_gpu() {
        return Err(Error::with_message(
            HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED,
            "images exist on GPU agents only",
        ));
    }
    let p = geometry::plan(desc, layout)?;
    Ok(hsa_ext_image_data_info_t {
        size: p.size as usize,
        alignment: ALIGN as usize,
    })
}

impl Images {
    /// Host address of `[data, data + size)`, which must be memory the runtime knows.
    fn host_span(mem: &Memory, data: u64, size: u64) -> Result<u64> {
        mem.registry()
            .translate(data, size)
            .map(|(_, d)| data.wrapping_add(d))
            .ok_or_else(|| {
                invalid(format!(
                    "image data [{data:#x}, +{size:#x}) is not memory the agent can access"
                ))
            })
    }

    fn insert(&self, mem: &Memory, words: &[u32], obj: Object) -> Result<u64> {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let slot = g.slab.take(mem)?;
        Slab::write(slot, words);
        g.objects.insert(slot, obj);
        Ok(slot)
    }

    /// `hsa_ext_image_create(_with_layout)`: an image over `data` (256-byte aligned, inside
    /// memory the agent can access, `data_info` bytes).
    pub fn create(
        &self,
        mem: &Memory,
        agent: &Agent,
        desc: &hsa_ext_image_descriptor_t,
        data: u64,
        access: u32,
        layout: Layout,
    ) -> Result<u64> {
        data_info(agent, desc, access, layout)?;
        let plan = geometry::plan(desc, layout)?;
        self.create_planned(mem, agent, plan, data, geometry::object_words(&plan, data))
    }

    fn create_planned(
        &self,
        mem: &Memory,
        agent: &Agent,
        plan: Plan,
        data: u64,
        words: [u32; 12],
    ) -> Result<u64> {
        if data == 0 || !data.is_multiple_of(ALIGN) {
            return Err(invalid(format!(
                "image data {data:#x} is not 256-byte aligned"
            )));
        }
        Self::host_span(mem, data, plan.touched())?;
        let obj = ImageObj {
            agent: agent.index,
            plan,
            data,
        };
        self.insert(mem, &words, Object::Image(obj))
    }

    /// `hsa_amd_image_create`: an image whose T# comes from AMD metadata (`version`,
    /// `deviceID`, then the 8 T# words), with ROCm's overrides (base address, formats and
    /// swizzle from `desc`). Only linear (`SW_LINEAR`) layouts exist on the software GPU.
    pub fn create_from_metadata(
        &self,
        mem: &Memory,
        agent: &Agent,
        desc: &hsa_ext_image_descriptor_t,
        metadata: &[u32; 10],
        data: u64,
        access: u32,
    ) -> Result<u64> {
        check_access(access)?;
        let fmt_err =
            |m: String| Error::with_message(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED, m);
        let gpu = agent
            .gpu
            .as_ref()
            .ok_or_else(|| fmt_err("images exist on GPU agents only".into()))?;
        if !data.is_multiple_of(ALIGN) {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ALLOCATION,
                format!("image data {data:#x} is not 256-byte aligned"),
            ));
        }
        if metadata[0] != 1 || metadata[1] != (0x1002 << 16 | gpu.board.chip_id) {
            return Err(fmt_err(format!(
                "metadata version {} / device {:#x} is not 1 / {:#x}",
                metadata[0],
                metadata[1],
                0x1002 << 16 | gpu.board.chip_id
            )));
        }
        let g = desc.geometry;
        let prop = formats::property(desc.format, g)
            .ok_or_else(|| fmt_err("channel order and type not supported".into()))?;
        let words: [u32; 8] = metadata[2..].try_into().unwrap_or_default();
        let mut t = ImageRsrc::from_words(&words);
        let pixel = texel::data_format(t.data_format).map(|f| u32::from(f.bytes));
        if g == HSA_EXT_IMAGE_GEOMETRY_1DB || pixel != Some(prop.element_size) {
            return Err(fmt_err(
                "metadata format does not match the descriptor".into(),
            ));
        }
        if t.sw_mode != 0 {
            return Err(fmt_err(format!(
                "tiled layout (swizzle mode {}): softhsa images are linear",
                t.sw_mode
            )));
        }
        t.base = data;
        t.data_format = prop.data_format;
        t.num_format = prop.num_format;
        t.dst_sel = formats::swizzle(desc.format.channel_order);
        if geometry::is_1d(g) {
            t.ty = formats::resource_type(g);
        }
        let view = View::new(t).map_err(|_| fmt_err("unsupported resource".into()))?;
        let (lo, hi) = view.extent();
        let plan = Plan {
            desc: *desc,
            prop,
            shape: Shape { ..view.shape },
            slices: view.slices(),
            row_pitch: view.shape.row_pitch(),
            slice_pitch: view.shape.slice_pitch(),
            size: hi - lo,
        };
        let mut o = [0u32; 12];
        o[..8].copy_from_slice(&t.to_words());
        o[8] = desc.format.channel_type;
        o[9] = desc.format.channel_order;
        o[10] = desc.width as u32;
        self.create_planned(mem, agent, plan, data, o)
    }

    /// `hsa_ext_image_destroy` / `hsa_ext_sampler_destroy`: frees an object of `agent`.
    pub fn destroy(&self, agent: &Agent, handle: u64, sampler: bool) -> Result<()> {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let ok = match g.objects.get(&handle) {
            Some(Object::Image(i)) => !sampler && i.agent == agent.index,
            Some(Object::Sampler { agent: a }) => sampler && *a == agent.index,
            None => false,
        };
        if !ok {
            return Err(invalid(format!(
                "{handle:#x} is not a live {} of this agent",
                if sampler { "sampler" } else { "image" }
            )));
        }
        g.objects.remove(&handle);
        g.slab.put(handle);
        Ok(())
    }

    fn image(&self, agent: &Agent, handle: u64) -> Result<ImageObj> {
        let g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        match g.objects.get(&handle) {
            Some(Object::Image(i)) if i.agent == agent.index => Ok(*i),
            _ => Err(invalid(format!(
                "{handle:#x} is not a live image of this agent"
            ))),
        }
    }

    fn surface(mem: &Memory, i: &ImageObj) -> Result<Surface> {
        Ok(Surface {
            base: Self::host_span(mem, i.data, i.plan.touched())?,
            bpp: u64::from(i.plan.prop.element_size),
            row: i.plan.row_pitch,
            slice: i.plan.slice_pitch,
        })
    }

    /// `hsa_ext_image_import` (`to_image`) and `hsa_ext_image_export`: rows between the image
    /// and linear host memory at `host`.
    ///
    /// # Safety
    /// `host` must be valid for the region with the given pitches (reads for an import,
    /// writes for an export).
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn transfer(
        &self,
        mem: &Memory,
        agent: &Agent,
        image: u64,
        host: u64,
        row_pitch: usize,
        slice_pitch: usize,
        region: &hsa_ext_image_region_t,
        to_image: bool,
    ) -> Result<()> {
        let i = self.image(agent, image)?;
        let rect = transfer::rect(&i.plan, region.offset, region.range)?;
        let img = Self::surface(mem, &i)?;
        let lin = transfer::linear(&i.plan, host, &rect, row_pitch, slice_pitch);
        // SAFETY: the image surface was checked against the registry; `host` is the caller's.
        unsafe {
            if to_image {
                transfer::copy_rows(&lin, [0; 3], &img, rect.origin, rect.extent);
            } else {
                transfer::copy_rows(&img, rect.origin, &lin, [0; 3], rect.extent);
            }
        }
        Ok(())
    }

    /// `hsa_ext_image_copy`: images of one agent with the same element layout (sRGB and
    /// linear views of the same data format copy bits unchanged).
    #[allow(clippy::too_many_arguments)]
    pub fn copy(
        &self,
        mem: &Memory,
        agent: &Agent,
        src: u64,
        src_offset: hsa_dim3_t,
        dst: u64,
        dst_offset: hsa_dim3_t,
        range: hsa_dim3_t,
    ) -> Result<()> {
        let (s, d) = (self.image(agent, src)?, self.image(agent, dst)?);
        if s.plan.prop.data_format != d.plan.prop.data_format {
            return Err(invalid(format!(
                "source and destination formats differ ({:?} / {:?})",
                s.plan.desc.format, d.plan.desc.format
            )));
        }
        let sr = transfer::rect(&s.plan, src_offset, range)?;
        let dr = transfer::rect(&d.plan, dst_offset, range)?;
        if sr.extent != dr.extent {
            return Err(invalid(
                "the range maps to different extents in the two geometries",
            ));
        }
        let (ss, ds) = (Self::surface(mem, &s)?, Self::surface(mem, &d)?);
        // SAFETY: both surfaces were checked against the registry and the rects lie inside.
        unsafe { transfer::copy_rows(&ss, sr.origin, &ds, dr.origin, sr.extent) };
        Ok(())
    }

    /// `hsa_ext_image_clear`: `value` holds four components of the image's access type
    /// (f32 for normalized and float formats, i32/u32 for integer ones) in RGBA order,
    /// converted as an `image_store` converts.
    pub fn clear(
        &self,
        mem: &Memory,
        agent: &Agent,
        image: u64,
        value: [u32; 4],
        region: &hsa_ext_image_region_t,
    ) -> Result<()> {
        let i = self.image(agent, image)?;
        let rect: Rect = transfer::rect(&i.plan, region.offset, region.range)?;
        let p = &i.plan.prop;
        let f = texel::data_format(p.data_format).ok_or_else(|| invalid("no texel format"))?;
        // Undo the swizzle as a store does.
        let comps = view::unswizzle(formats::swizzle(i.plan.desc.format.channel_order), value);
        let raw = texel::encode(&f, p.num_format, comps)
            .ok_or_else(|| invalid("the format cannot be written"))?;
        let s = Self::surface(mem, &i)?;
        // SAFETY: the surface was checked against the registry and the rect lies inside.
        unsafe { transfer::fill(&s, &rect, raw) };
        Ok(())
    }

    /// `hsa_ext_sampler_create`: an S# as ROCm fills it (one addressing mode for all axes,
    /// transparent black border, no mip filtering, MAX_LOD 4095/256).
    pub fn sampler_create(
        &self,
        mem: &Memory,
        agent: &Agent,
        desc: &hsa_ext_sampler_descriptor_t,
    ) -> Result<u64> {
        if !agent.is_gpu() {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_AGENT,
                "samplers exist on GPU agents only",
            ));
        }
        let c = match desc.address_mode {
            HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE => clamp::CLAMP_LAST_TEXEL,
            HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER => clamp::CLAMP_BORDER,
            HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT => clamp::MIRROR,
            HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED | HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT => {
                clamp::WRAP
            }
            m => return Err(invalid(format!("sampler addressing mode {m}"))),
        };
        let xy = match desc.filter_mode {
            HSA_EXT_SAMPLER_FILTER_MODE_NEAREST => filter::XY_POINT,
            HSA_EXT_SAMPLER_FILTER_MODE_LINEAR => filter::XY_BILINEAR,
            m => return Err(invalid(format!("sampler filter mode {m}"))),
        };
        if desc.coordinate_mode > HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED {
            return Err(invalid(format!(
                "sampler coordinate mode {}",
                desc.coordinate_mode
            )));
        }
        let s = SamplerRsrc {
            clamp: [c; 3],
            force_unnormalized: desc.coordinate_mode
                == HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED,
            max_lod: 4095,
            xy_mag_filter: xy,
            xy_min_filter: xy,
            z_filter: filter::Z_NONE,
            mip_filter: filter::MIP_NONE,
            border_color_type: border::TRANS_BLACK,
            ..SamplerRsrc::default()
        };
        self.insert(mem, &s.to_words(), Object::Sampler { agent: agent.index })
    }
}
