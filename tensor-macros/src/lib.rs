//! Procedural macros of tensor-at: `at!`, `set!`, `try_at!`, `try_set!`.
//!
//! Use them through the `tensor-at` crate, which documents them with
//! examples, and whose own `macro_rules!` macros of the same names pass
//! `$crate;` before the call: the expansions reach `$crate::__private`
//! under whatever name the user gives the dependency (`::tensor_at` when
//! called without it).
//!
//! Each macro runs four stages, one file each, in `pipeline.rs`:
//!
//! 1. **parse** (`parse.rs`, with `mask.rs` for NumPy's mask syntax): raw
//!    tokens → the typed syntax tree of `ast.rs`. `x[1:4:2]` and `x[a;2]`
//!    are not Rust, so the call is split by hand; each expression keeps
//!    syn's tree, to decide on, and the user's own tokens, to emit
//!    (`written.rs`). A read used as a value (`x[1:] = x[:-1]`) is a node
//!    of its own, parsed with the call's index parser. Parsing only builds
//!    nodes.
//! 2. **check** (`valid.rs`): mistakes the types cannot see (two ellipses,
//!    a zero step, a mode where it has no meaning).
//! 3. **lower** (`lower.rs`, `fused.rs`, `lower_index.rs`, `literals.rs`):
//!    every decision — which runtime entry point, a fused mask pass or a
//!    built mask, borrow or move, the type of integer literals, the
//!    predicate — into an enum of expansions. Lowering cannot fail.
//! 4. **expand** (`expand.rs`): that enum quoted, with no decisions left.
//!
//! Parse and check record every error in one context (`ctxt.rs`), checked
//! once when both have run: one compile shows every mistake in the call,
//! each as a `compile_error!` in a placeholder expression. No stage panics
//! or prints a parsed tree back to tokens (syn's printer takes time
//! exponential in some nestings), so the stages take time linear in the
//! input, but for the operand search of contrived masks
//! (`written::operand_end`).
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
