//! The stack's high-water mark: paint the free stack with a pattern, run, and find
//! the deepest word that no longer holds it.
//!
//! cortex-m-rt puts the stack at the top of RAM (`_stack_start`) growing down, and
//! everything static below `__sheap`; between them is free memory the stack may
//! use. Painting writes below the stack pointer, memory that no Rust value owns,
//! which needs raw pointers: the two `unsafe` blocks here.

use core::ptr::{addr_of, read_volatile, write_volatile};

const PAINT: u32 = 0x5354_4b21; // "STK!"
/// Left unpainted below the stack pointer of `paint`'s caller: `paint`'s own frame.
const MARGIN: usize = 256;

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

/// Paints from the end of the statics up to just below the current stack pointer.
#[inline(never)]
pub fn paint() {
    let sp = cortex_m::register::msp::read() as usize;
    let end = sp.saturating_sub(MARGIN);
    let mut addr = bottom();
    while addr < end {
        // SAFETY: `addr` is word-aligned (`__sheap` is) and lies between the end of
        // the statics and below the live stack: free RAM that nothing references.
        unsafe { write_volatile(addr as *mut u32, PAINT) };
        addr += 4;
    }
}

/// Bytes of stack used since the last [`paint`]: from the top of RAM down to the
/// lowest word that lost its paint.
#[inline(never)]
pub fn high_water() -> usize {
    let mut addr = bottom();
    // SAFETY: reads of word-aligned free RAM between the statics and the top of RAM.
    while addr < top() && unsafe { read_volatile(addr as *const u32) } == PAINT {
        addr += 4;
    }
    top() - addr
}

/// The bytes between the statics and the top of RAM: the most the stack can take.
pub fn room() -> usize {
    top() - bottom()
}
