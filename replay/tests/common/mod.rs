//! What the tests share: a log written in memory from its records, its verification,
//! and the seeded byte strings that run the fuzz harnesses as ordinary tests.

#![allow(dead_code, reason = "each test binary uses a part of it")]

use kernel::log::Body;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replay::format::{Header, LogReader, LogWriter};
use replay::verify::{Report, VerifyError, verify};

/// The log of `bodies` under `header`.
pub fn log_of(header: &Header, bodies: &[Body]) -> Vec<u8> {
    let mut writer = LogWriter::new(Vec::new(), header).unwrap();
    bodies.iter().for_each(|b| writer.record(*b).unwrap());
    writer.finish().unwrap()
}

/// `verify` of the log `bytes`.
pub fn verify_bytes(bytes: &[u8]) -> Result<Report, VerifyError> {
    verify(LogReader::new(bytes).unwrap())
}

/// `log` diverges first at record `at`, before anything else is wrong with it: so
/// `verify` says so, and still does with a byte damaged past it, but names the damage
/// when the byte is a third of the way in (the log's frames are read before the
/// records they hold are re-made).
pub fn damage_after_and_before(log: &[u8], at: usize) {
    let diverged = |error: &VerifyError| matches!(error, VerifyError::Diverged(d) if d.seq == at as u64);
    let error = verify_bytes(log).unwrap_err();
    assert!(diverged(&error), "{error}");
    let (mut late, len) = (log.to_vec(), log.len());
    late[len - 64] ^= 0xff;
    let error = verify_bytes(&late).unwrap_err();
    assert!(diverged(&error), "{error}");
    let mut early = log.to_vec();
    early[len / 3] ^= 0xff;
    let error = verify_bytes(&early).unwrap_err();
    assert!(matches!(error, VerifyError::Format(_)), "{error}");
}

/// `cut`, a log without its last record (at `last`), a decision: `verify` says the
/// kernel decided more than the log holds, at its end.
pub fn diverges_at_its_end(cut: &[u8], last: usize) {
    let error = verify_bytes(cut).unwrap_err();
    let at_end = |d: &replay::verify::Divergence| d.logged.is_none() && d.seq == last as u64;
    assert!(matches!(&error, VerifyError::Diverged(d) if at_end(d)), "{error}");
}

/// `count` byte strings of 8 to 299 bytes, each drawn from ChaCha8 seeded with its
/// index, with that seed: what a fuzz harness's `check_case` runs on as a test.
pub fn seeded_bytes(count: u64) -> impl Iterator<Item = (u64, Vec<u8>)> {
    (0..count).map(|seed| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let len = rng.random_range(8..300);
        (seed, (0..len).map(|_| rng.random()).collect())
    })
}
