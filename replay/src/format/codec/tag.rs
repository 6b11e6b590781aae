//! The tag byte of the version 2 tag space, which the service-level records and the
//! reservation records share: the kind in the low three bits, flags above them.
//!
//! Both codecs build their tags here, so that the reservation records (kind `RESET`
//! with flags, which version 2 left malformed) cannot drift from the service-level
//! layout they are carved out of.

// Kinds: the tag's low three bits.
pub(super) const SUBMIT: u8 = 0;
pub(super) const ADVANCE: u8 = 1;
pub(super) const RESET: u8 = 2;
pub(super) const ACCEPT: u8 = 3;
pub(super) const REJECT: u8 = 4;
pub(super) const START: u8 = 5;
pub(super) const PREEMPT: u8 = 6;
pub(super) const COMPLETE: u8 = 7;

/// The tag byte of a record of `kind` with `flags`.
pub(super) const fn tag(kind: u8, flags: u8) -> u8 {
    kind | flags << 3
}
