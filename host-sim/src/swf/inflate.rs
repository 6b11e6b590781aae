//! A gzipped trace inflated on a thread of its own while the caller parses: the two
//! cores each take one stage, so that reading a trace costs about as long as the
//! slower stage rather than both. The bytes, their order and any error are exactly
//! the decoder's; only the thread that runs it differs.

use std::io::{self, BufRead, Read};
use std::sync::mpsc::{Receiver, Sender, channel, sync_channel};

use super::gzip::Members;

/// Bytes a chunk of inflated text holds.
const CHUNK_BYTES: usize = 1 << 18;
/// Chunks inflated ahead of the parser: a bound on the memory in flight (1 MiB).
const AHEAD: usize = 4;

/// A chunk of inflated text: its buffer, always [`CHUNK_BYTES`] long, and how many
/// of its first bytes hold text.
type Chunk = (Vec<u8>, usize);

/// The inflated text of a gzip stream, chunk by chunk from the inflating thread,
/// whose buffers go back to it once read: the same few are filled again and again,
/// so that no chunk costs an allocation or fresh pages.
#[derive(Debug)]
pub(super) struct Inflated {
    chunks: Receiver<io::Result<Chunk>>,
    /// Read buffers, back to the inflating thread.
    empties: Sender<Vec<u8>>,
    chunk: Chunk,
    at: usize,
    /// The stream ended (or failed, which was returned once).
    done: bool,
}

/// Starts inflating `compressed` on a new thread; fails only if the thread cannot
/// be started.
pub(super) fn inflate<R: BufRead + Send + 'static>(compressed: R) -> io::Result<Inflated> {
    let (sender, chunks) = sync_channel(AHEAD);
    let (empties, emptied) = channel::<Vec<u8>>();
    let mut decoder = Members::new(compressed);
    std::thread::Builder::new().name("inflate".to_owned()).spawn(move || {
        loop {
            // A buffer the reader is done with, else a new one (the first few).
            let mut chunk = emptied.try_recv().unwrap_or_else(|_| vec![0; CHUNK_BYTES]);
            let sent = match fill(&mut decoder, &mut chunk) {
                Ok(0) => break,
                Ok(n) => sender.send(Ok((chunk, n))),
                Err(error) => {
                    let _ = sender.send(Err(error));
                    break;
                }
            };
            // The reader went away (an error, or it had read enough): stop.
            if sent.is_err() {
                break;
            }
        }
    })?;
    Ok(Inflated { chunks, empties, chunk: (Vec::new(), 0), at: 0, done: false })
}

/// Reads into `chunk` until it is full or the stream ends; the bytes read.
fn fill(decoder: &mut impl Read, chunk: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < chunk.len() {
        match decoder.read(&mut chunk[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

impl Read for Inflated {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Inflated {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.at == self.chunk.1 && !self.done {
            match self.chunks.recv() {
                Ok(Ok(chunk)) => {
                    let (read, _) = std::mem::replace(&mut self.chunk, chunk);
                    self.at = 0;
                    // The thread may have ended (the last chunk is in); the buffer is then freed.
                    if !read.is_empty() {
                        let _ = self.empties.send(read);
                    }
                }
                Ok(Err(error)) => {
                    self.done = true;
                    return Err(error);
                }
                // The thread ended after the last chunk.
                Err(_) => self.done = true,
            }
        }
        let (buffer, filled) = &self.chunk;
        Ok(buffer.get(self.at..*filled).unwrap_or_default())
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.chunk.1);
    }
}
