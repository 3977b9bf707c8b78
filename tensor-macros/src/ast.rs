//! The typed syntax tree of one macro call, spans kept for error messages
//! and the user's own tokens kept for the expansion ([`Written`]).

use proc_macro2::{Punct, Spacing, Span, TokenStream};
use quote::{ToTokens, TokenStreamExt};
use syn::Token;

pub use tensor_ops::{Compare, Op};

use crate::written::Written;

/// `TARGET [ INDEX, ... ] ACTION ; mode = MODE, out = OUT, batch = K`.
pub struct Call {
    /// The indexed array.
    pub target: Written,
    /// Its index.
    pub index: Index,
    /// What the call does.
    pub action: Action,
    /// The out-of-bounds mode, when given.
    pub mode: Option<ModeSpec>,
    /// The array a read fills, when given.
    pub out: Option<OutSpec>,
    /// The leading axes paired, when given.
    pub batch: Option<BatchSpec>,
}

/// `batch = K`: the leading `K` axes of the target, of every index array
/// and mask, and of an array value are paired position by position.
#[derive(Clone, Copy)]
pub struct BatchSpec {
    /// `K`.
    pub axes: usize,
    /// Where `K` stands.
    pub span: Span,
}

/// `out = ARRAY`: a read into an existing array.
pub struct OutSpec {
    /// Where `out` stands.
    pub key: Span,
    /// The array.
    pub array: Written,
}

/// `[ INDEX, ... ]`.
pub struct Index {
    /// The elements, in order.
    pub elems: Vec<Elem>,
    /// The bracket group, for errors about the whole index.
    pub span: Span,
}

/// `TARGET [ INDEX, ... ]` written as a value (`x[1:] = x[:-1]`): a read
/// in the macro's own syntax.
pub struct IndexRead {
    /// The array read.
    pub target: Written,
    /// Its index.
    pub index: Index,
    /// Where the whole read stands.
    pub span: Span,
}

/// The value of a write.
pub enum Operand {
    /// A Rust expression.
    Expr(Written),
    /// An index read: anything Rust cannot parse (`x[:-1]`, `y[idx, 0]`)
    /// and reads by a range (`x[1..]`, which ndarray cannot index).
    Read(Box<IndexRead>),
}

impl Operand {
    /// Where the value stands in the user's code.
    pub fn span(&self) -> Span {
        match self {
            Operand::Expr(expr) => expr.span(),
            Operand::Read(read) => read.span,
        }
    }
}

/// One index element.
pub enum Elem {
    /// `a..b;k` and friends (`..` alone included): ndarray `s![]` semantics.
    Range { range: Written, step: Option<Written> },
    /// `a:b:c` and friends: NumPy slice semantics. `None` parts are missing.
    PySlice {
        start: Option<Written>,
        stop: Option<Written>,
        step: Option<Written>,
        span: Span,
    },
    /// `...`
    Ellipsis(Span),
    /// `None` or `NewAxis`.
    NewAxis(Span),
    /// `a < s` (and `<= > >= == !=`): the elementwise mask of `a` against
    /// `s`, or such comparisons combined with `&`, `|`, `^` and `!`.
    Mask(MaskExpr),
    /// `ix_(a, b, ..)`: NumPy's open mesh, one argument per axis it
    /// consumes (none when written `ix_()`, which the check refuses). Told
    /// by its name when parsed; no later stage looks at names.
    Mesh {
        /// The arguments, in order.
        args: Vec<Written>,
        /// Where the whole `ix_(..)` stands.
        span: Span,
    },
    /// `nd(idx)`: an array of points, its last axis their coordinates.
    /// Told by its name when parsed, as `ix_` is.
    Nd(Wrapper),
    /// `along(idx, axis)`: NumPy's `take_along_axis` picks. Told by its
    /// name when parsed.
    Along {
        /// The call and its index array.
        call: Wrapper,
        /// The axis, as written.
        axis: Written,
    },
    /// Anything else: an integer, an integer array or a mask, told apart by its type.
    Expr(Written),
}

/// A call of `nd` or `along` (`tensor_at::nd(..)` too): the function as
/// written, and the index array it wraps.
pub struct Wrapper {
    /// The function, as written (`nd`, `tensor_at::along`).
    pub func: TokenStream,
    /// The index array, the call's first argument.
    pub index: Written,
    /// Where the whole call stands.
    pub span: Span,
}

impl Elem {
    /// Where the element stands in the user's code.
    pub fn span(&self) -> Span {
        match self {
            Elem::Range { range, .. } => range.span(),
            Elem::PySlice { span, .. } | Elem::Ellipsis(span) | Elem::NewAxis(span) | Elem::Mesh { span, .. } => *span,
            Elem::Nd(call) | Elem::Along { call, .. } => call.span,
            Elem::Mask(mask) => mask.span(),
            Elem::Expr(expr) => expr.span(),
        }
    }
}

/// A boolean mask written as NumPy writes it: `(x > 0) & (y != 2)`.
pub enum MaskExpr {
    /// `array op scalar`, elementwise.
    Compare { array: Written, op: Comparison, scalar: Written },
    /// `a & b`, `a | b`, `a ^ b`, elementwise.
    Logic {
        left: Box<MaskExpr>,
        op: Logic,
        right: Box<MaskExpr>,
    },
    /// `!a`, elementwise.
    Not(Box<MaskExpr>),
    /// A boolean array among comparisons: `(x > 0) & m`.
    Array(Written),
}

impl MaskExpr {
    /// Where the mask stands in the user's code (its first comparison).
    pub fn span(&self) -> Span {
        match self {
            MaskExpr::Compare { array, .. } => array.span(),
            MaskExpr::Logic { left, .. } => left.span(),
            MaskExpr::Not(inner) => inner.span(),
            MaskExpr::Array(array) => array.span(),
        }
    }
}

/// A comparison operator of a mask, where it was written.
#[derive(Clone, Copy)]
pub struct Comparison {
    /// Which comparison.
    pub compare: Compare,
    /// The operator's (first character's) span.
    pub span: Span,
}

impl Comparison {
    /// The same test with its operands swapped: `0 < x` is `x > 0`.
    pub fn swapped(self) -> Comparison {
        Comparison {
            compare: self.compare.swapped(),
            span: self.span,
        }
    }
}

impl ToTokens for Comparison {
    /// The operator as Rust spells it, its characters joined, at its span.
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let mut chars = self.compare.symbol().chars().peekable();
        while let Some(c) = chars.next() {
            let spacing = if chars.peek().is_some() { Spacing::Joint } else { Spacing::Alone };
            let mut punct = Punct::new(c, spacing);
            punct.set_span(self.span);
            tokens.append(punct);
        }
    }
}

/// An elementwise logical operator of a mask, with its span.
#[derive(Clone, Copy)]
pub enum Logic {
    /// `&`
    And(Token![&]),
    /// `|`
    Or(Token![|]),
    /// `^`
    Xor(Token![^]),
}

impl Logic {
    /// The variant name of tensor-core's `Step`.
    pub fn name(self) -> &'static str {
        match self {
            Logic::And(_) => "And",
            Logic::Or(_) => "Or",
            Logic::Xor(_) => "Xor",
        }
    }

    /// How the operator is spelled.
    pub fn spelling(self) -> &'static str {
        match self {
            Logic::And(_) => "&",
            Logic::Or(_) => "|",
            Logic::Xor(_) => "^",
        }
    }
}

impl ToTokens for Logic {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Logic::And(token) => token.to_tokens(tokens),
            Logic::Or(token) => token.to_tokens(tokens),
            Logic::Xor(token) => token.to_tokens(tokens),
        }
    }
}

/// What a call does to the selection.
pub enum Action {
    /// Read it.
    Read,
    /// Lend it mutably (`&mut x[...]`, where `&mut` stands at the span): a
    /// view of a basic index.
    ViewMut(Span),
    /// Set it (`= v`, `.set(v)`).
    Set(Operand),
    /// Combine it with a value (`+= v`, `.add(v)`, `.max(v)`, ...).
    Update(Op, Operand),
    /// `.apply(f)`.
    Apply(Written),
}

/// `mode = ...`.
pub enum ModeSpec {
    Error(Span),
    Clip(Span),
    Wrap(Span),
    Drop(Span),
    Fill(Span, Written),
}
