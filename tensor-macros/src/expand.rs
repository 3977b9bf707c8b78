//! [`Call`] → tokens: calls into `::tensor_at::__private`, no decisions
//! beyond picking the entry point.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::Expr;

use crate::ast::{Action, Call, Elem, MaskExpr, ModeSpec, UpdateOp};
use crate::written::{View, Written, span_of};

/// Which macro is expanding.
#[derive(Clone, Copy)]
pub struct Flavor {
    /// `set!`/`try_set!`: updates return a new array.
    pub copy: bool,
    /// `try_at!`/`try_set!`: a `Result` instead of a panic.
    pub fallible: bool,
}

/// The expansion of a checked call.
pub fn expand(call: &Call, flavor: Flavor) -> TokenStream {
    let at = call.index_span;
    // Entry points carry the index's span: type errors about the whole index
    // (too many indices) point at it.
    let p = private(at);
    let index = call.index.iter().rev().fold(quote!(()), |rest, elem| {
        let (span, elem) = (elem.span(), index_elem(elem));
        quote_spanned!(span=> (#elem, #rest))
    });
    // The index is evaluated before the target is borrowed mutably, so a
    // mask may read the target: `at!(x[x > 0.0] = 0.0)`.
    let list = syn::Ident::new("__tensor_at_index", Span::mixed_site());
    let mode = mode(call.mode.as_ref());
    let target = &call.target;
    let target_mut = quote_spanned!(target.span()=> (#target).tensor_at_mut());
    let op = |op: &UpdateOp| syn::Ident::new(op.name(), at);
    let read = call.value_is_read;

    let (result, index) = if let Some(fused) = fused_mask(call, flavor) {
        // The fused pass tests elements itself: no index to build.
        (fused, quote!(()))
    } else {
        let result = match (&call.action, flavor.copy) {
            (Action::Read, _) => {
                let target = quote_spanned!(target.span()=> (#target).tensor_at_ref());
                match &call.mode {
                    Some(ModeSpec::Fill(_, fill)) => quote_spanned!(at=> #p::read_filled(#target, #list, #fill)),
                    _ => quote_spanned!(at=> #p::read(#target, #list, #mode)),
                }
            }
            (Action::Set(v), false) => bind_value(v, read, |value| quote_spanned!(at=> #p::set(#target_mut, #list, #value, #mode))),
            (Action::Update(o, v), false) => {
                let o = op(o);
                bind_value(
                    v,
                    read,
                    |value| quote_spanned!(at=> #p::update(#target_mut, #list, #p::Op::#o, #value, #mode)),
                )
            }
            (Action::Apply(f), false) => quote_spanned!(at=> #p::apply(#target_mut, #list, #f, #mode)),
            (Action::Set(v), true) => {
                let source = source(target);
                bind_value(v, read, |value| quote_spanned!(at=> #p::set_copy(#source, #list, #value, #mode)))
            }
            (Action::Update(o, v), true) => {
                let (source, o) = (source(target), op(o));
                bind_value(
                    v,
                    read,
                    |value| quote_spanned!(at=> #p::update_copy(#source, #list, #p::Op::#o, #value, #mode)),
                )
            }
            (Action::Apply(f), true) => {
                let source = source(target);
                quote_spanned!(at=> #p::apply_copy(#source, #list, #f, #mode))
            }
        };
        (result, index)
    };
    let result = if flavor.fallible { result } else { quote!(#p::unwrap(#result)) };
    // Method syntax reaches the array through references and `&mut` bindings.
    quote!({
        use ::tensor_at::__private::AsTarget as _;
        match #index { #list => #result }
    })
}

/// `::tensor_at::__private`, carrying `span`.
fn private(span: Span) -> TokenStream {
    quote_spanned!(span=> ::tensor_at::__private)
}

/// Hygienic names for the expansion's own bindings.
struct Ident;

impl Ident {
    fn scalar() -> syn::Ident {
        syn::Ident::new("__tensor_at_scalar", Span::mixed_site())
    }
    fn element() -> syn::Ident {
        syn::Ident::new("__tensor_at_element", Span::mixed_site())
    }
}

/// Evaluates the value before the target is borrowed mutably (as `x[i] = v`
/// does), keeping its temporaries alive through the call. A variable is
/// borrowed, not moved, as NumPy users expect. The binding carries the
/// value's span, so type errors about the value point at it.
fn bind_value(value: &Written, is_read: bool, call: impl FnOnce(&syn::Ident) -> TokenStream) -> TokenStream {
    let name = syn::Ident::new("__tensor_at_value", value.span().resolved_at(Span::mixed_site()));
    let call = call(&name);
    if is_read {
        // A read of (maybe) the target itself: copied before the target is
        // borrowed for writing, as NumPy copies overlapping operands.
        let (ok, error) = (quote!(::core::result::Result::Ok), quote!(::core::result::Result::Err));
        let read = syn::Ident::new("__tensor_at_read", Span::mixed_site());
        let value = scrutinee(value);
        return quote!(match #value {
            #ok(#read) => match #read.to_owned() { #name => #call },
            #error(#read) => #error(#read),
        });
    }
    let value = scrutinee(borrowed(value.view()));
    quote!(match #value { #name => #call })
}

/// `expr` as the scrutinee of a `match`, parenthesized so that a struct
/// literal (`Point { .. }`), which Rust does not parse bare there, stays one
/// expression. The parentheses carry the macro's own span, so
/// `unused_parens` does not report them in the user's crate.
fn scrutinee(expr: impl ToTokens) -> proc_macro2::Group {
    let mut group = proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, expr.into_token_stream());
    group.set_span(Span::mixed_site());
    group
}

/// `&place` for a variable or field, so indexing never moves it; any other
/// expression as it is.
fn borrowed(view: View) -> TokenStream {
    let view = view.unparen();
    match view.expr {
        Expr::Path(_) | Expr::Field(_) => {
            let (span, place) = (view.span(), view.stream());
            quote_spanned!(span=> &#place)
        }
        // `nd(idx)`: borrow `idx` the same way.
        Expr::Call(call) if is_nd(&call.func) => match view.single_argument_call() {
            Some((func, _, arg)) => {
                let mut args = Group::new(Delimiter::Parenthesis, borrowed(arg));
                args.set_span(view.span());
                quote!(#(#func)* #args)
            }
            None => view.stream(),
        },
        _ => view.stream(),
    }
}

fn is_nd(func: &Expr) -> bool {
    matches!(unparen(func), Expr::Path(path) if path.path.segments.last().is_some_and(|segment| segment.ident == "nd"))
}

/// What `set!` copies from: a place is borrowed (and copied), any other
/// expression is taken by value (and updated in its own buffer).
fn source(target: &Written) -> TokenStream {
    if is_place(&target.expr) {
        quote_spanned!(target.span()=> (#target).tensor_at_ref())
    } else {
        // Bound by `match` so that `{x}` is not an "unnecessary braces" argument.
        let name = syn::Ident::new("__tensor_at_source", Span::mixed_site());
        let target = scrutinee(target);
        quote!(match #target { #name => #name })
    }
}

fn is_place(expr: &Expr) -> bool {
    match expr {
        Expr::Path(_) | Expr::Field(_) | Expr::Index(_) => true,
        Expr::Unary(unary) => matches!(unary.op, syn::UnOp::Deref(_)),
        Expr::Paren(syn::ExprParen { expr, .. }) | Expr::Group(syn::ExprGroup { expr, .. }) => is_place(expr),
        _ => false,
    }
}

/// One index element as an expression whose type says what it is, with
/// type errors placed on the user's element.
fn index_elem(elem: &Elem) -> TokenStream {
    let p = quote!(::tensor_at::__private);
    match elem {
        Elem::Range { range, step: None } => {
            let range = typed_literals(range.view());
            let span = span_of(&range);
            quote_spanned!(span=> #p::index_elem(#(#range)*))
        }
        Elem::Range { range, step: Some(step) } => {
            let range = typed_literals(range.view());
            let (span, step) = (span_of(&range), step.view().unparen().stream());
            quote_spanned!(span=> #p::stepped(#(#range)*, #step))
        }
        Elem::PySlice { start, stop, step, span } => {
            let part = |part: &Option<Written>| match part {
                Some(expr) => {
                    let expr = expr.view().unparen();
                    let (span, expr) = (expr.span(), expr.stream());
                    quote_spanned!(span=> #p::bound(#expr))
                }
                None => quote!(::core::option::Option::None),
            };
            let (start, stop, step) = (part(start), part(stop), part(step));
            quote_spanned!(*span=> #p::PySlice::new(#start, #stop, #step))
        }
        Elem::Ellipsis(span) => quote_spanned!(*span=> #p::Ellipsis),
        Elem::NewAxis(span) => quote_spanned!(*span=> #p::NewAxis),
        Elem::Mask(mask) => {
            let mask = mask_array(mask);
            quote_spanned!(elem.span()=> #p::index_elem(#mask))
        }
        Elem::Expr(expr) => {
            let view = expr.view().unparen();
            let expr: Vec<TokenTree> = match view.expr {
                Expr::Path(_) | Expr::Field(_) | Expr::Call(_) => borrowed(view).into_iter().collect(),
                _ => typed_literals(view),
            };
            let span = span_of(&expr);
            quote_spanned!(span=> #p::index_elem(#(#expr)*))
        }
    }
}

fn mode(mode: Option<&ModeSpec>) -> TokenStream {
    let p = quote!(::tensor_at::__private);
    match mode {
        None => quote!(#p::Mode::Error),
        Some(ModeSpec::Error(span)) => quote_spanned!(*span=> #p::Mode::Error),
        Some(ModeSpec::Clip(span)) => quote_spanned!(*span=> #p::Mode::Clip),
        Some(ModeSpec::Wrap(span)) => quote_spanned!(*span=> #p::Mode::Wrap),
        Some(ModeSpec::Drop(span)) => quote_spanned!(*span=> #p::Mode::Drop),
        Some(ModeSpec::Fill(span, value)) => quote_spanned!(*span=> #p::Mode::Fill(#value)),
    }
}

/// A mask expression as a boolean array: each comparison through
/// `mask`, combined with ndarray's elementwise `&`, `|`, `^` and `!`.
fn mask_array(mask: &MaskExpr) -> TokenStream {
    let p = quote!(::tensor_at::__private);
    match mask {
        MaskExpr::Compare { array, op, scalar } => {
            let (s, e) = (Ident::scalar(), Ident::element());
            let scalar = scrutinee(scalar);
            quote_spanned!(array.span()=> match #scalar { #s => #p::mask(&(#array), |#e| *#e #op #s) })
        }
        MaskExpr::Logic { left, op, right } => {
            let (left, right) = (mask_array(left), mask_array(right));
            quote!((&(#left) #op &(#right)))
        }
        MaskExpr::Not(inner) => {
            let inner = mask_array(inner);
            quote!((!&(#inner)))
        }
        // Borrowed by the `&` of the operators around it.
        MaskExpr::Array(array) => {
            let array = array.view().unparen().stream();
            quote!((#array))
        }
    }
}

/// The mask as one predicate on an element `e`, its scalars bound first (in
/// order) by `bindings`: each scalar's name and its `let`.
fn predicate(mask: &MaskExpr, e: &syn::Ident, bindings: &mut Vec<(syn::Ident, TokenStream)>) -> TokenStream {
    match mask {
        MaskExpr::Compare { op, scalar, .. } => {
            let s = syn::Ident::new(&format!("__tensor_at_scalar{}", bindings.len()), Span::mixed_site());
            bindings.push((s.clone(), quote!(let #s = #scalar;)));
            quote!((*#e #op #s))
        }
        MaskExpr::Logic { left, op, right } => {
            let (left, right) = (predicate(left, e, bindings), predicate(right, e, bindings));
            quote!((#left #op #right))
        }
        MaskExpr::Not(inner) => {
            let inner = predicate(inner, e, bindings);
            quote!((!#inner))
        }
        MaskExpr::Array(_) => unreachable!("masks with boolean arrays are not fused"),
    }
}

/// `at!(x[x < s] = v)`, `at!(x[(x > a) & (x < b)] op= v)`, `at!(x[x < s])`:
/// every comparison is on the target itself, so one pass over it decides
/// and writes (or reads), and no mask is built. A single comparison is
/// also passed as data, for backends that cannot run a closure.
fn fused_mask(call: &Call, flavor: Flavor) -> Option<TokenStream> {
    let [Elem::Mask(mask)] = call.index.as_slice() else {
        return None;
    };
    let target = &call.target;
    let on_target = |array: &&Written| quote!(#array).to_string() == quote!(#target).to_string();
    if !compared_arrays(mask)?.iter().all(on_target) {
        return None;
    }
    let at = call.index_span;
    let p = private(at);
    let e = Ident::element();
    let mut bindings = Vec::new();
    let test = predicate(mask, &e, &mut bindings);
    let predicate = match (mask, bindings.as_slice()) {
        (MaskExpr::Compare { op, .. }, [(scalar, _)]) => {
            let compare = syn::Ident::new(op.name(), at);
            quote_spanned!(at=> #p::Predicate::compare(#p::Compare::#compare, &#scalar, |#e| #test))
        }
        _ => quote_spanned!(at=> #p::Predicate::test(|#e| #test)),
    };
    let bindings = bindings.iter().map(|(_, binding)| binding);
    let read = call.value_is_read;
    let source = source(target);
    let target_ref = quote_spanned!(target.span()=> (#target).tensor_at_ref());
    let target = quote_spanned!(target.span()=> (#target).tensor_at_mut());
    let call = match (&call.action, flavor.copy) {
        (Action::Read, _) => quote_spanned!(at=> #p::read_where(#target_ref, #predicate)),
        (Action::Set(v), false) => bind_value(v, read, |value| quote_spanned!(at=> #p::set_where(#target, #predicate, #value))),
        (Action::Set(v), true) => bind_value(
            v,
            read,
            |value| quote_spanned!(at=> #p::set_where_copy(#source, #predicate, #value)),
        ),
        (Action::Update(update, v), copy) => {
            let update = syn::Ident::new(update.name(), at);
            bind_value(v, read, |value| match copy {
                false => quote_spanned!(at=> #p::update_where(#target, #predicate, #p::Op::#update, #value)),
                true => quote_spanned!(at=> #p::update_where_copy(#source, #predicate, #p::Op::#update, #value)),
            })
        }
        (Action::Apply(_), _) => return None,
    };
    Some(quote!({ #(#bindings)* #call }))
}

/// The arrays compared, left to right, or `None` when a boolean array
/// stands among the comparisons.
fn compared_arrays(mask: &MaskExpr) -> Option<Vec<&Written>> {
    match mask {
        MaskExpr::Compare { array, .. } => Some(vec![array]),
        MaskExpr::Logic { left, right, .. } => Some([compared_arrays(left)?, compared_arrays(right)?].concat()),
        MaskExpr::Not(inner) => compared_arrays(inner),
        MaskExpr::Array(_) => None,
    }
}

/// The expression inside any parentheses around it.
fn unparen(expr: &Expr) -> &Expr {
    match expr {
        Expr::Paren(syn::ExprParen { expr, .. }) | Expr::Group(syn::ExprGroup { expr, .. }) => unparen(expr),
        other => other,
    }
}

/// Unsuffixed integer literals as `isize`: in `x[1]`, `x[-1]`, `x[1..3]`,
/// `x[[0, 2]]` the literal's type would otherwise stay undecided while the
/// index's types are worked out. The user's tokens, with those literals
/// replaced.
fn typed_literals(view: View) -> Vec<TokenTree> {
    let view = view.unparen();
    typed(&view).unwrap_or(view.tokens)
}

/// The tokens of `view` with its literals typed, `None` when it has none
/// to type.
fn typed(view: &View) -> Option<Vec<TokenTree>> {
    let typed_or_written = |view: View| typed(&view).unwrap_or(view.tokens);
    match view.expr {
        Expr::Group(_) => {
            let inner = view.inner()?;
            let [TokenTree::Group(group)] = view.tokens.as_slice() else {
                return None;
            };
            Some(vec![regroup(group, typed_or_written(inner))])
        }
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(int), ..
        }) if int.suffix().is_empty() && matches!(view.tokens.as_slice(), [TokenTree::Literal(_)]) => {
            let typed = syn::LitInt::new(&format!("{}isize", int.base10_digits()), int.span());
            Some(typed.into_token_stream().into_iter().collect())
        }
        Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), .. }) => {
            let operand = view.unary_operand()?;
            let prefix = view.tokens.len() - operand.tokens.len();
            Some(view.tokens[..prefix].iter().cloned().chain(typed_or_written(operand)).collect())
        }
        // Only when every bound is a literal: `a..4` takes `a`'s type.
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
fn literal_len(expr: &Expr) -> Option<usize> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(_),
            attrs,
        }) if attrs.is_empty() => Some(1),
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            attrs,
        }) if attrs.is_empty() => Some(1 + literal_len(expr)?),
        _ => None,
    }
}
