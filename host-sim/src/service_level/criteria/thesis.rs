//! The thesis' findings of its chapter 7 (Lezama 2012, §7.2), cell by cell, to print
//! beside ours. Its figures show 1, 2 and 4 machines; where it names no value for a
//! machine count, the general statement of the group is given.

use super::Group;
use crate::findings::Finding;
use crate::service_level::sweep::Mode;

/// The thesis' figure number for a mode and group (Figures 44 to 49).
pub fn figure(mode: Mode, group: Group) -> u32 {
    let base = match mode {
        Mode::Single => 44,
        Mode::Multi => 47,
    };
    base + super::group_index(group) as u32
}

/// What the thesis reports for `mode`, `group` and `machines`, beside `ours`. The
/// thesis names configurations where we measure degradations, so the two are shown
/// side by side without a verdict.
pub fn finding(mode: Mode, group: Group, machines: u16, ours: String) -> Finding {
    Finding::beside(statement(mode, group, machines), ours)
}

/// The thesis' statement for `mode`, `group` and `machines`.
fn statement(mode: Mode, group: Group, machines: u16) -> &'static str {
    match (mode, group, machines) {
        (Mode::Single, Group::System, 1) => "sf 9, 10, 8",
        (Mode::Single, Group::System, 2) => "sf 9, 8, 10",
        (Mode::Single, Group::System, 4) => "sf 8, 9, 7 (best overall)",
        (Mode::Single, Group::System, _) => "sf within 7 to 10",
        (Mode::Single, Group::User, _) => "sf 1, 2, 3; lower with more machines",
        (Mode::Single, Group::Algorithm, _) => "sf 1, 2, 3; higher with more machines",
        (Mode::Multi, Group::System, 1) => "k 14, 11, 10",
        (Mode::Multi, Group::System, _) => "k in the middle of the range",
        (Mode::Multi, Group::User, _) => "smallest k; lower with more machines",
        (Mode::Multi, Group::Algorithm, _) => "smallest k; higher with more machines",
    }
}
