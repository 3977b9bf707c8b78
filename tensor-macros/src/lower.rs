//! A checked [`Call`] → [`Lowered`]: every decision of the expansion is
//! made here (which entry point, a fused mask pass or a built mask, borrow
//! or move, the literals' types, the predicate), so `expand.rs` only
//! quotes. Lowering cannot fail: every checked call has an expansion.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::{Expr, Ident};

use crate::ast::{Action, Call, Comparison, Elem, Index, IndexRead, Logic, MaskExpr, ModeSpec, Operand, UpdateOp};
use crate::literals::typed_literals;
use crate::written::{View, Written};

/// Which macro is expanding.
#[derive(Clone, Copy)]
pub struct Flavor {
    /// `set!`/`try_set!`: updates return a new array.
    pub copy: bool,
    /// `try_at!`/`try_set!`: a `Result` instead of a panic.
    pub fallible: bool,
}

/// One call, ready to quote.
pub struct Lowered {
    /// The index's bracket group. Entry points carry its span, so type
    /// errors about the whole index (too many indices) point at it.
    pub at: Span,
    /// The index elements, in order; none for a fused mask pass, which
    /// tests the elements itself.
    pub index: Vec<IndexElem>,
    /// The entry point and its arguments.
    pub entry: Entry,
    /// What the caller gets.
    pub outcome: Outcome,
}

/// What the caller gets from the entry point's `Result`.
pub enum Outcome {
    /// `at!`, `set!`: the value, or a panic with the error.
    Unwrap,
    /// `try_at!`, `try_set!`: the `Result` itself.
    Result,
}

/// The runtime entry point of the call, one variant each.
pub enum Entry {
    /// `read(target, index, mode)`
    Read { target: Place, mode: Mode },
    /// `read_filled(target, index, fill)`
    ReadFilled { target: Place, fill: TokenStream },
    /// `set(target, index, value, mode)`
    Set { target: Place, value: Value, mode: Mode },
    /// `update(target, index, op, value, mode)`
    Update {
        target: Place,
        op: Ident,
        value: Value,
        mode: Mode,
    },
    /// `apply(target, index, f, mode)`
    Apply { target: Place, f: TokenStream, mode: Mode },
    /// `set_copy(source, index, value, mode)`
    SetCopy { source: Source, value: Value, mode: Mode },
    /// `update_copy(source, index, op, value, mode)`
    UpdateCopy {
        source: Source,
        op: Ident,
        value: Value,
        mode: Mode,
    },
    /// `apply_copy(source, index, f, mode)`
    ApplyCopy { source: Source, f: TokenStream, mode: Mode },
    /// `read_where(target, predicate)`
    ReadWhere { target: Place, predicate: Predicate },
    /// `set_where(target, predicate, value)`
    SetWhere { target: Place, predicate: Predicate, value: Value },
    /// `set_where_copy(source, predicate, value)`
    SetWhereCopy {
        source: Source,
        predicate: Predicate,
        value: Value,
    },
    /// `update_where(target, predicate, op, value)`
    UpdateWhere {
        target: Place,
        predicate: Predicate,
        op: Ident,
        value: Value,
    },
    /// `update_where_copy(source, predicate, op, value)`
    UpdateWhereCopy {
        source: Source,
        predicate: Predicate,
        op: Ident,
        value: Value,
    },
}

/// The target, as written, reached through `AsTarget`.
pub struct Place {
    /// The user's tokens.
    pub tokens: TokenStream,
    /// Where they stand.
    pub span: Span,
}

/// What `set!` copies from.
pub enum Source {
    /// A place: borrowed, and copied.
    Borrowed(Place),
    /// Any other expression: taken by value, and updated in its own buffer.
    Consumed(TokenStream),
}

/// The value of a write, evaluated before the target is borrowed mutably
/// (as `x[i] = v` does) and bound to a name carrying `span`.
pub struct Value {
    /// Where type errors about the value point.
    pub span: Span,
    /// How it is evaluated.
    pub kind: ValueKind,
}

/// How a value is evaluated.
pub enum ValueKind {
    /// An expression, passed as [`Arg`] says.
    Expr(Arg),
    /// An index read, lowered as `try_at!` lowers it (of the target
    /// itself, maybe): its error is the call's, and its result is copied
    /// before the target is borrowed for writing, as NumPy copies
    /// overlapping operands.
    Read(Box<Lowered>),
}

/// An expression passed to the runtime.
pub enum Arg {
    /// As written (with typed literals, in an index).
    Tokens(TokenStream),
    /// `&place`: a variable or field is borrowed, so indexing never moves
    /// it, as NumPy users expect.
    Borrowed { place: TokenStream, span: Span },
    /// `nd(arg)`, its argument passed as [`Arg`] says.
    Nd { func: TokenStream, span: Span, arg: Box<Arg> },
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
            | IndexElem::Mask { span, .. } => *span,
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

/// The test of a fused mask pass on each element of the target.
pub enum Predicate {
    /// One comparison, also passed as data, for backends that cannot run a
    /// closure: `Predicate::compare(Compare::compare, &scalar, |e| test)`.
    Compare { compare: Ident, scalar: Scalar, test: Test },
    /// `Predicate::test(|e| test)`, its scalars bound first, in order.
    Test { scalars: Vec<Scalar>, test: Test },
}

/// A comparison's scalar, evaluated once before the pass.
pub struct Scalar {
    /// The binding's hygienic name.
    pub name: Ident,
    /// The scalar as written.
    pub value: TokenStream,
}

/// The test of one element `e`.
pub enum Test {
    /// `*e op scalar`.
    Compare { op: Comparison, scalar: Ident },
    /// `left op right`.
    Logic { left: Box<Test>, op: Logic, right: Box<Test> },
    /// `!inner`.
    Not(Box<Test>),
}

/// The out-of-bounds mode passed to an entry point.
pub enum Mode {
    /// None given: `Mode::Error`.
    Default,
    /// `Mode::Error`, `Mode::Clip`, `Mode::Wrap` or `Mode::Drop`, named and
    /// placed where the user wrote it.
    Named(Ident),
    /// `Mode::Fill(value)`.
    Fill(Span, TokenStream),
}

/// Lowers a checked call for one macro.
pub fn lower(call: &Call, flavor: Flavor) -> Lowered {
    let parts = Parts {
        target: &call.target,
        index: &call.index,
        action: &call.action,
        mode: call.mode.as_ref(),
    };
    parts.lower(flavor)
}

/// A read used as a value, lowered as `try_at!` lowers its call.
fn lower_read(read: &IndexRead) -> Lowered {
    let parts = Parts {
        target: &read.target,
        index: &read.index,
        action: &Action::Read,
        mode: None,
    };
    parts.lower(Flavor {
        copy: false,
        fallible: true,
    })
}

/// What lowering reads of a call, or of a read used as a value.
struct Parts<'c> {
    target: &'c Written,
    index: &'c Index,
    action: &'c Action,
    mode: Option<&'c ModeSpec>,
}

impl Parts<'_> {
    fn lower(&self, flavor: Flavor) -> Lowered {
        let outcome = match flavor.fallible {
            true => Outcome::Result,
            false => Outcome::Unwrap,
        };
        let (index, entry) = match self.mask_path() {
            MaskPath::Fused { predicate, action } => (Vec::new(), self.fused_entry(predicate, action, flavor)),
            MaskPath::Built => (self.index.elems.iter().map(index_elem).collect(), self.indexed_entry(flavor)),
        };
        Lowered {
            at: self.index.span,
            index,
            entry,
            outcome,
        }
    }
}

/// How a mask index reaches the runtime.
enum MaskPath<'c> {
    /// `at!(x[x < s] = v)`, `at!(x[(x > a) & (x < b)] op= v)`,
    /// `at!(x[x < s])`: the only element is a mask whose every comparison
    /// is on the target itself, so one pass over the target decides and
    /// writes (or reads), and no mask is built.
    Fused { predicate: Predicate, action: FusedAction<'c> },
    /// Any other index: masks among its elements are built as boolean
    /// arrays (a mask on another array, or with a boolean array in it, has
    /// no element test; `apply` has no fused entry point).
    Built,
}

/// The actions a fused pass serves.
enum FusedAction<'c> {
    Read,
    Set(&'c Operand),
    Update(UpdateOp, &'c Operand),
}

impl<'c> Parts<'c> {
    fn mask_path(&self) -> MaskPath<'c> {
        let [Elem::Mask(mask)] = self.index.elems.as_slice() else {
            return MaskPath::Built;
        };
        let action = match self.action {
            Action::Read => FusedAction::Read,
            Action::Set(value) => FusedAction::Set(value),
            Action::Update(op, value) => FusedAction::Update(*op, value),
            Action::Apply(_) => return MaskPath::Built,
        };
        let mut scalars = Vec::new();
        let Some(test) = element_test(mask, &self.target.expr, &mut scalars) else {
            return MaskPath::Built;
        };
        let mut scalars = scalars.into_iter();
        let predicate = match (mask, scalars.next(), scalars.next()) {
            (MaskExpr::Compare { op, .. }, Some(scalar), None) => Predicate::Compare {
                compare: Ident::new(op.name(), self.index.span),
                scalar,
                test,
            },
            (_, first, second) => Predicate::Test {
                scalars: first.into_iter().chain(second).chain(scalars).collect(),
                test,
            },
        };
        MaskPath::Fused { predicate, action }
    }
}

/// The mask as a test of one element of `target`, its scalars bound in
/// `scalars` left to right; `None` when it compares another array or holds
/// a boolean array.
fn element_test(mask: &MaskExpr, target: &Expr, scalars: &mut Vec<Scalar>) -> Option<Test> {
    Some(match mask {
        MaskExpr::Compare { array, op, scalar } => {
            if !same_expression(&array.expr, target) {
                return None;
            }
            let name = Ident::new(&format!("__tensor_at_scalar{}", scalars.len()), Span::mixed_site());
            scalars.push(Scalar {
                name: name.clone(),
                value: scalar.to_token_stream(),
            });
            Test::Compare { op: *op, scalar: name }
        }
        MaskExpr::Logic { left, op, right } => Test::Logic {
            left: Box::new(element_test(left, target, scalars)?),
            op: *op,
            right: Box::new(element_test(right, target, scalars)?),
        },
        MaskExpr::Not(inner) => Test::Not(Box::new(element_test(inner, target, scalars)?)),
        MaskExpr::Array(_) => return None,
    })
}

/// Whether two expressions are the same, compared as syn's trees (names,
/// operators, literals as written; not spans). Invisible delimiters around
/// either are looked through: a `macro_rules!` fragment `$x` is `x`.
fn same_expression(a: &Expr, b: &Expr) -> bool {
    ungrouped(a) == ungrouped(b)
}

fn ungrouped(expr: &Expr) -> &Expr {
    match expr {
        Expr::Group(group) => ungrouped(&group.expr),
        other => other,
    }
}

impl Parts<'_> {
    fn fused_entry(&self, predicate: Predicate, action: FusedAction, flavor: Flavor) -> Entry {
        let op = |op: UpdateOp| Ident::new(op.name(), self.index.span);
        match (action, flavor.copy) {
            (FusedAction::Read, _) => Entry::ReadWhere {
                target: place(self.target),
                predicate,
            },
            (FusedAction::Set(value), false) => Entry::SetWhere {
                target: place(self.target),
                predicate,
                value: value_of(value),
            },
            (FusedAction::Set(value), true) => Entry::SetWhereCopy {
                source: source(self.target),
                predicate,
                value: value_of(value),
            },
            (FusedAction::Update(update, value), false) => Entry::UpdateWhere {
                target: place(self.target),
                predicate,
                op: op(update),
                value: value_of(value),
            },
            (FusedAction::Update(update, value), true) => Entry::UpdateWhereCopy {
                source: source(self.target),
                predicate,
                op: op(update),
                value: value_of(value),
            },
        }
    }

    fn indexed_entry(&self, flavor: Flavor) -> Entry {
        let op = |op: &UpdateOp| Ident::new(op.name(), self.index.span);
        let mode = mode(self.mode);
        match (self.action, flavor.copy) {
            (Action::Read, _) => match self.mode {
                Some(ModeSpec::Fill(_, fill)) => Entry::ReadFilled {
                    target: place(self.target),
                    fill: fill.to_token_stream(),
                },
                _ => Entry::Read {
                    target: place(self.target),
                    mode,
                },
            },
            (Action::Set(v), false) => Entry::Set {
                target: place(self.target),
                value: value_of(v),
                mode,
            },
            (Action::Update(o, v), false) => Entry::Update {
                target: place(self.target),
                op: op(o),
                value: value_of(v),
                mode,
            },
            (Action::Apply(f), false) => Entry::Apply {
                target: place(self.target),
                f: f.to_token_stream(),
                mode,
            },
            (Action::Set(v), true) => Entry::SetCopy {
                source: source(self.target),
                value: value_of(v),
                mode,
            },
            (Action::Update(o, v), true) => Entry::UpdateCopy {
                source: source(self.target),
                op: op(o),
                value: value_of(v),
                mode,
            },
            (Action::Apply(f), true) => Entry::ApplyCopy {
                source: source(self.target),
                f: f.to_token_stream(),
                mode,
            },
        }
    }
}

fn place(target: &Written) -> Place {
    Place {
        tokens: target.to_token_stream(),
        span: target.span(),
    }
}

/// A place (a variable, field, element or dereference) is borrowed and
/// copied; any other expression is taken by value.
fn source(target: &Written) -> Source {
    match is_place(&target.expr) {
        true => Source::Borrowed(place(target)),
        false => Source::Consumed(target.to_token_stream()),
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

fn value_of(value: &Operand) -> Value {
    let kind = match value {
        Operand::Expr(expr) => ValueKind::Expr(borrowed(expr.view())),
        Operand::Read(read) => ValueKind::Read(Box::new(lower_read(read))),
    };
    Value { span: value.span(), kind }
}

/// A variable or field borrowed, `nd(idx)` with `idx` borrowed the same
/// way; any other expression as written.
fn borrowed(view: View) -> Arg {
    let view = view.unparen();
    match view.expr {
        Expr::Path(_) | Expr::Field(_) => Arg::Borrowed {
            place: view.stream(),
            span: view.span(),
        },
        Expr::Call(call) if is_nd(&call.func) => match view.single_argument_call() {
            Some((func, _, arg)) => Arg::Nd {
                func: func.into_iter().collect(),
                span: view.span(),
                arg: Box::new(borrowed(arg)),
            },
            None => Arg::Tokens(view.stream()),
        },
        _ => Arg::Tokens(view.stream()),
    }
}

fn is_nd(func: &Expr) -> bool {
    match func {
        Expr::Paren(syn::ExprParen { expr, .. }) | Expr::Group(syn::ExprGroup { expr, .. }) => is_nd(expr),
        Expr::Path(path) => path.path.segments.last().is_some_and(|segment| segment.ident == "nd"),
        _ => false,
    }
}

fn index_elem(elem: &Elem) -> IndexElem {
    let span = elem.span();
    match elem {
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
        Elem::Expr(expr) => {
            let view = expr.view().unparen();
            let arg_span = view.span();
            let arg = match view.expr {
                Expr::Path(_) | Expr::Field(_) | Expr::Call(_) => borrowed(view),
                _ => Arg::Tokens(typed_literals(view).into_iter().collect()),
            };
            IndexElem::Elem { span, arg_span, arg }
        }
    }
}

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

fn mode(mode: Option<&ModeSpec>) -> Mode {
    let named = |name: &str, span: &Span| Mode::Named(Ident::new(name, *span));
    match mode {
        None => Mode::Default,
        Some(ModeSpec::Error(span)) => named("Error", span),
        Some(ModeSpec::Clip(span)) => named("Clip", span),
        Some(ModeSpec::Wrap(span)) => named("Wrap", span),
        Some(ModeSpec::Drop(span)) => named("Drop", span),
        Some(ModeSpec::Fill(span, value)) => Mode::Fill(*span, value.to_token_stream()),
    }
}
