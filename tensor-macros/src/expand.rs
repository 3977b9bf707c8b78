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
    let list = Names::index(at);
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
    /// The index list, placed on the index with the user's hygiene, as the
    /// value is (see [`Names::value`]): an entry point's bound on it is
    /// then reported at the index, where the checks' are (see [`Checks`]).
    fn index(at: Span) -> Ident {
        Ident::new("__tensor_at_index", at)
    }
    /// The value, placed on the user's value with the user's hygiene:
    /// rustc points an error about the argument (its element type, its
    /// rank) at it only when it comes from the user's own context, and
    /// otherwise at the whole macro call. (It could shadow a variable of the
    /// user's named `__tensor_at_value` in the target or index expressions.)
    fn value(span: Span) -> Ident {
        Ident::new("__tensor_at_value", span)
    }
    /// The array a read goes into, placed on it with the user's hygiene
    /// (see [`Names::value`]).
    fn out(span: Span) -> Ident {
        Ident::new("__tensor_at_out", span)
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
/// target passes through the checks of [`Checks`], each placed on what it
/// checks.
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
    let checks = Checks { at, list, target: checks };
    let read_target = |target: &Place, tests: &[TokenStream]| checks.read(target, tests);
    let written = |target: &Place, value: Option<&Value>| checks.written(target, value);
    let source = |source: &Source, value: Option<&Value>| checks.source(source, value);
    match entry {
        Entry::Read { target, mode } => {
            let (target, mode) = (read_target(target, &[]), self::mode(mode));
            quote_spanned!(at=> #p::#read(#target, #list, #mode))
        }
        Entry::ViewMut { target } => {
            let target = checks.viewed(target);
            quote_spanned!(at=> #p::view_mut(#target, #list))
        }
        Entry::ReadInto { target, mode, out } => {
            // The array read into is bound first, for the target's checks
            // to name its rank.
            let name = Names::out(out.span);
            let (target, mode) = (read_target(target, &[checks.holds(&name)]), self::mode(mode));
            let out = self::target_mut(out);
            quote_spanned!(at=> match #out { #name => #p::read_into(#target, #list, #mode, #name) })
        }
        Entry::ReadFilled { target, fill } => {
            let target = read_target(target, &[]);
            quote_spanned!(at=> #p::read_filled(#target, #list, #fill))
        }
        Entry::Set { target, value, mode } => {
            let (target, mode) = (written(target, Some(value)), self::mode(mode));
            bind_value(value, outcome, |value| quote_spanned!(at=> #p::#set(#target, #list, #value, #mode)))
        }
        Entry::Update { target, op, value, mode } => {
            let (target, mode) = (written(target, Some(value)), self::mode(mode));
            bind_value(
                value,
                outcome,
                |value| quote_spanned!(at=> #p::#update(#target, #list, #p::Op::#op, #value, #mode)),
            )
        }
        Entry::Apply { target, f, mode } => {
            let (target, mode) = (written(target, None), self::mode(mode));
            quote_spanned!(at=> #p::apply(#target, #list, #f, #mode))
        }
        Entry::SetCopy { source: from, value, mode } => {
            let (from, mode) = (source(from, Some(value)), self::mode(mode));
            bind_value(
                value,
                outcome,
                |value| quote_spanned!(at=> #p::#set_copy(#from, #list, #value, #mode)),
            )
        }
        Entry::UpdateCopy {
            source: from,
            op,
            value,
            mode,
        } => {
            let (from, mode) = (source(from, Some(value)), self::mode(mode));
            bind_value(
                value,
                outcome,
                |value| quote_spanned!(at=> #p::#update_copy(#from, #list, #p::Op::#op, #value, #mode)),
            )
        }
        Entry::ApplyCopy { source: from, f, mode } => {
            let (from, mode) = (source(from, None), self::mode(mode));
            quote_spanned!(at=> #p::apply_copy(#from, #list, #f, #mode))
        }
        Entry::ReadWhere { target, predicate } => {
            let target = read_target(target, &[]);
            fused(predicate, at, |predicate| quote_spanned!(at=> #p::read_where(#target, #predicate)))
        }
        Entry::SetWhere { target, predicate, value } => {
            let target = checks.written_where(target, value);
            fused(predicate, at, |predicate| {
                bind_value(
                    value,
                    outcome,
                    |value| quote_spanned!(at=> #p::set_where(#target, #predicate, #value)),
                )
            })
        }
        Entry::SetWhereCopy {
            source: from,
            predicate,
            value,
        } => {
            let from = checks.source_where(from, value);
            fused(predicate, at, |predicate| {
                bind_value(
                    value,
                    outcome,
                    |value| quote_spanned!(at=> #p::set_where_copy(#from, #predicate, #value)),
                )
            })
        }
        Entry::UpdateWhere {
            target,
            predicate,
            op,
            value,
        } => {
            let target = checks.written_where(target, value);
            fused(predicate, at, |predicate| {
                bind_value(
                    value,
                    outcome,
                    |value| quote_spanned!(at=> #p::update_where(#target, #predicate, #p::Op::#op, #value)),
                )
            })
        }
        Entry::UpdateWhereCopy {
            source: from,
            predicate,
            op,
            value,
        } => {
            let from = checks.source_where(from, value);
            fused(predicate, at, |predicate| {
                bind_value(
                    value,
                    outcome,
                    |value| quote_spanned!(at=> #p::update_where_copy(#from, #predicate, #p::Op::#op, #value)),
                )
            })
        }
    }
}

/// The compile-time checks of one call, beyond what the entry point's own
/// bounds check. The target passes through `checked`, `checked_mut` or
/// `checked_source` with a closure that is never called: type-checking it
/// is the check. Each test in it names a trait on a type of the call
/// (`<_ as IntoValue<'_, _>>::check(elems, value)`), so that a failed one
/// is that trait's own message at the user's token, with no note about the
/// entry point's bounds. Where an entry point bound fails on the same
/// types at the same place, rustc reports it once: the tests repeat those
/// bounds (the target written, the value's type and rank, a view's index)
/// to take the error from them.
struct Checks<'a> {
    /// The index's span, where the entry point's bounds on the index list
    /// are reported.
    at: Span,
    /// The index list's name.
    list: &'a Ident,
    /// The target's own checks.
    target: &'a [TargetCheck],
}

impl Checks<'_> {
    /// A target read, with `tests` beyond the target's own.
    fn read(&self, target: &Place, tests: &[TokenStream]) -> TokenStream {
        self.through(target_ref(target), "checked", target.span, tests)
    }

    /// A target lent as a view: its index has a view.
    fn viewed(&self, target: &Place) -> TokenStream {
        let (at, p, list) = (self.at, private(self.at), self.list);
        let has_view = quote_spanned!(at=> <_ as #p::HasView>::check(#p::kind_of(#p::witness(&#list))););
        let writable = self.writable(target.span);
        self.through(target_mut(target), "checked_mut", target.span, &[writable, has_view])
    }

    /// A target written, with `value`, written into the index's region.
    fn written(&self, target: &Place, value: Option<&Value>) -> TokenStream {
        let mut tests = vec![self.writable(target.span)];
        tests.extend(value.map(|value| self.value(value, Some(self.region()))));
        self.through(target_mut(target), "checked_mut", target.span, &tests)
    }

    /// A target written through a mask on itself with `value`.
    fn written_where(&self, target: &Place, value: &Value) -> TokenStream {
        let tests = [self.writable(target.span), self.value(value, None)];
        self.through(target_mut(target), "checked_mut", target.span, &tests)
    }

    /// What `set!` copies from or consumes, with `value`, written into the
    /// index's region.
    fn source(&self, source: &Source, value: Option<&Value>) -> TokenStream {
        let tests: Vec<_> = value.map(|value| self.value(value, Some(self.region()))).into_iter().collect();
        self.source_with(source, &tests)
    }

    /// What `set!` copies from or consumes, written through a mask on
    /// itself with `value`.
    fn source_where(&self, source: &Source, value: &Value) -> TokenStream {
        self.source_with(source, &[self.value(value, None)])
    }

    fn source_with(&self, source: &Source, tests: &[TokenStream]) -> TokenStream {
        match source {
            Source::Borrowed(place) => self.read(place, tests),
            Source::Consumed(_) => self.through(self::source(source), "checked_source", self.at, tests),
        }
    }

    /// The target's type, as the tests name it.
    fn target_type(&self) -> Ident {
        Ident::new("__tensor_at_target", Span::mixed_site())
    }

    /// The target can be written, placed on it.
    fn writable(&self, span: Span) -> TokenStream {
        let (p, target) = (private(span), self.target_type());
        quote_spanned!(span=> <_ as #p::IndexableMut>::check(#target);)
    }

    /// The index's region, as a rank (placed on the index).
    fn region(&self) -> TokenStream {
        let (at, p, list, target) = (self.at, private(self.at), self.list, self.target_type());
        quote_spanned!(at=> <_ as #p::IndexedBy<'_, _>>::region(#p::rank_of(#target), #p::witness(&#list)))
    }

    /// The array bound as `out` holds a read of the index's region, placed
    /// on it.
    fn holds(&self, out: &Ident) -> TokenStream {
        let (span, region) = (out.span(), self.region());
        let p = private(span);
        quote_spanned!(span=> <_ as #p::Holds<_>>::check(#p::rank_of(#p::witness(&*#out)), #region);)
    }

    /// The value's type and its rank (against `region`, the index's, or
    /// the one axis a mask on the target selects), placed on the value.
    fn value(&self, value: &Value, region: Option<TokenStream>) -> TokenStream {
        let span = value.span;
        let (p, name, target) = (private(span), Names::value(span), self.target_type());
        let region = region.unwrap_or_else(|| quote_spanned!(span=> ::core::marker::PhantomData::<#p::Ix1Region>));
        quote_spanned!(span=>
            <_ as #p::FitsIn<_>>::check(<_ as #p::IntoValue<'_, _>>::check(#p::elems_of(#target), #p::witness(&#name)), #region);
        )
    }

    /// `target` through the entry point `through` (`checked`, `checked_mut`
    /// or `checked_source`), placed at `span`, with the target's checks and
    /// `tests`; the target itself where there is nothing to check.
    fn through(&self, target: TokenStream, through: &str, span: Span, tests: &[TokenStream]) -> TokenStream {
        if self.target.is_empty() && tests.is_empty() {
            return target;
        }
        let own = self.target.iter().map(|check| self.target_check(check));
        let (p, through, witness) = (private(span), Ident::new(through, span), self.target_type());
        quote_spanned!(span=> #p::#through(#target, |#witness| { #(#own)* #(#tests)* }))
    }

    /// One of the target's own checks, placed on what it checks.
    fn target_check(&self, check: &TargetCheck) -> TokenStream {
        let target = self.target_type();
        match check {
            TargetCheck::Batch(batch) => {
                let (p, batch_rank) = (private(batch.span), batch_rank(*batch));
                quote_spanned!(batch.span=> <_ as #p::BatchFits<#batch_rank>>::check(#p::rank_of(#target));)
            }
            TargetCheck::AlongAxis { axes, span } => {
                let (p, axes) = (private(*span), rank(*axes, *span));
                quote_spanned!(*span=> <_ as #p::AxisFits<#axes>>::check(#p::rank_of(#target));)
            }
            TargetCheck::Bitwise(span) => {
                let p = private(*span);
                quote_spanned!(*span=> <_ as #p::Bitwise>::check(#p::elems_of(#target));)
            }
            TargetCheck::Ordered(span) => {
                let p = private(*span);
                quote_spanned!(*span=> <_ as #p::Ordered>::check(#p::elems_of(#target));)
            }
        }
    }
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
        IndexElem::Cross {
            arg_span,
            arg,
            axis,
            count,
            ..
        } => {
            let (arg, rank) = (self::arg(arg), rank(*count, *arg_span));
            let cross = quote_spanned!(*arg_span=> <_ as #p::CrossIndex<'_>>::cross_axis::<#rank>(#arg, #axis, #count));
            (*arg_span, cross)
        }
    };
    quote_spanned!(span=> <_ as #p::IntoIndexElem<'_>>::ranked(#elem))
}

/// A mask built as a boolean array.
fn mask_array(mask: &MaskArray) -> TokenStream {
    let p = private(Span::call_site());
    match mask {
        MaskArray::Compare { span, array, op, scalar } => {
            let (s, e, scalar) = (Names::scalar(), Names::element(), scrutinee(scalar));
            let compare = Ident::new(op.compare.name(), *span);
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
        Mode::Default => quote!(#p::AnyMode::Error),
        Mode::Named(name) => quote_spanned!(name.span()=> #p::AnyMode::#name),
        Mode::Fill(span, value) => quote_spanned!(*span=> #p::AnyMode::Fill(#value)),
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
            let compare = Ident::new(op.compare.name(), Span::call_site());
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
