//! The paper's measures of one scheduled set (§5, "Metrics", and eq. 8), in floating
//! point: they are reported, and decide nothing.
//!
//! - **CPU utilisation**: the CPU time of the accepted jobs over `m` times the frame, in
//!   percent. A generated set's frame is its 300 hours; a trace's is the span from its
//!   earliest `TS` to its latest `TF`.
//! - **SLA factor**: accepted over requested, in percent.
//! - **Income** (eq. 8): `sum over accepted jobs of V_CL(Tex) * V_PR`, for the client
//!   constraints Rigid (`V_CL = 1` for a start in `[TS, TF - tD]`, else 0) and ASAP
//!   (`1 - (Tex - TS) / (TF - tD - TS)`, 1 when the window has no slack) and the
//!   provider policies SLA (`V_PR = 1`), CPU (`k * A`) and Fair (`(1 + k * A) / 2`),
//!   `A = NCPU * tD`. `k` is chosen per set so that the CPU income of every requested
//!   job, all accepted at their earliest start, would equal the set's job count (the
//!   paper's "a rough 100 % bar ... just above 384 units for all pricing policies").
//!   So every income's ceiling is the job count, and Fair is exactly the mean of SLA
//!   and CPU for the same schedule.

use serde::{Deserialize, Serialize};

use kernel::Tick;

/// One request's terms as the measures need them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    pub ts: Tick,
    pub tf: Tick,
    pub td: Tick,
    pub ncpu: u32,
}

/// The six incomes: client constraint by provider policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Income {
    pub rigid_sla: f64,
    pub rigid_cpu: f64,
    pub rigid_fair: f64,
    pub asap_sla: f64,
    pub asap_cpu: f64,
    pub asap_fair: f64,
}

impl Income {
    /// The six as `(key, value)`, in the JSON's order.
    pub fn entries(&self) -> [(&'static str, f64); 6] {
        [
            ("rigid_sla", self.rigid_sla),
            ("rigid_cpu", self.rigid_cpu),
            ("rigid_fair", self.rigid_fair),
            ("asap_sla", self.asap_sla),
            ("asap_cpu", self.asap_cpu),
            ("asap_fair", self.asap_fair),
        ]
    }

    fn add(&mut self, other: &Self, scale: f64) {
        self.rigid_sla += other.rigid_sla * scale;
        self.rigid_cpu += other.rigid_cpu * scale;
        self.rigid_fair += other.rigid_fair * scale;
        self.asap_sla += other.asap_sla * scale;
        self.asap_cpu += other.asap_cpu * scale;
        self.asap_fair += other.asap_fair * scale;
    }
}

/// The measures of one set (or their means over sets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub requests: u64,
    pub accepted: u64,
    /// Percent.
    pub cpu_utilisation: f64,
    /// Percent.
    pub sla_factor: f64,
    pub income: Income,
}

/// `V_CL` of ASAP for a start at `start`.
pub fn asap(terms: &Terms, start: Tick) -> f64 {
    let slack = terms.tf.saturating_sub(terms.td).saturating_sub(terms.ts);
    if slack == 0 {
        return 1.0;
    }
    1.0 - start.saturating_sub(terms.ts) as f64 / slack as f64
}

/// `V_CL` of Rigid for a start at `start`.
pub fn rigid(terms: &Terms, start: Tick) -> f64 {
    let latest = terms.tf.saturating_sub(terms.td);
    if (terms.ts..=latest).contains(&start) { 1.0 } else { 0.0 }
}

/// `k`: the price of one CPU-second that makes the CPU income of all `requests` equal
/// their count (0 for none).
pub fn price_k(requests: &[Terms]) -> f64 {
    let mut price = Price::default();
    requests.iter().for_each(|r| price.add(r));
    price.k()
}

/// [`price_k`] folded one request at a time, in request order (the order its sum of
/// areas is taken in, so that `k` is the same to the bit).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Price {
    requests: u64,
    /// `sum of NCPU * tD`, in node-ticks.
    area: f64,
}

impl Price {
    pub fn add(&mut self, terms: &Terms) {
        self.requests += 1;
        self.area += f64::from(terms.ncpu) * terms.td as f64;
    }

    /// `k` of the requests added.
    pub fn k(&self) -> f64 {
        if self.area > 0.0 { self.requests as f64 / self.area } else { 0.0 }
    }
}

/// The measures of one set: `starts[i]` is the start of `requests[i]` if it was
/// accepted; `capacity` is `m` times the frame, in node-ticks.
pub fn summarise(requests: &[Terms], starts: &[Option<Tick>], capacity: u128) -> Summary {
    let mut tally = Tally::new(price_k(requests));
    for (terms, start) in requests.iter().zip(starts) {
        tally.add(terms, *start);
    }
    tally.summary(capacity)
}

/// [`summarise`] one request at a time, in request order, with `k` known beforehand:
/// the same sums in the same order, so the same measures to the bit, and nothing
/// held per request. It also keeps the span a trace's frame is ([`Tally::span`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tally {
    k: f64,
    requests: u64,
    accepted: u64,
    /// CPU time of the accepted requests, in node-ticks.
    cpu: u128,
    income: Income,
    first_ts: Option<Tick>,
    last_tf: Tick,
}

impl Tally {
    /// No request yet, at the price `k` ([`price_k`] of all the set's requests).
    pub fn new(k: f64) -> Self {
        Self { k, requests: 0, accepted: 0, cpu: 0, income: Income::default(), first_ts: None, last_tf: 0 }
    }

    /// The next request, in request order, and its start if it was accepted.
    pub fn add(&mut self, terms: &Terms, start: Option<Tick>) {
        self.requests += 1;
        self.first_ts = Some(self.first_ts.map_or(terms.ts, |first| first.min(terms.ts)));
        self.last_tf = self.last_tf.max(terms.tf);
        let Some(start) = start else { return };
        self.accepted += 1;
        self.cpu += u128::from(terms.ncpu) * u128::from(terms.td);
        let cpu_price = self.k * f64::from(terms.ncpu) * terms.td as f64;
        let fair_price = (1.0 + cpu_price) / 2.0;
        let (r, a) = (rigid(terms, start), asap(terms, start));
        let income = &mut self.income;
        income.rigid_sla += r;
        income.rigid_cpu += r * cpu_price;
        income.rigid_fair += r * fair_price;
        income.asap_sla += a;
        income.asap_cpu += a * cpu_price;
        income.asap_fair += a * fair_price;
    }

    /// The ticks from the earliest `TS` to the latest `TF` of the requests added (at
    /// least 1): a trace's frame.
    pub fn span(&self) -> Tick {
        self.last_tf.saturating_sub(self.first_ts.unwrap_or(0)).max(1)
    }

    /// The measures of the requests added, `capacity` being `m` times the frame in
    /// node-ticks.
    pub fn summary(&self, capacity: u128) -> Summary {
        let percent = |part: f64, whole: f64| if whole > 0.0 { 100.0 * part / whole } else { 0.0 };
        Summary {
            requests: self.requests,
            accepted: self.accepted,
            cpu_utilisation: percent(self.cpu as f64, capacity as f64),
            sla_factor: percent(self.accepted as f64, self.requests as f64),
            income: self.income,
        }
    }
}

/// The mean of every measure over `sets`; `requests` and `accepted` are totals.
pub fn mean(sets: &[Summary]) -> Summary {
    let mut out = Summary::default();
    if sets.is_empty() {
        return out;
    }
    let scale = 1.0 / sets.len() as f64;
    for s in sets {
        out.requests += s.requests;
        out.accepted += s.accepted;
        out.cpu_utilisation += s.cpu_utilisation * scale;
        out.sla_factor += s.sla_factor * scale;
        out.income.add(&s.income, scale);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(ts: Tick, tf: Tick, td: Tick, ncpu: u32) -> Terms {
        Terms { ts, tf, td, ncpu }
    }

    #[test]
    fn asap_falls_linearly_from_the_earliest_to_the_latest_start() {
        let t = terms(100, 300, 100, 4);
        assert_eq!(asap(&t, 100), 1.0);
        assert_eq!(asap(&t, 150), 0.5);
        assert_eq!(asap(&t, 200), 0.0);
        assert_eq!(asap(&terms(100, 200, 100, 1), 100), 1.0, "no slack: 1");
        assert_eq!(rigid(&t, 200), 1.0);
        assert_eq!(rigid(&t, 201), 0.0);
        assert_eq!(rigid(&t, 99), 0.0);
    }

    #[test]
    fn a_hand_computed_set() {
        // Two jobs, A = 400 and 100 node-ticks: k = 2 / 500. The first accepted half
        // way into its slack, the second rejected.
        let requests = [terms(0, 300, 100, 4), terms(0, 100, 100, 1)];
        let s = summarise(&requests, &[Some(100), None], 1000);
        assert_eq!((s.requests, s.accepted), (2, 1));
        assert_eq!(s.sla_factor, 50.0);
        assert_eq!(s.cpu_utilisation, 40.0);
        let cpu = 2.0 / 500.0 * 400.0;
        assert_eq!(s.income.rigid_sla, 1.0);
        assert_eq!(s.income.rigid_cpu, cpu);
        assert_eq!(s.income.rigid_fair, (1.0 + cpu) / 2.0);
        assert_eq!(s.income.asap_sla, 0.5);
        assert_eq!(s.income.asap_cpu, 0.5 * cpu);
        assert_eq!(s.income.asap_fair, 0.5 * (1.0 + cpu) / 2.0);
    }

    #[test]
    fn every_job_at_its_earliest_start_earns_the_job_count_under_every_policy() {
        let requests: Vec<Terms> =
            (0..10).map(|i| terms(i * 10, i * 10 + 500, 50 + i, 1 + i as u32 % 4)).collect();
        let starts: Vec<Option<Tick>> = requests.iter().map(|r| Some(r.ts)).collect();
        let s = summarise(&requests, &starts, 1 << 40);
        for (key, value) in s.income.entries() {
            assert!((value - 10.0).abs() < 1e-9, "{key}: {value}");
        }
        let m = mean(&[s, Summary::default()]);
        assert_eq!(m.requests, 10);
        assert!((m.income.asap_cpu - 5.0).abs() < 1e-9);
    }
}
