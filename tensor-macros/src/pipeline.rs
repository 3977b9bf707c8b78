//! The stages of one macro call, in order: parse → check → lower → expand.
//! The macros, the `macro_parser` fuzz target and the tests all run them
//! here.

use proc_macro2::{TokenStream, TokenTree};
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

/// The expansion of a checked call for one macro, reaching the runtime
/// through `runtime` (the path of the `tensor-at` crate).
pub fn expansion(call: &Call, flavor: Flavor, runtime: &TokenStream) -> TokenStream {
    expand::expand(&lower::lower(call, flavor), runtime)
}

/// Expands one call, or its errors plus a placeholder of any type, so the
/// user sees the errors and not a cascade.
pub fn run(input: TokenStream, flavor: Flavor) -> TokenStream {
    let (runtime, input) = runtime_path(input);
    match checked_call(input) {
        Ok(call) => expansion(&call, flavor, &runtime),
        Err(error) => placeholder(error),
    }
}

/// The path of the `tensor-at` crate, and the call: `tensor-at`'s own
/// macros pass `$crate;` before the call, so that the expansion reaches the
/// runtime under whatever name the user's crate gives the dependency.
/// Without it (the macros called from this crate directly), `::tensor_at`.
pub fn runtime_path(input: TokenStream) -> (TokenStream, TokenStream) {
    let mut tokens = input.clone().into_iter();
    match (tokens.next(), tokens.next()) {
        (Some(TokenTree::Ident(krate)), Some(TokenTree::Punct(semi))) if krate == "$crate" && semi.as_char() == ';' => {
            (TokenTree::Ident(krate).into(), tokens.collect())
        }
        _ => (quote!(::tensor_at), input),
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

#[cfg(test)]
mod tests {
    use std::str::FromStr;
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    use super::*;

    /// What the `macro_parser` fuzz target checks of one input: every
    /// macro's expansion parses as an expression, or the errors, each with
    /// a message, make a placeholder that does.
    fn fuzz_target_path(text: &str) -> Result<(), String> {
        let input = TokenStream::from_str(text).map_err(|error| format!("`{text}` does not lex: {error}"))?;
        match checked_call(input) {
            Ok(call) => {
                for (copy, fallible) in [(false, false), (true, false), (false, true), (true, true)] {
                    let expansion = expansion(&call, Flavor { copy, fallible }, &quote!(::tensor_at));
                    syn::parse2::<syn::Expr>(expansion)
                        .map_err(|error| format!("an expansion of `{text}` is not an expression: {error}"))?;
                }
            }
            Err(error) => {
                if error.clone().into_iter().any(|error| error.to_string().is_empty()) {
                    return Err(format!("an error of `{text}` has no message"));
                }
                syn::parse2::<syn::Expr>(placeholder(error))
                    .map_err(|error| format!("the placeholder of `{text}` is not an expression: {error}"))?;
            }
        }
        Ok(())
    }

    /// `-.. .. ..` `groups` times, then `-.. ..1..`: nested prefix ranges
    /// and negations, on which syn's expression printer is exponential.
    fn range_chain(groups: usize) -> String {
        format!("{}-.. ..1..", "-.. .. ..".repeat(groups))
    }

    #[test]
    fn the_fuzz_targets_slow_inputs_are_range_chains_of_five_and_six_groups() {
        let five = include_str!("../../fuzz/regressions/macro_parser/slow_range_chain_five_groups");
        assert_eq!(five, format!("x[{}]", range_chain(5)));
        let six = include_str!("../../fuzz/regressions/macro_parser/slow_range_chain");
        assert_eq!(six, format!("x[{}]", range_chain(6)));
    }

    /// The errors of a call, or `None` when it checks.
    fn errors(text: &str) -> Option<Vec<String>> {
        let input = TokenStream::from_str(text).expect("the test input lexes");
        checked_call(input)
            .err()
            .map(|error| error.into_iter().map(|error| error.to_string()).collect())
    }

    #[test]
    fn options_take_a_trailing_comma_but_no_empty_option() {
        assert_eq!(errors("x[i]; out = buf"), None);
        assert_eq!(errors("x[i]; mode = clip, out = buf,"), None);
        assert_eq!(errors("x[i]; out = buf, mode = fill(f(a, b))"), None);
        for text in ["x[i];", "x[i]; ,", "x[i]; mode = clip,, out = buf", "x[i]; , out = buf"] {
            let errors = errors(text).unwrap_or_else(|| panic!("`{text}` checked"));
            assert!(
                errors
                    .iter()
                    .all(|e| e.contains("expected `mode = ...`, `out = array` or `batch = k`")),
                "{text}: {errors:?}"
            );
        }
        let twice = errors("x[i]; out = a, out = b").expect("`out` twice is an error");
        assert_eq!(twice, ["option `out` is given twice"]);
        let update = errors("x[i] = 1; out = buf").expect("`out` on an update is an error");
        assert!(update[0].contains("not to updates"), "{update:?}");
    }

    #[test]
    fn batch_takes_a_non_negative_integer_literal() {
        assert_eq!(errors("x[i] = 1; batch = 1"), None);
        assert_eq!(errors("x[i]; mode = fill(0), batch = 2,"), None);
        for text in [
            "x[i]; batch = k",
            "x[i]; batch = -1",
            "x[i]; batch = 1.0",
            "x[i]; batch =",
            "x[i]; batch = 1 2",
        ] {
            let errors = errors(text).unwrap_or_else(|| panic!("`{text}` checked"));
            assert!(
                errors.iter().all(|e| e.contains("non-negative integer literal")),
                "{text}: {errors:?}"
            );
        }
        assert_eq!(
            errors("x[i]; batch = 1, batch = 2").expect("twice"),
            ["option `batch` is given twice"]
        );
    }

    #[test]
    fn long_range_chains_finish_in_every_position() {
        let chain = range_chain(200);
        let inputs = [
            format!("x[{chain}]"),
            format!("x[{chain}] = {chain}"),
            format!("x[({chain}) > 0] += ({chain})"),
            format!("x[1:, {chain};2] = y[{chain}, {chain}:]"),
            format!("({chain})[0].apply({chain}); mode = fill({chain})"),
        ];
        // A hang guard, not a speed measurement: these run in well under a
        // second, but an input that hangs should fail the test run instead
        // of stalling it.
        let (sender, receiver) = mpsc::channel();
        thread::spawn(move || {
            let outcome = inputs.iter().try_for_each(|input| fuzz_target_path(input));
            let _ = sender.send(outcome);
        });
        match receiver.recv_timeout(Duration::from_secs(60)) {
            Ok(outcome) => assert_eq!(outcome, Ok(())),
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("the range chains did not finish within 60 s"),
            Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the worker thread panicked"),
        }
    }

    #[test]
    fn ix_is_told_by_its_name_when_parsed() {
        let call = checked_call(quote!(x[0, tensor_at::ix_(rows, [1, 2]), (ix_(c)), ix(d)] = 1.0)).ok();
        let meshes: Vec<usize> = call
            .iter()
            .flat_map(|call| &call.index.elems)
            .filter_map(|elem| match elem {
                crate::ast::Elem::Mesh { args, .. } => Some(args.len()),
                _ => None,
            })
            .collect();
        assert_eq!(meshes, [2, 1], "`ix` is not `ix_`");
        assert_eq!(
            errors("x[ix_()] = 1.0").expect("an empty mesh is an error"),
            ["`ix_()` needs at least one array: `ix_(rows, cols)` indexes their cross product"]
        );
        for text in ["x[ix_(a, b)]", "x[ix_(a, [0, 1]), 1:] += y[ix_(c)]", "x[ix_(a); batch = 1]"] {
            assert_eq!(fuzz_target_path(text), Ok(()));
        }
    }

    #[test]
    fn nd_and_along_are_told_by_their_names_when_parsed() {
        use crate::ast::Elem;
        let kind = |call: proc_macro2::TokenStream| match checked_call(call).ok().map(|call| call.index.elems) {
            Some(elems) => match elems.as_slice() {
                [Elem::Nd(_)] => "nd",
                [Elem::Along { .. }] => "along",
                _ => "other",
            },
            None => "an error",
        };
        let kinds = [
            kind(quote!(x[tensor_at::nd(p)] = 1.0)),
            kind(quote!(x[(along)(i, -1)])),
            kind(quote!(x[nd(a, b)])),
            kind(quote!(x[along(j)] += 1.0)),
            kind(quote!(x[ndx(k)])),
        ];
        // A call with the wrong number of arguments is an expression, which
        // its type judges.
        assert_eq!(kinds, ["nd", "along", "other", "other", "other"]);
        assert_eq!(
            errors("x[along(i, 1), 0] = 1.0").expect("`along` beside another element is an error"),
            ["`along(idx, axis)` must be the only element of the index (it picks along one axis and spans the others)"]
        );
    }

    #[test]
    fn a_read_used_as_a_value_does_not_assign() {
        let error = checked_call(quote!(x[1:] = a = y[:-1])).err();
        let messages: Vec<String> = error.into_iter().flatten().map(|error| error.to_string()).collect();
        assert_eq!(messages, ["expected one value after `=`, found an assignment: a call assigns once"]);
    }

    #[test]
    fn one_compile_reports_the_mistakes_of_every_stage() {
        let error = checked_call(quote!(x[1:2:3:4, ..., ...] = y[::0]; mode = fill(0))).err();
        let messages: Vec<String> = error.into_iter().flatten().map(|error| error.to_string()).collect();
        assert_eq!(
            messages,
            [
                "a slice has at most three parts: `start:stop:step`",
                "an index can only have a single ellipsis (`...`)",
                "slice step cannot be zero",
                "mode `fill` applies to reads; updates take `drop` to skip out-of-bounds positions",
            ]
        );
    }
}
