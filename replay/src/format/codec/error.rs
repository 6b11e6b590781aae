//! The one error of the record encoding: why a block's bytes are not records.
//!
//! It lives in a module of its own, below both the codec and the varint cursor, so
//! that the cursor can report a short or overlong varint without depending on the
//! codec that uses it.

/// Why the bytes of a block are not records a writer could have written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    #[error("the block ends inside a record")]
    End,
    #[error("a varint is longer than its field allows")]
    Varint,
    #[error("a step leads outside its field's range")]
    Range,
    #[error("tag byte {0:#04x} is not a record")]
    Tag(u8),
    #[error("reservation reject reason {0} is not a reason")]
    Reason(u8),
    #[error("an accept leaves out a deadline that its submit does not give")]
    Deadline,
    #[error("the block counts {0} records, more than its bytes can hold")]
    Count(u64),
    #[error("{0} bytes follow the block's last record")]
    Trailing(usize),
}
