//! Whether a mask index runs as one fused pass over its target, and the
//! predicate of that pass.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::{Expr, Ident};

use crate::ast::{Action, Comparison, Elem, Index, Logic, MaskExpr, Op, Operand};
use crate::written::Written;

/// How a mask index reaches the runtime.
pub enum MaskPath<'c> {
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
pub enum FusedAction<'c> {
    /// `read_where`.
    Read,
    /// `set_where`, `set_where_copy`.
    Set(&'c Operand),
    /// `update_where`, `update_where_copy`.
    Update(Op, &'c Operand),
}

/// How the index of a call (or of a read used as a value) on `target`
/// doing `action` reaches the runtime.
pub fn mask_path<'c>(target: &Written, index: &Index, action: &'c Action) -> MaskPath<'c> {
    let [Elem::Mask(mask)] = index.elems.as_slice() else {
        return MaskPath::Built;
    };
    let action = match action {
        Action::Read => FusedAction::Read,
        Action::Set(value) => FusedAction::Set(value),
        Action::Update(op, value) => FusedAction::Update(*op, value),
        Action::Apply(_) | Action::ViewMut(_) => return MaskPath::Built,
    };
    let mut scalars = Vec::new();
    let Some(test) = element_test(mask, &target.expr, &mut scalars) else {
        return MaskPath::Built;
    };
    let mut scalars = scalars.into_iter();
    let predicate = match (mask, scalars.next(), scalars.next()) {
        (MaskExpr::Compare { op, .. }, Some(scalar), None) => Predicate::Compare {
            compare: Ident::new(op.compare.name(), index.span),
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

/// The expression inside any invisible delimiters.
fn ungrouped(expr: &Expr) -> &Expr {
    match expr {
        Expr::Group(group) => ungrouped(&group.expr),
        other => other,
    }
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

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use proc_macro2::TokenStream;

    use super::*;
    use crate::pipeline::checked_call;

    /// Whether the call runs as a fused pass, and with which predicate.
    fn path_of(call: &str) -> &'static str {
        path_of_tokens(TokenStream::from_str(call).expect("the test's call lexes"))
    }

    fn path_of_tokens(call: TokenStream) -> &'static str {
        let Ok(call) = checked_call(call) else {
            return "error";
        };
        match mask_path(&call.target, &call.index, &call.action) {
            MaskPath::Fused {
                predicate: Predicate::Compare { .. },
                ..
            } => "compare",
            MaskPath::Fused {
                predicate: Predicate::Test { .. },
                ..
            } => "test",
            MaskPath::Built => "built",
        }
    }

    #[test]
    fn masks_on_the_target_itself_are_fused() {
        assert_eq!(path_of("x[x > 0] = 1"), "compare");
        assert_eq!(path_of("x[0 < x] += 1"), "compare");
        assert_eq!(path_of("self.a[(self.a > 0) & !(self.a == 3)]"), "test");
        assert_eq!(path_of("x[(x > 0)] = y[:-1]"), "compare");
    }

    #[test]
    fn fragments_of_a_macro_are_the_expressions_they_hold() {
        // `$x[$x > 0]` from `macro_rules!`: invisible groups around both.
        let x = proc_macro2::Group::new(proc_macro2::Delimiter::None, quote::quote!(x));
        assert_eq!(path_of_tokens(quote::quote!(#x[#x > 0] = 1)), "compare");
        assert_eq!(path_of_tokens(quote::quote!(#x[x > 0] = 1)), "compare");
        let mask = proc_macro2::Group::new(proc_macro2::Delimiter::None, quote::quote!(x > 0));
        assert_eq!(path_of_tokens(quote::quote!(#x[#mask] = 1)), "compare");
    }

    #[test]
    fn other_masks_are_built() {
        assert_eq!(path_of("x[y > 0] = 1"), "built");
        assert_eq!(path_of("x[(x) > 0] = 1"), "built");
        assert_eq!(path_of("x[(x > 0) & m] = 1"), "built");
        assert_eq!(path_of("x[x > 0, 1] = 1"), "built");
        assert_eq!(path_of("x[x > 0].apply(f)"), "built");
    }
}
