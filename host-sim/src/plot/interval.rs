//! Uncertainty drawn around a mean: the 95 % confidence interval of a mean over `n`
//! samples (windows of a trace, seeds, job sets), `mean ± t(0.975, n - 1) · s / √n`
//! with `s` the sample standard deviation, or the spread (min to max) where that is
//! what a figure draws. Fewer than two samples give no interval.
//!
//! `t(0.975, d)` comes from a small table of Student's t quantiles (two-sided 95 %,
//! `d` degrees of freedom, 1 to 30 exactly, then 40, 60, 120 and the normal 1.96);
//! between rows the next smaller `d` is used, which is the wider (safer) interval.

/// A mean and its interval `(low, high)`, if it has one.
pub type Estimate = (f64, Option<(f64, f64)>);

/// `t(0.975, d)` for `d` = 1 to 30 (index `d - 1`).
const T_975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
    2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/// Student's `t(0.975, d)`; `None` for `d = 0`.
pub fn t_975(d: u64) -> Option<f64> {
    match d {
        0 => None,
        1..=30 => T_975.get(d as usize - 1).copied(),
        31..=39 => Some(2.042),
        40..=59 => Some(2.021),
        60..=119 => Some(2.000),
        120..=999 => Some(1.980),
        _ => Some(1.960),
    }
}

/// The 95 % interval `(low, high)` of a mean over `n` samples whose *population*
/// standard deviation (divided by `n`, as the sweeps' `sd` columns are) is `sd`;
/// `None` when `n < 2` or a value is not finite.
pub fn ci95_from_population_sd(mean: f64, sd: f64, n: u64) -> Option<(f64, f64)> {
    let t = t_975(n.checked_sub(1)?)?;
    if !mean.is_finite() || !sd.is_finite() {
        return None;
    }
    let n = n as f64;
    // s = sd · √(n / (n - 1)), and the half-width t · s / √n = t · sd / √(n - 1).
    let half = t * sd / (n - 1.0).sqrt();
    Some((mean - half, mean + half))
}

/// The mean of `samples` and its 95 % interval (`None` with fewer than two samples).
pub fn ci95(samples: &[f64]) -> Estimate {
    let n = samples.len();
    if n == 0 {
        return (f64::NAN, None);
    }
    let mean = samples.iter().sum::<f64>() / n as f64;
    let var = samples.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64;
    (mean, ci95_from_population_sd(mean, var.sqrt(), n as u64))
}

/// The legend text of 95 % intervals over `n` `samples` ("windows", "seeds").
pub fn ci95_label(n: u64, samples: &str) -> String {
    format!("95 % interval (n = {n} {samples})")
}

/// The legend text of a min-to-max spread over `n` `samples`.
pub fn spread_label(n: u64, samples: &str) -> String {
    format!("spread, min to max (n = {n} {samples})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_follows_student_t() {
        // Two samples 1 and 3: mean 2, s = √2, half-width 12.706 · √2 / √2.
        let (mean, interval) = ci95(&[1.0, 3.0]);
        assert_eq!(mean, 2.0);
        let (lo, hi) = interval.unwrap();
        assert!((hi - 2.0 - 12.706).abs() < 1e-9 && (2.0 - lo - 12.706).abs() < 1e-9);
        // Ten samples 0..9: s = 3.0277, half-width 2.262 · s / √10 = 2.1658.
        let samples: Vec<f64> = (0..10).map(f64::from).collect();
        let (_, interval) = ci95(&samples);
        let (lo, _) = interval.unwrap();
        assert!((4.5 - lo - 2.1658).abs() < 1e-3, "{lo}");
        assert_eq!(ci95(&[5.0]).1, None);
        assert_eq!(ci95_from_population_sd(1.0, 0.5, 1), None);
        assert_eq!(t_975(1_000), Some(1.960));
    }
}
