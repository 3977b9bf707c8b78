//! The macro front end on arbitrary token streams: `parse → check → lower
//! → expand`, as plain functions over `proc_macro2`, must never panic, must
//! give either an expansion that is a Rust expression or at least one error
//! with its message, and must take time linear in the input (`scripts/fuzz`
//! gives each input a `-timeout`).
//!
//! tensor-macros is a proc-macro crate and cannot be linked as a library,
//! so its modules are compiled here as they are (`#[path]`), and the stages
//! run through `pipeline.rs`, as `tensor-macros/src/lib.rs` runs them.
#![no_main]

use std::str::FromStr;

use libfuzzer_sys::fuzz_target;
use proc_macro2::TokenStream;

#[path = "../../tensor-macros/src/ast.rs"]
#[allow(dead_code)]
mod ast;
#[path = "../../tensor-macros/src/ctxt.rs"]
#[allow(dead_code)]
mod ctxt;
#[path = "../../tensor-macros/src/expand.rs"]
#[allow(dead_code)]
mod expand;
#[path = "../../tensor-macros/src/fused.rs"]
#[allow(dead_code)]
mod fused;
#[path = "../../tensor-macros/src/literals.rs"]
#[allow(dead_code)]
mod literals;
#[path = "../../tensor-macros/src/lower.rs"]
#[allow(dead_code)]
mod lower;
#[path = "../../tensor-macros/src/lower_index.rs"]
#[allow(dead_code)]
mod lower_index;
#[path = "../../tensor-macros/src/mask.rs"]
#[allow(dead_code)]
mod mask;
#[path = "../../tensor-macros/src/parse.rs"]
#[allow(dead_code)]
mod parse;
#[path = "../../tensor-macros/src/pipeline.rs"]
#[allow(dead_code)]
mod pipeline;
#[path = "../../tensor-macros/src/valid.rs"]
#[allow(dead_code)]
mod valid;
#[path = "../../tensor-macros/src/written.rs"]
#[allow(dead_code)]
mod written;

use lower::Flavor;

/// The four macros: `at!`, `set!`, `try_at!`, `try_set!`.
const FLAVORS: [Flavor; 4] = [
    Flavor {
        copy: false,
        fallible: false,
    },
    Flavor {
        copy: true,
        fallible: false,
    },
    Flavor {
        copy: false,
        fallible: true,
    },
    Flavor {
        copy: true,
        fallible: true,
    },
];

/// Deeper nesting than this is not a macro call anyone writes, and the
/// lexer and syn recurse once per level (rustc stops far earlier).
const MAX_NESTING: usize = 64;

fn nesting(text: &str) -> usize {
    let mut depth = 0usize;
    let mut deepest = 0;
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if nesting(text) > MAX_NESTING {
        return;
    }
    // What does not lex is rejected by rustc before the macro sees it.
    let Ok(input) = TokenStream::from_str(text) else {
        return;
    };
    match pipeline::checked_call(input) {
        Ok(call) => {
            for flavor in FLAVORS {
                let expansion = pipeline::expansion(&call, flavor, &quote::quote!(::tensor_at));
                if let Err(error) = syn::parse2::<syn::Expr>(expansion.clone()) {
                    panic!("the expansion of `{text}` is not an expression ({error}):\n{expansion}");
                }
            }
        }
        Err(error) => {
            // The errors become `compile_error!` calls in a placeholder expression.
            let placeholder = pipeline::placeholder(error.clone());
            if let Err(parse_error) = syn::parse2::<syn::Expr>(placeholder.clone()) {
                panic!("the placeholder for `{text}` is not an expression ({parse_error}):\n{placeholder}");
            }
            assert!(!error.to_compile_error().is_empty(), "no compile_error! for `{text}`");
            let messages: Vec<String> = error.into_iter().map(|e| e.to_string()).collect();
            assert!(!messages.is_empty(), "an error without a message for `{text}`");
            assert!(
                messages.iter().all(|m| !m.is_empty()),
                "an empty error message for `{text}`: {messages:?}"
            );
        }
    }
});
