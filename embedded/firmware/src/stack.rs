//! The stack's high-water mark: paint the free stack with a pattern, run, and find
//! the deepest word that no longer holds it.
//!
//! cortex-m-rt puts the stack at the top of RAM (`_stack_start`) growing down, and
//! everything static below `__sheap`; between them is free memory the stack may
//! use. Painting writes below the stack pointer, memory that no Rust value owns,
//! which needs raw pointers: the two `unsafe` blocks here.

use core::ptr::{addr_of, read_volatile, write_volatile};

const PAINT: u32 = 0x5354_4b21; // "STK!"
/// Left unpainted below `paint`'s own stack pointer. Memory below the stack pointer
/// is free (no interrupt is enabled that could push a frame there), so a few words
/// suffice; the figures are then exact to those words.
const MARGIN: usize = 16;

unsafe extern "C" {
    static __sheap: u32;
    static _stack_start: u32;
}

fn bottom() -> usize {
    addr_of!(__sheap) as usize
}

fn top() -> usize {
    addr_of!(_stack_start) as usize
}

/// Paints from the end of the statics up to just below the current stack pointer,
/// and returns that stack pointer.
#[inline(never)]
pub fn paint() -> usize {
    let sp = cortex_m::register::msp::read() as usize;
    let end = sp.saturating_sub(MARGIN);
    let mut addr = bottom();
    while addr < end {
        // SAFETY: `addr` is word-aligned (`__sheap` is) and lies between the end of
        // the statics and below the live stack: free RAM that nothing references.
        unsafe { write_volatile(addr as *mut u32, PAINT) };
        addr += 4;
    }
    sp
}

/// The lowest word that lost its paint since the last [`paint`].
fn lowest() -> usize {
    let mut addr = bottom();
    // SAFETY: reads of word-aligned free RAM between the statics and the top of RAM.
    while addr < top() && unsafe { read_volatile(addr as *const u32) } == PAINT {
        addr += 4;
    }
    addr
}

/// Bytes of stack used below `sp` (what [`paint`] returned) since that paint.
#[inline(never)]
pub fn used_below(sp: usize) -> usize {
    sp.saturating_sub(lowest())
}

/// Bytes of stack used since the last [`paint`]: from the top of RAM down to the
/// lowest word that lost its paint.
#[inline(never)]
pub fn high_water() -> usize {
    top() - lowest()
}

/// The bytes between the statics and the top of RAM: the most the stack can take.
pub fn room() -> usize {
    top() - bottom()
}
