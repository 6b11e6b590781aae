//! The paper's figures 2 to 7 as a grid of experiments, run in parallel, one CSV per
//! figure, and a table of whether each of its findings holds.
//!
//! What each figure plots, reconstructed from section 4.2 (all on 15-day windows,
//! loads 1.0, 1.25 and 1.5, accurate estimates, no fixing, no offers unless said):
//!
//! | file | paper | rows |
//! |---|---|---|
//! | `fig2.csv` | Fig. 2, utilisation by sorting criterion, as the difference from the shuffle baseline, per load | load x interval size x criterion |
//! | `fig3.csv` | Fig. 3, EDF utilisation by interval size | load x interval size |
//! | `fig4.csv` | Fig. 4, the same with inaccurate estimates (`poisson80`) | load x interval size |
//! | `fig5.csv` | Fig. 5, EDF utilisation by fixing time, medium load (1.25) | interval size x fixing |
//! | `fig6.csv` | Fig. 6, EDF utilisation with offers (fixed intervals) beside flexible intervals | load x (offers `ϕ` max, or interval size) |
//! | `fig7.csv` | Fig. 7, mean `ϕ` of accepted offers against the maximum `ϕ` | load x `ϕ` max |
//!
//! The grid: 5 criteria x 3 loads x 4 sizes (60 runs), EDF with `poisson80` (12), EDF
//! at 1.25 with 3 sizes x 4 fixing times (12), EDF with offers at `ϕ` max 0.25, 0.5
//! and 1 on fixed intervals (9): 93 runs.
//!
//! This module holds the grid; [`part`] runs it (whole, or one shard of it, or joins
//! the shards' parts), [`tables`] makes and writes the figures' tables, and
//! [`findings`] checks the paper's findings on the outcomes.

use kernel::reservation::{Criterion, Fixing};

use super::mapping::{Estimates, Flex};
use super::{Experiment, Outcome};

pub mod findings;
pub mod part;
pub mod tables;

pub const LOADS_MILLI: [u64; 3] = [1000, 1250, 1500];
pub const CRITERIA: [Criterion; 5] = Criterion::ALL;
pub const FIXINGS: [Fixing; 5] =
    [Fixing::AtAcceptance, Fixing::Quarter, Fixing::Half, Fixing::ThreeQuarters, Fixing::Never];
/// `ϕ` max of the offer runs, in thousandths, matched with the interval sizes of the
/// same mean widening.
pub const PHIS_MILLI: [(u64, Flex); 3] = [(250, Flex::Short), (500, Flex::Medium), (1000, Flex::Long)];
/// The medium load of Fig. 5.
pub const FIX_LOAD_MILLI: u64 = 1250;

/// Every experiment of the figures, in a fixed order.
pub fn grid(base: &Experiment) -> Vec<Experiment> {
    let mut grid = Vec::new();
    for load_milli in LOADS_MILLI {
        for flex in Flex::ALL {
            for criterion in CRITERIA {
                grid.push(Experiment { load_milli, flex, criterion, ..*base });
            }
            let edf = Experiment { load_milli, flex, criterion: Criterion::Edf, ..*base };
            grid.push(Experiment { estimates: Estimates::Poisson80, ..edf });
            if load_milli == FIX_LOAD_MILLI && flex != Flex::None {
                for fixing in &FIXINGS[..4] {
                    grid.push(Experiment { fixing: *fixing, ..edf });
                }
            }
        }
        for (phi, _) in PHIS_MILLI {
            grid.push(Experiment {
                load_milli,
                criterion: Criterion::Edf,
                offers_phi_milli: Some(phi),
                ..*base
            });
        }
    }
    grid
}

/// The results, looked up by configuration.
struct Results<'a>(&'a [Outcome]);

impl<'a> Results<'a> {
    fn find(&self, wanted: &Experiment) -> Option<&'a Outcome> {
        self.0.iter().find(|o| o.experiment == *wanted)
    }

    fn base(&self) -> Option<Experiment> {
        self.0.first().map(|o| Experiment {
            criterion: Criterion::Edf,
            load_milli: 1000,
            flex: Flex::None,
            fixing: Fixing::Never,
            estimates: Estimates::Accurate,
            offers_phi_milli: None,
            ..o.experiment
        })
    }

    fn util(&self, e: &Experiment) -> f64 {
        self.find(e).map_or(f64::NAN, |o| o.utilisation.0)
    }
}
