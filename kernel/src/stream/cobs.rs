//! Consistent overhead byte stuffing (COBS) and CRC-32C, written here without a
//! panic path.
//!
//! postcard's own COBS flavour writes through an index operator that asserts, which
//! the panic-free link check refuses, and its CRC support needs the `crc` crate, which
//! the kernel does not depend on; both are a few lines.

/// The longest run COBS copies behind one code byte.
const RUN: usize = 254;

/// COBS-encodes `input` into `out` (without the `0x00` delimiter) and returns the
/// length written, or `None` if `out` is too small. `out` needs `input.len() + 1 +
/// input.len() / 254` bytes.
pub fn encode(input: &[u8], out: &mut [u8]) -> Option<usize> {
    let mut code_at = 0usize;
    let mut at = 1usize;
    let mut run = 0usize;
    for &byte in input {
        if byte == 0 {
            *out.get_mut(code_at)? = code(run)?;
            code_at = at;
            at = at.checked_add(1)?;
            run = 0;
            continue;
        }
        *out.get_mut(at)? = byte;
        at = at.checked_add(1)?;
        run = run.checked_add(1)?;
        if run == RUN {
            *out.get_mut(code_at)? = code(run)?;
            code_at = at;
            at = at.checked_add(1)?;
            run = 0;
        }
    }
    *out.get_mut(code_at)? = code(run)?;
    Some(at)
}

/// The code byte of a run of `run` non-zero bytes.
fn code(run: usize) -> Option<u8> {
    u8::try_from(run.checked_add(1)?).ok()
}

/// Why a frame's bytes are not COBS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CobsError {
    /// A `0x00` inside the frame (the delimiter is not part of it).
    Zero { at: usize },
    /// A code byte runs past the frame's end.
    Overrun { at: usize },
    /// The decoded bytes do not fit the caller's buffer.
    Full,
}

/// Decodes the COBS bytes `encoded` (without the delimiter) into `out` and returns the
/// decoded length; `out` needs `encoded.len()` bytes.
pub fn decode(encoded: &[u8], out: &mut [u8]) -> Result<usize, CobsError> {
    let mut at = 0usize;
    let mut written = 0usize;
    while let Some(&code) = encoded.get(at) {
        if code == 0 {
            return Err(CobsError::Zero { at });
        }
        let start = at.checked_add(1).ok_or(CobsError::Full)?;
        let end = at.checked_add(usize::from(code)).ok_or(CobsError::Full)?;
        let run = encoded.get(start..end).ok_or(CobsError::Overrun { at })?;
        if let Some(zero) = run.iter().position(|&b| b == 0) {
            return Err(CobsError::Zero { at: start.saturating_add(zero) });
        }
        let next = written.checked_add(run.len()).ok_or(CobsError::Full)?;
        out.get_mut(written..next).ok_or(CobsError::Full)?.copy_from_slice(run);
        written = next;
        at = end;
        // A code below 255 stands for its run and a zero, except at the very end.
        if code != 255 && at < encoded.len() {
            *out.get_mut(written).ok_or(CobsError::Full)? = 0;
            written = written.checked_add(1).ok_or(CobsError::Full)?;
        }
    }
    Ok(written)
}

/// CRC-32C (Castagnoli, reflected, the log file's checksum) of `bytes`, bit by bit:
/// no table in flash.
pub fn crc32c(bytes: &[u8]) -> u32 {
    const POLY: u32 = 0x82F6_3B78;
    let mut crc = u32::MAX;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (POLY & mask);
        }
    }
    !crc
}
