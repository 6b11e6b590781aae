//! The heuristics as the paper writes them: `min(TF - 0.8*tD)`, `max(TS + 0.72*NCPU)`,
//! `min(TF + 0.5*A + 2*tL)`, `min(tD - inf*NCPU)`, `min(TS)`, and `random`.
//!
//! # Grammar
//! ```text
//! heuristic := "random" | direction "(" term { sign [ weight [ "*" ] ] term } ")"
//! direction := "min" | "max"
//! sign      := "+" | "-"
//! weight    := [ "-" ] ( decimal | "inf" | "∞" )
//! term      := "TS" | "TF" | "tD" | "NCPU" | "A" | "tT" | "tL"
//! ```
//! Names are read in any case (`td`, `TD`, `ncpu`), blanks anywhere between tokens.
//! At most three terms (`h1 + w1*h2 + w2*h3`); a term without a weight has weight 1
//! (`min(TF - tD)` is `min(TF - 1*tD)`), and a weight's own minus flips the sign
//! (`TF + -0.8*tD` is `TF - 0.8*tD`). `h1` takes no weight.
//!
//! # Weights
//! A weight is kept exactly in thousandths (`0.135` is 135), as the kernel orders by
//! it: a decimal with more than three places is refused (not rounded), and so is one
//! beyond the kernel's range (`|w| <= 2147483.647`). `inf` and `-inf` order by their
//! term alone, ties by the finite terms (the kernel's rule); so at most one weight may
//! be infinite, as two infinite terms have no order between them.
//!
//! # Errors
//! An error names what was expected and points at the character with a caret:
//! ```text
//! heuristic: unknown term `tX` (one of TS, TF, tD, NCPU, A, tT, tL)
//!   min(TF - 0.8*tX)
//!                ^
//! ```

use std::fmt;

use kernel::sla::{Direction, Heuristic, Order, Term, Weight};

/// What `--heuristic` names: a priority expression or the seeded random order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spec {
    Heuristic(Heuristic),
    Random,
}

impl Spec {
    /// The kernel's order; `seed` seeds the random order and is ignored otherwise.
    pub fn order(self, seed: u64) -> Order {
        match self {
            Self::Heuristic(h) => Order::Heuristic(h),
            Self::Random => Order::Random { seed },
        }
    }
}

/// A weight as the grammar writes it, without a sign for the finite ones' magnitude:
/// `0.8`, `inf`, `-0.135`.
pub fn weight_text(weight: Weight) -> String {
    match weight {
        Weight::PlusInf => "inf".to_owned(),
        Weight::MinusInf => "-inf".to_owned(),
        Weight::Milli(m) => milli_text(i64::from(m)),
    }
}

fn milli_text(m: i64) -> String {
    let sign = if m < 0 { "-" } else { "" };
    let m = m.unsigned_abs();
    let (whole, fraction) = (m / 1000, m % 1000);
    if fraction == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{}", format!("{fraction:03}").trim_end_matches('0'))
    }
}

/// The weight as a float, for tables and plots (±infinity for the infinite ones).
pub fn weight_value(weight: Weight) -> f64 {
    match weight {
        Weight::PlusInf => f64::INFINITY,
        Weight::MinusInf => f64::NEG_INFINITY,
        Weight::Milli(m) => f64::from(m) / 1000.0,
    }
}

/// The heuristic in the grammar's canonical form (the kernel's `Display`), which
/// [`parse`] reads back: `min(TF - 0.8*tD)`, `max(TS + inf*NCPU)`, `min(TS + 0*tD)`,
/// `random`.
pub fn display(spec: Spec) -> String {
    match spec {
        Spec::Heuristic(h) => h.to_string(),
        Spec::Random => "random".to_owned(),
    }
}

/// A heuristic that could not be read: the text, the character it stopped at, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub text: String,
    /// The position in characters (not bytes) the caret points at.
    pub at: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "heuristic: {}\n  {}\n  {}^", self.message, self.text, " ".repeat(self.at))
    }
}

impl std::error::Error for ParseError {}

struct Parser<'a> {
    text: &'a str,
    chars: Vec<char>,
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, at: usize, message: impl Into<String>) -> ParseError {
        ParseError { text: self.text.to_owned(), at, message: message.into() }
    }

    fn blanks(&mut self) {
        while self.chars.get(self.pos).is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.blanks();
        self.chars.get(self.pos).copied()
    }

    fn expect(&mut self, wanted: char, what: &str) -> Result<(), ParseError> {
        match self.peek() {
            Some(c) if c == wanted => {
                self.pos += 1;
                Ok(())
            }
            Some(c) => Err(self.error(self.pos, format!("expected {what}, found `{c}`"))),
            None => Err(self.error(self.pos, format!("expected {what}, found the end"))),
        }
    }

    /// A run of letters (a name), with where it starts.
    fn word(&mut self) -> (usize, String) {
        self.blanks();
        let start = self.pos;
        while self.chars.get(self.pos).is_some_and(|c| c.is_alphanumeric() || *c == '_') {
            self.pos += 1;
        }
        (start, self.chars[start..self.pos].iter().collect())
    }

    fn term(&mut self) -> Result<Term, ParseError> {
        let (start, word) = self.word();
        if word.is_empty() {
            let found = self.chars.get(start).map_or("the end".to_owned(), |c| format!("`{c}`"));
            return Err(
                self.error(start, format!("expected a term (TS, TF, tD, NCPU, A, tT, tL), found {found}"))
            );
        }
        Term::from_name(&word).ok_or_else(|| {
            self.error(start, format!("unknown term `{word}` (one of TS, TF, tD, NCPU, A, tT, tL)"))
        })
    }

    /// The weight after a sign (`negative` is that sign): a number or `inf`, its `*`
    /// (optional) eaten, or 1 when the term follows directly.
    fn weight(&mut self, negative: bool) -> Result<Weight, ParseError> {
        let mut negative = negative;
        if self.peek() == Some('-') {
            negative = !negative;
            self.pos += 1;
        }
        self.blanks();
        let start = self.pos;
        let c = self.chars.get(self.pos).copied();
        let weight = if c.is_some_and(|c| c.is_ascii_digit() || c == '.') {
            let milli = self.decimal()?;
            let signed = if negative { -milli } else { milli };
            let value = i32::try_from(signed).map_err(|_| {
                self.error(start, "weight out of range (at most 2147483.647 either way; use inf for an order by the term alone)")
            })?;
            Weight::Milli(value)
        } else if c == Some('∞') || self.rest_starts_with_inf() {
            self.pos += if c == Some('∞') { 1 } else { 3 };
            if negative { Weight::MinusInf } else { Weight::PlusInf }
        } else {
            // No weight: the term follows directly, with weight 1.
            return Ok(Weight::Milli(if negative { -1000 } else { 1000 }));
        };
        if self.peek() == Some('*') {
            self.pos += 1;
        } else if self.peek().is_some_and(|c| !c.is_alphabetic()) || self.peek().is_none() {
            let at = self.pos;
            let found = self.chars.get(at).map_or("the end".to_owned(), |c| format!("`{c}`"));
            return Err(self.error(at, format!("expected `*` and a term after the weight, found {found}")));
        }
        Ok(weight)
    }

    fn rest_starts_with_inf(&self) -> bool {
        let rest: String = self.chars[self.pos..].iter().take(4).collect();
        let lower = rest.to_ascii_lowercase();
        lower.starts_with("inf") && !rest.chars().nth(3).is_some_and(|c| c.is_alphanumeric())
    }

    /// A decimal in thousandths, exact.
    fn decimal(&mut self) -> Result<i64, ParseError> {
        let start = self.pos;
        let mut whole: i64 = 0;
        let mut digits = 0;
        while let Some(d) = self.chars.get(self.pos).and_then(|c| c.to_digit(10)) {
            whole = whole.saturating_mul(10).saturating_add(i64::from(d));
            digits += 1;
            self.pos += 1;
        }
        let mut fraction: i64 = 0;
        let mut places = 0;
        if self.chars.get(self.pos) == Some(&'.') {
            self.pos += 1;
            while let Some(d) = self.chars.get(self.pos).and_then(|c| c.to_digit(10)) {
                places += 1;
                if places > 3 {
                    return Err(self.error(
                        self.pos,
                        "more than three decimal places: weights are kept exactly in thousandths",
                    ));
                }
                fraction = fraction * 10 + i64::from(d);
                self.pos += 1;
            }
        }
        if digits == 0 && places == 0 {
            return Err(self.error(start, "expected a number"));
        }
        for _ in places..3 {
            fraction *= 10;
        }
        Ok(whole.saturating_mul(1000).saturating_add(fraction))
    }

    fn heuristic(&mut self) -> Result<Spec, ParseError> {
        let (start, word) = self.word();
        let direction = match word.to_ascii_lowercase().as_str() {
            "random" => {
                return match self.peek() {
                    None => Ok(Spec::Random),
                    Some(c) => {
                        Err(self.error(self.pos, format!("`random` takes nothing after it, found `{c}`")))
                    }
                };
            }
            "min" => Direction::Min,
            "max" => Direction::Max,
            "" => {
                let found = self.chars.get(start).map_or("the end".to_owned(), |c| format!("`{c}`"));
                return Err(
                    self.error(start, format!("expected min(...), max(...) or random, found {found}"))
                );
            }
            _ => return Err(self.error(start, format!("expected min, max or random, found `{word}`"))),
        };
        self.expect('(', "`(`")?;
        if self.peek().is_some_and(|c| c.is_ascii_digit() || c == '.' || c == '-' || c == '+') {
            return Err(self.error(self.pos, "the first term takes no weight or sign (write h1 + w*h2)"));
        }
        let h1 = self.term()?;
        let mut rest: Vec<(Weight, Term)> = Vec::new();
        loop {
            let negative = match self.peek() {
                Some('+') => false,
                Some('-') => true,
                Some(')') => break,
                Some(c) => return Err(self.error(self.pos, format!("expected `+`, `-` or `)`, found `{c}`"))),
                None => return Err(self.error(self.pos, "expected `)`, found the end")),
            };
            let at = self.pos;
            self.pos += 1;
            if rest.len() == 2 {
                return Err(self.error(at, "at most three terms (h1 + w1*h2 + w2*h3)"));
            }
            let weight = self.weight(negative)?;
            let infinite = |w: &Weight| matches!(w, Weight::PlusInf | Weight::MinusInf);
            if infinite(&weight) && rest.iter().any(|(w, _)| infinite(w)) {
                return Err(self.error(
                    at,
                    "at most one infinite weight: two infinite terms have no order between them",
                ));
            }
            rest.push((weight, self.term()?));
        }
        self.pos += 1;
        if let Some(c) = self.peek() {
            return Err(self.error(self.pos, format!("nothing may follow the `)`, found `{c}`")));
        }
        let mut terms = rest.into_iter();
        Ok(Spec::Heuristic(Heuristic { direction, h1, second: terms.next(), third: terms.next() }))
    }
}

/// Reads a heuristic; see the module documentation for the grammar.
pub fn parse(text: &str) -> Result<Spec, ParseError> {
    Parser { text, chars: text.chars().collect(), pos: 0 }.heuristic()
}

#[cfg(test)]
mod tests;
