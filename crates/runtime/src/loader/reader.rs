//! Code object readers (`hsa_code_object_reader_create_from_file` / `_from_memory`): the bytes
//! of a code object, copied at creation, and where they came from (for the loader extension).

use crate::{Error, Result};
use softhsa_abi::*;
use std::sync::Arc;

/// Where a reader's bytes came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    /// A file descriptor of the program, with the byte range read.
    File { fd: i32, offset: u64, size: u64 },
    /// Program memory: the caller's pointer and size.
    Memory { address: u64, size: u64 },
}

/// One reader.
#[derive(Debug)]
pub struct Reader {
    pub bytes: Arc<[u8]>,
    pub storage: Storage,
}

impl Reader {
    /// Reads `size` bytes at `offset` of `fd` (the whole file when `size` is 0) without moving
    /// the descriptor's file offset.
    pub fn from_file(fd: i32, offset: u64, size: u64) -> Result<Reader> {
        use std::os::unix::fs::FileExt;
        use std::os::unix::io::FromRawFd;
        let bad = |why: String| Error::with_message(HSA_STATUS_ERROR_INVALID_FILE, why);
        if fd < 0 {
            return Err(bad(format!("invalid file descriptor {fd}")));
        }
        // SAFETY: `fd` belongs to the caller; ManuallyDrop ensures we never close it. An fd
        // that is not open makes the metadata/read calls fail with EBADF, reported below.
        let file = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
        let len = file
            .metadata()
            .map_err(|e| bad(format!("fd {fd}: {e}")))?
            .len();
        let size = if size == 0 {
            len.saturating_sub(offset)
        } else {
            size
        };
        if offset.checked_add(size).is_none_or(|end| end > len) || size == 0 {
            return Err(bad(format!(
                "fd {fd}: range {offset:#x}+{size:#x} outside the file ({len:#x} B)"
            )));
        }
        let mut bytes = vec![0u8; size as usize];
        file.read_exact_at(&mut bytes, offset)
            .map_err(|e| bad(format!("fd {fd}: {e}")))?;
        Ok(Reader {
            bytes: bytes.into(),
            storage: Storage::File { fd, offset, size },
        })
    }

    /// Copies `bytes` (the caller's memory at `address`).
    pub fn from_memory(bytes: &[u8], address: u64) -> Result<Reader> {
        if bytes.is_empty() {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                "empty code object",
            ));
        }
        Ok(Reader {
            bytes: bytes.into(),
            storage: Storage::Memory {
                address,
                size: bytes.len() as u64,
            },
        })
    }

    /// The URI ROCm gives a loaded code object (HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI).
    pub fn uri(&self) -> String {
        match self.storage {
            Storage::File { fd, offset, size } => {
                let path = std::fs::read_link(format!("/proc/self/fd/{fd}"))
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|_| format!("/proc/self/fd/{fd}"));
                format!("file://{path}#offset={offset}&size={size}")
            }
            Storage::Memory { address, size } => {
                format!(
                    "memory://{}#offset={address:#x}&size={size}",
                    std::process::id()
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::io::AsRawFd;

    #[test]
    fn file_ranges_and_bad_descriptors() {
        let path = std::env::temp_dir().join(format!("softhsa-reader-{}", std::process::id()));
        std::fs::File::create(&path)
            .unwrap()
            .write_all(b"0123456789")
            .unwrap();
        let f = std::fs::File::open(&path).unwrap();
        let fd = f.as_raw_fd();
        let r = Reader::from_file(fd, 0, 0).unwrap();
        assert_eq!(&r.bytes[..], b"0123456789");
        let r = Reader::from_file(fd, 2, 3).unwrap();
        assert_eq!(&r.bytes[..], b"234");
        assert!(
            r.uri().starts_with("file://") && r.uri().ends_with("#offset=2&size=3"),
            "{}",
            r.uri()
        );
        assert_eq!(
            Reader::from_file(fd, 8, 5).unwrap_err().status,
            HSA_STATUS_ERROR_INVALID_FILE
        );
        assert_eq!(
            Reader::from_file(-1, 0, 0).unwrap_err().status,
            HSA_STATUS_ERROR_INVALID_FILE
        );
        drop(f);
        std::fs::remove_file(&path).unwrap();
        let m = Reader::from_memory(b"abc", 0x1000).unwrap();
        assert_eq!(
            m.uri(),
            format!("memory://{}#offset=0x1000&size=3", std::process::id())
        );
    }
}
