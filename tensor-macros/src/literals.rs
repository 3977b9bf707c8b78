//! Unsuffixed integer literals of an index typed as `isize`: in `x[1]`,
//! `x[-1]`, `x[1..3]`, `x[[0, 2]]` the literal's type would otherwise stay
//! undecided while the index's types are worked out.

use proc_macro2::{Group, TokenTree};
use quote::ToTokens;
use syn::{Expr, ExprLit, ExprUnary, Lit, UnOp};

use crate::written::View;

/// The user's tokens of `view`, inside any parentheses, with its literals
/// typed.
pub fn typed_literals(view: View) -> Vec<TokenTree> {
    typed_or_written(view.unparen())
}

/// The tokens with literals typed, or as written when there are none.
fn typed_or_written(view: View) -> Vec<TokenTree> {
    typed(&view).unwrap_or(view.tokens)
}

/// The tokens of `view` with its literals typed; `None` when it has none to
/// type: literals, negated ones, ranges whose bounds are all literals (`a..4`
/// takes `a`'s type) and arrays of those, in invisible groups too.
fn typed(view: &View) -> Option<Vec<TokenTree>> {
    match view.expr {
        Expr::Group(_) => {
            let inner = view.inner()?;
            let [TokenTree::Group(group)] = view.tokens.as_slice() else {
                return None;
            };
            Some(vec![regroup(group, typed_or_written(inner))])
        }
        Expr::Lit(ExprLit { lit: Lit::Int(int), .. }) if int.suffix().is_empty() => {
            let [TokenTree::Literal(_)] = view.tokens.as_slice() else {
                return None;
            };
            let typed = syn::LitInt::new(&format!("{}isize", int.base10_digits()), int.span());
            Some(typed.into_token_stream().into_iter().collect())
        }
        Expr::Unary(ExprUnary { op: UnOp::Neg(_), .. }) => {
            let operand = view.unary_operand()?;
            let prefix = view.tokens.len() - operand.tokens.len();
            Some(view.tokens[..prefix].iter().cloned().chain(typed_or_written(operand)).collect())
        }
        Expr::Range(range) if range.start.iter().chain(&range.end).all(|bound| literal_len(bound).is_some()) => {
            let (start, limits, end) = view.range_parts(literal_len)?;
            let start = start.map(typed_or_written).unwrap_or_default();
            let end = end.map(typed_or_written).unwrap_or_default();
            Some(start.into_iter().chain(limits).chain(end).collect())
        }
        Expr::Array(_) => {
            let (brackets, elements) = view.array_elements()?;
            let inner = elements
                .into_iter()
                .flat_map(|element| typed_or_written(element.view).into_iter().chain(element.comma))
                .collect();
            Some(vec![regroup(&brackets, inner)])
        }
        _ => None,
    }
}

/// `group`'s delimiters and span around other tokens.
fn regroup(group: &Group, tokens: Vec<TokenTree>) -> TokenTree {
    let mut regrouped = Group::new(group.delimiter(), tokens.into_iter().collect());
    regrouped.set_span(group.span());
    TokenTree::Group(regrouped)
}

/// How many tokens an integer literal, or a negated one, is written with.
/// Whether `expr` is a non-empty list of integer literals (`[1, -2, 5]`):
/// borrowed, it is a constant (`&[1isize, -2, 5]` lives for the whole
/// program), read in place as the index arrays the caller owns are.
pub fn is_literal_list(expr: &Expr) -> bool {
    matches!(expr, Expr::Array(array) if !array.elems.is_empty() && array.elems.iter().all(|elem| literal_len(elem).is_some()))
}

fn literal_len(expr: &Expr) -> Option<usize> {
    match expr {
        Expr::Lit(ExprLit { lit: Lit::Int(_), attrs }) if attrs.is_empty() => Some(1),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            attrs,
        }) if attrs.is_empty() => Some(1 + literal_len(expr)?),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use proc_macro2::TokenStream;

    use super::*;
    use crate::written::Written;

    /// `source` with its literals typed, spaces left out.
    fn typed_text(source: &str) -> String {
        let tokens: Vec<TokenTree> = TokenStream::from_str(source).into_iter().flatten().collect();
        let written = Written::parse(&tokens).map_err(|error| error.to_string());
        match written {
            Ok(written) => typed_literals(written.view()).into_iter().collect::<TokenStream>().to_string(),
            Err(error) => error,
        }
        .replace(' ', "")
    }

    #[test]
    fn literals_negations_literal_ranges_and_arrays_are_typed() {
        assert_eq!(typed_text("1"), "1isize");
        assert_eq!(typed_text("(-1)"), "-1isize");
        assert_eq!(typed_text("1..=-3"), "1isize..=-3isize");
        assert_eq!(typed_text("[[0, 2], [1..3, -4]]"), "[[0isize,2isize],[1isize..3isize,-4isize]]");
    }

    #[test]
    fn other_expressions_stay_as_written() {
        assert_eq!(typed_text("a..4"), "a..4");
        assert_eq!(typed_text("1u8"), "1u8");
        assert_eq!(typed_text("-(1)"), "-(1)");
    }

    #[test]
    fn array_elements_with_commas_of_their_own_are_found() {
        assert_eq!(typed_text("[f::<A, B>(), 1]"), "[f::<A,B>(),1isize]");
        assert_eq!(typed_text("[|a, b| a, 2,]"), "[|a,b|a,2isize,]");
    }

    #[test]
    fn only_non_empty_lists_of_integer_literals_are_literal_lists() {
        let list = |source: &str| is_literal_list(&syn::parse_str(source).unwrap());
        assert!(list("[1, -2, 5u8]") && list("[0]"));
        // Empty, nested, or holding anything but literals: not constants to borrow.
        assert!(!list("[]") && !list("[[0, 1]]") && !list("[i, 2]") && !list("[1.0]") && !list("[true]") && !list("1"));
    }
}
