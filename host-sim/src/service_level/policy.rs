//! The kernel's machine-choice policies by name, as `--policy` takes them.

use kernel::service_level::Policy;

/// A name that is not a policy's.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("policy {} is not one of {names}", replay::echo::echo(.0), names = names())]
pub struct UnknownPolicy(pub String);

/// Every policy's name, comma-separated, for help texts and error messages.
pub fn names() -> String {
    Policy::ALL.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
}

/// One policy by name (`first-fit`, `best-fit`, `worst-fit`, `least-loaded`,
/// `round-robin`).
pub fn parse(text: &str) -> Result<Policy, UnknownPolicy> {
    Policy::from_name(text.trim()).ok_or_else(|| UnknownPolicy(text.trim().to_owned()))
}

/// A comma-separated list of policies, in the order given, without repeats.
pub fn parse_list(text: &str) -> Result<Vec<Policy>, UnknownPolicy> {
    let mut policies = Vec::new();
    for name in text.split(',') {
        let policy = parse(name)?;
        if !policies.contains(&policy) {
            policies.push(policy);
        }
    }
    Ok(policies)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_lists() {
        assert_eq!(parse("best-fit"), Ok(Policy::BestFit));
        assert_eq!(
            parse_list("first-fit, round-robin,first-fit"),
            Ok(vec![Policy::FirstFit, Policy::RoundRobin])
        );
        let err = parse_list("first-fit,bestfit").unwrap_err();
        assert_eq!(
            err.to_string(),
            "policy `bestfit` is not one of first-fit, best-fit, worst-fit, least-loaded, round-robin"
        );
    }
}
