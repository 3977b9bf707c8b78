//! A checked [`Call`] → [`Lowered`]: every decision of the expansion is
//! made here (which entry point, a fused mask pass or a built mask, borrow
//! or move, the literals' types, the predicate), so `expand.rs` only
//! quotes. Lowering cannot fail: every checked call has an expansion.
//!
//! This file picks the entry point and how the target and value are
//! passed; `fused.rs` decides whether a mask runs as one pass over the
//! target, and `lower_index.rs` how the index elements are passed.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::{Expr, Ident};

use crate::ast::{Action, BatchSpec, Call, Index, IndexRead, ModeSpec, Op, Operand, OutSpec};
use crate::fused::{FusedAction, MaskPath, Predicate, mask_path};
use crate::lower_index::{Arg, IndexElem, along_literal_axis, borrowed, index_elems};
use crate::written::Written;

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
    /// `batch = K` (none for 0): the index list is batched.
    pub batch: Option<BatchSpec>,
    /// What the target is checked for at compile time, beyond the index
    /// list's ranks: its batch axes, a literal `along` axis.
    pub checks: Vec<TargetCheck>,
    /// The entry point and its arguments.
    pub entry: Entry,
    /// What the caller gets.
    pub outcome: Outcome,
}

/// A compile-time check of the target's rank, placed on what it checks.
pub enum TargetCheck {
    /// It has the `batch = K` axes.
    Batch(BatchSpec),
    /// It has `axes` axes (counting the batch's), for a literal `along` axis.
    AlongAxis { axes: usize, span: Span },
    /// Its elements have bits, for `&= |= ^=` (placed on the target).
    Bitwise(Span),
    /// Its elements have an order, for `min` and `max` (placed on the target).
    Ordered(Span),
}

/// What the caller gets from the entry point's `Result`.
pub enum Outcome {
    /// `at!`, `set!`: the value, or a panic with the error.
    Unwrap,
    /// `at!`'s reads and writes in place, and `set!`'s `=` and `op=`: the
    /// same, by the entry point's own panicking form (`read_unwrap`,
    /// `set_unwrap`, `update_unwrap`, `set_copy_unwrap`,
    /// `update_copy_unwrap`), whose inline paths have no `Result` to unwrap.
    UnwrapInside,
    /// `try_at!`, `try_set!`: the `Result` itself.
    Result,
}

/// The runtime entry point of the call, one variant each.
pub enum Entry {
    /// `read(target, index, mode)`
    Read { target: Place, mode: Mode },
    /// `view_mut(target, index)`
    ViewMut { target: Place },
    /// `read_filled(target, index, fill)`
    ReadFilled { target: Place, fill: TokenStream },
    /// `read_into(target, index, mode, out)`
    ReadInto { target: Place, mode: Mode, out: Place },
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
        out: call.out.as_ref(),
        batch: call.batch.filter(|batch| batch.axes > 0),
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
        out: None,
        batch: None,
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
    out: Option<&'c OutSpec>,
    batch: Option<BatchSpec>,
}

impl Parts<'_> {
    /// The lowered call for one macro.
    fn lower(&self, flavor: Flavor) -> Lowered {
        let outcome = match flavor.fallible {
            true => Outcome::Result,
            false => Outcome::Unwrap,
        };
        // A read into an array fills it through the index; the fused mask
        // pass returns a new one, and pairs no batch axes.
        let path = match (self.out, self.batch) {
            (None, None) => mask_path(self.target, self.index, self.action),
            _ => MaskPath::Built,
        };
        let (index, entry) = match path {
            MaskPath::Fused { predicate, action } => (Vec::new(), self.fused_entry(predicate, action, flavor)),
            MaskPath::Built => (self.index.elems.iter().flat_map(index_elems).collect(), self.indexed_entry(flavor)),
        };
        let outcome = match (outcome, &entry) {
            (
                Outcome::Unwrap,
                Entry::Read { .. } | Entry::Set { .. } | Entry::Update { .. } | Entry::SetCopy { .. } | Entry::UpdateCopy { .. },
            ) => Outcome::UnwrapInside,
            (outcome, _) => outcome,
        };
        Lowered {
            at: self.index.span,
            index,
            batch: self.batch,
            checks: self.checks(),
            entry,
            outcome,
        }
    }

    /// The target's checks: the batch axes, and the axes a literal `along`
    /// axis needs (`a + 1` for `a >= 0`, `-a` for `a < 0`, after the batch).
    fn checks(&self) -> Vec<TargetCheck> {
        let batch = self.batch.map_or(0, |batch| batch.axes);
        let along = self
            .index
            .elems
            .iter()
            .filter_map(along_literal_axis)
            .map(|(axis, span)| TargetCheck::AlongAxis {
                axes: batch + if axis >= 0 { axis.unsigned_abs() + 1 } else { axis.unsigned_abs() },
                span,
            });
        let elements = match self.action {
            Action::Update(op, _) if op.bitwise() => Some(TargetCheck::Bitwise(self.target.span())),
            Action::Update(Op::Min | Op::Max, _) => Some(TargetCheck::Ordered(self.target.span())),
            _ => None,
        };
        self.batch
            .map(TargetCheck::Batch)
            .into_iter()
            .chain(along)
            .chain(elements)
            .collect()
    }

    /// The entry point of a fused mask pass.
    fn fused_entry(&self, predicate: Predicate, action: FusedAction, flavor: Flavor) -> Entry {
        let op = |op: Op| Ident::new(op.name(), self.index.span);
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

    /// The entry point of an index passed as a list of elements.
    fn indexed_entry(&self, flavor: Flavor) -> Entry {
        let op = |op: &Op| Ident::new(op.name(), self.index.span);
        let mode = mode(self.mode);
        match (self.action, flavor.copy) {
            (Action::Read, _) => match (self.out, self.mode) {
                (Some(out), _) => Entry::ReadInto {
                    target: place(self.target),
                    mode,
                    out: place(&out.array),
                },
                (None, Some(ModeSpec::Fill(_, fill))) => Entry::ReadFilled {
                    target: place(self.target),
                    fill: fill.to_token_stream(),
                },
                (None, _) => Entry::Read {
                    target: place(self.target),
                    mode,
                },
            },
            // `set!` reads as `at!` does, and so lends as `at!` does.
            (Action::ViewMut(_), _) => Entry::ViewMut {
                target: place(self.target),
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

/// The target as written.
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

/// A variable, field, element or dereference, in parentheses or not.
fn is_place(expr: &Expr) -> bool {
    match expr {
        Expr::Path(_) | Expr::Field(_) | Expr::Index(_) => true,
        Expr::Unary(unary) => matches!(unary.op, syn::UnOp::Deref(_)),
        Expr::Paren(syn::ExprParen { expr, .. }) | Expr::Group(syn::ExprGroup { expr, .. }) => is_place(expr),
        _ => false,
    }
}

/// An expression value borrowed as [`borrowed`] says; a read lowered as
/// `try_at!` lowers it.
fn value_of(value: &Operand) -> Value {
    let kind = match value {
        Operand::Expr(expr) => ValueKind::Expr(borrowed(expr.view())),
        Operand::Read(read) => ValueKind::Read(Box::new(lower_read(read))),
    };
    Value { span: value.span(), kind }
}

/// The mode as written. `fill` reaches an update only when the check that
/// rejects it has not run; the runtime then returns its unsupported-mode
/// error.
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
