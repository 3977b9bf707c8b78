//! Procedural macros of tensor-at: `at!`, `set!`, `try_at!`, `try_set!`.
//!
//! Use them through the `tensor-at` crate, which documents them with
//! examples; the expansions call `::tensor_at::__private`. Each macro parses
//! its input (`parse`), checks it (`valid`), and expands it (`expand`).
#![warn(missing_docs)]

mod ast;
mod ctxt;
mod expand;
mod fused;
mod literals;
mod lower;
mod lower_index;
mod mask;
mod parse;
mod pipeline;
mod valid;
mod written;

use proc_macro::TokenStream;

use lower::Flavor;

/// Runs the stages on one call (see [`pipeline::run`]).
fn run(input: TokenStream, flavor: Flavor) -> TokenStream {
    pipeline::run(input.into(), flavor).into()
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
