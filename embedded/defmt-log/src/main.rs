//! `defmt-log ELF FRAMES`: prints the defmt log the firmware wrote to `FRAMES` (a file
//! the firmware's global logger filled over semihosting), decoded with the format
//! strings that `ELF` (the same firmware build) carries in its `.defmt` section.
//!
//! One line per frame, `LEVEL message`. Exits non-zero if the ELF has no defmt table
//! or a frame does not decode, naming the frame by its position.

use std::process::ExitCode;

use defmt_decoder::{DecodeError, Table};

fn main() -> ExitCode {
    match run() {
        Ok(frames) => {
            eprintln!("defmt-log: {frames} frames decoded");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("defmt-log: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<usize, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [elf, frames] = args.as_slice() else {
        return Err("usage: defmt-log ELF FRAMES".into());
    };
    let elf_bytes = std::fs::read(elf).map_err(|e| format!("cannot read {elf}: {e}"))?;
    let table = Table::parse(&elf_bytes)
        .map_err(|e| format!("{elf}: cannot read its defmt table: {e}"))?
        .ok_or_else(|| format!("{elf}: has no .defmt section (was the firmware built with defmt?)"))?;
    let bytes = std::fs::read(frames).map_err(|e| format!("cannot read {frames}: {e}"))?;
    let mut decoder = table.new_stream_decoder();
    decoder.received(&bytes);
    let mut count = 0;
    loop {
        match decoder.decode() {
            Ok(frame) => {
                let level = frame.level().map_or("PRINT", |l| l.as_str());
                println!("{:<5} {}", level.to_uppercase(), frame.display_message());
                count += 1;
            }
            Err(DecodeError::UnexpectedEof) => return Ok(count),
            Err(DecodeError::Malformed) => {
                return Err(format!("{frames}: frame {count} (counting from 0) is malformed"));
            }
        }
    }
}
