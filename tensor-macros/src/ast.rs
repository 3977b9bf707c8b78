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
    /// Whether the value is itself an index read (`x[1:] = x[:-1]`), parsed
    /// into a `try_at!` call: its result is checked, then copied.
    pub value_is_read: bool,
}

/// One index element.
// A handful per macro call, at compile time: size does not matter (and
// `syn::Expr` grows with the syn features other crates in the build enable).
#[allow(clippy::large_enum_variant)]
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
    /// `a < s` (and `<= > >= == !=`): the elementwise mask of `a` against
    /// `s`, or such comparisons combined with `&`, `|`, `^` and `!`.
    Mask(MaskExpr),
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
            Elem::Mask(mask) => mask.span(),
            Elem::Expr(expr) => expr.span(),
        }
    }
}

/// A boolean mask written as NumPy writes it: `(x > 0) & (y != 2)`.
#[allow(clippy::large_enum_variant)] // a handful per macro call, never stored
pub enum MaskExpr {
    /// `array op scalar`, elementwise.
    Compare { array: Expr, op: BinOp, scalar: Expr },
    /// `a & b`, `a | b`, `a ^ b`, elementwise.
    Logic {
        left: Box<MaskExpr>,
        op: BinOp,
        right: Box<MaskExpr>,
    },
    /// `!a`, elementwise.
    Not(Box<MaskExpr>),
    /// A boolean array among comparisons: `(x > 0) & m`.
    Array(Expr),
}

impl MaskExpr {
    /// Where the mask stands in the user's code (its first comparison).
    pub fn span(&self) -> Span {
        use syn::spanned::Spanned;
        match self {
            MaskExpr::Compare { array, .. } => array.span(),
            MaskExpr::Logic { left, .. } => left.span(),
            MaskExpr::Not(inner) => inner.span(),
            MaskExpr::Array(array) => array.span(),
        }
    }

    /// The arrays compared, left to right, or `None` when a boolean array
    /// stands among the comparisons.
    pub fn compared_arrays(&self) -> Option<Vec<&Expr>> {
        match self {
            MaskExpr::Compare { array, .. } => Some(vec![array]),
            MaskExpr::Logic { left, right, .. } => Some([left.compared_arrays()?, right.compared_arrays()?].concat()),
            MaskExpr::Not(inner) => inner.compared_arrays(),
            MaskExpr::Array(_) => None,
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
// A handful per macro call, at compile time: size does not matter (and
// `syn::Expr` grows with the syn features other crates in the build enable).
#[allow(clippy::large_enum_variant)]
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
