//! The accept-all model's chart: its requests take no time and no place, so the chart
//! is one row of marks, a submit for each request and a rejection for each late one.

use kernel::Tick;
use kernel::accept_all::{Decision, Event};

use super::{Collector, Drawing, Drawn, GanttError, Mark, MarkKind, Options, Position};
use crate::contract::AcceptAll;
use crate::format::model::accept_all::AcceptAllHeader;

/// The marks of the chosen window.
#[derive(Debug, Default)]
pub struct State {
    marks: Vec<Mark>,
}

impl Drawn for AcceptAll {
    type Collector = State;
}

impl Collector<AcceptAll> for State {
    fn new(_: &AcceptAllHeader, _: &Options) -> Result<Self, GanttError> {
        Ok(Self::default())
    }

    fn event(&mut self, event: &Event, position: &mut Position, options: &Options) {
        let Event::Submit { t, job } = *event;
        position.saw(t);
        options.mark(&mut self.marks, t, job, MarkKind::Submit);
    }

    fn decision(&mut self, decision: &Decision, _: &mut Position, options: &Options) {
        if let Decision::Reject { t, job, .. } = *decision {
            options.mark(&mut self.marks, t, job, MarkKind::Reject);
        }
    }

    fn runs(&self) -> usize {
        0
    }

    fn finish(self, _: Tick, _: &Options) -> Drawing {
        Drawing {
            what: "every request".to_owned(),
            row_noun: "row",
            rows: 0..1,
            marks: self.marks,
            ..Drawing::default()
        }
    }
}
