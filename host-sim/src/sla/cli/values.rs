//! The typed values of `sla` and `sla-sweep`: the heuristic, the batch mode and
//! the durations of the step and the slot, each refused in host-sim's own words
//! (exit 1).

use kernel::Tick;

use crate::sla::heuristic::{self, Spec};
use crate::sla::run::Batch;
use crate::units::Refused;
use crate::window::parse_duration;

/// `--heuristic`: the paper's expression, or `random`.
pub(super) fn heuristic(text: &str) -> Result<Spec, Refused> {
    heuristic::parse(text).map_err(Refused::of)
}

/// `--batch`: `all`, `0` or a planning interval.
pub(super) fn batch(text: &str) -> Result<Batch, Refused> {
    Batch::value(text).map_err(Refused)
}

/// A duration in ticks with its text as written: the step's and the slot's
/// messages quote it, and the step's default is told apart by it.
#[derive(Clone, Debug)]
pub struct Duration {
    pub ticks: Tick,
    pub text: String,
}

/// `--step`, `--slot`: a whole number with a unit s, m, h or d.
pub(super) fn duration(text: &str) -> Result<Duration, Refused> {
    let ticks = parse_duration(text).map_err(Refused::of)?;
    Ok(Duration { ticks, text: text.to_owned() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_keep_their_words() {
        assert_eq!(batch("0"), Ok(Batch::Every(0)));
        assert_eq!(batch("all"), Ok(Batch::Whole));
        let soon = batch("soon").unwrap_err().0;
        assert!(soon.starts_with("`soon` is not a duration") && soon.ends_with("such as 1h)"), "{soon}");
        let step = duration(" 6m").unwrap();
        assert_eq!((step.ticks, step.text.as_str()), (360, " 6m"));
        assert!(heuristic("min(TF +)").unwrap_err().0.starts_with("heuristic: expected a term"));
    }
}
