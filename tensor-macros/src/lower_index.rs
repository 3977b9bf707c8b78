//! How index elements and values reach the runtime: a variable borrowed or
//! an expression as written, integer literals typed, masks that do not run
//! as a fused pass built as boolean arrays.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote_spanned};
use syn::Expr;

use crate::ast::{Comparison, Elem, Logic, MaskExpr, Wrapper};
use crate::literals::{is_literal_list, typed_literals};
use crate::written::{View, Written};

/// An expression passed to the runtime.
pub enum Arg {
    /// As written (with typed literals, in an index).
    Tokens(TokenStream),
    /// `&place`: a variable or field is borrowed, so indexing never moves
    /// it, as NumPy users expect.
    Borrowed { place: TokenStream, span: Span },
    /// `nd(arg)` or `along(arg, axis)`: the index argument passed as
    /// [`Arg`] says, the others as written.
    Call {
        func: TokenStream,
        span: Span,
        index: Box<Arg>,
        rest: Vec<TokenStream>,
    },
}

/// One index element, as an expression whose type says what it is.
pub enum IndexElem {
    /// `index_elem(arg)`; `arg_span` is the argument's own (inside any
    /// parentheses), `span` the element's.
    Elem { span: Span, arg_span: Span, arg: Arg },
    /// `stepped(range, step)`.
    Stepped { span: Span, range: TokenStream, step: TokenStream },
    /// `PySlice::new(start, stop, step)`, `None` parts missing.
    PySlice {
        span: Span,
        start: Option<Bound>,
        stop: Option<Bound>,
        step: Option<Bound>,
    },
    /// `Ellipsis`.
    Ellipsis(Span),
    /// `NewAxis`.
    NewAxis(Span),
    /// `index_elem(mask)`, the mask built as a boolean array.
    Mask { span: Span, mask: MaskArray },
    /// Argument `axis` of `ix_(..)`'s `count`: `cross_axis(arg, axis, count)`,
    /// the array viewed as that axis of the open mesh; `arg_span` is the
    /// argument's own, `span` the whole `ix_(..)`'s.
    Cross {
        span: Span,
        arg_span: Span,
        arg: Arg,
        axis: usize,
        count: usize,
    },
}

impl IndexElem {
    /// Where the element stands in the user's code.
    pub fn span(&self) -> Span {
        match self {
            IndexElem::Elem { span, .. }
            | IndexElem::Stepped { span, .. }
            | IndexElem::PySlice { span, .. }
            | IndexElem::Ellipsis(span)
            | IndexElem::NewAxis(span)
            | IndexElem::Mask { span, .. }
            | IndexElem::Cross { span, .. } => *span,
        }
    }
}

/// A part of a NumPy slice: `bound(expr)`.
pub struct Bound {
    /// Where the part stands.
    pub span: Span,
    /// The part, inside any parentheses.
    pub tokens: TokenStream,
}

/// A mask built as a boolean array: each comparison through `mask`,
/// combined with ndarray's elementwise `&`, `|`, `^` and `!`.
pub enum MaskArray {
    /// `mask(&array, |e| *e op s)`, `s` bound to `scalar` first.
    Compare {
        span: Span,
        array: TokenStream,
        op: Comparison,
        scalar: TokenStream,
    },
    /// `&left op &right`.
    Logic {
        left: Box<MaskArray>,
        op: Logic,
        right: Box<MaskArray>,
    },
    /// `!&inner`.
    Not(Box<MaskArray>),
    /// A boolean array, inside any parentheses: borrowed by the `&` of the
    /// operators around it.
    Array(TokenStream),
}

/// A variable or field borrowed; any other expression as written.
pub fn borrowed(view: View) -> Arg {
    let view = view.unparen();
    match view.expr {
        Expr::Path(_) | Expr::Field(_) => Arg::Borrowed {
            place: view.stream(),
            span: view.span(),
        },
        _ => Arg::Tokens(view.stream()),
    }
}

/// The axis of `along(idx, AXIS)` when it is an integer literal (`1`,
/// `-1`), with the literal's span.
pub fn along_literal_axis(elem: &Elem) -> Option<(isize, Span)> {
    let Elem::Along { axis, .. } = elem else {
        return None;
    };
    let axis = axis.view().unparen().expr;
    let (negative, literal) = match axis {
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => (true, &**expr),
        other => (false, other),
    };
    let Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Int(int), ..
    }) = literal
    else {
        return None;
    };
    let value: isize = int.base10_parse().ok()?;
    Some((if negative { -value } else { value }, syn::spanned::Spanned::span(axis)))
}

/// `nd(idx)` or `along(idx, axis)`: the call, its index array borrowed
/// as any index array is, `rest` (the axis) as written.
fn wrapped(span: Span, call: &Wrapper, rest: Vec<TokenStream>) -> IndexElem {
    IndexElem::Elem {
        span,
        arg_span: call.span,
        arg: Arg::Call {
            func: call.func.clone(),
            span: call.span,
            index: Box::new(borrowed(call.index.view())),
            rest,
        },
    }
}

/// The index elements of one element as written: a variable borrowed,
/// literals typed, a range with a step `stepped`, a NumPy slice `PySlice`,
/// a mask built; and one element per argument of `ix_(..)`, each
/// borrowed as an index array is.
pub fn index_elems(elem: &Elem) -> Vec<IndexElem> {
    let span = elem.span();
    let single = match elem {
        Elem::Mesh { args, span } => return mesh(args, *span),
        Elem::Range { range, step: None } => IndexElem::Elem {
            span,
            arg_span: span,
            arg: Arg::Tokens(typed_literals(range.view()).into_iter().collect()),
        },
        Elem::Range { range, step: Some(step) } => IndexElem::Stepped {
            span,
            range: typed_literals(range.view()).into_iter().collect(),
            step: step.view().unparen().stream(),
        },
        Elem::PySlice { start, stop, step, span } => {
            let bound = |part: &Option<Written>| {
                part.as_ref().map(|part| {
                    let part = part.view().unparen();
                    Bound {
                        span: part.span(),
                        tokens: part.stream(),
                    }
                })
            };
            IndexElem::PySlice {
                span: *span,
                start: bound(start),
                stop: bound(stop),
                step: bound(step),
            }
        }
        Elem::Ellipsis(span) => IndexElem::Ellipsis(*span),
        Elem::NewAxis(span) => IndexElem::NewAxis(*span),
        Elem::Mask(mask) => IndexElem::Mask {
            span,
            mask: mask_array(mask),
        },
        Elem::Nd(call) => wrapped(span, call, Vec::new()),
        Elem::Along { call, axis } => wrapped(span, call, vec![axis.view().stream()]),
        Elem::Expr(expr) => {
            let (arg_span, arg) = array_arg(expr);
            IndexElem::Elem { span, arg_span, arg }
        }
    };
    vec![single]
}

/// The elements of `ix_(args)` written at `span`: argument `k` of `n` is
/// axis `k` of the open mesh.
fn mesh(args: &[Written], span: Span) -> Vec<IndexElem> {
    args.iter()
        .enumerate()
        .map(|(axis, arg)| {
            let (arg_span, arg) = array_arg(arg);
            IndexElem::Cross {
                span,
                arg_span,
                arg,
                axis,
                count: args.len(),
            }
        })
        .collect()
}

/// An index array (or an integer, a mask: an expression whose type says
/// what it is), inside any parentheses: a variable or field borrowed,
/// literals typed; with its own span.
fn array_arg(expr: &Written) -> (Span, Arg) {
    let view = expr.view().unparen();
    let span = view.span();
    let arg = match view.expr {
        Expr::Path(_) | Expr::Field(_) | Expr::Call(_) => borrowed(view),
        expr if is_literal_list(expr) => {
            let list: TokenStream = typed_literals(view).into_iter().collect();
            Arg::Tokens(quote_spanned!(span=> &#list))
        }
        _ => Arg::Tokens(typed_literals(view).into_iter().collect()),
    };
    (span, arg)
}

/// A mask as a boolean array.
fn mask_array(mask: &MaskExpr) -> MaskArray {
    match mask {
        MaskExpr::Compare { array, op, scalar } => MaskArray::Compare {
            span: array.span(),
            array: array.to_token_stream(),
            op: *op,
            scalar: scalar.to_token_stream(),
        },
        MaskExpr::Logic { left, op, right } => MaskArray::Logic {
            left: Box::new(mask_array(left)),
            op: *op,
            right: Box::new(mask_array(right)),
        },
        MaskExpr::Not(inner) => MaskArray::Not(Box::new(mask_array(inner))),
        MaskExpr::Array(array) => MaskArray::Array(array.view().unparen().stream()),
    }
}
