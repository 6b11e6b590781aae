//! The header's fields held to their ranges, as the records are held to the kernel:
//! `replay verify` refuses a header that no writer of this format could have
//! written, with an error that names the field.
//!
//! Headers of version 4 on are checked whole: the provenance, then the model's own
//! part, each model's in a function of its own. Headers of versions 2 and 3 stored
//! the command line and the input's path as typed, and snapshot logs of those
//! versions had no input hash, so for them only what rebuilds the kernel is checked.

use kernel::service_level::SLACK_ONE_MILLI;

use super::model::{CheckedPart, fail};
use super::{
    Header, HeaderError, Model, ReservationHeader, ServiceLevelHeader, Setting, SlaHeader, TiersHeader,
};
use crate::echo::echo;
use crate::engine::service_level::{MAX_LEVELS, MAX_MACHINES, QUEUE_CAPACITIES};

/// The input hash: a CRC-64 as lower-case hex.
pub const INPUT_HASH_DIGITS: usize = 16;
/// No text field of a header is longer than this.
pub const TEXT_MAX_BYTES: usize = 4096;

/// The settings a writer of this format puts in a header, and what each may hold.
/// Keys are kebab-case option names; a key not listed here is refused.
const SETTINGS: &[(&str, Value)] = &[
    ("alpha", Value::Decimal { positive: false }),
    ("allow-extra-fields", Value::Bool),
    ("availability-align", Value::OneOf(&["node", "file"])),
    ("availability-shift", Value::Whole),
    ("batch", Value::WholeOr("all")),
    ("down-mean", Value::Whole),
    ("estimates", Value::OneOf(&["accurate", "poisson80"])),
    ("flex", Value::OneOf(&["none", "short", "medium", "long"])),
    ("jobs", Value::Count),
    ("limit", Value::Count),
    ("load", Value::Decimal { positive: true }),
    ("load-max", Value::Decimal { positive: false }),
    ("load-pct", Value::Whole),
    ("mix", Value::OneOf(&["A", "B", "C", "D"])),
    ("offers", Value::DecimalOr("off")),
    ("sets", Value::Count),
    ("skip-bad-lines", Value::Bool),
    ("up-mean", Value::Count),
    ("windows", Value::Count),
];

/// What a setting's value may be.
#[derive(Clone, Copy, Debug)]
enum Value {
    /// `true` or `false`.
    Bool,
    /// A whole number from 1 to 2^32 - 1.
    Count,
    /// A whole number from 0 to 2^64 - 1, without leading zeros.
    Whole,
    /// A decimal with at most three decimals, as `format_milli` writes it (no sign, no
    /// trailing zeros after the point); above zero when `positive`.
    Decimal { positive: bool },
    /// A decimal, or this word.
    DecimalOr(&'static str),
    /// A whole number (as [`Value::Whole`]), or this word.
    WholeOr(&'static str),
    /// One of these words.
    OneOf(&'static [&'static str]),
}

impl Value {
    fn check(self, text: &str) -> Result<(), String> {
        let ok = match self {
            Self::Bool => text == "true" || text == "false",
            Self::Count => text.parse::<u32>().is_ok_and(|n| n > 0) && !text.starts_with('0'),
            Self::Whole => text.parse::<u64>().is_ok() && (text == "0" || !text.starts_with('0')),
            Self::Decimal { positive } => canonical_milli(text).is_some_and(|m| !positive || m > 0),
            Self::DecimalOr(word) => text == word || canonical_milli(text).is_some(),
            Self::WholeOr(word) => text == word || Self::Whole.check(text).is_ok(),
            Self::OneOf(words) => words.contains(&text),
        };
        if ok { Ok(()) } else { Err(format!("{} is not {}", echo(text), self.describe())) }
    }

    fn describe(self) -> String {
        match self {
            Self::Bool => "true or false".to_owned(),
            Self::Count => "a whole number from 1 to 4294967295".to_owned(),
            Self::Whole => "a whole number without leading zeros".to_owned(),
            Self::Decimal { positive: false } => "a decimal with at most three decimals".to_owned(),
            Self::Decimal { positive: true } => "a positive decimal with at most three decimals".to_owned(),
            Self::DecimalOr(word) => format!("a decimal with at most three decimals, or {word}"),
            Self::WholeOr(word) => format!("a whole number without leading zeros, or {word}"),
            Self::OneOf(words) => words.join(", "),
        }
    }
}

/// `text` in thousandths, if it is a decimal written canonically: digits without a
/// leading zero (unless the whole part is 0), then optionally a point and one to
/// three digits, the last not 0.
fn canonical_milli(text: &str) -> Option<u64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || (whole.len() > 1 && whole.starts_with('0')) {
        return None;
    }
    if text.contains('.') && (!digits(fraction) || fraction.len() > 3 || fraction.ends_with('0')) {
        return None;
    }
    let mut milli = whole.parse::<u64>().ok()?.checked_mul(1000)?;
    for (digit, scale) in fraction.bytes().zip([100, 10, 1]) {
        milli = milli.checked_add(u64::from(digit - b'0') * scale)?;
    }
    Some(milli)
}

/// A text field: not too long, and no control characters.
fn text(field: &str, value: &str, required: bool) -> Result<(), HeaderError> {
    if required && value.is_empty() {
        return Err(fail(field, "is empty"));
    }
    if value.len() > TEXT_MAX_BYTES {
        return Err(fail(field, format!("is {} bytes long, more than {TEXT_MAX_BYTES}", value.len())));
    }
    if let Some(c) = value.chars().find(|c| c.is_control()) {
        return Err(fail(field, format!("holds the control character U+{:04X}", u32::from(c))));
    }
    Ok(())
}

/// The check of the model's part, `match`ed over the list of models.
macro_rules! check_part {
    (($model:expr, $version:expr) $($name:ident: $marker:ident $records:tt $doc:literal,)*) => {
        match $model {
            $(Model::$marker(part) => CheckedPart::check(part, $version),)*
        }
    };
}

impl CheckedPart for ServiceLevelHeader {
    fn check(&self, version: u16) -> Result<(), HeaderError> {
        check_service_level(self, version)
    }
}

impl CheckedPart for ReservationHeader {
    fn check(&self, _: u16) -> Result<(), HeaderError> {
        check_reservation(self)
    }
}

impl CheckedPart for TiersHeader {
    fn check(&self, _: u16) -> Result<(), HeaderError> {
        check_tiers(self)
    }
}

impl CheckedPart for SlaHeader {
    fn check(&self, version: u16) -> Result<(), HeaderError> {
        check_sla(self, version)
    }
}

impl Header {
    /// Checks every field against its range; the first that is out of it is named.
    pub fn check(&self) -> Result<(), HeaderError> {
        text("kernel_version", &self.kernel_version, true)?;
        if self.format_version >= 4 {
            self.check_provenance()?;
        }
        if let Some(window) = self.window_ticks
            && window == 0
        {
            return Err(fail("window_ticks", "is 0; a window is at least one tick long"));
        }
        crate::for_each_model!(check_part!(&self.model, self.format_version))
    }

    /// What version 4 added: names without folders, the hash's form, the settings.
    fn check_provenance(&self) -> Result<(), HeaderError> {
        text("host_version", &self.host_version, false)?;
        if self.inputs.is_empty() {
            return Err(fail("inputs", "is empty; a log names the input it was made from"));
        }
        for (index, input) in self.inputs.iter().enumerate() {
            let field = |part: &str| format!("inputs[{index}].{part}");
            text(&field("name"), &input.name, true)?;
            if input.name.contains(['/', '\\']) {
                let problem =
                    format!("{} names a folder; the header holds file names only", echo(&input.name));
                return Err(fail(field("name"), problem));
            }
            let hex = input.hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
            if input.hash.len() != INPUT_HASH_DIGITS || !hex {
                let problem =
                    format!("{} is not {INPUT_HASH_DIGITS} lower-case hex digits", echo(&input.hash));
                return Err(fail(field("hash"), problem));
            }
        }
        check_settings(&self.settings)
    }
}

/// The service level's part; its policies other than first fit came with version 5,
/// so a header of `version` 4 or older that names one is refused.
fn check_service_level(part: &ServiceLevelHeader, version: u16) -> Result<(), HeaderError> {
    let needs = super::policy_format_version(part.policy);
    if version < needs {
        let problem = format!(
            "is {}, which format version {} does not have (version {needs} on)",
            part.policy.name(),
            version
        );
        return Err(fail("policy", problem));
    }
    if !(1..=MAX_MACHINES).contains(&part.machines) {
        return Err(fail("machines", format!("{} is not from 1 to {MAX_MACHINES}", part.machines)));
    }
    if !QUEUE_CAPACITIES.contains(&part.queue_capacity) {
        let sizes: Vec<String> = QUEUE_CAPACITIES.iter().map(u32::to_string).collect();
        return Err(fail(
            "queue_capacity",
            format!("{} is not one of the compiled sizes {}", part.queue_capacity, sizes.join(", ")),
        ));
    }
    if !(1..=MAX_LEVELS).contains(&part.levels.len()) {
        return Err(fail(
            "levels",
            format!("{} levels; from 1 to {MAX_LEVELS} are supported", part.levels.len()),
        ));
    }
    for (index, level) in part.levels.iter().enumerate() {
        if level.slack_milli < SLACK_ONE_MILLI {
            let problem = format!("slack factor {}/1000 is below 1", level.slack_milli);
            return Err(fail(format!("levels[{index}].slack_milli"), problem));
        }
        if level.price_per_tick == 0 {
            return Err(fail(format!("levels[{index}].price_per_tick"), "is 0; a price is at least 1"));
        }
    }
    Ok(())
}

/// The reservation model's part.
fn check_reservation(reservation: &ReservationHeader) -> Result<(), HeaderError> {
    if reservation.config.nodes == 0 {
        return Err(fail("reservation.config.nodes", "is 0; a pool has at least one node"));
    }
    if reservation.config.slot_ticks == 0 {
        return Err(fail("reservation.config.slot_ticks", "is 0; a slot is at least one tick long"));
    }
    Ok(())
}

/// The tiers model's part.
fn check_tiers(tiers: &TiersHeader) -> Result<(), HeaderError> {
    if tiers.config.slot_ticks == 0 {
        return Err(fail("tiers.config.slot_ticks", "is 0; a slot is at least one tick long"));
    }
    let capacity = usize::try_from(tiers.resource_capacity).unwrap_or(usize::MAX);
    if tiers.resources.is_empty() || tiers.resources.len() > capacity {
        let problem =
            format!("{} resources; from 1 to the compiled {capacity} are supported", tiers.resources.len());
        return Err(fail("tiers.resources", problem));
    }
    for (index, resource) in tiers.resources.iter().enumerate() {
        if resource.nodes == 0 {
            return Err(fail(
                format!("tiers.resources[{index}].nodes"),
                "is 0; a resource has at least one node",
            ));
        }
        if resource.speed_milli == 0 {
            return Err(fail(format!("tiers.resources[{index}].speed_milli"), "is 0; a speed is above zero"));
        }
    }
    Ok(())
}

/// The SLA model's part; the model came with version 5, so a header of `version` 4
/// or older that names it is refused.
fn check_sla(sla: &SlaHeader, version: u16) -> Result<(), HeaderError> {
    if version < 5 {
        return Err(fail("model", format!("is sla, which format version {version} does not have")));
    }
    let c = &sla.config;
    if c.nodes == 0 {
        return Err(fail("sla.config.nodes", "is 0; a machine has at least one node"));
    }
    if c.slot_ticks == 0 {
        return Err(fail("sla.config.slot_ticks", "is 0; a slot is at least one tick long"));
    }
    if c.step_ticks == 0 || !c.step_ticks.is_multiple_of(c.slot_ticks) {
        let problem =
            format!("{} is not a positive multiple of the slot ({} ticks)", c.step_ticks, c.slot_ticks);
        return Err(fail("sla.config.step_ticks", problem));
    }
    if c.ticks_per_hour == 0 {
        return Err(fail("sla.config.ticks_per_hour", "is 0; an hour is at least one tick long"));
    }
    if sla.slots == 0 {
        return Err(fail("sla.slots", "is 0; a calendar has at least one slot"));
    }
    if sla.batch == 0 {
        return Err(fail("sla.batch", "is 0; a batch holds at least one request"));
    }
    Ok(())
}

fn check_settings(settings: &[Setting]) -> Result<(), HeaderError> {
    for (index, setting) in settings.iter().enumerate() {
        let field = format!("settings.{}", setting.key);
        let kebab = setting.key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if setting.key.is_empty() || !kebab {
            return Err(fail(
                format!("settings[{index}].key"),
                format!("{} is not a kebab-case key", echo(&setting.key)),
            ));
        }
        if let Some(before) = index.checked_sub(1).and_then(|i| settings.get(i))
            && before.key >= setting.key
        {
            return Err(fail(
                field,
                format!("comes after {}; keys are sorted and unique", echo(&before.key)),
            ));
        }
        text(&field, &setting.value, true)?;
        let Some((_, value)) = SETTINGS.iter().find(|(key, _)| *key == setting.key) else {
            return Err(fail(field, "is not a setting of this format"));
        };
        value.check(&setting.value).map_err(|problem| fail(&field, problem))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_decimals() {
        assert_eq!(canonical_milli("0"), Some(0));
        assert_eq!(canonical_milli("1.5"), Some(1500));
        assert_eq!(canonical_milli("0.125"), Some(125));
        assert_eq!(canonical_milli("12"), Some(12_000));
        for bad in ["", "1.", ".5", "1.50", "01", "1.2345", "-1", "1e3", "1,5"] {
            assert_eq!(canonical_milli(bad), None, "{bad}");
        }
    }
}
