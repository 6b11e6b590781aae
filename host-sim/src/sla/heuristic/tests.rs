//! Tests of the heuristic parser: the paper's forms, exact weights, display read back, and errors with a caret.

use super::*;

fn h(direction: Direction, h1: Term, second: Option<(Weight, Term)>, third: Option<(Weight, Term)>) -> Spec {
    Spec::Heuristic(Heuristic { direction, h1, second, third })
}

#[test]
fn the_papers_forms() {
    use Direction::{Max, Min};
    assert_eq!(
        parse("min(TF - 0.8*tD)").unwrap(),
        h(Min, Term::Tf, Some((Weight::Milli(-800), Term::Td)), None)
    );
    assert_eq!(
        parse("max(TS + 0.72*NCPU)").unwrap(),
        h(Max, Term::Ts, Some((Weight::Milli(720), Term::Ncpu)), None)
    );
    assert_eq!(
        parse("min(TF + 0.5*A + 2*tL)").unwrap(),
        h(Min, Term::Tf, Some((Weight::Milli(500), Term::A)), Some((Weight::Milli(2000), Term::Tl)))
    );
    assert_eq!(
        parse("min(tD - inf*NCPU)").unwrap(),
        h(Min, Term::Td, Some((Weight::MinusInf, Term::Ncpu)), None)
    );
    assert_eq!(parse("min(TS)").unwrap(), h(Min, Term::Ts, None, None));
    assert_eq!(parse("random").unwrap(), Spec::Random);
    assert_eq!(parse("  RANDOM ").unwrap(), Spec::Random);
}

#[test]
fn weights_are_exact_thousandths_and_signs_combine() {
    let w = |text: &str| match parse(text).unwrap() {
        Spec::Heuristic(Heuristic { second: Some((w, _)), .. }) => w,
        other => panic!("{other:?}"),
    };
    assert_eq!(w("min(TS + 0.135*A)"), Weight::Milli(135));
    assert_eq!(w("min(TS + .5*A)"), Weight::Milli(500));
    assert_eq!(w("min(TS + 9.4 * tD)"), Weight::Milli(9400));
    assert_eq!(w("min(TS - 0.001*tD)"), Weight::Milli(-1));
    assert_eq!(w("min(TS + -0.8*tD)"), Weight::Milli(-800));
    assert_eq!(w("min(TS - -0.8*tD)"), Weight::Milli(800));
    assert_eq!(w("min(TS + tD)"), Weight::Milli(1000));
    assert_eq!(w("min(TS - tD)"), Weight::Milli(-1000));
    assert_eq!(w("min(TS + 0*tD)"), Weight::Milli(0));
    assert_eq!(w("min(TS + inf*tD)"), Weight::PlusInf);
    assert_eq!(w("min(TS + ∞*tD)"), Weight::PlusInf);
    assert_eq!(w("min(TS + -inf*tD)"), Weight::MinusInf);
    assert_eq!(w("min(TS + 2147483.647*tD)"), Weight::Milli(i32::MAX));
    assert_eq!(w("min(ts+2td)"), Weight::Milli(2000));
}

#[test]
fn display_reads_back() {
    for text in [
        "min(TF - 0.8*tD)",
        "max(TS + 0.72*NCPU)",
        "min(TF + 0.5*A + 2*tL)",
        "min(tD - inf*NCPU)",
        "max(A + inf*tL)",
        "min(TS)",
        "min(TS + 0*tT)",
        "random",
    ] {
        let spec = parse(text).unwrap();
        assert_eq!(display(spec), text);
        assert_eq!(parse(&display(spec)).unwrap(), spec);
    }
    assert_eq!(display(parse("min(tf+-0.800*td)").unwrap()), "min(TF - 0.8*tD)");
}

fn error(text: &str) -> (usize, String) {
    let e = parse(text).unwrap_err();
    (e.at, e.message)
}

#[test]
fn errors_point_at_the_character() {
    assert_eq!(error("min(TF - 0.8*tX)").0, 13);
    assert!(error("min(TF - 0.8*tX)").1.contains("unknown term `tX`"));
    let (at, message) = error("min(TF - 0.1234*tD)");
    assert_eq!(at, 14);
    assert!(message.contains("more than three decimal places"), "{message}");
    assert_eq!(error("mean(TS)"), (0, "expected min, max or random, found `mean`".to_owned()));
    assert_eq!(error("min TS"), (4, "expected `(`, found `T`".to_owned()));
    assert_eq!(error("min(TS + 0.8 % tD)").0, 13);
    assert_eq!(error("min(TS + 0.8 tD").0, 15);
    assert_eq!(error("min(TS + 0.8*tD"), (15, "expected `)`, found the end".to_owned()));
    assert_eq!(error("min(TS * 2)").0, 7);
    assert!(error("min(2*TS)").1.contains("first term takes no weight"));
    assert!(error("min(TS + tD + A + tL)").1.contains("at most three terms"));
    assert_eq!(error("min(TS) x").0, 8);
    assert!(error("min(TS + 3000000*tD)").1.contains("out of range"));
    assert!(error("min(TS + 0.5*)").1.contains("expected a term"));
    assert!(error("random(1)").1.contains("takes nothing"));
    assert!(error("").1.contains("found the end"));
}

#[test]
fn the_message_shows_the_expression_and_a_caret() {
    let shown = parse("min(TF - 0.8*tX)").unwrap_err().to_string();
    assert_eq!(
        shown,
        "heuristic: unknown term `tX` (one of TS, TF, tD, NCPU, A, tT, tL)\n  min(TF - 0.8*tX)\n               ^"
    );
    // Characters, not bytes: the caret stays under the fault after a `∞`.
    let e = parse("min(TS + ∞*tQ)").unwrap_err();
    assert_eq!(e.at, 11);
}
