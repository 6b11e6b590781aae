//! The members of a gzip file, one after the other, as one stream of bytes: what
//! `flate2`'s `MultiGzDecoder` gives a well-formed file, with errors that say where
//! the file went wrong: bytes after the last member that start no member, or a
//! member cut short, at their byte offset in the compressed file.

use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

use super::GZIP_MAGIC;

/// A reader that counts the bytes consumed from it.
#[derive(Debug)]
struct Counted<R> {
    inner: R,
    offset: u64,
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(out)?;
        self.offset += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.offset += n as u64;
        self.inner.consume(n);
    }
}

/// The decompressed bytes of every member of a gzip file.
#[derive(Debug)]
pub(super) struct Members<R> {
    /// The member being read; `None` once the file ended.
    decoder: Option<GzDecoder<Counted<R>>>,
    /// Members read whole.
    members: u64,
    /// Where the member being read starts.
    start: u64,
}

impl<R: BufRead> Members<R> {
    pub fn new(compressed: R) -> Self {
        let counted = Counted { inner: compressed, offset: 0 };
        Self { decoder: Some(GzDecoder::new(counted)), members: 0, start: 0 }
    }

    /// After a member's end: the next member, or the end of the file, or the error of
    /// bytes that start no member.
    fn next_member(&mut self, mut counted: Counted<R>) -> io::Result<()> {
        self.members += 1;
        let rest = counted.fill_buf()?;
        if rest.is_empty() {
            return Ok(());
        }
        // One byte may be all the buffer holds of a next member's magic.
        if !GZIP_MAGIC.starts_with(&rest[..rest.len().min(2)]) {
            let (offset, members) = (counted.offset, self.members);
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "trailing bytes after the gzip stream at byte offset {offset} ({members} whole {} \
                     before them): bytes that do not start with 1f 8b start no gzip member",
                    if members == 1 { "member" } else { "members" }
                ),
            ));
        }
        self.start = counted.offset;
        self.decoder = Some(GzDecoder::new(counted));
        Ok(())
    }

    /// `error` of the member being read, with where it is.
    fn located(&self, error: io::Error, offset: u64) -> io::Error {
        let (start, members) = (self.start, self.members);
        let why = if error.kind() == io::ErrorKind::UnexpectedEof {
            "the file ends inside it (a truncated file?)".to_owned()
        } else {
            error.to_string()
        };
        io::Error::new(
            error.kind(),
            format!(
                "the gzip member at byte offset {start} (after {members} whole) is bad at byte offset \
                 {offset}: {why}"
            ),
        )
    }
}

impl<R: BufRead> Read for Members<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while let Some(decoder) = &mut self.decoder {
            match decoder.read(out) {
                Ok(0) if !out.is_empty() => {
                    let Some(decoder) = self.decoder.take() else { break };
                    self.next_member(decoder.into_inner())?;
                }
                Ok(n) => return Ok(n),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => {
                    let offset = decoder.get_ref().offset;
                    self.decoder = None;
                    return Err(self.located(error, offset));
                }
            }
        }
        Ok(0)
    }
}
