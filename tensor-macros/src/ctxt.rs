//! The errors of one macro call, collected across parse, check and lower
//! (after serde_derive's `internals/ctxt.rs`), so one compile shows every
//! mistake in the call.
//!
//! A [`Ctxt`] exists only inside [`collect`], which checks it once the
//! stages have run: its errors cannot be dropped unreported.

use syn::Error;

/// Where the stages report errors. Made only by [`collect`].
pub struct Ctxt {
    /// Every error so far, combined into one.
    errors: Option<Error>,
}

/// Proof that a stage reported its error and gave up: made only by
/// [`Ctxt::error`], so no stage can fail without saying why.
pub struct Reported(Error);

impl Ctxt {
    /// Records `error` and returns the proof of it.
    pub fn error(&mut self, error: Error) -> Reported {
        let proof = Reported(error.clone());
        match &mut self.errors {
            Some(errors) => errors.combine(error),
            None => self.errors = Some(error),
        }
        proof
    }

    /// The value of `result`, or the proof of its recorded error.
    pub fn ok<T>(&mut self, result: syn::Result<T>) -> Result<T, Reported> {
        result.map_err(|error| self.error(error))
    }
}

/// Runs `stages` with a fresh context, then checks it: the stages' value
/// when no error was recorded, else every error, combined.
pub fn collect<T>(stages: impl FnOnce(&mut Ctxt) -> Result<T, Reported>) -> syn::Result<T> {
    let mut ctxt = Ctxt { errors: None };
    let outcome = stages(&mut ctxt);
    match (ctxt.errors, outcome) {
        (Some(errors), _) => Err(errors),
        (None, Ok(value)) => Ok(value),
        // A `Reported` holds the error it recorded, so this cannot happen;
        // its error is the right answer all the same.
        (None, Err(Reported(error))) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use proc_macro2::Span;

    use super::*;

    #[test]
    fn every_error_is_kept_in_order() {
        let result: syn::Result<()> = collect(|ctxt| {
            ctxt.error(Error::new(Span::call_site(), "first"));
            let _ = ctxt.ok::<()>(Err(Error::new(Span::call_site(), "second")));
            Ok(())
        });
        let messages: Vec<String> = result.err().into_iter().flatten().map(|error| error.to_string()).collect();
        assert_eq!(messages, ["first", "second"]);
    }

    #[test]
    fn a_value_without_errors_passes() {
        assert_eq!(collect(|_| Ok(7)).ok(), Some(7));
    }
}
