//! LEB128 varints and zigzag signs: the integer encodings of the record format
//! (versions 2 and 3).
//!
//! A varint holds seven bits per byte, least significant group first, with the high
//! bit set on every byte but the last (postcard's and protobuf's encoding). Signed
//! differences are zigzagged first (`0, -1, 1, -2, ...` become `0, 1, 2, 3, ...`) so
//! that small steps either way take one byte.

use super::codec::error::CodecError;

/// Appends `value` as a varint.
#[inline]
pub fn put(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        // Truncation to the low seven bits is the point.
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// The bytes `value` takes as a varint, 1 to 10.
#[inline]
pub const fn len(value: u64) -> usize {
    // 64 - leading_zeros is the bit length; every seven bits take a byte.
    let bits = 64 - (value | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// `value` zigzagged: the sign moves to the lowest bit.
#[inline]
pub const fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// The inverse of [`zigzag`].
#[inline]
pub const fn unzigzag(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

/// The zigzag of the step from `base` to `value`, modulo 2^64: any pair of `u64`s has
/// one, and [`add_step`] undoes it exactly.
#[inline]
pub const fn step(base: u64, value: u64) -> u64 {
    zigzag(value.wrapping_sub(base) as i64)
}

/// `base` moved by a step that [`step`] produced.
#[inline]
pub const fn add_step(base: u64, step: u64) -> u64 {
    base.wrapping_add(unzigzag(step) as u64)
}

/// The zigzag of the step from `base` to `value`, modulo 2^32 (job identifiers).
#[inline]
pub const fn step32(base: u32, value: u32) -> u64 {
    zigzag(value.wrapping_sub(base) as i32 as i64)
}

/// `base` moved by a step that [`step32`] produced; `None` if it is out of range.
#[inline]
pub fn add_step32(base: u32, step: u64) -> Option<u32> {
    let delta = i32::try_from(unzigzag(step)).ok()?;
    Some(base.wrapping_add(delta as u32))
}

/// Reads records' bytes front to back.
#[derive(Debug)]
pub struct Cursor<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl<'a> Cursor<'a> {
    pub const fn new(bytes: &'a [u8], position: usize) -> Self {
        Self { bytes, position }
    }

    /// Bytes read so far, counted from the start of the slice.
    pub const fn position(&self) -> usize {
        self.position
    }

    /// Bytes not yet read.
    pub const fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.position)
    }

    #[inline]
    pub fn byte(&mut self) -> Result<u8, CodecError> {
        let byte = *self.bytes.get(self.position).ok_or(CodecError::End)?;
        self.position += 1;
        Ok(byte)
    }

    /// A varint of at most ten bytes whose value fits in a `u64`.
    #[inline]
    pub fn u64(&mut self) -> Result<u64, CodecError> {
        let first = self.byte()?;
        if first < 0x80 {
            return Ok(u64::from(first));
        }
        let mut value = u64::from(first & 0x7f);
        for shift in (7..64).step_by(7) {
            let byte = self.byte()?;
            // The tenth byte holds the top bit of a u64 and nothing more.
            if shift == 63 && byte > 1 {
                return Err(CodecError::Varint);
            }
            value |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                return Ok(value);
            }
        }
        Err(CodecError::Varint)
    }

    /// A varint whose value fits in a `u32`.
    #[inline]
    pub fn u32(&mut self) -> Result<u32, CodecError> {
        u32::try_from(self.u64()?).map_err(|_| CodecError::Varint)
    }

    /// A varint whose value fits in a `u16`.
    #[inline]
    pub fn u16(&mut self) -> Result<u16, CodecError> {
        u16::try_from(self.u64()?).map_err(|_| CodecError::Varint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_at_every_length() {
        for value in [0, 1, 127, 128, 300, 16_383, 16_384, u64::from(u32::MAX), u64::MAX - 1, u64::MAX] {
            let mut out = Vec::new();
            put(&mut out, value);
            assert_eq!(out.len(), len(value), "{value}");
            let mut cursor = Cursor::new(&out, 0);
            assert_eq!(cursor.u64(), Ok(value));
            assert_eq!(cursor.remaining(), 0);
        }
    }

    #[test]
    fn overlong_varints_are_refused() {
        let eleven = [0xff; 11];
        assert_eq!(Cursor::new(&eleven, 0).u64(), Err(CodecError::Varint));
        let too_big = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        assert_eq!(Cursor::new(&too_big, 0).u64(), Err(CodecError::Varint));
        assert_eq!(Cursor::new(&[0x80, 0x80, 0x04], 0).u16(), Err(CodecError::Varint));
        assert_eq!(Cursor::new(&[0x80], 0).u64(), Err(CodecError::End));
    }

    #[test]
    fn steps_cover_every_pair() {
        for (base, value) in [(0, 0), (5, 3), (3, 5), (0, u64::MAX), (u64::MAX, 0), (1 << 63, 7)] {
            assert_eq!(add_step(base, step(base, value)), value);
        }
        assert_eq!(step(10, 9), 1);
        assert_eq!(step(10, 11), 2);
        for (base, value) in [(0u32, u32::MAX), (u32::MAX, 0), (7, 8), (8, 7)] {
            assert_eq!(add_step32(base, step32(base, value)), Some(value));
        }
        assert_eq!(add_step32(0, u64::MAX), None);
    }
}
