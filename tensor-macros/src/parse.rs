//! Raw tokens → [`Call`]. `x[a, b;2]` and `x[1:4:2]` are not Rust
//! expressions, so the call is split by hand: the trailing options
//! (`; mode = ..., out = ...`),
//! the assignment operator, a `.method(args)` suffix, and the last bracket
//! group, whose elements are split at top-level commas.

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use syn::{Error, Expr};

use crate::ast::{Action, BatchSpec, Call, Elem, Index, IndexRead, ModeSpec, Op, Operand, OutSpec, Wrapper};
use crate::ctxt::{Ctxt, Reported};
use crate::mask;
use crate::written::{Written, is_punct, span_of};

const METHODS: &str = "set, add, sub, mul, div, pow, min, max, apply, get (or JAX's subtract, multiply, divide, power)";

/// Parses a whole macro call, recording in `ctxt` every error it can find.
pub fn parse_call(input: TokenStream, ctxt: &mut Ctxt) -> Result<Call, Reported> {
    let tokens: Vec<TokenTree> = input.into_iter().collect();
    if tokens.is_empty() {
        return Err(ctxt.error(Error::new(
            Span::call_site(),
            "expected `target[index]`, optionally followed by `= value`, `op= value` or `.method(args)`",
        )));
    }
    let (main, options) = match tokens.iter().position(|t| is_punct(t, ';')) {
        Some(i) => (&tokens[..i], parse_options(&tokens[i], &tokens[i + 1..], ctxt)),
        None => (&tokens[..], Ok(Options::default())),
    };
    let (lhs, assignment) = ctxt.ok(split_assignment(main))?;
    let (place, method) = split_method(lhs);
    let method_written = method.is_some();
    let (target, group) = ctxt.ok(split_index(place))?;

    let action = parse_action(assignment, method, ctxt);
    // `&mut x[...]` alone is a mutable view; before a write, `&mut x` stays
    // the target expression it always was.
    let (target, action) = match (split_view_mut(target), action, method_written) {
        (Some((view, target)), Ok(Action::Read), false) => (target, Ok(Action::ViewMut(view))),
        (_, action, _) => (target, action),
    };
    let index = parse_index(group, ctxt);
    let target = ctxt.ok(parse_expr(target, "expected the array before `[`"));
    let Options { mode, out, batch } = options?;
    Ok(Call {
        target: target?,
        index,
        action: action?,
        mode,
        out,
        batch,
    })
}

/// The options after `;`.
#[derive(Default)]
struct Options {
    mode: Option<ModeSpec>,
    out: Option<OutSpec>,
    batch: Option<BatchSpec>,
}

const OPTIONS: &str = "expected `mode = ...`, `out = array` or `batch = k` after `;`";

/// `mode = ..., out = ..., batch = ...`: each option at most once, in any order, split at
/// top-level commas (a trailing one is fine, an empty option is not).
fn parse_options(semicolon: &TokenTree, tokens: &[TokenTree], ctxt: &mut Ctxt) -> Result<Options, Reported> {
    if tokens.is_empty() {
        return Err(ctxt.error(Error::new(semicolon.span(), OPTIONS)));
    }
    let mut options = Options::default();
    let mut failed = None;
    let parts: Vec<&[TokenTree]> = tokens.split(|t| is_punct(t, ',')).collect();
    let last = parts.len() - 1;
    for (k, part) in parts.into_iter().enumerate() {
        let parsed = match part {
            [TokenTree::Ident(key), eq, rest @ ..] if is_punct(eq, '=') => match key.to_string().as_str() {
                "mode" if options.mode.is_some() => Err(twice(key)),
                "mode" => parse_mode(eq, rest).map(|mode| options.mode = Some(mode)),
                "out" if options.out.is_some() => Err(twice(key)),
                "out" if rest.is_empty() => Err(Error::new(eq.span(), "expected the array to read into after `out =`")),
                "out" => Written::parse(rest).map(|array| options.out = Some(OutSpec { key: key.span(), array })),
                "batch" if options.batch.is_some() => Err(twice(key)),
                "batch" => parse_batch(eq, rest).map(|batch| options.batch = Some(batch)),
                other => Err(Error::new(key.span(), format!("unknown option `{other}`: {OPTIONS}"))),
            },
            [first, ..] => Err(Error::new(first.span(), OPTIONS)),
            // A trailing comma.
            [] if k == last && k > 0 => Ok(()),
            [] => Err(Error::new(semicolon.span(), format!("an empty option: {OPTIONS}"))),
        };
        if let Err(error) = parsed {
            failed = Some(ctxt.error(error));
        }
    }
    match failed {
        Some(reported) => Err(reported),
        None => Ok(options),
    }
}

/// An option given twice.
fn twice(key: &proc_macro2::Ident) -> Error {
    Error::new(key.span(), format!("option `{key}` is given twice"))
}

/// What the call does: read, assign, or call a method.
fn parse_action(assignment: Option<Assignment>, method: Option<(syn::Ident, TokenStream)>, ctxt: &mut Ctxt) -> Result<Action, Reported> {
    let mut operand = |tokens, empty| {
        parse_operand(tokens, empty, ctxt).map_err(|error| match error {
            OperandError::Neither(error) => ctxt.error(error),
            OperandError::Reported(reported) => reported,
        })
    };
    match (assignment, method) {
        (Some(_), Some((name, _))) => Err(ctxt.error(Error::new(
            name.span(),
            "cannot assign to a method call: write `x[i].set(v)` or `x[i] = v`",
        ))),
        (Some((None, value)), None) => operand(value, "expected a value after `=`").map(Action::Set),
        (Some((Some(op), value)), None) => operand(value, "expected a value after the operator").map(|value| Action::Update(op, value)),
        (None, Some((name, args))) => parse_method(&name, args, ctxt),
        (None, None) => Ok(Action::Read),
    }
}

/// Why a value is not an [`Operand`].
enum OperandError {
    /// It is neither a Rust expression nor an index read: the expression's
    /// error.
    Neither(Error),
    /// It is an index read with mistakes, already reported.
    Reported(Reported),
}

/// The value right of `=`: a Rust expression, or an index read in this
/// macro's own syntax: anything Rust cannot parse (`x[:-1]`, `y[idx, 0]`)
/// and ranges (`x[1..]`, which ndarray cannot index). Other `y[i]` stay
/// Rust's own indexing (a `Vec`, a slice, an ndarray element).
fn parse_operand(tokens: &[TokenTree], empty: &str, ctxt: &mut Ctxt) -> Result<Operand, OperandError> {
    let is_range_index = |written: &Written| matches!(&*written.expr, Expr::Index(index) if matches!(*index.index, Expr::Range(_)));
    let error = match parse_expr(tokens, empty) {
        Ok(written) if !is_range_index(&written) => return Ok(Operand::Expr(written)),
        Ok(_) => None,
        Err(error) => Some(error),
    };
    match (split_index(tokens), error) {
        (Ok((target, group)), _) => parse_read(tokens, target, group, ctxt).map_err(OperandError::Reported),
        (Err(_), Some(error)) => Err(OperandError::Neither(error)),
        (Err(error), None) => Err(OperandError::Reported(ctxt.error(error))),
    }
}

/// `target[index]` as a value, parsed as the call's own target and index.
/// The target holds no assignment: it would belong to the call
/// (`x[i] = a = y[j]`).
fn parse_read(tokens: &[TokenTree], target: &[TokenTree], group: &proc_macro2::Group, ctxt: &mut Ctxt) -> Result<Operand, Reported> {
    match split_assignment(target) {
        Ok((_, None)) => {}
        Ok((_, Some(_))) => {
            let value: TokenStream = tokens.iter().cloned().collect();
            return Err(ctxt.error(Error::new_spanned(
                value,
                "expected one value after `=`, found an assignment: a call assigns once",
            )));
        }
        Err(error) => return Err(ctxt.error(error)),
    }
    let index = parse_index(group, ctxt);
    let target = ctxt.ok(parse_expr(target, "expected the array before `[`"))?;
    Ok(Operand::Read(Box::new(IndexRead {
        target,
        index,
        span: span_of(tokens),
    })))
}

fn is_joint_punct(token: &TokenTree) -> Option<char> {
    match token {
        TokenTree::Punct(p) if p.spacing() == Spacing::Joint => Some(p.as_char()),
        _ => None,
    }
}

/// Splits `lhs = value` / `lhs op= value`; the operator is `None` for `=`.
type Assignment<'t> = (Option<Op>, &'t [TokenTree]);

fn split_assignment(tokens: &[TokenTree]) -> syn::Result<(&[TokenTree], Option<Assignment<'_>>)> {
    let mut i = 0;
    while i < tokens.len() {
        if !is_punct(&tokens[i], '=') {
            i += 1;
            continue;
        }
        // `==` and `=>`: this `=` is the first of two.
        if is_joint_punct(&tokens[i]).is_some() && tokens.get(i + 1).is_some_and(|t| is_punct(t, '=') || is_punct(t, '>')) {
            i += 2;
            continue;
        }
        let before = i.checked_sub(1).and_then(|j| is_joint_punct(&tokens[j]));
        let before2 = i.checked_sub(2).and_then(|j| is_joint_punct(&tokens[j]));
        let op = match before {
            None => None,
            Some('+') => Some(Op::Add),
            Some('-') => Some(Op::Sub),
            Some('*') => Some(Op::Mul),
            Some('/') => Some(Op::Div),
            Some('%') => Some(Op::Rem),
            Some('&') => Some(Op::BitAnd),
            Some('|') => Some(Op::BitOr),
            Some('^') => Some(Op::BitXor),
            // `!=`, `<=`, `>=` compare; `<<=` and `>>=` are operators.
            Some('!') => {
                i += 1;
                continue;
            }
            Some(c @ ('<' | '>')) if before2 != Some(c) => {
                i += 1;
                continue;
            }
            Some(_) => {
                let start = if matches!(before2, Some('<' | '>')) { i - 2 } else { i - 1 };
                let written: String = tokens[start..=i].iter().map(ToString::to_string).collect();
                return Err(Error::new(
                    tokens[start].span(),
                    format!("unknown operator `{written}`: expected `=`, `+=`, `-=`, `*=`, `/=`, `%=`, `&=`, `|=` or `^=`"),
                ));
            }
        };
        let lhs_end = if op.is_some() { i - 1 } else { i };
        return Ok((&tokens[..lhs_end], Some((op, &tokens[i + 1..]))));
    }
    Ok((tokens, None))
}

/// Splits a trailing `.method(args)`.
fn split_method(tokens: &[TokenTree]) -> (&[TokenTree], Option<(syn::Ident, TokenStream)>) {
    if let [rest @ .., dot, TokenTree::Ident(name), TokenTree::Group(args)] = tokens
        && is_punct(dot, '.')
        && args.delimiter() == Delimiter::Parenthesis
        && matches!(rest.last(), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket)
    {
        return (rest, Some((name.clone(), args.stream())));
    }
    (tokens, None)
}

/// Splits `target [index]` at the last bracket group.
fn split_index(tokens: &[TokenTree]) -> syn::Result<(&[TokenTree], &proc_macro2::Group)> {
    match tokens {
        [target @ .., TokenTree::Group(group)] if group.delimiter() == Delimiter::Bracket => {
            if target.is_empty() {
                Err(Error::new(group.span(), "expected the array before `[`: `x[index]`"))
            } else {
                Ok((target, group))
            }
        }
        _ => {
            let stream: TokenStream = tokens.iter().cloned().collect();
            Err(Error::new_spanned(stream, "expected an index expression `target[index]`"))
        }
    }
}

/// `&mut target`: the span of `&mut` and the target after it.
fn split_view_mut(tokens: &[TokenTree]) -> Option<(Span, &[TokenTree])> {
    match tokens {
        [TokenTree::Punct(and), TokenTree::Ident(word), target @ ..]
            if and.as_char() == '&' && and.spacing() == Spacing::Alone && word == "mut" && !target.is_empty() =>
        {
            Some((and.span().join(word.span()).unwrap_or_else(|| and.span()), target))
        }
        _ => None,
    }
}

/// One expression; `empty` is the error for no tokens at all.
fn parse_expr(tokens: &[TokenTree], empty: &str) -> syn::Result<Written> {
    if tokens.is_empty() {
        return Err(Error::new(Span::call_site(), empty));
    }
    Written::parse(tokens)
}

/// `.name(args)`: an update, `set`, `apply` or `get`.
fn parse_method(name: &syn::Ident, args: TokenStream, ctxt: &mut Ctxt) -> Result<Action, Reported> {
    let tokens: Vec<TokenTree> = args.clone().into_iter().collect();
    let mut operand = || {
        parse_operand(&tokens, "", ctxt).map_err(|error| match error {
            OperandError::Neither(_) => ctxt.error(Error::new(name.span(), format!("`.{name}(...)` takes one argument"))),
            OperandError::Reported(reported) => reported,
        })
    };
    let method = name.to_string();
    let update = match method.as_str() {
        // JAX's `.at[]` names each operation in full; both spellings work.
        "add" => Some(Op::Add),
        "sub" | "subtract" => Some(Op::Sub),
        "mul" | "multiply" => Some(Op::Mul),
        "div" | "divide" => Some(Op::Div),
        "pow" | "power" => Some(Op::Pow),
        "min" => Some(Op::Min),
        "max" => Some(Op::Max),
        _ => None,
    };
    if let Some(op) = update {
        return operand().map(|value| Action::Update(op, value));
    }
    match method.as_str() {
        "set" => operand().map(Action::Set),
        "apply" => ctxt.ok(Written::parse(&tokens)).map(Action::Apply),
        "get" if args.is_empty() => Ok(Action::Read),
        "get" => Err(ctxt.error(Error::new(
            name.span(),
            "`.get()` takes no arguments; the mode goes after `;`: `x[i].get(); mode = fill(0.0)`",
        ))),
        other => Err(ctxt.error(Error::new(
            name.span(),
            format!("unknown method `{other}`: expected one of {METHODS}"),
        ))),
    }
}

/// The count after `batch =`: a non-negative integer literal.
fn parse_batch(eq: &TokenTree, rest: &[TokenTree]) -> syn::Result<BatchSpec> {
    const EXPECTED: &str = "`batch` takes a non-negative integer literal: `batch = 1`";
    let [TokenTree::Literal(literal)] = rest else {
        return Err(Error::new(rest.first().map_or(eq.span(), TokenTree::span), EXPECTED));
    };
    let axes = match syn::Lit::new(literal.clone()) {
        syn::Lit::Int(int) => int.base10_parse::<usize>().map_err(|_| Error::new(literal.span(), EXPECTED))?,
        _ => return Err(Error::new(literal.span(), EXPECTED)),
    };
    Ok(BatchSpec {
        axes,
        span: literal.span(),
    })
}

/// The mode after `mode =`.
fn parse_mode(eq: &TokenTree, rest: &[TokenTree]) -> syn::Result<ModeSpec> {
    let expected = "expected `mode = error`, `clip`, `wrap`, `drop` or `fill(value)` after `;`";
    match rest {
        [TokenTree::Ident(name)] => match name.to_string().as_str() {
            "error" => Ok(ModeSpec::Error(name.span())),
            "clip" => Ok(ModeSpec::Clip(name.span())),
            "wrap" => Ok(ModeSpec::Wrap(name.span())),
            "drop" => Ok(ModeSpec::Drop(name.span())),
            "fill" => Err(Error::new(name.span(), "mode `fill` takes the value to read: `fill(0.0)`")),
            other => Err(Error::new(name.span(), format!("unknown mode `{other}`: {expected}"))),
        },
        [TokenTree::Ident(name), TokenTree::Group(value)] if name == "fill" && value.delimiter() == Delimiter::Parenthesis => {
            let value: Vec<TokenTree> = value.stream().into_iter().collect();
            Ok(ModeSpec::Fill(name.span(), Written::parse(&value)?))
        }
        [first, ..] => Err(Error::new(first.span(), expected)),
        [] => Err(Error::new(eq.span(), expected)),
    }
}

/// Splits the bracket group at top-level commas and parses each element.
fn parse_index(group: &proc_macro2::Group, ctxt: &mut Ctxt) -> Index {
    Index {
        elems: parse_elems(group, ctxt),
        span: group.span(),
    }
}

/// The elements that parse; the others' errors go to `ctxt`.
fn parse_elems(group: &proc_macro2::Group, ctxt: &mut Ctxt) -> Vec<Elem> {
    let tokens: Vec<TokenTree> = group.stream().into_iter().collect();
    if tokens.is_empty() {
        ctxt.error(Error::new(
            group.span(),
            "empty index `[]`: write `x[..]` (or `x[...]`) for the whole array",
        ));
        return Vec::new();
    }
    let mut elems = Vec::new();
    let mut parts = tokens.split(|t| is_punct(t, ',')).peekable();
    while let Some(part) = parts.next() {
        if part.is_empty() {
            // A trailing comma is fine; an empty element between commas is not.
            if parts.peek().is_some() {
                ctxt.error(Error::new(group.span(), "empty index element between commas"));
            }
            continue;
        }
        if let Ok(elem) = ctxt.ok(parse_elem(part)) {
            elems.push(elem);
        }
    }
    elems
}

fn parse_elem(tokens: &[TokenTree]) -> syn::Result<Elem> {
    let span = tokens.first().map_or_else(Span::call_site, TokenTree::span);
    match tokens {
        [a, b, c] if is_punct(a, '.') && is_punct(b, '.') && is_punct(c, '.') => return Ok(Elem::Ellipsis(span)),
        [TokenTree::Ident(name)] if name == "None" || name == "NewAxis" => return Ok(Elem::NewAxis(span)),
        _ => {}
    }
    let separators = slice_separators(tokens);
    if !separators.is_empty() {
        return parse_py_slice(tokens, &separators);
    }
    if let Some(semi) = tokens.iter().position(|t| is_punct(t, ';')) {
        let range = parse_expr(&tokens[..semi], "expected a range before `;step`")?;
        if !matches!(*range.expr, Expr::Range(_)) {
            return Err(Error::new_spanned(&range, "a step `;k` follows a range: `a..b;k`"));
        }
        let step = parse_expr(&tokens[semi + 1..], "expected a step after `;`")?;
        return Ok(Elem::Range { range, step: Some(step) });
    }
    let expr = Written::parse(tokens)?;
    if let Some(mask) = mask::mask(expr.view()) {
        return mask.map(Elem::Mask);
    }
    if let Some(args) = mesh_arguments(&expr) {
        return Ok(Elem::Mesh { args, span: expr.span() });
    }
    if let Some(wrapper) = index_wrapper(&expr) {
        return Ok(wrapper);
    }
    Ok(match *expr.expr {
        Expr::Range(_) => Elem::Range { range: expr, step: None },
        _ => Elem::Expr(expr),
    })
}

/// The arguments of `ix_(a, b, ..)` (or `tensor_at::ix_(..)`, in
/// parentheses or not); `None` for any other expression.
fn mesh_arguments(expr: &Written) -> Option<Vec<Written>> {
    let view = expr.view().unparen();
    let Expr::Call(call) = view.expr else {
        return None;
    };
    let Expr::Path(path) = &*call.func else {
        return None;
    };
    if path.qself.is_some() || path.path.segments.last().is_none_or(|segment| segment.ident != "ix_") {
        return None;
    }
    let (_, _, args) = view.call_arguments()?;
    Some(args.iter().map(|arg| arg.to_written()).collect())
}

/// `nd(idx)` or `along(idx, axis)` (or `tensor_at::nd(..)`, in
/// parentheses or not, the function too), with as many arguments as it
/// takes; `None` for any other expression, which its type then judges.
fn index_wrapper(expr: &Written) -> Option<Elem> {
    fn name(func: &Expr) -> Option<String> {
        match func {
            Expr::Paren(syn::ExprParen { expr, .. }) | Expr::Group(syn::ExprGroup { expr, .. }) => name(expr),
            Expr::Path(path) if path.qself.is_none() => Some(path.path.segments.last()?.ident.to_string()),
            _ => None,
        }
    }
    let view = expr.view().unparen();
    let Expr::Call(call) = view.expr else {
        return None;
    };
    let name = name(&call.func)?;
    if !matches!((name.as_str(), call.args.len()), ("nd", 1) | ("along", 2)) {
        return None;
    }
    let (func, _, args) = view.call_arguments()?;
    let call = Wrapper {
        func: func.into_iter().collect(),
        index: args[0].to_written(),
        span: view.span(),
    };
    Some(match args.get(1) {
        Some(axis) => Elem::Along {
            call,
            axis: axis.to_written(),
        },
        None => Elem::Nd(call),
    })
}

/// Positions of the colons that separate the parts of a NumPy slice. A
/// `::` between two identifiers (or before `<`) is a Rust path, as in
/// `usize::MAX`; every other colon separates (`::2`, `1::2`, `a: :k`).
fn slice_separators(tokens: &[TokenTree]) -> Vec<usize> {
    // `i::k` alone, `k` a lowercase name: NumPy's start and step, not a
    // path (paths to constants are uppercase; to functions, called).
    if let [TokenTree::Ident(_), colon, TokenTree::Punct(_), TokenTree::Ident(step)] = tokens
        && is_joint_punct(colon) == Some(':')
        && step.to_string().starts_with(|c: char| c.is_lowercase())
    {
        return vec![1, 2];
    }
    let mut separators = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let double = is_joint_punct(&tokens[i]) == Some(':') && tokens.get(i + 1).is_some_and(|t| is_punct(t, ':'));
        if double {
            let after_name = i > 0 && (matches!(tokens[i - 1], TokenTree::Ident(_)) || is_punct(&tokens[i - 1], '>'));
            let before_name = matches!(tokens.get(i + 2), Some(TokenTree::Ident(_))) || tokens.get(i + 2).is_some_and(|t| is_punct(t, '<'));
            if !(after_name && before_name) {
                separators.extend([i, i + 1]);
            }
            i += 2;
        } else {
            if is_punct(&tokens[i], ':') {
                separators.push(i);
            }
            i += 1;
        }
    }
    separators
}

fn parse_py_slice(tokens: &[TokenTree], separators: &[usize]) -> syn::Result<Elem> {
    if let Some(third) = separators.get(2).and_then(|&at| tokens.get(at)) {
        return Err(Error::new(third.span(), "a slice has at most three parts: `start:stop:step`"));
    }
    let mut parts = Vec::with_capacity(3);
    let mut from = 0;
    for &separator in separators {
        parts.push(&tokens[from..separator]);
        from = separator + 1;
    }
    parts.push(&tokens[from..]);
    let mut parsed = parts.into_iter().map(|part| match part {
        [] => Ok(None),
        tokens => Written::parse(tokens).map(Some),
    });
    let mut next = || parsed.next().unwrap_or(Ok(None));
    Ok(Elem::PySlice {
        start: next()?,
        stop: next()?,
        step: next()?,
        span: tokens.first().map_or_else(Span::call_site, TokenTree::span),
    })
}
