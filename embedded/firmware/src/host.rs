//! Files on the host, over Arm semihosting (QEMU's `-semihosting-config
//! enable=on,target=native`): the decision records and the defmt frames leave the
//! board this way. A file name is relative to the directory QEMU runs in.
//!
//! cortex-m-semihosting 0.5 opens only the console; opening a named file is the
//! `SYS_OPEN` call itself, which is the one `unsafe` operation here.

use cortex_m_semihosting::nr;

/// An open host file.
#[derive(Clone, Copy, Debug)]
pub struct HostFile {
    handle: usize,
}

impl HostFile {
    /// Creates (or truncates) `name` on the host for binary writing; `name` must end
    /// in a NUL byte, as `SYS_OPEN` expects.
    pub fn create(name: &[u8]) -> Option<Self> {
        let (&0, text) = name.split_last()? else { return None };
        // SAFETY: `SYS_OPEN` reads `text.len()` bytes at `text.as_ptr()`, which is a
        // live, NUL-terminated byte string for the duration of the call, and returns
        // a handle or -1; it touches no other memory.
        let handle = unsafe {
            cortex_m_semihosting::syscall!(OPEN, text.as_ptr(), nr::open::W_TRUNC_BINARY, text.len())
        };
        (handle != usize::MAX).then_some(Self { handle })
    }

    /// Writes all of `bytes`, or reports that the host refused.
    pub fn write_all(&self, mut bytes: &[u8]) -> Result<(), ()> {
        while !bytes.is_empty() {
            // SAFETY: `SYS_WRITE` reads `bytes.len()` bytes at `bytes.as_ptr()`, a live
            // slice, and returns how many it did NOT write; it writes no memory.
            let left =
                unsafe { cortex_m_semihosting::syscall!(WRITE, self.handle, bytes.as_ptr(), bytes.len()) };
            let written = bytes.len().checked_sub(left).ok_or(())?;
            if written == 0 {
                return Err(());
            }
            bytes = bytes.get(written..).ok_or(())?;
        }
        Ok(())
    }

    pub fn close(self) {
        // SAFETY: `SYS_CLOSE` takes the handle by value and touches no memory.
        unsafe { cortex_m_semihosting::syscall!(CLOSE, self.handle) };
    }
}

/// A host file written in chunks: one semihosting call per `N` bytes, not per record.
#[derive(Debug)]
pub struct Buffered<const N: usize> {
    file: HostFile,
    buf: heapless::Vec<u8, N>,
    pub bytes: u64,
}

impl<const N: usize> Buffered<N> {
    pub fn new(file: HostFile) -> Self {
        Self { file, buf: heapless::Vec::new(), bytes: 0 }
    }

    pub fn write(&mut self, bytes: &[u8]) -> Result<(), ()> {
        self.bytes += bytes.len() as u64;
        if self.buf.len() + bytes.len() > N {
            self.flush()?;
        }
        if self.buf.extend_from_slice(bytes).is_err() {
            // Larger than the whole buffer: straight through.
            return self.file.write_all(bytes);
        }
        Ok(())
    }

    pub fn flush(&mut self) -> Result<(), ()> {
        let result = self.file.write_all(&self.buf);
        self.buf.clear();
        result
    }

    pub fn close(mut self) -> Result<(), ()> {
        let result = self.flush();
        self.file.close();
        result
    }
}
