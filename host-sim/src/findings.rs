//! A paper's statements checked against our numbers: one [`Finding`] type that every
//! model's comparison with its paper (or thesis) is made of, the [`Tally`] that checks
//! a statement case by case, and the one line per finding that several models print.

use serde::Serialize;

/// One statement of a paper beside our numbers. `holds` is `None` where the statement
/// is only shown beside ours, not checked (the thesis' criteria, cell by cell), and
/// `cases` is given where it was checked case by case.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub paper: &'static str,
    pub ours: String,
    // A bare `bool` in JSON when checked, as the sla sweep's document has always had it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holds: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cases: Option<Cases>,
}

/// How many of a statement's cases hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Cases {
    pub held: usize,
    pub cases: usize,
}

impl Cases {
    /// The verdict and the count, such as `partly 3/5`.
    pub fn verdict(self) -> String {
        let verdict = if self.held == self.cases {
            "holds"
        } else if self.held == 0 {
            "does not hold"
        } else {
            "partly"
        };
        format!("{verdict} {}/{}", self.held, self.cases)
    }
}

impl Finding {
    /// A statement checked as a whole.
    pub fn checked(paper: &'static str, ours: String, holds: bool) -> Self {
        Self { paper, ours, holds: Some(holds), cases: None }
    }

    /// A statement shown beside ours without a verdict.
    pub fn beside(paper: &'static str, ours: String) -> Self {
        Self { paper, ours, holds: None, cases: None }
    }

    /// `  [holds] paper: ours` (or `[fails]`), the line the sla and tiers sweeps print;
    /// a statement without a verdict has no brackets.
    pub fn line(&self) -> String {
        let verdict = match self.holds {
            Some(true) => "[holds] ",
            Some(false) => "[fails] ",
            None => "",
        };
        format!("  {verdict}{}: {}\n", self.paper, self.ours)
    }
}

/// A statement's cases as they are checked: each holds or not, with its numbers.
#[derive(Debug, Default)]
pub struct Tally {
    held: usize,
    cases: usize,
    detail: Vec<String>,
}

impl Tally {
    /// Adds one case and the numbers behind it.
    pub fn case(&mut self, holds: bool, detail: String) {
        self.cases += 1;
        self.held += usize::from(holds);
        self.detail.push(detail);
    }

    /// The finding: it holds when every case does; our numbers are the cases' joined.
    pub fn finding(self, paper: &'static str) -> Finding {
        let cases = Cases { held: self.held, cases: self.cases };
        Finding {
            paper,
            ours: self.detail.join("; "),
            holds: Some(self.held == self.cases),
            cases: Some(cases),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Finding, Tally};

    #[test]
    fn a_checked_finding_prints_and_serializes_as_the_sweeps_always_have() {
        let finding = Finding::checked("the paper", "ours".to_owned(), false);
        assert_eq!(finding.line(), "  [fails] the paper: ours\n");
        let json = serde_json::to_string(&finding).unwrap();
        assert_eq!(json, r#"{"paper":"the paper","ours":"ours","holds":false}"#);
    }

    #[test]
    fn a_tally_names_its_verdict_by_the_cases_that_held() {
        let verdict = |holds: &[bool]| {
            let mut tally = Tally::default();
            for (i, &h) in holds.iter().enumerate() {
                tally.case(h, format!("case {i}"));
            }
            let finding = tally.finding("claim");
            (finding.holds, finding.cases.map(|c| c.verdict()), finding.ours)
        };
        assert_eq!(
            verdict(&[true, true]),
            (Some(true), Some("holds 2/2".to_owned()), "case 0; case 1".to_owned())
        );
        assert_eq!(verdict(&[true, false]).1.as_deref(), Some("partly 1/2"));
        assert_eq!(verdict(&[false]).1.as_deref(), Some("does not hold 0/1"));
    }
}
