//! Errors collected across a whole call, so one compile shows every mistake.

use syn::{Error, Result};

/// The errors found so far, combined into one.
#[derive(Default)]
pub struct Errors(Option<Error>);

impl Errors {
    /// Records an error.
    pub fn push(&mut self, error: Error) {
        match &mut self.0 {
            Some(first) => first.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// The value of `result`, or `None` after recording its error.
    pub fn ok<T>(&mut self, result: Result<T>) -> Option<T> {
        result.map_err(|error| self.push(error)).ok()
    }

    /// `Err` with every recorded error, if any.
    pub fn finish(self) -> Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}
