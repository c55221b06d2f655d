#!/usr/bin/python3
"""Generate softhsa-abi's header modules, its status texts and the layout-test list from
Debian's /usr/include/hsa headers (package libhsa-runtime-dev), through libclang.

Usage (from anywhere; needs Debian's python3-clang-16, so /usr/bin/python3):
    /usr/bin/python3 crates/abi/gen/generate.py [SRC_DIR LIST_FILE]
Defaults write crates/abi/src/{hsa,...}.rs and tests/abi/layout_list.rs, then run rustfmt.
Edit this script, never its output. `cargo test -p softhsa-abi` then checks the result against C.
"""
import os
import re
import subprocess
import sys
import textwrap

import clang.cindex as ci

ci.Config.set_library_file('/usr/lib/llvm-16/lib/libclang.so.1')
K = ci.CursorKind
T = ci.TypeKind

HEADERS = [
    ('hsa.h', 'hsa', 'HSA 1.x core runtime API: status codes, system/agent/region/queue/signal/'
     'executable enums and handles, and the AQL packet formats.'),
    ('hsa_ext_amd.h', 'hsa_ext_amd', "ROCm's AMD extensions: memory pools, vendor packets, "
     'profiling, pointer info, IPC, events, SVM attributes.'),
    ('hsa_ven_amd_loader.h', 'hsa_ven_amd_loader', 'The AMD loader vendor extension: segment '
     'descriptors, loaded-code-object queries and its function tables.'),
    ('amd_hsa_queue.h', 'amd_hsa_queue', "AMD's queue, `amd_queue_t` (256 bytes; device code and "
     'other runtimes read it byte-exact), and its property bits.'),
    ('amd_hsa_signal.h', 'amd_hsa_signal', "AMD's signal, `amd_signal_t` (64 bytes; "
     '`hsa_signal_t.handle` is its address), and its kinds.'),
    ('amd_hsa_kernel_code.h', 'amd_hsa_kernel_code', 'Code object v2 kernel header '
     '`amd_kernel_code_t` (256 bytes) with its bit-field words as shift/width/mask constants.'),
    ('hsa_ext_image.h', 'hsa_ext_image', 'The images extension: image and sampler handles, '
     'formats, descriptors and its function tables (HIP calls `hsa_ext_image_*`).'),
    ('hsa_ext_finalize.h', 'hsa_ext_finalize', 'The finalizer extension (HSAIL programs): '
     'program handles, control directives and its function table.'),
]
HEADER_FILES = {h for h, _, _ in HEADERS}

KEYWORDS = {'type', 'ref', 'match', 'mod', 'fn', 'use', 'move', 'loop', 'impl', 'self', 'struct',
            'const', 'static', 'in', 'where', 'box', 'crate', 'enum', 'trait', 'priv', 'final'}

PRIMS = {
    'uint8_t': 'u8', 'uint16_t': 'u16', 'uint32_t': 'u32', 'uint64_t': 'u64',
    'int8_t': 'i8', 'int16_t': 'i16', 'int32_t': 'i32', 'int64_t': 'i64',
    'size_t': 'usize', 'uintptr_t': 'usize', 'intptr_t': 'isize',
}
BUILTIN = {
    T.BOOL: 'bool', T.CHAR_S: 'c_char', T.SCHAR: 'i8', T.UCHAR: 'u8', T.SHORT: 'i16',
    T.USHORT: 'u16', T.INT: 'c_int', T.UINT: 'c_uint', T.LONG: 'c_long', T.ULONG: 'c_ulong',
    T.LONGLONG: 'i64', T.ULONGLONG: 'u64', T.FLOAT: 'f32', T.DOUBLE: 'f64', T.VOID: 'c_void',
}
# Rust primitive -> C type used by the layout test to cast a constant before printing it.
C_OF = {'u8': 'uint8_t', 'u16': 'uint16_t', 'u32': 'uint32_t', 'u64': 'uint64_t',
        'i8': 'int8_t', 'i16': 'int16_t', 'i32': 'int32_t', 'i64': 'int64_t',
        'usize': 'size_t', 'c_int': 'int', 'c_uint': 'unsigned int'}
BITS = {'u8': 8, 'u16': 16, 'u32': 32, 'u64': 64, 'i8': 8, 'i16': 16, 'i32': 32, 'i64': 64,
        'usize': 64, 'c_int': 32, 'c_uint': 32}

# Anonymous enums extend a typed enum of hsa.h (their docs say so); keyed by first enumerator.
ANON_ENUM_TYPE = {
    'HSA_STATUS_ERROR_INVALID_MEMORY_POOL': 'hsa_status_t',
    'HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED': 'hsa_status_t',
    'HSA_EXT_STATUS_ERROR_INVALID_PROGRAM': 'hsa_status_t',
    'HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS': 'hsa_agent_info_t',
}
# Integer macros typed for their use (alignments feed Layout::from_size_align).
MACRO_TYPE = {'AMD_QUEUE_ALIGN_BYTES': 'usize', 'AMD_SIGNAL_ALIGN_BYTES': 'usize',
              'AMD_CONTROL_DIRECTIVES_ALIGN_BYTES': 'usize', 'AMD_ISA_ALIGN_BYTES': 'usize',
              'AMD_KERNEL_CODE_ALIGN_BYTES': 'usize'}


# Docs for items the headers leave undocumented (used only where the header has no comment).
EXTRA_DOC = {
    'hsa_queue_t.base_address': 'Start of the ring of AQL packets (`size` slots of 64 bytes).',
    'hsa_kernel_dispatch_packet_t.kernarg_address':
        'Kernel argument buffer; must stay unchanged until the dispatch completes. May be null.',
    'hsa_agent_dispatch_packet_t.return_address': 'Where the agent writes the return value.',
    'hsa_signal_value_t': 'Signal value: 64 bits in the large machine model (LP64, as here).',
    'hsa_amd_system_event_callback_t':
        'Handler of system events, registered with `hsa_amd_register_system_event_handler`.',
    'hsa_amd_hdp_flush_t': 'Addresses of the HDP flush registers of an agent '
        '(`HSA_AMD_AGENT_INFO_HDP_FLUSH`).',
    'hsa_amd_hdp_flush_t.HDP_MEM_FLUSH_CNTL': 'HDP memory flush control register.',
    'hsa_amd_hdp_flush_t.HDP_REG_FLUSH_CNTL': 'HDP register flush control register.',
    'hsa_amd_memory_pool_global_flag_t': 'Flags of a global memory pool '
        '(`HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS`).',
    'hsa_pitched_ptr_t.base': 'First byte of the buffer.',
    'hsa_pitched_ptr_t.pitch': 'Bytes from one row to the next.',
    'hsa_pitched_ptr_t.slice': 'Bytes from one slice (2D plane) to the next.',
    'hsa_amd_ipc_memory_t.handle': 'Opaque bytes that name the shared allocation across processes.',
    'hsa_amd_svm_model_t': 'Migration model of an SVM range (`HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG`).',
    'hsa_amd_svm_attribute_t': 'Attribute keys of `hsa_amd_svm_attributes_set`/`_get`.',
    'hsa_ven_amd_loader_1_00_pfn_t': 'Function table of version 1.00 of the AMD loader extension, '
        'filled by `hsa_system_get_major_extension_table`.',
    'hsa_ven_amd_loader_1_01_pfn_t': 'Function table of version 1.01 of the AMD loader extension.',
    'hsa_ven_amd_loader_1_02_pfn_t': 'Function table of version 1.02 of the AMD loader extension.',
    'hsa_ven_amd_loader_1_03_pfn_t': 'Function table of version 1.03 of the AMD loader extension.',
    'amd_queue_t': "AMD's queue (256 bytes, 64-byte aligned). A `hsa_queue_t*` handed to programs "
        'points here; device code reads the fields after `hsa_queue` (read index, apertures, '
        'scratch).',
    'amd_queue_t.hsa_queue': 'The public part of the queue (its first 40 bytes).',
    'amd_queue_t.write_dispatch_id': 'The write index: id of the next packet slot producers fill.',
    'amd_queue_t.group_segment_aperture_base_hi':
        'High 32 bits of the flat-address aperture of the group segment (LDS).',
    'amd_queue_t.private_segment_aperture_base_hi':
        'High 32 bits of the flat-address aperture of the private segment (scratch).',
    'amd_queue_t.max_cu_id': 'Highest compute unit id of the agent.',
    'amd_queue_t.max_wave_id': 'Highest wave slot id within a compute unit.',
    'amd_queue_t.max_legacy_doorbell_dispatch_id_plus_1':
        'Legacy doorbell bookkeeping: highest id rung so far, plus 1.',
    'amd_queue_t.legacy_doorbell_lock': 'Lock taken while ringing a legacy doorbell.',
    'amd_queue_t.read_dispatch_id':
        'The read index: id of the next packet the packet processor consumes.',
    'amd_queue_t.read_dispatch_id_field_base_byte_offset':
        'Byte offset of `read_dispatch_id` from the start of this structure.',
    'amd_queue_t.compute_tmpring_size':
        'Value of the COMPUTE_TMPRING_SIZE register: scratch waves and bytes per wave.',
    'amd_queue_t.scratch_resource_descriptor':
        'Buffer resource (V#) of the private segment, handed to kernels in SGPRs.',
    'amd_queue_t.scratch_backing_memory_location': 'Base address of the scratch backing memory.',
    'amd_queue_t.scratch_backing_memory_byte_size': 'Size in bytes of the scratch backing memory.',
    'amd_queue_t.scratch_wave64_lane_byte_size': 'Scratch bytes per lane of a 64-lane wave.',
    'amd_queue_t.queue_properties': '`AMD_QUEUE_PROPERTIES_*` bits.',
    'amd_queue_t.queue_inactive_signal':
        'Signal the runtime sets when the queue turns inactive after an error.',
    'amd_queue_t.reserved1': 'Reserved, 0.',
    'amd_queue_t.reserved2': 'Reserved, 0.',
    'amd_queue_t.reserved3': 'Reserved, 0.',
    'amd_queue_t.reserved4': 'Reserved, 0.',
    'amd_signal_t': "AMD's signal (64 bytes, 64-byte aligned); `hsa_signal_t.handle` is its "
        'address, and device code updates it in place.',
    'amd_signal_t.kind': '`AMD_SIGNAL_KIND_*`; a USER signal keeps its value in `value`.',
    'amd_signal_t.value': 'The signal value (USER kind).',
    'amd_signal_t.event_mailbox_ptr':
        'Address where a signaller writes `event_id` to wake waiters (then `s_sendmsg`); 0 if none.',
    'amd_signal_t.event_id': 'Event id written to `event_mailbox_ptr`.',
    'amd_signal_t.reserved1': 'Reserved, 0.',
    'amd_signal_t.start_ts': 'Start timestamp of the dispatch or copy this signal completes '
        '(profiling).',
    'amd_signal_t.end_ts': 'End timestamp of the dispatch or copy this signal completes '
        '(profiling).',
    'amd_signal_t.queue_ptr': 'The queue whose doorbell this signal is (DOORBELL kinds).',
    'amd_signal_t.reserved3': 'Reserved, 0.',
    'amd_control_directives_t': 'Control directives of a code object v2 kernel (128 bytes); '
        '`enabled_control_directives` says which fields are valid.',
    'amd_control_directives_t.enabled_control_directives':
        '`AMD_ENABLED_CONTROL_DIRECTIVE_*` bits: which of the following fields apply.',
    'amd_kernel_code_t': 'Code object v2 kernel header (256 bytes, 64-byte aligned): the kernel '
        "symbol's address; machine code starts `kernel_code_entry_byte_offset` bytes after it.",
    'amd_kernel_code_t.kernel_code_entry_byte_offset':
        'Byte offset from this header to the first instruction of the kernel.',
    'amd_kernel_code_t.compute_pgm_rsrc1': 'COMPUTE_PGM_RSRC1 register value '
        '(`AMD_COMPUTE_PGM_RSRC_ONE_*` fields).',
    'amd_kernel_code_t.compute_pgm_rsrc2': 'COMPUTE_PGM_RSRC2 register value '
        '(`AMD_COMPUTE_PGM_RSRC_TWO_*` fields).',
    'amd_kernel_code_t.kernel_code_properties':
        '`AMD_KERNEL_CODE_PROPERTIES_*` fields: which SGPRs the kernel expects, pointer size.',
    'amd_kernel_code_t.workitem_private_segment_byte_size': 'Scratch bytes per work-item.',
    'amd_kernel_code_t.workgroup_group_segment_byte_size':
        'Static LDS bytes per work-group (dynamic LDS comes on top).',
    'amd_kernel_code_t.kernarg_segment_byte_size': 'Size of the kernel argument buffer.',
    'amd_kernel_code_t.wavefront_sgpr_count': 'SGPRs the kernel uses.',
    'amd_kernel_code_t.workitem_vgpr_count': 'VGPRs the kernel uses.',
    'amd_kernel_code_t.wavefront_size': 'Wave size as a power of two (6: 64 lanes).',
    'amd_runtime_loader_debug_info_t': "The loader's debug record of a loaded kernel.",
}


def fname(cur):
    f = cur.location.file
    return f.name.split('/')[-1] if f else None


def clean_doc(raw):
    """Doxygen/C comment -> list of rustdoc lines (the brief paragraph)."""
    if not raw:
        return []
    lines = []
    for ln in raw.splitlines():
        ln = ln.strip()
        ln = re.sub(r'^(/\*\*<?|/\*!?|///<?|//!?|\*/|\*)', '', ln)
        ln = re.sub(r'\*/$', '', ln).strip()
        lines.append(ln)
    text = '\n'.join(lines)
    if 'Copyright' in text or text.strip().startswith('TODO'):  # license block, notes to self
        return []
    main, dep = None, None
    for p in re.split(r'\n\s*\n', text):
        p = p.strip()
        if p.startswith('@brief'):
            p = p[len('@brief'):]
        elif p.startswith('@deprecated'):
            dep = 'Deprecated: ' + re.split(r'\n\s*@', p[len('@deprecated'):])[0]
            continue
        elif p.startswith('@'):
            continue
        p = re.split(r'\n\s*@', p)[0]
        if main is None and p.strip():
            main = p
    out = wrap_para(main) if main else []
    if dep:
        out += ([''] if out else []) + wrap_para(dep)
    return out


def wrap_para(para):
    """One doc paragraph -> wrapped rustdoc lines; `- item` lines stay a Markdown list."""
    chunks = re.split(r'\n\s*-\s+', '\n' + para.strip())
    out = []
    for k, chunk in enumerate(chunks):
        text = inline(chunk)
        if not text:
            continue
        if k == 0:
            out += wrap_text(text, 92)
        else:
            lines = wrap_text(text, 90)
            out += ['- ' + lines[0]] + ['  ' + ln for ln in lines[1:]]
    if out and out[-1][-1] not in '.:!?);,':
        out[-1] += '.'
    return out


def inline(text):
    text = ' '.join(text.split())
    text = re.sub(r'@[pa]\s+(\w+)', r'`\1`', text)
    text = re.sub(r'@ref\s+(\w+)', r'`\1`', text)
    text = re.sub(r'::(\w+)', r'`\1`', text)
    text = text.replace('[', '\\[').replace(']', '\\]').replace('<', '\\<').replace('>', '\\>')
    return text.replace('\\<\\<', '<<').replace('\\>\\>', '>>')


def wrap_text(text, width):
    out = []
    for w in textwrap.wrap(text, width, break_on_hyphens=False):
        # A wrapped line that starts like a Markdown list/heading would change the rendering.
        if out and re.match(r'^([-*+#>]|\d+[.)])(\s|$)', w):
            out[-1] += ' ' + w.split(' ', 1)[0]
            w = w.split(' ', 1)[1] if ' ' in w else ''
            if not w:
                continue
        out.append(w)
    return out


def doc(lines, indent=''):
    return ''.join(f'{indent}/// {ln}\n' if ln else f'{indent}///\n' for ln in lines)


class Gen:
    def __init__(self):
        src = ''.join(f'#include <hsa/{h}>\n' for h, _, _ in HEADERS)
        tu = ci.Index.create().parse(
            'all.c',
            args=['-x', 'c', '-std=c11', '-fparse-all-comments',
                  '-fretain-comments-from-system-headers'],
            unsaved_files=[('all.c', src)],
            options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
        for d in tu.diagnostics:
            if d.severity >= 3:
                raise SystemExit(f'clang: {d}')
        self.tu = tu
        self.tag2name = {}      # 'struct hsa_queue_s' -> 'hsa_queue_t'
        self.ours = set()       # Rust type names this crate defines
        self.out = {h: [] for h in HEADER_FILES}
        self.structs = []       # (name, [(rust_field, c_field)])
        self.int_aliases = []   # (rust name, C spelling)
        self.other_aliases = []  # (rust name, C spelling)
        self.consts = []        # (name, C type the test casts it to)
        self.prim_of = {}       # alias -> rust primitive
        self.statuses = []      # (HSA_STATUS_* name, description from the header)
        for cur in tu.cursor.get_children():
            if cur.kind == K.TYPEDEF_DECL and fname(cur) in HEADER_FILES:
                u = cur.underlying_typedef_type
                decl = u.get_declaration()
                if decl.kind in (K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL):
                    self.tag2name[decl.get_usr()] = cur.spelling

    # ---- types -------------------------------------------------------------------------------
    def rty(self, t, cur=None):
        if t.kind == T.ELABORATED:
            t = t.get_named_type()
        if t.kind == T.TYPEDEF:
            n = t.get_declaration().spelling
            if n in PRIMS:
                return PRIMS[n]
            if n in self.ours:
                return n
            raise SystemExit(f'unknown typedef {n}')
        if t.kind in (T.RECORD, T.ENUM):
            d = t.get_declaration()
            n = self.tag2name.get(d.get_usr())
            if n:
                return n
            if t.kind == T.ENUM:
                return self.rty(d.enum_type)
            raise SystemExit(f'untypedefed record {t.spelling}')
        if t.kind in BUILTIN:
            return BUILTIN[t.kind]
        if t.kind == T.CONSTANTARRAY:
            return f'[{self.rty(t.element_type)}; {t.element_count}]'
        if t.kind == T.POINTER:
            p = t.get_pointee()
            mut = 'const' if p.is_const_qualified() else 'mut'
            if p.kind == T.ELABORATED:
                p = p.get_named_type()
            if p.kind in (T.FUNCTIONPROTO, T.FUNCTIONNOPROTO):
                return f'Option<{self.fnty(p, cur)}>'
            if p.kind == T.RECORD and not p.get_declaration().is_definition():
                return f'*{mut} {self.opaque(p.get_declaration().spelling)}'
            return f'*{mut} {self.rty(p)}'
        raise SystemExit(f'unmapped type {t.spelling} {t.kind}')

    def fnty(self, p, cur):
        parms = [c for c in cur.get_children() if c.kind == K.PARM_DECL] if cur else []
        tys = list(p.argument_types())
        if len(parms) == len(tys) and all(c.spelling for c in parms):
            args = ', '.join(f'{c.spelling}: {self.rty(c.type, c)}' for c in parms)
        else:
            args = ', '.join(self.rty(a) for a in tys)
        if p.kind == T.FUNCTIONPROTO and p.is_function_variadic():
            args += ', ...'
        r = p.get_result()
        ret = '' if r.kind == T.VOID else f' -> {self.rty(r)}'
        return f'unsafe extern "C" fn({args}){ret}'

    def opaque(self, tag):
        """A struct only ever used behind a pointer and defined by no header (BrigModuleHeader)."""
        if tag not in self.ours:
            self.ours.add(tag)
            self.emit(self.h, f'/// C `struct {tag}`, which no header defines: only ever used behind '
                      f'a pointer.\n#[repr(C)]\npub struct {tag} {{\n    _opaque: [u8; 0],\n}}\n')
        return tag

    def prim(self, rust):
        while rust in self.prim_of:
            rust = self.prim_of[rust]
        return rust

    # ---- items -------------------------------------------------------------------------------
    def emit(self, h, text):
        self.out[h].append((self.line, text))

    def enum(self, h, cur, name, comment_cur, typedefd):
        """C enum -> `pub type` (unless `name` is None) plus typed constants."""
        under = self.rty(cur.enum_type)
        under = {'c_uint': 'u32', 'c_int': 'i32'}.get(under, under)
        ctype = name
        if name is None:
            first = next(cur.get_children()).spelling
            ctype = ANON_ENUM_TYPE.get(first)
            if ctype is None:
                raise SystemExit(f'anonymous enum starting {first}: add it to ANON_ENUM_TYPE')
        text = doc(clean_doc(comment_cur.raw_comment) or self.extra(name or ''))
        storage = None
        if name is not None and not typedefd:
            # `enum amd_x_t` (no typedef) describes a sized storage word `amd_xNN_t`: type the
            # constants as that word so they compare with struct fields directly.
            base = name[:-2]
            for w in (8, 16, 32, 64):
                if f'{base}{w}_t' in self.ours:
                    storage = f'{base}{w}_t'
        if storage:
            ctype = storage
            self.add_doc(h, storage, f'Values: the constants of C `enum {name}` below.')
            self.emit(h, f'// C `enum {name}`, typed as its storage word `{storage}`.\n')
        elif name is not None:
            self.emit(h, text + f'pub type {name} = {under};\n')
            self.prim_of[name] = under
            self.ours.add(name)
            cspell = name if typedefd else f'enum {name}'
            self.int_aliases.append((name, cspell))
        else:
            self.emit(h, text.replace('///', '//'))
        cprim = self.prim(ctype)
        bits = BITS[cprim]
        lines = []
        shifts = {e.spelling: e.enum_value for e in cur.get_children()
                  if e.spelling.endswith(('_SHIFT', '_WIDTH'))}
        for e in cur.get_children():
            if e.kind != K.ENUM_CONSTANT_DECL:
                continue
            v = e.enum_value
            if cprim.startswith('u') or cprim == 'c_uint':
                v &= (1 << bits) - 1
            d = doc(clean_doc(e.raw_comment))
            if not d and f'{e.spelling}_SHIFT' in shifts:
                lo, w = shifts[f'{e.spelling}_SHIFT'], shifts[f'{e.spelling}_WIDTH']
                bits_txt = f'bit {lo}' if w == 1 else f'bits {lo}..={lo + w - 1}'
                d = doc([f'Mask of the field at {bits_txt} (position in `_SHIFT`, size in `_WIDTH`).'])
            toks = [t.spelling for t in e.get_tokens()]
            lit = str(v)
            if len(toks) == 3 and toks[1] == '=' and re.fullmatch(r'0[xX][0-9a-fA-F]+|\d+', toks[2]):
                lit = toks[2] if not re.fullmatch(r'0\d+', toks[2]) else str(v)
            elif e.spelling.endswith(('_SHIFT', '_WIDTH')) or v < 10:
                lit = str(v)
            elif v > 0:
                lit = hex(v)
            lines.append(f'{d}pub const {e.spelling}: {ctype} = {lit};\n')
            self.consts.append((e.spelling, C_OF[cprim]))
            if ctype == 'hsa_status_t':
                msg = ' '.join(clean_doc(e.raw_comment)).replace('\\', '').replace('`', '')
                self.statuses.append((e.spelling, msg))
        self.emit(h, ''.join(lines))

    def extra(self, key):
        return wrap_para(EXTRA_DOC[key]) if key in EXTRA_DOC else []

    def add_doc(self, h, name, text):
        for i, (line, item) in enumerate(self.out[h]):
            if f'pub type {name} =' in item:
                self.out[h][i] = line, item.replace(f'pub type {name} =',
                                                    f'///\n/// {text}\npub type {name} =')
                return
        raise SystemExit(f'no typedef {name}')

    def record(self, h, decl, name, comment_cur, td):
        fields = []
        checks = []
        # An alignment attribute may sit on the struct or on its typedef.
        align = max(decl.type.get_align(), td.type.get_align())
        natural = max([1] + [c.type.get_align() for c in decl.get_children()
                             if c.kind in (K.FIELD_DECL, K.UNION_DECL)])
        aligned = align > natural
        has_fn = False
        kids = list(decl.get_children())
        for i, c in enumerate(kids):
            if c.kind == K.FIELD_DECL and c.is_anonymous():
                continue
            if c.kind == K.FIELD_DECL:
                rn = c.spelling + '_' if c.spelling in KEYWORDS else c.spelling
                ty = self.rty(c.type, c)
                has_fn |= 'fn(' in ty
                d = clean_doc(c.raw_comment) or self.extra(f'{name}.{c.spelling}')
                fields.append(doc(d, '    ') + f'    pub {rn}: {ty},\n')
                checks.append((rn, c.spelling))
            elif c.kind == K.UNION_DECL and c.is_anonymous():
                # An anonymous union of equally sized members: keep its first member as the
                # field (same offset, size and alignment) and name the others in the docs.
                mem = [m for m in c.get_children() if m.kind == K.FIELD_DECL]
                sizes = {m.type.get_size() for m in mem} | {c.type.get_size()}
                aligns = {m.type.get_align() for m in mem} | {c.type.get_align()}
                if len(sizes) != 1 or len(aligns) != 1:
                    raise SystemExit(f'{name}: anonymous union with unequal members')
                first = mem[0]
                ty = self.rty(first.type)
                d = clean_doc(first.raw_comment) or self.extra(f'{name}.{first.spelling}')
                if len(mem) > 1:
                    alias = ', '.join(f'`{m.spelling}: {self.rty(m.type)}`' for m in mem[1:])
                    d += ([''] if d else []) + textwrap.wrap(
                        f'C anonymous union; the same {first.type.get_size()} bytes are also '
                        f'read as {alias}.', 92)
                fields.append(doc(d, '    ') + f'    pub {first.spelling}: {ty},\n')
                for m in mem:
                    checks.append((first.spelling, m.spelling))
            elif c.kind in (K.ALIGNED_ATTR,):
                pass
            else:
                raise SystemExit(f'{name}: unexpected {c.kind}')
        kw = 'union' if decl.kind == K.UNION_DECL else 'struct'
        repr_ = f'#[repr(C, align({align}))]' if aligned else '#[repr(C)]'
        derives = 'Clone, Copy, Debug'
        if not has_fn and kw == 'struct':
            derives += ', PartialEq, Eq, Hash'
        text = doc(clean_doc(comment_cur.raw_comment) or self.extra(name))
        text += f'#[derive({derives})]\n{repr_}\npub {kw} {name} {{\n' + ''.join(fields) + '}\n'
        text += f'zeroed_default!({name});\n'
        self.emit(h, text)
        self.structs.append((name, checks))

    def run(self):
        pending_enum = {}
        kids = list(self.tu.cursor.get_children())
        for i, cur in enumerate(kids):
            h = fname(cur)
            if h not in HEADER_FILES:
                continue
            self.line, self.h = cur.location.line, h
            if cur.kind == K.MACRO_DEFINITION:
                toks = [t.spelling for t in cur.get_tokens()]
                if len(toks) == 2 and re.fullmatch(r'\d+[uUlL]*', toks[1]):
                    lit = toks[1].rstrip('uUlL')
                    val = int(lit, 8) if lit.startswith('0') and len(lit) > 1 else int(lit)
                    ty = MACRO_TYPE.get(toks[0], 'u32')
                    d = clean_doc(cur.raw_comment) or [f'C `#define {toks[0]} {toks[1]}`.']
                    if lit != str(val) and lit.startswith('0'):
                        d.append(f'(The C literal `{toks[1]}` is octal.)')
                    rlit = f'0o{lit.lstrip("0")}' if lit.startswith('0') and val else str(val)
                    self.emit(h, doc(d) + f'pub const {toks[0]}: {ty} = {rlit};\n')
                    self.consts.append((toks[0], C_OF[ty]))
                continue
            if cur.kind == K.ENUM_DECL:
                nxt = kids[i + 1] if i + 1 < len(kids) else None
                if (nxt is not None and nxt.kind == K.TYPEDEF_DECL and
                        nxt.underlying_typedef_type.get_declaration().get_usr() == cur.get_usr()):
                    pending_enum[cur.get_usr()] = cur
                    continue
                self.enum(h, cur, None if cur.is_anonymous() else cur.spelling, cur, False)
                continue
            if cur.kind in (K.STRUCT_DECL, K.UNION_DECL):
                if cur.is_definition() and cur.get_usr() not in self.tag2name:
                    raise SystemExit(f'untypedefed record {cur.spelling}')
                continue
            if cur.kind != K.TYPEDEF_DECL:
                continue
            name = cur.spelling
            u = cur.underlying_typedef_type
            decl = u.get_declaration()
            self.ours.add(name)
            if decl.kind == K.ENUM_DECL:
                self.ours.discard(name)
                e = pending_enum.pop(decl.get_usr(), decl)
                cc = cur if cur.raw_comment else e
                self.enum(h, e, name, cc, True)
            elif decl.kind in (K.STRUCT_DECL, K.UNION_DECL):
                cc = cur if cur.raw_comment else decl
                self.record(h, decl, name, cc, cur)
            else:
                ty = self.rty(u, cur)
                d = clean_doc(cur.raw_comment) or self.extra(name) or [f'C `{name}`.']
                self.emit(h, doc(d) + f'pub type {name} = {ty};\n')
                if ty in BITS or self.prim(ty) in BITS:
                    self.prim_of[name] = ty
                    self.int_aliases.append((name, name))
                else:
                    self.other_aliases.append((name, name))


# Headers long enough to split, by the header line where each part starts: module, contents.
SPLITS = {
    'hsa.h': [
        (0, 'status', 'status codes and common definitions'),
        (385, 'agent', 'system and agent information'),
        (1305, 'signal', 'signals and signal groups'),
        (2170, 'queue', 'regions and queues'),
        (2749, 'packet', 'AQL packets'),
        (3160, 'region', 'memory region information'),
        (3519, 'isa', 'instruction set architectures and wavefronts'),
        (3996, 'executable', 'code object readers, executables and their symbols'),
        (5105, 'code_object', 'the deprecated code object API'),
    ],
    'hsa_ext_amd.h': [
        (0, 'packet', 'AMD vendor packets'),
        (170, 'agent', 'status codes, agent and region information'),
        (400, 'signal', 'profiling times and signal attributes'),
        (870, 'memory', 'memory pools, copies and links'),
        (1700, 'pointer', 'pointer information and IPC'),
        (1990, 'event', 'system events, queue priority and SVM attributes'),
    ],
    'hsa_ext_image.h': [
        (0, 'image', 'image handles, formats, descriptors, data layouts and regions'),
        (1090, 'sampler', 'samplers and the function tables of the extension'),
    ],
    'amd_hsa_kernel_code.h': [
        (0, 'rsrc', 'version, machine and the COMPUTE_PGM_RSRC1/2 words'),
        (142, 'kernel_code', 'kernel code properties, control directives and `amd_kernel_code_t`'),
    ],
}


def uses(body):
    """`use` lines for a generated file: the crate (if it names types defined elsewhere) and FFI
    scalars."""
    code = '\n'.join(ln for ln in body.splitlines() if not ln.lstrip().startswith('//'))
    defined = set(re.findall(r'pub (?:struct|type|const) (\w+)', code))
    named = set(re.findall(r'\b((?:hsa|amd|HSA|AMD)_\w+)\b', code))
    u = 'use crate::*;\n' if named - defined else ''
    ffi = sorted({n for n in ('c_char', 'c_int', 'c_uint', 'c_long', 'c_ulong', 'c_void')
                  if re.search(rf'\b{n}\b', code)})
    if len(ffi) > 1:
        u += 'use core::ffi::{' + ', '.join(ffi) + '};\n'
    elif ffi:
        u += f'use core::ffi::{ffi[0]};\n'
    return u


def write_module(path, doc_text, items):
    body = '\n'.join(text for _, text in sorted(items, key=lambda it: it[0]))
    use = uses(body)
    with open(path, 'w') as f:
        for ln in textwrap.wrap(doc_text, 96):
            f.write(f'//! {ln}\n')
        f.write('//!\n//! Generated by `crates/abi/gen/generate.py`; checked field by field against C '
                'by\n//! `tests/layout.rs`.\n\n')
        f.write(use + ('\n' if use else '') + body)


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
    if len(sys.argv) == 3:
        src_dir, list_file = sys.argv[1], sys.argv[2]
    else:
        src_dir = os.path.join(root, 'crates', 'abi', 'src')
        list_file = os.path.join(root, 'tests', 'abi', 'layout_list.rs')
    g = Gen()
    g.run()
    written = []
    for h, mod, blurb in HEADERS:
        head = f'Types of `{h}` (Debian libhsa-runtime-dev 5.2): {blurb}'
        parts = SPLITS.get(h)
        if not parts:
            write_module(f'{src_dir}/{mod}.rs', head, g.out[h])
            written.append(f'{src_dir}/{mod}.rs')
            continue
        os.makedirs(f'{src_dir}/{mod}', exist_ok=True)
        with open(f'{src_dir}/{mod}.rs', 'w') as f:
            for ln in textwrap.wrap(head, 96):
                f.write(f'//! {ln}\n')
            f.write('//!\n//! Split by topic in the order of the header; everything is re-exported '
                    'here.\n\n')
            f.write(''.join(f'mod {m};\n' for _, m, _ in parts) + '\n')
            f.write(''.join(f'pub use {m}::*;\n' for _, m, _ in parts))
        written.append(f'{src_dir}/{mod}.rs')
        for k, (start, m, what) in enumerate(parts):
            end = parts[k + 1][0] if k + 1 < len(parts) else 1 << 30
            items = [it for it in g.out[h] if start <= it[0] < end]
            write_module(f'{src_dir}/{mod}/{m}.rs', f'`{h}`: {what}.', items)
            written.append(f'{src_dir}/{mod}/{m}.rs')
    with open(f'{src_dir}/status_text.rs', 'w') as f:
        f.write('//! The text of every `hsa_status_t` value, from the descriptions in `hsa.h` and '
                '`hsa_ext_amd.h`\n//! (what `hsa_status_string` returns), generated with the '
                'header modules.\n\nuse crate::*;\n'
                'use core::ffi::CStr;\n\n'
                '/// `(status, "NAME: description")` for every status code of the headers.\n'
                'pub const HSA_STATUS_TEXT: &[(hsa_status_t, &CStr)] = &[\n')
        for n, m in g.statuses:
            text = f'{n}: {m}'.replace('"', '\\"')
            f.write(f'    ({n}, c"{text}"),\n')
        f.write('];\n\n/// The text of `status` (`"NAME: description"`), or `None` for a value no header '
                'defines.\npub fn hsa_status_text(status: hsa_status_t) -> Option<&\'static CStr> {\n'
                '    HSA_STATUS_TEXT.iter().find(|(s, _)| *s == status).map(|(_, t)| *t)\n}\n')
    with open(list_file, 'w') as f:
        f.write('// Generated by crates/abi/gen/generate.py. The layout-test list: every struct (each C\n'
                '// field with the Rust field that holds it), every typedef and every constant of '
                'the headers.\n\n')
        f.write('structs! {\n')
        for name, checks in g.structs:
            parts = [rn if rn == cn else f'{rn} = "{cn}"' for rn, cn in checks]
            f.write(f'    {name} {{ {", ".join(parts)} }}\n')
        f.write('}\n\nint_aliases! {\n')
        for rn, cn in g.int_aliases:
            f.write(f'    {rn},\n' if rn == cn else f'    {rn} = "{cn}",\n')
        f.write('}\n\nother_aliases! {\n')
        for rn, cn in g.other_aliases:
            f.write(f'    {rn},\n' if rn == cn else f'    {rn} = "{cn}",\n')
        f.write('}\n\n// Constants grouped by the C type they are cast to before printing.\nconstants! {\n')
        groups = []
        for n, c in g.consts:
            if groups and groups[-1][0] == c:
                groups[-1][1].append(n)
            else:
                groups.append((c, [n]))
        for c, names in groups:
            body = textwrap.wrap(', '.join(names), 88)
            f.write(f'    "{c}": [\n' + ''.join(f'        {ln}\n' for ln in body) + '    ],\n')
        f.write('}\n')
    written.append(f'{src_dir}/status_text.rs')
    subprocess.run(['rustfmt', '--edition', '2021'] + written, check=True)


main()
