//! The accept-all model's speed: requests decided per second, a million at a time.
//!
//! Run with `cargo bench -p host-sim --bench accept_all`.

use divan::Bencher;
use divan::counter::ItemsCount;
use kernel::accept_all::Event;

fn main() {
    divan::main();
}

#[divan::bench]
fn a_million_requests(bencher: Bencher) {
    let events: Vec<Event> = (0..1_000_000u32).map(|job| Event::Submit { t: u64::from(job), job }).collect();
    bencher
        .counter(ItemsCount::new(events.len()))
        .bench_local(|| host_sim::accept_all::run(events.iter().copied(), &mut |_| {}).accepted);
}
