//! The optimizations `-nooptim NAME` turns off: one table ([`OPTIMS`]) from which the
//! option's checking ([`crate::check`]), the command line's help ([`help`]), `radtap
//! validate`'s bisection list ([`bisected`]) and the web form ([`effective`]) derive, so a
//! new optimization is one row here plus the line of code that reads [`Optim::off`].

/// An optimization that `-nooptim` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Optim {
    /// Activity analysis (Tapenade's name; always on).
    Activity,
    /// Tapenade's spare initialisations (always on).
    SpareInit,
    /// Tapenade's split differentiated instructions (always on).
    SplitDiff,
    /// Tapenade's merged differentiated instructions (always on).
    MergeDiff,
    /// Adjoint: record only to-be-recorded values.
    Tbr,
    /// Slice away original statements the derivatives do not need.
    DiffLiveness,
    /// Adjoint: rebuild integer counters backwards instead of recording them.
    Induction,
    /// Adjoint: compute a partial or seed used several times once.
    SharePartials,
    /// Adjoint: joint branches at the turn of a procedure.
    DeadControl,
    /// Adjoint: snapshot only what a checkpointed call needs.
    Snapshot,
    /// Adjoint: structured jumps reversed without recorded labels.
    StructuredJumps,
    /// Adjoint: recompute cheap intermediates instead of recording them.
    RecomputeIntermediates,
    /// Adjoint: records kept local to the procedure that needs them.
    LocalRecords,
    /// Loop-invariant pure calls hoisted out of their loop.
    HoistInvariant,
    /// Loop-invariant expressions hoisted out of their loop.
    HoistExpressions,
    /// Common sub-expressions of a basic block computed once.
    ShareCommon,
    /// Small helper functions inlined where loops call them.
    InlineHelpers,
    /// Every optimization at once.
    EveryOptim,
}

/// What turning an optimization off does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Accepted for Tapenade's command lines; no effect yet (a warning says so).
    None,
    /// Turns one optimization off; bisected by `radtap validate`.
    One,
    /// Turns every optimization off.
    All,
}

/// One row of [`OPTIMS`].
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// The optimization.
    pub optim: Optim,
    /// Its `-nooptim` name (lower case; matched ignoring case).
    pub name: &'static str,
    /// What turning it off does.
    pub effect: Effect,
}

const fn row(optim: Optim, name: &'static str, effect: Effect) -> Row {
    Row {
        optim,
        name,
        effect,
    }
}

/// Every `-nooptim` name. Those with an effect are in bisection order (`radtap validate`
/// tries them in turn when a check fails).
pub const OPTIMS: &[Row] = &[
    row(Optim::Activity, "activity", Effect::None),
    row(Optim::SpareInit, "spareinit", Effect::None),
    row(Optim::SplitDiff, "splitdiff", Effect::None),
    row(Optim::MergeDiff, "mergediff", Effect::None),
    row(Optim::Tbr, "tbr", Effect::One),
    row(Optim::DiffLiveness, "diffliveness", Effect::One),
    row(Optim::Induction, "induction", Effect::One),
    row(Optim::SharePartials, "sharepartials", Effect::One),
    row(Optim::DeadControl, "deadcontrol", Effect::One),
    row(Optim::Snapshot, "snapshot", Effect::One),
    row(Optim::StructuredJumps, "structuredjumps", Effect::One),
    row(
        Optim::RecomputeIntermediates,
        "recomputeintermediates",
        Effect::One,
    ),
    row(Optim::LocalRecords, "localrecords", Effect::One),
    row(Optim::HoistInvariant, "hoistinvariant", Effect::One),
    row(Optim::HoistExpressions, "hoistexpressions", Effect::One),
    row(Optim::ShareCommon, "sharecommon", Effect::One),
    row(Optim::InlineHelpers, "inlinehelpers", Effect::One),
    row(Optim::EveryOptim, "everyoptim", Effect::All),
];

impl Optim {
    /// Its row.
    pub fn row(self) -> &'static Row {
        OPTIMS
            .iter()
            .find(|r| r.optim == self)
            .expect("every optimization has a row")
    }

    /// Its `-nooptim` name.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// Whether the `-nooptim` names given turn it off (directly or through `everyoptim`).
    pub fn off(self, nooptim: &[String]) -> bool {
        let every = Optim::EveryOptim.name();
        nooptim
            .iter()
            .any(|x| x.eq_ignore_ascii_case(self.name()) || x.eq_ignore_ascii_case(every))
    }
}

/// The row named `name` (any case).
pub fn lookup(name: &str) -> Option<&'static Row> {
    OPTIMS.iter().find(|r| r.name.eq_ignore_ascii_case(name))
}

/// The names `radtap validate` bisects, in order.
pub fn bisected() -> impl Iterator<Item = &'static str> {
    OPTIMS
        .iter()
        .filter(|r| r.effect == Effect::One)
        .map(|r| r.name)
}

/// The names that have an effect (`everyoptim` last), as the web form lists them.
pub fn effective() -> impl Iterator<Item = &'static str> {
    OPTIMS
        .iter()
        .filter(|r| r.effect != Effect::None)
        .map(|r| r.name)
}

/// `a, b, c and d`.
fn english(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The names without an effect yet.
fn without_effect() -> Vec<&'static str> {
    OPTIMS
        .iter()
        .filter(|r| r.effect == Effect::None)
        .map(|r| r.name)
        .collect()
}

/// The command line's help for `-nooptim`.
pub fn help() -> String {
    let all: Vec<&str> = OPTIMS.iter().map(|r| r.name).collect();
    format!(
        "Turn off an optimization ({}); all but {} have an effect.",
        all.join(", "),
        english(&without_effect())
    )
}

/// The warnings for `-nooptim` names, or the usage error for an unknown one.
pub(crate) fn check(nooptim: &[String]) -> Result<Vec<String>, String> {
    let mut warnings = Vec::new();
    for n in nooptim {
        match lookup(n) {
            None => {
                let known: Vec<&str> = OPTIMS.iter().map(|r| r.name).collect();
                return Err(format!(
                    "-nooptim {n}: unknown optimization (known: {})",
                    known.join(", ")
                ));
            }
            Some(r) if r.effect == Effect::None => {
                let done: Vec<&str> = bisected().collect();
                warnings.push(format!(
                    "-nooptim {n} has no effect yet (only {} can be turned off)",
                    english(&done)
                ));
            }
            Some(_) => {}
        }
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are unique, lower case, and each optimization has exactly one row.
    #[test]
    fn one_row_per_optimization() {
        let mut seen = std::collections::HashSet::new();
        for r in OPTIMS {
            assert!(seen.insert(r.name), "{}", r.name);
            assert_eq!(r.name, r.name.to_ascii_lowercase());
            assert_eq!(r.optim.name(), r.name);
            assert_eq!(
                lookup(&r.name.to_ascii_uppercase()).map(|x| x.optim),
                Some(r.optim)
            );
        }
        assert_eq!(
            help(),
            "Turn off an optimization (activity, spareinit, splitdiff, mergediff, tbr, \
             diffliveness, induction, sharepartials, deadcontrol, snapshot, structuredjumps, \
             recomputeintermediates, localrecords, hoistinvariant, hoistexpressions, \
             sharecommon, inlinehelpers, everyoptim); all but \
             activity, spareinit, splitdiff and mergediff have an effect."
        );
        assert!(Optim::Tbr.off(&["EveryOptim".into()]));
        assert!(!Optim::Tbr.off(&["snapshot".into()]));
    }
}
