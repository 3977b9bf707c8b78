//! [`Lowered`] → tokens: calls into the runtime (`tensor-at`'s
//! `__private`, named once at the top of the expansion), quoted as
//! lowering decided them.

use proc_macro2::{Delimiter, Group, Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::Ident;

use crate::ast::BatchSpec;
use crate::fused::{Predicate, Test};
use crate::lower::{Entry, Lowered, Mode, Outcome, Place, Source, TargetCheck, Value, ValueKind};
use crate::lower_index::{Arg, Bound, IndexElem, MaskArray};

/// The expansion of a lowered call: its index bound first (so a mask may
/// read the target: `at!(x[x > 0.0] = 0.0)`), then the entry point. The
/// runtime is `#runtime::__private`, imported under one name that every
/// call below uses (see [`private`]).
pub fn expand(lowered: &Lowered, runtime: &TokenStream) -> TokenStream {
    let runtime_name = Ident::new(RUNTIME, Span::call_site());
    let call = expand_call(lowered);
    // Method syntax reaches the array through references and `&mut` bindings.
    quote!({
        use #runtime::__private as #runtime_name;
        use #runtime_name::AsTarget as _;
        #call
    })
}

/// The name the expansion imports the runtime under.
const RUNTIME: &str = "__tensor_at";

/// The runtime (see [`expand`]), carrying `span`, so that a type error in
/// a call points at the user's tokens.
fn private(span: Span) -> TokenStream {
    Ident::new(RUNTIME, span).into_token_stream()
}

/// One call, where the runtime is in scope (a read used as a value is one
/// within the call it feeds).
fn expand_call(lowered: &Lowered) -> TokenStream {
    let at = lowered.at;
    let p = private(at);
    let index = lowered.index.iter().rev().fold(quote!(()), |rest, elem| {
        let (span, elem) = (elem.span(), index_elem(elem));
        quote_spanned!(span=> (#elem, #rest))
    });
    let index = match lowered.batch {
        Some(batch) => {
            let (k, dim) = (batch.axes, batch_rank(batch));
            quote_spanned!(batch.span=> #p::batch::<#dim, _, #k>(#index))
        }
        None => index,
    };
    let list = Names::index();
    let result = entry(&lowered.entry, at, &list, &lowered.checks, &lowered.outcome);
    let result = match lowered.outcome {
        Outcome::Result | Outcome::UnwrapInside => result,
        Outcome::Unwrap => quote!(#p::unwrap(#result)),
    };
    quote!(match #index { #list => #result })
}

/// Hygienic names for the expansion's own bindings.
struct Names;

impl Names {
    /// The index list.
    fn index() -> Ident {
        Ident::new("__tensor_at_index", Span::mixed_site())
    }
    /// The value, placed on the user's value with the user's hygiene:
    /// rustc points an error about the argument (its element type, its
    /// rank) at it only when it comes from the user's own context, and
    /// otherwise at the whole macro call. (It could shadow a variable of the
    /// user's named `__tensor_at_value` in the target or index expressions.)
    fn value(span: Span) -> Ident {
        Ident::new("__tensor_at_value", span)
    }
    /// The result of a read used as a value.
    fn read() -> Ident {
        Ident::new("__tensor_at_read", Span::mixed_site())
    }
    /// The array `set!` consumes.
    fn source() -> Ident {
        Ident::new("__tensor_at_source", Span::mixed_site())
    }
    /// A comparison's scalar in a built mask.
    fn scalar() -> Ident {
        Ident::new("__tensor_at_scalar", Span::mixed_site())
    }
    /// The element a comparison tests.
    fn element() -> Ident {
        Ident::new("__tensor_at_element", Span::mixed_site())
    }
}

/// `batch = K`'s `K` as a rank.
fn batch_rank(batch: BatchSpec) -> TokenStream {
    rank(batch.axes, batch.span)
}

/// `axes` as a rank: `Ix0`..`Ix6`, `IxDyn` past them (which only a dynamic
/// rank holds).
fn rank(axes: usize, span: Span) -> TokenStream {
    let p = private(span);
    match axes {
        0..=6 => {
            let name = Ident::new(&format!("Ix{axes}"), span);
            quote_spanned!(span=> #p::#name)
        }
        _ => quote_spanned!(span=> #p::IxDyn),
    }
}

/// The entry point's call; entry points carry the index's span `at`. The
/// target passes through its `checks`, each placed on what it checks.
fn entry(entry: &Entry, at: Span, list: &Ident, checks: &[TargetCheck], outcome: &Outcome) -> TokenStream {
    let p = private(at);
    // The entry points of reads and writes in place, in their panicking
    // form for `Outcome::UnwrapInside`.
    let names = match outcome {
        Outcome::UnwrapInside => [
            "read_unwrap",
            "set_unwrap",
            "update_unwrap",
            "set_copy_unwrap",
            "update_copy_unwrap",
        ],
        Outcome::Unwrap | Outcome::Result => ["read", "set", "update", "set_copy", "update_copy"],
    };
    let [read, set, update, set_copy, update_copy] = names.map(|name| Ident::new(name, at));
    let target_ref = |target: &Place| checked(target_ref(target), checks, "checked");
    let target_mut = |target: &Place| checked(target_mut(target), checks, "checked_mut");
    let batched_source = |source: &Source| match source {
        Source::Borrowed(_) => checked(self::source(source), checks, "checked"),
        Source::Consumed(_) => checked(self::source(source), checks, "checked_source"),
    };
    match entry {
        Entry::Read { target, mode } => {
            let (target, mode) = (target_ref(target), self::mode(mode));
            quote_spanned!(at=> #p::#read(#target, #list, #mode))
        }
        Entry::ViewMut { target } => {
            let target = target_mut(target);
            quote_spanned!(at=> #p::view_mut(#target, #list))
        }
        Entry::ReadInto { target, mode, out } => {
            let (target, mode, out) = (target_ref(target), self::mode(mode), self::target_mut(out));
            quote_spanned!(at=> #p::read_into(#target, #list, #mode, #out))
        }
        Entry::ReadFilled { target, fill } => {
            let target = target_ref(target);
            quote_spanned!(at=> #p::read_filled(#target, #list, #fill))
        }
        Entry::Set { target, value, mode } => {
            let (target, mode) = (target_mut(target), self::mode(mode));
            bind_value(value, outcome, |value| quote_spanned!(at=> #p::#set(#target, #list, #value, #mode)))
        }
        Entry::Update { target, op, value, mode } => {
            let (target, mode) = (target_mut(target), self::mode(mode));
            bind_value(
                value,
                outcome,
                |value| quote_spanned!(at=> #p::#update(#target, #list, #p::Op::#op, #value, #mode)),
            )
        }
        Entry::Apply { target, f, mode } => {
            let (target, mode) = (target_mut(target), self::mode(mode));
            quote_spanned!(at=> #p::apply(#target, #list, #f, #mode))
        }
        Entry::SetCopy { source, value, mode } => {
            let (source, mode) = (batched_source(source), self::mode(mode));
            bind_value(
                value,
                outcome,
                |value| quote_spanned!(at=> #p::#set_copy(#source, #list, #value, #mode)),
            )
        }
        Entry::UpdateCopy { source, op, value, mode } => {
            let (source, mode) = (batched_source(source), self::mode(mode));
            bind_value(
                value,
                outcome,
                |value| quote_spanned!(at=> #p::#update_copy(#source, #list, #p::Op::#op, #value, #mode)),
            )
        }
        Entry::ApplyCopy { source, f, mode } => {
            let (source, mode) = (batched_source(source), self::mode(mode));
            quote_spanned!(at=> #p::apply_copy(#source, #list, #f, #mode))
        }
        Entry::ReadWhere { target, predicate } => {
            let target = target_ref(target);
            fused(predicate, at, |predicate| quote_spanned!(at=> #p::read_where(#target, #predicate)))
        }
        Entry::SetWhere { target, predicate, value } => {
            let target = target_mut(target);
            fused(predicate, at, |predicate| {
                bind_value(
                    value,
                    outcome,
                    |value| quote_spanned!(at=> #p::set_where(#target, #predicate, #value)),
                )
            })
        }
        Entry::SetWhereCopy { source, predicate, value } => {
            let source = batched_source(source);
            fused(predicate, at, |predicate| {
                bind_value(
                    value,
                    outcome,
                    |value| quote_spanned!(at=> #p::set_where_copy(#source, #predicate, #value)),
                )
            })
        }
        Entry::UpdateWhere {
            target,
            predicate,
            op,
            value,
        } => {
            let target = target_mut(target);
            fused(predicate, at, |predicate| {
                bind_value(
                    value,
                    outcome,
                    |value| quote_spanned!(at=> #p::update_where(#target, #predicate, #p::Op::#op, #value)),
                )
            })
        }
        Entry::UpdateWhereCopy {
            source,
            predicate,
            op,
            value,
        } => {
            let source = batched_source(source);
            fused(predicate, at, |predicate| {
                bind_value(
                    value,
                    outcome,
                    |value| quote_spanned!(at=> #p::update_where_copy(#source, #predicate, #p::Op::#op, #value)),
                )
            })
        }
    }
}

/// `target` passed through each of `checks` by the entry point `through`
/// (`checked`, `checked_mut` or `checked_source`).
fn checked(target: TokenStream, checks: &[TargetCheck], through: &str) -> TokenStream {
    checks.iter().fold(target, |target, check| {
        let (span, check) = match check {
            TargetCheck::Batch(batch) => {
                let (p, rank) = (private(batch.span), batch_rank(*batch));
                (batch.span, quote_spanned!(batch.span=> #p::BatchAxes<#rank>))
            }
            TargetCheck::AlongAxis { axes, span } => {
                let (p, rank) = (private(*span), rank(*axes, *span));
                (*span, quote_spanned!(*span=> #p::AlongAxis<#rank>))
            }
            TargetCheck::Bitwise(span) => {
                let p = private(*span);
                (*span, quote_spanned!(*span=> #p::BitwiseElems))
            }
            TargetCheck::Ordered(span) => {
                let p = private(*span);
                (*span, quote_spanned!(*span=> #p::OrderedElems))
            }
        };
        let (p, through) = (private(span), Ident::new(through, span));
        quote_spanned!(span=> #p::#through::<#check, _>(#target))
    })
}

/// The target, read.
fn target_ref(target: &Place) -> TokenStream {
    let Place { tokens, span } = target;
    quote_spanned!(*span=> (#tokens).tensor_at_ref())
}

/// The target, written.
fn target_mut(target: &Place) -> TokenStream {
    let Place { tokens, span } = target;
    quote_spanned!(*span=> (#tokens).tensor_at_mut())
}

/// What `set!` copies from.
fn source(source: &Source) -> TokenStream {
    match source {
        Source::Borrowed(place) => target_ref(place),
        // Bound by `match` so that `{x}` is not an "unnecessary braces" argument.
        Source::Consumed(target) => {
            let (name, target) = (Names::source(), scrutinee(target));
            quote!(match #target { #name => #name })
        }
    }
}

/// `call` of the value's binding, inside the value's evaluation.
/// A read used as a value that fails returns its error, or panics with it
/// when the entry point unwraps inside.
fn bind_value(value: &Value, outcome: &Outcome, call: impl FnOnce(&Ident) -> TokenStream) -> TokenStream {
    let name = Names::value(value.span);
    let call = call(&name);
    match &value.kind {
        ValueKind::Expr(arg) => {
            let value = scrutinee(self::arg(arg));
            quote!(match #value { #name => #call })
        }
        ValueKind::Read(read) => {
            let (ok, error) = (quote!(::core::result::Result::Ok), quote!(::core::result::Result::Err));
            let (read, result) = (Names::read(), scrutinee(expand_call(read)));
            let failed = match outcome {
                Outcome::UnwrapInside => {
                    let p = private(Span::call_site());
                    quote!(#p::unwrap(#error(#read)))
                }
                Outcome::Unwrap | Outcome::Result => quote!(#error(#read)),
            };
            quote!(match #result {
                #ok(#read) => match #read.to_owned() { #name => #call },
                #error(#read) => #failed,
            })
        }
    }
}

/// `expr` as the scrutinee of a `match`, parenthesized so that a struct
/// literal (`Point { .. }`), which Rust does not parse bare there, stays one
/// expression. The parentheses carry the macro's own span, so
/// `unused_parens` does not report them in the user's crate.
fn scrutinee(expr: impl ToTokens) -> Group {
    let mut group = Group::new(Delimiter::Parenthesis, expr.into_token_stream());
    group.set_span(Span::mixed_site());
    group
}

/// An expression passed to the runtime.
fn arg(arg: &Arg) -> TokenStream {
    match arg {
        Arg::Tokens(tokens) => tokens.clone(),
        Arg::Borrowed { place, span } => quote_spanned!(*span=> &#place),
        Arg::Call { func, span, index, rest } => {
            let index = self::arg(index);
            let mut args = Group::new(Delimiter::Parenthesis, quote!(#index #(, #rest)*));
            args.set_span(*span);
            quote!(#func #args)
        }
    }
}

/// One index element, with type errors placed on the user's element.
fn index_elem(elem: &IndexElem) -> TokenStream {
    let p = private(Span::call_site());
    let (span, elem) = match elem {
        IndexElem::Elem { arg_span, arg, .. } => (*arg_span, self::arg(arg)),
        IndexElem::Stepped { span, range, step } => (*span, quote_spanned!(*span=> #p::stepped(#range, #step))),
        // A bare `:` is `..`: the whole axis, with no bounds to keep.
        IndexElem::PySlice {
            span,
            start: None,
            stop: None,
            step: None,
        } => (*span, quote_spanned!(*span=> ..)),
        IndexElem::PySlice { span, start, stop, step } => {
            let part = |part: &Option<Bound>| match part {
                Some(Bound { span, tokens }) => quote_spanned!(*span=> #p::bound(#tokens)),
                None => quote!(::core::option::Option::None),
            };
            let (start, stop, step) = (part(start), part(stop), part(step));
            (*span, quote_spanned!(*span=> #p::PySlice::new(#start, #stop, #step)))
        }
        IndexElem::Ellipsis(span) => (*span, quote_spanned!(*span=> #p::Ellipsis)),
        IndexElem::NewAxis(span) => (*span, quote_spanned!(*span=> #p::NewAxis)),
        IndexElem::Mask { span, mask } => (*span, mask_array(mask)),
    };
    quote_spanned!(span=> #p::index_elem(#elem))
}

/// A mask built as a boolean array.
fn mask_array(mask: &MaskArray) -> TokenStream {
    let p = private(Span::call_site());
    match mask {
        MaskArray::Compare { span, array, op, scalar } => {
            let (s, e, scalar) = (Names::scalar(), Names::element(), scrutinee(scalar));
            let compare = Ident::new(op.name(), *span);
            quote_spanned!(*span=> match #scalar { #s => #p::mask(&(#array), #p::Compare::#compare, &#s, |#e| *#e #op #s) })
        }
        MaskArray::Logic { left, op, right } => {
            let (left, right) = (mask_array(left), mask_array(right));
            quote!((&(#left) #op &(#right)))
        }
        MaskArray::Not(inner) => {
            let inner = mask_array(inner);
            quote!((!&(#inner)))
        }
        MaskArray::Array(array) => quote!((#array)),
    }
}

/// The out-of-bounds mode.
fn mode(mode: &Mode) -> TokenStream {
    let p = private(Span::call_site());
    match mode {
        Mode::Default => quote!(#p::Mode::Error),
        Mode::Named(name) => quote_spanned!(name.span()=> #p::Mode::#name),
        Mode::Fill(span, value) => quote_spanned!(*span=> #p::Mode::Fill(#value)),
    }
}

/// A fused pass: the predicate's scalars bound, then `call` of the
/// predicate.
fn fused(predicate: &Predicate, at: Span, call: impl FnOnce(TokenStream) -> TokenStream) -> TokenStream {
    let p = private(at);
    let e = Names::element();
    let (scalars, predicate) = match predicate {
        Predicate::Compare { compare, scalar, test } => {
            let (s, test) = (&scalar.name, self::test(test, &e));
            let predicate = quote_spanned!(at=> #p::Predicate::compare(#p::Compare::#compare, &#s, |#e| #test));
            (std::slice::from_ref(scalar), predicate)
        }
        Predicate::Test { scalars, test } => {
            let mut steps = Vec::new();
            self::steps(test, &p, &mut steps);
            let test = self::test(test, &e);
            (
                scalars.as_slice(),
                quote_spanned!(at=> #p::Predicate::combined(&[#(#steps),*], |#e| #test)),
            )
        }
    };
    let bindings = scalars.iter().map(|scalar| {
        let (name, value) = (&scalar.name, &scalar.value);
        quote!(let #name = #value;)
    });
    let call = call(predicate);
    quote!({ #(#bindings)* #call })
}

/// The test as tensor-core's `Step`s, in postfix order, for backends that
/// run no closure.
fn steps(test: &Test, p: &TokenStream, steps: &mut Vec<TokenStream>) {
    match test {
        Test::Compare { op, scalar } => {
            let compare = Ident::new(op.name(), Span::call_site());
            steps.push(quote!(#p::Step::Compare(#p::Compare::#compare, &#scalar)));
        }
        Test::Logic { left, op, right } => {
            self::steps(left, p, steps);
            self::steps(right, p, steps);
            let op = Ident::new(op.name(), Span::call_site());
            steps.push(quote!(#p::Step::#op));
        }
        Test::Not(inner) => {
            self::steps(inner, p, steps);
            steps.push(quote!(#p::Step::Not));
        }
    }
}

/// The test of the element `e`.
fn test(test: &Test, e: &Ident) -> TokenStream {
    match test {
        Test::Compare { op, scalar } => quote!((*#e #op #scalar)),
        Test::Logic { left, op, right } => {
            let (left, right) = (self::test(left, e), self::test(right, e));
            quote!((#left #op #right))
        }
        Test::Not(inner) => {
            let inner = self::test(inner, e);
            quote!((!#inner))
        }
    }
}
