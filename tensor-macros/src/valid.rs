//! Checks the parsed call for mistakes the types cannot see: two ellipses,
//! a literal zero step (in the call's index and in a read used as its
//! value), `along(..)` beside other elements, `ix_()` with no argument,
//! and modes or an `out` array used where they have no meaning.

use syn::{Error, Expr, Lit, UnOp};

use crate::ast::{Action, Call, Elem, Index, ModeSpec, Operand};
use crate::ctxt::Ctxt;

/// Records in `ctxt` every mistake of the call.
pub fn check(call: &Call, ctxt: &mut Ctxt) {
    check_index(&call.index, ctxt);
    if let Action::Set(Operand::Read(read)) | Action::Update(_, Operand::Read(read)) = &call.action {
        check_index(&read.index, ctxt);
    }
    match (&call.action, &call.mode) {
        (Action::Read, Some(ModeSpec::Drop(span))) => {
            ctxt.error(Error::new(*span, "mode `drop` applies to updates; reads take `fill(value)`"));
        }
        (Action::Set(_) | Action::Update(..) | Action::Apply(_), Some(ModeSpec::Fill(span, _))) => {
            ctxt.error(Error::new(
                *span,
                "mode `fill` applies to reads; updates take `drop` to skip out-of-bounds positions",
            ));
        }
        _ => {}
    }
    if let Action::ViewMut(view) = &call.action
        && (call.mode.is_some() || call.out.is_some() || call.batch.is_some())
    {
        ctxt.error(Error::new(
            *view,
            "`&mut x[...]` is a view of the array: it takes no `mode`, `out` or `batch` option",
        ));
    }
    if let (Some(out), Action::Set(_) | Action::Update(..) | Action::Apply(_)) = (&call.out, &call.action) {
        ctxt.error(Error::new(
            out.key,
            "`out = array` applies to reads (`at!(x[idx]; out = buf)`), not to updates",
        ));
    }
}

/// At most one ellipsis, and no step that is a literal zero.
fn check_index(index: &Index, ctxt: &mut Ctxt) {
    let mut ellipses = index.elems.iter().filter_map(|elem| match elem {
        Elem::Ellipsis(span) => Some(*span),
        _ => None,
    });
    if let (Some(_), Some(second)) = (ellipses.next(), ellipses.next()) {
        ctxt.error(Error::new(second, "an index can only have a single ellipsis (`...`)"));
    }
    if index.elems.len() > 1
        && let Some(along) = index.elems.iter().find(|elem| matches!(elem, Elem::Along { .. }))
    {
        ctxt.error(Error::new(
            along.span(),
            "`along(idx, axis)` must be the only element of the index (it picks along one axis and spans the others)",
        ));
    }
    for elem in &index.elems {
        if let Elem::Mesh { args, span } = elem
            && args.is_empty()
        {
            ctxt.error(Error::new(
                *span,
                "`ix_()` needs at least one array: `ix_(rows, cols)` indexes their cross product",
            ));
        }
        let step = match elem {
            Elem::Range { step, .. } | Elem::PySlice { step, .. } => step.as_ref(),
            _ => None,
        };
        if let Some(step) = step.filter(|step| is_literal_zero(&step.expr)) {
            ctxt.error(Error::new_spanned(step, "slice step cannot be zero"));
        }
    }
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
