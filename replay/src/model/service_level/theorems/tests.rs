use kernel::service_level::Level;

use super::*;

fn level(slack_milli: u32, price_per_tick: u32) -> Level {
    Level { slack_milli, price_per_tick }
}

fn thesis(levels: &[Level], machines: u16) -> Option<Bound> {
    Bound::for_case(levels, machines, BoundRule::Thesis)
}

#[test]
fn the_case_shape_chooses_the_statement() {
    let one = [level(2000, 7)];
    let two = [level(3000, 4), level(1500, 10)];
    assert_eq!(thesis(&one, 1).map(|b| b.theorem), Some(Theorem::Theorem2));
    assert_eq!(thesis(&one, 3).map(|b| b.theorem), Some(Theorem::Theorem5));
    assert_eq!(thesis(&two, 1).map(|b| b.theorem), Some(Theorem::Corollary7));
    assert_eq!(thesis(&two, 2).map(|b| b.theorem), Some(Theorem::Corollary11));
    // Outside the corollaries' conditions: the tighter level is the cheaper, the two
    // slack factors are equal, or there are three levels.
    for levels in [
        &[level(1500, 4), level(3000, 10)][..],
        &[level(2000, 10), level(2000, 4)],
        &[level(1500, 10), level(2000, 8), level(3000, 4)],
    ] {
        assert_eq!(thesis(levels, 1).map(|b| b.theorem), Some(Theorem::Generalised), "{levels:?}");
    }
}

#[test]
fn the_bounds_are_the_thesis_fractions() {
    // One level: 1 - 1/2, the price cancelling.
    let b = thesis(&[level(2000, 7)], 1).unwrap();
    assert_eq!((b.numerator, b.denominator), (1000, 2000));
    // Corollary 7: (u_II / u_I)(1 - 1/f_I) = (4/10)(1 - 1/1.5).
    let b = thesis(&[level(3000, 4), level(1500, 10)], 1).unwrap();
    assert_eq!((b.u_low, b.u_high, b.slack_milli), (4, 10, 1500));
    assert_eq!((b.numerator, b.denominator), (4 * 500, 10 * 1500));
    // Generalised: (u_min / u_max)(1 - 1/f_min) over three levels.
    let b = thesis(&[level(2500, 10), level(2000, 8), level(3000, 4)], 2).unwrap();
    assert_eq!((b.numerator, b.denominator), (4 * 1000, 10 * 2000));
}

#[test]
fn a_zero_bound_is_no_check() {
    assert_eq!(thesis(&[level(1000, 5)], 1), None);
    assert_eq!(thesis(&[level(3000, 0), level(1500, 10)], 1), None);
    assert_eq!(thesis(&[level(2000, 0), level(2000, 3), level(2500, 1)], 3), None);
}

#[test]
fn the_planted_bound_is_stronger_than_the_thesis() {
    let planted = Bound::for_case(&[level(1000, 5)], 1, BoundRule::Planted).unwrap();
    assert_eq!((planted.numerator, planted.denominator), (1000, 2000));
    assert!(!planted.holds(1, 3));
    let thesis = thesis(&[level(2000, 5)], 1).unwrap();
    let planted = Bound::for_case(&[level(2000, 5)], 1, BoundRule::Planted).unwrap();
    // V/V* = 3/5: above 1/2, below 3/4.
    assert!(thesis.holds(3, 5) && !planted.holds(3, 5));
}

#[test]
fn holds_compares_exactly() {
    let b = thesis(&[level(3000, 1)], 1).unwrap();
    assert!(b.holds(2, 3));
    assert!(!b.holds(1_999_999, 3_000_000));
    let huge = u128::from(u64::MAX) * 12;
    assert!(b.holds(huge, huge) && !b.holds(huge / 2, huge));
}
