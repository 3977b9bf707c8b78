//! NumPy's mask syntax in one index element (`x > 0`, `(x > 0) & (y != 2)`,
//! `!m`) → [`MaskExpr`]. syn's tree says which operator joins which
//! operands; each operand's own tokens are then found among the element's
//! tokens, so the expansion emits what the user wrote.

use syn::{BinOp, Error, Expr, ExprBinary, UnOp};

use crate::ast::{Compare, Comparison, Logic, MaskExpr};
use crate::written::{self, View};

/// The element as a mask when it is written as one (a comparison, or
/// operands combined with `&`, `|`, `^`, `!` and parentheses); `Err` when
/// its operands cannot be told apart.
pub fn mask(element: View) -> Option<syn::Result<MaskExpr>> {
    match shape(element.expr) {
        Shape::NotAMask => None,
        _ => Some(mask_of(element)),
    }
}

/// How an expression takes part in a mask.
enum Shape<'e> {
    /// `(m)`, `m` a mask.
    Parenthesized,
    /// `a op s`.
    Compare(&'e ExprBinary, Comparison),
    /// `a & b`, `a | b`, `a ^ b`.
    Logic(&'e ExprBinary),
    /// `!a`.
    Not,
    /// Anything else: a boolean array when it stands among comparisons.
    NotAMask,
}

/// How `expr` takes part in a mask, through parentheses.
fn shape(expr: &Expr) -> Shape<'_> {
    match expr {
        Expr::Paren(syn::ExprParen { expr, .. }) | Expr::Group(syn::ExprGroup { expr, .. }) => match shape(expr) {
            Shape::NotAMask => Shape::NotAMask,
            _ => Shape::Parenthesized,
        },
        Expr::Binary(binary) => match (comparison(&binary.op), logic(&binary.op)) {
            (Some(op), _) => Shape::Compare(binary, op),
            (None, Some(_)) => Shape::Logic(binary),
            (None, None) => Shape::NotAMask,
        },
        Expr::Unary(unary) if matches!(unary.op, UnOp::Not(_)) => Shape::Not,
        _ => Shape::NotAMask,
    }
}

/// An operand among comparisons: a mask of its own, or a boolean array.
fn operand(view: View) -> syn::Result<MaskExpr> {
    match shape(view.expr) {
        Shape::NotAMask => Ok(MaskExpr::Array(view.to_written())),
        _ => mask_of(view),
    }
}

/// The mask `view` is (its shape is not [`Shape::NotAMask`]).
fn mask_of(view: View) -> syn::Result<MaskExpr> {
    match shape(view.expr) {
        Shape::Parenthesized => mask_of(view.inner().ok_or_else(|| unsplittable(&view))?),
        Shape::Compare(binary, op) => {
            let tokens = written::after_attributes(&view.tokens, binary.attrs.len()).ok_or_else(|| unsplittable(&view))?;
            let mut at = 0;
            let left = part(&view, tokens, &binary.left, &mut at, Some(op.compare.symbol()))?;
            at += op.compare.symbol().len();
            let right = part(&view, tokens, &binary.right, &mut at, None)?;
            Ok(compare(left, op, right))
        }
        Shape::Logic(binary) => {
            let tokens = written::after_attributes(&view.tokens, binary.attrs.len()).ok_or_else(|| unsplittable(&view))?;
            chain(&view, tokens, view.expr, &mut 0, None)
        }
        Shape::Not => Ok(MaskExpr::Not(Box::new(operand(
            view.unary_operand().ok_or_else(|| unsplittable(&view))?,
        )?))),
        Shape::NotAMask => Ok(MaskExpr::Array(view.to_written())),
    }
}

/// `a op s`; a literal on the left (`0.0 < y`) is turned around (`y > 0.0`).
fn compare(left: View, op: Comparison, right: View) -> MaskExpr {
    let literal_left = matches!(left.expr, Expr::Lit(_)) || matches!(left.expr, Expr::Unary(u) if matches!(&*u.expr, Expr::Lit(_)));
    if literal_left {
        return MaskExpr::Compare {
            array: right.to_written(),
            op: op.swapped(),
            scalar: left.to_written(),
        };
    }
    MaskExpr::Compare {
        array: left.to_written(),
        op,
        scalar: right.to_written(),
    }
}

/// The chain of `&`, `|` and `^` that `expr` heads, its operands read from
/// `tokens` left to right from `at`; `then` is the operator written after
/// the chain, if any.
fn chain(view: &View, tokens: &[proc_macro2::TokenTree], expr: &Expr, at: &mut usize, then: Option<&str>) -> syn::Result<MaskExpr> {
    if let Expr::Binary(binary) = expr
        && let Some(op) = logic(&binary.op)
    {
        let left = chain(view, tokens, &binary.left, at, Some(op.spelling()))?;
        *at += op.spelling().len();
        let right = chain(view, tokens, &binary.right, at, then)?;
        return Ok(MaskExpr::Logic {
            left: Box::new(left),
            op,
            right: Box::new(right),
        });
    }
    operand(part(view, tokens, expr, at, then)?)
}

/// The operand `expr`, which starts at `at` in `tokens` and ends before the
/// operator `then` (or with the tokens); `at` moves past it.
fn part<'e>(view: &View, tokens: &[proc_macro2::TokenTree], expr: &'e Expr, at: &mut usize, then: Option<&str>) -> syn::Result<View<'e>> {
    let start = *at;
    let end = match then {
        Some(operator) => written::operand_end(tokens, start, expr, operator).ok_or_else(|| unsplittable(view))?,
        None => tokens.len(),
    };
    let operand = tokens
        .get(start..end)
        .filter(|tokens| !tokens.is_empty())
        .ok_or_else(|| unsplittable(view))?;
    *at = end;
    Ok(View {
        expr,
        tokens: operand.to_vec(),
    })
}

/// The error for a mask whose operands were not found among its tokens.
fn unsplittable(view: &View) -> Error {
    Error::new_spanned(
        view.stream(),
        "cannot tell the operands of this mask apart: put each comparison in parentheses, as in `(x > 0) & (y < 1)`",
    )
}

/// The mask's comparison operators.
fn comparison(op: &BinOp) -> Option<Comparison> {
    let (compare, span) = match *op {
        BinOp::Lt(token) => (Compare::Lt, token.span),
        BinOp::Le(token) => (Compare::Le, token.spans[0]),
        BinOp::Gt(token) => (Compare::Gt, token.span),
        BinOp::Ge(token) => (Compare::Ge, token.spans[0]),
        BinOp::Eq(token) => (Compare::Eq, token.spans[0]),
        BinOp::Ne(token) => (Compare::Ne, token.spans[0]),
        _ => return None,
    };
    Some(Comparison { compare, span })
}

/// The mask's elementwise logical operators.
fn logic(op: &BinOp) -> Option<Logic> {
    Some(match *op {
        BinOp::BitAnd(token) => Logic::And(token),
        BinOp::BitOr(token) => Logic::Or(token),
        BinOp::BitXor(token) => Logic::Xor(token),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use proc_macro2::{TokenStream, TokenTree};
    use quote::ToTokens;

    use super::*;
    use crate::written::Written;

    /// The mask of an index element, each operand in brackets, spaces left
    /// out: `(x > 0) & m` is `([x]>[0])&[m]`.
    fn split(element: &str) -> String {
        let tokens: Vec<TokenTree> = TokenStream::from_str(element).into_iter().flatten().collect();
        let written = Written::parse(&tokens).map_err(|error| error.to_string());
        let described = match written.map(|written| mask(written.view()).map(|mask| mask.map_err(|error| error.to_string()))) {
            Ok(Some(Ok(mask))) => describe(&mask),
            Ok(Some(Err(error))) | Err(error) => format!("error: {error}"),
            Ok(None) => "not a mask".to_string(),
        };
        described.replace(' ', "")
    }

    fn describe(mask: &MaskExpr) -> String {
        let tokens = |written: &Written| written.to_token_stream().to_string();
        match mask {
            MaskExpr::Compare { array, op, scalar } => format!("([{}]{}[{}])", tokens(array), op.compare.symbol(), tokens(scalar)),
            MaskExpr::Logic { left, op, right } => format!("({}{}{})", describe(left), op.spelling(), describe(right)),
            MaskExpr::Not(inner) => format!("!{}", describe(inner)),
            MaskExpr::Array(array) => format!("[{}]", tokens(array)),
        }
    }

    #[test]
    fn comparisons_and_their_combinations() {
        assert_eq!(split("x > 0.0"), "([x]>[0.0])");
        assert_eq!(split("0.0 < y"), "([y]>[0.0])");
        assert_eq!(split("(x >= 1) & (x < 5) | (x == 7)"), "((([x]>=[1])&([x]<[5]))|([x]==[7]))");
        assert_eq!(split("!(z == 0) ^ (y > 2)"), "(!([z]==[0])^([y]>[2]))");
        assert_eq!(split("(x > 0) & m"), "(([x]>[0])&[m])");
        assert_eq!(split("!m"), "![m]");
        assert_eq!(split("x + 1"), "notamask");
    }

    #[test]
    fn operands_holding_the_operators_own_characters() {
        assert_eq!(split("f::<u8>(y) > 0"), "([f::<u8>(y)]>[0])");
        assert_eq!(split("x > g::<A, B>()"), "([x]>[g::<A,B>()])");
        assert_eq!(split("x as i64 >= n as i64"), "([xasi64]>=[nasi64])");
        assert_eq!(split("&a & &b"), "([&a]&[&b])");
        assert_eq!(split("a & |e| e & 1"), "([a]&[|e|e&1])");
        assert_eq!(split("a.0.1 < b"), "([a.0.1]<[b])");
        assert_eq!(split("a ^ b & c | d"), "(([a]^([b]&[c]))|[d])");
    }
}
