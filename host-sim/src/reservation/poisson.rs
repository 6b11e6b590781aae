//! A Poisson sampler that gives the same draws on every machine.
//!
//! `f64::exp` and `f64::ln` come from the platform's libm, whose last bit may differ
//! between machines, so the sampler uses only `+ - * /`, which IEEE 754 rounds
//! exactly the same everywhere:
//!
//! - `e^-λ` is `(e^-1)^λ` by repeated multiplication (λ is a whole number here), from
//!   the correctly rounded literal of `e^-1`;
//! - the table of the cumulative distribution is built once with the recurrence
//!   `P(k) = P(k - 1) λ / k`, up to the first `k` at which it stops growing or a hard
//!   limit of `λ + 40 sqrt(λ) + 40` entries (found with integer arithmetic);
//! - each draw takes one `u64` from the generator, turns its top 53 bits into a
//!   uniform `u` in `[0, 1)` and returns the first `k` whose cumulative probability
//!   exceeds `u` (a binary search), or the table's last `k` when `u` is beyond it.
//!
//! One `u64` per draw, whatever λ, keeps the generator's stream aligned across
//! configurations: the same job gets the same other draws whichever λ is in use.

use rand::Rng;

/// `e^-1`, correctly rounded to `f64`.
const E_INV: f64 = 0.367_879_441_171_442_33;

/// `2^-53`: one unit of a 53-bit uniform.
const UNIT: f64 = 1.0 / 9_007_199_254_740_992.0;

/// A Poisson distribution with a whole mean, by inversion of a precomputed table.
#[derive(Clone, Debug, PartialEq)]
pub struct Poisson {
    lambda: u32,
    /// `cdf[k] = P(X <= k)`.
    cdf: Vec<f64>,
}

impl Poisson {
    /// The distribution with mean `lambda` (0 gives 0 every time).
    pub fn new(lambda: u32) -> Self {
        let limit = u64::from(lambda) + 40 * u64::from(isqrt(lambda)) + 40;
        let mut term = 1.0;
        for _ in 0..lambda {
            term *= E_INV;
        }
        let mut cdf = vec![term];
        let mut sum = term;
        for k in 1..=limit {
            term = term * f64::from(lambda) / (k as f64);
            let next = sum + term;
            if next <= sum && k > u64::from(lambda) {
                break;
            }
            sum = next;
            cdf.push(sum);
        }
        Self { lambda, cdf }
    }

    pub const fn lambda(&self) -> u32 {
        self.lambda
    }

    /// One draw; takes exactly one `u64` from `rng`.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        let u = (rng.next_u64() >> 11) as f64 * UNIT;
        let k = self.cdf.partition_point(|&c| c <= u);
        u32::try_from(k.min(self.cdf.len() - 1)).unwrap_or(u32::MAX)
    }
}

/// The integer square root, rounded down.
fn isqrt(n: u32) -> u32 {
    let mut r: u32 = 0;
    while (u64::from(r) + 1) * (u64::from(r) + 1) <= u64::from(n) {
        r += 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn draws(lambda: u32, n: usize) -> Vec<u32> {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let poisson = Poisson::new(lambda);
        (0..n).map(|_| poisson.sample(&mut rng)).collect()
    }

    #[test]
    fn means_match_lambda() {
        for lambda in [5u32, 25, 50, 80, 100] {
            let n = 200_000;
            let sum: u64 = draws(lambda, n).iter().map(|&k| u64::from(k)).sum();
            let mean = sum as f64 / n as f64;
            // The standard error of the mean is sqrt(λ / n) <= 0.023; allow 5 of them.
            assert!((mean - f64::from(lambda)).abs() < 0.12, "λ = {lambda}: mean {mean}");
        }
    }

    #[test]
    fn first_draws_are_pinned() {
        assert_eq!(draws(5, 12), [3, 3, 6, 6, 5, 4, 2, 7, 4, 11, 3, 4]);
        assert_eq!(draws(80, 6), [71, 71, 85, 85, 82, 77]);
    }

    #[test]
    fn tables_end_where_the_tail_vanishes() {
        assert_eq!(Poisson::new(0).cdf, vec![1.0]);
        let p = Poisson::new(5);
        assert!((p.cdf[0] - 0.006_737_946_999_085_467).abs() < 1e-15);
        assert!(*p.cdf.last().unwrap_or(&0.0) > 0.999_999_999_999);
        assert_eq!(isqrt(80), 8);
        assert_eq!(isqrt(100), 10);
    }
}
