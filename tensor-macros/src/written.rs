//! A user's expression as written: the tree syn parsed, which the macro
//! reads to decide, and the user's own tokens, which the expansion emits.
//!
//! The macro never prints a parsed tree back to tokens. syn's printer
//! (`ToTokens for Expr`) decides each parenthesis by rescanning the right
//! spine of the operand below it, which costs time exponential in the depth
//! of nested prefix ranges and operators (`-.. .. ..-.. ..1..`); everything
//! built on it pays the same (`quote!`, `Spanned::span`,
//! `Error::new_spanned` of a tree). The user's tokens cost their length and
//! keep the user's spans.

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use quote::{ToTokens, TokenStreamExt};
use syn::Expr;
use syn::buffer::Cursor;
use syn::parse::{ParseStream, Parser};

/// An expression and the tokens it was parsed from.
pub struct Written {
    /// What syn parsed (boxed: an AST holds many, of every size).
    pub expr: Box<Expr>,
    /// What the user wrote.
    pub tokens: Vec<TokenTree>,
}

impl Written {
    /// Parses `tokens` as one expression.
    pub fn parse(tokens: &[TokenTree]) -> syn::Result<Written> {
        let expr = syn::parse2(tokens.iter().cloned().collect())?;
        Ok(Written {
            expr: Box::new(expr),
            tokens: tokens.to_vec(),
        })
    }

    /// Where the expression stands in the user's code.
    pub fn span(&self) -> Span {
        span_of(&self.tokens)
    }

    /// The expression as a view, to look inside it.
    pub fn view(&self) -> View<'_> {
        View {
            expr: &self.expr,
            tokens: self.tokens.clone(),
        }
    }
}

impl ToTokens for Written {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.append_all(self.tokens.iter().cloned());
    }
}

/// Part of a [`Written`] expression: a subtree and its own tokens.
#[derive(Clone)]
pub struct View<'a> {
    /// The subtree.
    pub expr: &'a Expr,
    /// Its tokens.
    pub tokens: Vec<TokenTree>,
}

impl<'a> View<'a> {
    /// Where the subtree stands in the user's code.
    pub fn span(&self) -> Span {
        span_of(&self.tokens)
    }

    /// The subtree as an expression of its own.
    pub fn to_written(&self) -> Written {
        Written {
            expr: Box::new(self.expr.clone()),
            tokens: self.tokens.clone(),
        }
    }

    /// The tokens as a stream.
    pub fn stream(&self) -> TokenStream {
        self.tokens.iter().cloned().collect()
    }

    /// Inside every pair of parentheses (or invisible delimiters of a
    /// `macro_rules!` fragment) around the expression.
    pub fn unparen(self) -> View<'a> {
        match self.inner() {
            Some(inner) => inner.unparen(),
            None => self,
        }
    }

    /// The expression inside `(e)` or an invisible group; `None` for any
    /// other expression.
    pub fn inner(&self) -> Option<View<'a>> {
        let (attrs, inner, delimiter) = match self.expr {
            Expr::Paren(paren) => (paren.attrs.len(), &*paren.expr, Delimiter::Parenthesis),
            Expr::Group(group) => (group.attrs.len(), &*group.expr, Delimiter::None),
            _ => return None,
        };
        match after_attributes(&self.tokens, attrs)? {
            [TokenTree::Group(group)] if group.delimiter() == delimiter => Some(View {
                expr: inner,
                tokens: group.stream().into_iter().collect(),
            }),
            _ => None,
        }
    }

    /// The operand of a prefix operator (`-a`, `!a`, `*a`).
    pub fn unary_operand(&self) -> Option<View<'a>> {
        let Expr::Unary(unary) = self.expr else {
            return None;
        };
        match after_attributes(&self.tokens, unary.attrs.len())? {
            [TokenTree::Punct(_), operand @ ..] if !operand.is_empty() => Some(View {
                expr: &unary.expr,
                tokens: operand.to_vec(),
            }),
            _ => None,
        }
    }

    /// `f(a, b, ..)`: the function's tokens, the parentheses' span and the
    /// arguments.
    pub fn call_arguments(&self) -> Option<(Vec<TokenTree>, Span, Vec<View<'a>>)> {
        let Expr::Call(call) = self.expr else {
            return None;
        };
        let [func @ .., TokenTree::Group(parens)] = after_attributes(&self.tokens, call.attrs.len())? else {
            return None;
        };
        if parens.delimiter() != Delimiter::Parenthesis || func.is_empty() {
            return None;
        }
        let parts = split_elements(parens.stream(), call.args.len())?;
        let args = call
            .args
            .iter()
            .zip(parts)
            .map(|(expr, (tokens, _))| View { expr, tokens })
            .collect();
        Some((func.to_vec(), parens.span(), args))
    }

    /// `[a, b, c]`: the brackets and each element with the comma after it.
    pub fn array_elements(&self) -> Option<(proc_macro2::Group, Vec<Element<'a>>)> {
        let Expr::Array(array) = self.expr else {
            return None;
        };
        let [TokenTree::Group(brackets)] = after_attributes(&self.tokens, array.attrs.len())? else {
            return None;
        };
        if brackets.delimiter() != Delimiter::Bracket {
            return None;
        }
        let parts = split_elements(brackets.stream(), array.elems.len())?;
        let elements = array
            .elems
            .iter()
            .zip(parts)
            .map(|(expr, (tokens, comma))| Element {
                view: View { expr, tokens },
                comma,
            })
            .collect();
        Some((brackets.clone(), elements))
    }

    /// `a..b` (and `a..=b`, `a..`, `..b`) whose bounds are each made of
    /// `len` tokens: the start, the limits' tokens and the end.
    pub fn range_parts(&self, len: impl Fn(&Expr) -> Option<usize>) -> Option<(Option<View<'a>>, Vec<TokenTree>, Option<View<'a>>)> {
        let Expr::Range(range) = self.expr else {
            return None;
        };
        if !range.attrs.is_empty() {
            return None;
        }
        let start_len = match &range.start {
            Some(start) => len(start)?,
            None => 0,
        };
        let limits_len = match range.limits {
            syn::RangeLimits::HalfOpen(_) => 2,
            syn::RangeLimits::Closed(_) => 3,
        };
        let end_len = match &range.end {
            Some(end) => len(end)?,
            None => 0,
        };
        if start_len + limits_len + end_len != self.tokens.len() {
            return None;
        }
        let (start, rest) = self.tokens.split_at(start_len);
        let (limits, end) = rest.split_at(limits_len);
        let view = |expr: &'a Expr, tokens: &[TokenTree]| View {
            expr,
            tokens: tokens.to_vec(),
        };
        Some((
            range.start.as_deref().map(|expr| view(expr, start)),
            limits.to_vec(),
            range.end.as_deref().map(|expr| view(expr, end)),
        ))
    }
}

/// An element of an array literal and the comma written after it.
pub struct Element<'a> {
    /// The element.
    pub view: View<'a>,
    /// `,`, unless it is the last element and has none.
    pub comma: Option<TokenTree>,
}

/// The span of tokens as syn's `Spanned` computes it for a tree: the first
/// token joined to the last where the compiler can, else the first.
pub fn span_of(tokens: &[TokenTree]) -> Span {
    match tokens {
        [] => Span::call_site(),
        [only] => only.span(),
        [first, .., last] => first.span().join(last.span()).unwrap_or(first.span()),
    }
}

/// Whether `token` is the punctuation `ch`.
pub fn is_punct(token: &TokenTree, ch: char) -> bool {
    matches!(token, TokenTree::Punct(p) if p.as_char() == ch)
}

/// The tokens after `count` outer attributes (`#[...]`), if they are there.
pub fn after_attributes(tokens: &[TokenTree], count: usize) -> Option<&[TokenTree]> {
    let mut rest = tokens;
    for _ in 0..count {
        match rest {
            [hash, TokenTree::Group(group), after @ ..] if is_punct(hash, '#') && group.delimiter() == Delimiter::Bracket => rest = after,
            _ => return None,
        }
    }
    Some(rest)
}

/// Where the operand `expected`, which starts at `start`, ends: at the first
/// `operator` such that the tokens before it parse to `expected` itself.
/// syn's tree tells which operator joins which operands but not where an
/// operand ends, and an operand may hold the operator's own characters
/// (`&x`, `f::<T>()`, `|e| e & 1`), so each candidate is checked: the cost
/// is the operand's length times the number of such characters at its top
/// level, one parse in all but contrived operands.
pub fn operand_end(tokens: &[TokenTree], start: usize, expected: &Expr, operator: &str) -> Option<usize> {
    if let Some(len) = token_count(expected)
        && starts_operator(tokens, start + len, operator)
    {
        return Some(start + len);
    }
    (start + 1..tokens.len())
        .filter(|&end| starts_operator(tokens, end, operator))
        .find(|&end| syn::parse2::<Expr>(tokens[start..end].iter().cloned().collect()).is_ok_and(|parsed| parsed == *expected))
}

/// How many tokens an expression of one of the shapes that cannot hold an
/// operator is written with: `(..)`, a literal, a name, or those behind
/// `!`, `-` or `*`. These need no parse to be found.
fn token_count(expr: &Expr) -> Option<usize> {
    match expr {
        Expr::Paren(syn::ExprParen { attrs, .. }) | Expr::Group(syn::ExprGroup { attrs, .. }) | Expr::Lit(syn::ExprLit { attrs, .. })
            if attrs.is_empty() =>
        {
            Some(1)
        }
        Expr::Path(path) if path.attrs.is_empty() && path.qself.is_none() && path.path.get_ident().is_some() => Some(1),
        Expr::Unary(unary) if unary.attrs.is_empty() => Some(1 + token_count(&unary.expr)?),
        _ => None,
    }
}

/// Whether `operator` is written at `at`, and not as the start of a longer
/// one (`<` of `<=` or `<<`, `&` of `&&`).
fn starts_operator(tokens: &[TokenTree], at: usize, operator: &str) -> bool {
    let len = operator.chars().count();
    let Some(written) = tokens.get(at..at + len) else {
        return false;
    };
    let spelled = written.iter().zip(operator.chars()).enumerate().all(
        |(i, (token, ch))| matches!(token, TokenTree::Punct(p) if p.as_char() == ch && (i + 1 == len || p.spacing() == Spacing::Joint)),
    );
    let longer = match (written.last(), tokens.get(at + len)) {
        (Some(TokenTree::Punct(last)), Some(TokenTree::Punct(next))) if last.spacing() == Spacing::Joint => {
            matches!(
                (operator, next.as_char()),
                ("<" | ">" | "&" | "|" | "^", '=') | ("<", '<') | (">", '>') | ("&", '&') | ("|", '|')
            )
        }
        _ => false,
    };
    spelled && !longer
}

/// The `count` comma-separated elements of an array's brackets, each with
/// the comma after it. Commas are split on directly unless an element has
/// one of its own (`|a, b| a`, `f::<A, B>()`); then syn finds the ends.
fn split_elements(stream: TokenStream, count: usize) -> Option<Vec<(Vec<TokenTree>, Option<TokenTree>)>> {
    let tokens: Vec<TokenTree> = stream.clone().into_iter().collect();
    let mut parts: Vec<(Vec<TokenTree>, Option<TokenTree>)> = Vec::new();
    let mut current = Vec::new();
    for token in tokens {
        if is_punct(&token, ',') {
            parts.push((std::mem::take(&mut current), Some(token)));
        } else {
            current.push(token);
        }
    }
    if !current.is_empty() {
        parts.push((current, None));
    }
    if parts.len() == count && parts.iter().all(|(tokens, _)| !tokens.is_empty()) {
        return Some(parts);
    }
    let parts = Parser::parse2(parse_elements, stream).ok()?;
    (parts.len() == count).then_some(parts)
}

/// Comma-separated expressions, each with its own tokens and the comma
/// after it, as syn reads an array's elements.
fn parse_elements(input: ParseStream) -> syn::Result<Vec<(Vec<TokenTree>, Option<TokenTree>)>> {
    let mut parts = Vec::new();
    while !input.is_empty() {
        let begin = input.cursor();
        input.parse::<Expr>()?;
        let end = input.cursor();
        let comma = if input.is_empty() {
            None
        } else {
            input.parse::<syn::Token![,]>()?;
            tokens_between(end, input.cursor()).pop()
        };
        parts.push((tokens_between(begin, end), comma));
    }
    Ok(parts)
}

/// The token trees from `cursor` up to `end`, both in the same stream.
fn tokens_between(mut cursor: Cursor, end: Cursor) -> Vec<TokenTree> {
    let mut tokens = Vec::new();
    while cursor < end {
        let Some((token, next)) = cursor.token_tree() else {
            break;
        };
        tokens.push(token);
        cursor = next;
    }
    tokens
}
