//! The typed values of `tiers` and `tiers-sweep`: the policy, the mix as it was
//! written, and the sweep's seeds, each refused in host-sim's own words (exit 1).

use kernel::tiers::Policy;

use crate::tiers::testbed::Mix;
use crate::units::{Refused, parse_seeds};

/// `--policy`: no-qos, qos or qos-res.
pub(super) fn policy(text: &str) -> Result<Policy, Refused> {
    Policy::from_name(text).ok_or_else(|| unknown(text))
}

/// A mix of Table 2 with its name as written (any case): a run's text summary
/// echoes the name as given.
#[derive(Clone, Debug)]
pub struct MixArg {
    pub mix: Mix,
    pub text: String,
}

/// `--mix`: A, B, C or D, in either case.
pub(super) fn mix(text: &str) -> Result<MixArg, Refused> {
    let mix = Mix::from_name(text).ok_or_else(|| unknown(text))?;
    Ok(MixArg { mix, text: text.to_owned() })
}

fn unknown(text: &str) -> Refused {
    Refused(format!("unknown value `{text}`"))
}

/// The seeds of `tiers-sweep` (a type of its own: clap reads a `Vec` as a repeated
/// option).
#[derive(Clone, Debug)]
pub struct Seeds(pub Vec<u64>);

/// `tiers-sweep --seeds`: `A..B` or a list, as `run --seeds`; a bare number is
/// refused rather than read as one seed, since it used to be a count.
pub(super) fn seeds(text: &str) -> Result<Seeds, Refused> {
    if let Ok(count) = text.trim().parse::<u64>() {
        let range = if count == 0 { "1..5".to_owned() } else { format!("1..{count}") };
        return Err(Refused(format!(
            "\"{count}\" is a bare number, which tiers-sweep read as a count before; \
             write a range such as {range}, or {count}..{count} for that one seed"
        )));
    }
    parse_seeds(text).map(Seeds).map_err(Refused::of)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_seeds_say_why_not() {
        assert_eq!(policy("qos-res"), Ok(Policy::QosRes));
        assert_eq!(policy("QOS"), Err(Refused("unknown value `QOS`".into())));
        let mix = mix("c").unwrap();
        assert_eq!((mix.mix.name, mix.text.as_str()), ('C', "c"));
        assert_eq!(seeds("2..4").unwrap().0, [2, 3, 4]);
        assert!(seeds(" 3").unwrap_err().0.starts_with("\"3\" is a bare number"));
        assert_eq!(seeds("1,1").unwrap_err().0, "seed 1 is given twice");
    }
}
