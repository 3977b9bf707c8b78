//! The stages of one macro call, in order: parse → check → lower → expand.
//! The macros, the `macro_parser` fuzz target and the tests all run them
//! here.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::Call;
use crate::lower::{self, Flavor};
use crate::{ctxt, expand, parse, valid};

/// The call, parsed and checked, or every error found in it.
pub fn checked_call(input: TokenStream) -> syn::Result<Call> {
    ctxt::collect(|ctxt| {
        let call = parse::parse_call(input, ctxt)?;
        valid::check(&call, ctxt);
        Ok(call)
    })
}

/// The expansion of a checked call for one macro.
pub fn expansion(call: &Call, flavor: Flavor) -> TokenStream {
    expand::expand(&lower::lower(call, flavor))
}

/// Expands one call, or its errors plus a placeholder of any type, so the
/// user sees the errors and not a cascade.
pub fn run(input: TokenStream, flavor: Flavor) -> TokenStream {
    match checked_call(input) {
        Ok(call) => expansion(&call, flavor),
        Err(error) => placeholder(error),
    }
}

/// Every error as a `compile_error!`, the last one in expression position:
/// the block then has the error type, which fits wherever the call stands
/// and adds neither errors nor "unreachable code" warnings.
pub fn placeholder(error: syn::Error) -> TokenStream {
    let mut errors = error.into_iter().map(|error| error.to_compile_error()).peekable();
    let mut body = TokenStream::new();
    while let Some(error) = errors.next() {
        body.extend(match errors.peek() {
            Some(_) => quote!((#error);),
            None => quote!((#error)),
        });
    }
    quote!({ #body })
}
