//! The typed syntax tree of one macro call, spans kept for error messages.

use proc_macro2::Span;
use syn::{BinOp, Expr};

/// `TARGET [ INDEX, ... ] ACTION ; mode = MODE`.
pub struct Call {
    /// The indexed array.
    pub target: Expr,
    /// The index elements, in order.
    pub index: Vec<Elem>,
    /// The bracket group, for errors about the whole index.
    pub index_span: Span,
    /// What the call does.
    pub action: Action,
    /// The out-of-bounds mode, when given.
    pub mode: Option<ModeSpec>,
}

/// One index element.
pub enum Elem {
    /// `a..b;k` and friends (`..` alone included): ndarray `s![]` semantics.
    Range { range: Expr, step: Option<Expr> },
    /// `a:b:c` and friends: NumPy slice semantics. `None` parts are missing.
    PySlice {
        start: Option<Expr>,
        stop: Option<Expr>,
        step: Option<Expr>,
        span: Span,
    },
    /// `...`
    Ellipsis(Span),
    /// `None` or `NewAxis`.
    NewAxis(Span),
    /// `a < s` (and `<= > >= == !=`): the elementwise mask of `a` against `s`.
    Compare { array: Expr, op: BinOp, scalar: Expr },
    /// Anything else: an integer, an integer array or a mask, told apart by its type.
    Expr(Expr),
}

impl Elem {
    /// Where the element stands in the user's code.
    pub fn span(&self) -> Span {
        use syn::spanned::Spanned;
        match self {
            Elem::Range { range, .. } => range.span(),
            Elem::PySlice { span, .. } | Elem::Ellipsis(span) | Elem::NewAxis(span) => *span,
            Elem::Compare { array, .. } => array.span(),
            Elem::Expr(expr) => expr.span(),
        }
    }
}

/// What a call does to the selection.
pub enum Action {
    /// Read it.
    Read,
    /// Set it (`= v`, `.set(v)`).
    Set(Expr),
    /// Combine it with a value (`+= v`, `.add(v)`, `.max(v)`, ...).
    Update(UpdateOp, Expr),
    /// `.apply(f)`.
    Apply(Expr),
}

/// The accumulating operations, named as tensor-core's `Op`.
#[derive(Clone, Copy)]
pub enum UpdateOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Min,
    Max,
}

/// `mode = ...`.
pub enum ModeSpec {
    Error(Span),
    Clip(Span),
    Wrap(Span),
    Drop(Span),
    Fill(Span, Expr),
}

impl UpdateOp {
    /// The variant name of tensor-core's `Op`.
    pub fn name(self) -> &'static str {
        match self {
            UpdateOp::Add => "Add",
            UpdateOp::Sub => "Sub",
            UpdateOp::Mul => "Mul",
            UpdateOp::Div => "Div",
            UpdateOp::Pow => "Pow",
            UpdateOp::Min => "Min",
            UpdateOp::Max => "Max",
        }
    }
}
