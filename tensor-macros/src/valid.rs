//! Checks the parsed call for mistakes the types cannot see: two ellipses,
//! a literal zero step, and modes used where they have no meaning.

use syn::{Error, Expr, Lit, Result, UnOp};

use crate::ast::{Action, Call, Elem, ModeSpec};
use crate::errors::Errors;

/// Every error in the call, combined.
pub fn check(call: &Call) -> Result<()> {
    let mut errors = Errors::default();
    let mut ellipses = call.index.iter().filter_map(|elem| match elem {
        Elem::Ellipsis(span) => Some(*span),
        _ => None,
    });
    if let (Some(_), Some(second)) = (ellipses.next(), ellipses.next()) {
        errors.push(Error::new(second, "an index can only have a single ellipsis (`...`)"));
    }
    for elem in &call.index {
        let step = match elem {
            Elem::Range { step, .. } | Elem::PySlice { step, .. } => step.as_ref(),
            _ => None,
        };
        if let Some(step) = step.filter(|step| is_literal_zero(step)) {
            errors.push(Error::new_spanned(step, "slice step cannot be zero"));
        }
    }
    match (&call.action, &call.mode) {
        (Action::Read, Some(ModeSpec::Drop(span))) => {
            errors.push(Error::new(*span, "mode `drop` applies to updates; reads take `fill(value)`"));
        }
        (Action::Set(_) | Action::Update(..) | Action::Apply(_), Some(ModeSpec::Fill(span, _))) => {
            errors.push(Error::new(
                *span,
                "mode `fill` applies to reads; updates take `drop` to skip out-of-bounds positions",
            ));
        }
        _ => {}
    }
    errors.finish()
}

/// `0`, `-0`, `(0)`.
fn is_literal_zero(expr: &Expr) -> bool {
    match expr {
        Expr::Lit(lit) => matches!(&lit.lit, Lit::Int(int) if int.base10_digits() == "0"),
        Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => is_literal_zero(&unary.expr),
        Expr::Paren(paren) => is_literal_zero(&paren.expr),
        Expr::Group(group) => is_literal_zero(&group.expr),
        _ => false,
    }
}
