//! Procedural macros of tensor-at: `at!`, `set!`, `try_at!`, `try_set!`.
//!
//! Use them through the `tensor-at` crate, which documents them with
//! examples; the expansions call `::tensor_at::__private`. Each macro parses
//! its input (`parse`), checks it (`valid`), and expands it (`expand`).
#![warn(missing_docs)]

mod ast;
mod errors;
mod expand;
mod parse;
mod valid;

use proc_macro::TokenStream;

use expand::Flavor;

/// Expands one call, or its errors plus a placeholder of any type, so the
/// user sees the errors and not a cascade.
fn run(input: TokenStream, flavor: Flavor) -> TokenStream {
    let expanded = parse::parse_call(input.into())
        .and_then(|call| valid::check(&call).map(|()| call))
        .map(|call| expand::expand(&call, flavor));
    match expanded {
        Ok(tokens) => tokens.into(),
        Err(error) => placeholder(error).into(),
    }
}

/// Every error as a `compile_error!`, the last one in expression position:
/// the block then has the error type, which fits wherever the call stands
/// and adds neither errors nor "unreachable code" warnings.
fn placeholder(error: syn::Error) -> proc_macro2::TokenStream {
    let errors: Vec<_> = error.into_iter().map(|error| error.to_compile_error()).collect();
    let (last, rest) = errors.split_last().expect("an error has at least one message");
    quote::quote!({ #((#rest);)* (#last) })
}

/// In-place indexed update or read (NumPy / PyTorch `x[...] = v`, `x[...]`).
#[proc_macro]
pub fn at(input: TokenStream) -> TokenStream {
    run(
        input,
        Flavor {
            copy: false,
            fallible: false,
        },
    )
}

/// Copy-and-update returning the new array (JAX `x.at[...].set(v)`).
#[proc_macro]
pub fn set(input: TokenStream) -> TokenStream {
    run(
        input,
        Flavor {
            copy: true,
            fallible: false,
        },
    )
}

/// [`at!`] returning `Result<_, IndexError>` instead of panicking.
#[proc_macro]
pub fn try_at(input: TokenStream) -> TokenStream {
    run(
        input,
        Flavor {
            copy: false,
            fallible: true,
        },
    )
}

/// [`set!`] returning `Result<_, IndexError>` instead of panicking.
#[proc_macro]
pub fn try_set(input: TokenStream) -> TokenStream {
    run(
        input,
        Flavor {
            copy: true,
            fallible: true,
        },
    )
}
