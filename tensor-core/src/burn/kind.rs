//! The kinds of burn tensors the macros index (`Float`, `Int`, `Bool`),
//! the host element each takes its values in, and what each kind's
//! updates compute element by element.

use crate::element::Op;
use burn_tensor::{Bool, DType, Element, ElementConversion, Float, Int, Tensor, TensorData};

use super::error::BurnError;
use super::region::Region;
use super::reshape::Reshaped;

/// A burn tensor kind the macros index.
///
/// Its host element is the widest of the kind (`f64`, `i64`, `bool`):
/// scalars and host arrays are converted to the tensor's own data type,
/// as PyTorch converts a Python number, and a read keeps the tensor's type.
///
/// Sealed: implemented for burn's three kinds. Its functions are the
/// adapter's own.
pub trait BurnKind: sealed::Sealed + burn_tensor::kind::Basic + Sized + 'static {
    /// The host element: scalars and host arrays of values hold it.
    type Elem: Element + ElementConversion + crate::element::Arith + Default + Copy + Send + Sync + 'static;

    #[doc(hidden)]
    /// One, which the elements a mask leaves out enter an operation as.
    const ONE: Self::Elem;

    #[doc(hidden)]
    /// The identity of burn's indexed add, which leaves every element's
    /// bits as they are: `-0.0` for floats (`-0.0 + x` is `x`, a `-0.0`
    /// included), `0`, `false` (burn adds booleans with `or`).
    const ADD_IDENTITY: Self::Elem;

    /// The kind's name, for messages.
    const NAME: &'static str;

    #[doc(hidden)]
    /// `self compare other`, element by element, for a mask on the target.
    fn compare(tensor: Tensor<1, Self>, compare: crate::element::Compare, scalar: Self::Elem) -> Tensor<1, Bool>;

    #[doc(hidden)]
    /// `cur op value`, element by element, as tensor-core's element types
    /// compute it; `None` where the kind has no such operation.
    fn combine(cur: Tensor<2, Self>, op: Op, value: Tensor<2, Self>) -> Option<Tensor<2, Self>>;

    #[doc(hidden)]
    /// Whether the kind has `op`.
    fn has(op: Op) -> bool;

    #[doc(hidden)]
    /// Whether `op` is an additive one whose occurrences burn's indexed add
    /// folds in index order, bit for bit as the CPU does (`+=`, `-=`).
    fn adds(op: Op) -> bool {
        matches!(op, Op::Add | Op::Sub)
    }

    #[doc(hidden)]
    /// `-values`, for `-=` (on the kinds that add).
    fn negated(values: Tensor<2, Self>) -> Tensor<2, Self>;

    #[doc(hidden)]
    /// Whether `rows` is on a device with autodiff (only floats carry a
    /// gradient).
    fn on_autodiff(_rows: &Tensor<2, Self>) -> bool {
        false
    }

    #[doc(hidden)]
    /// `values`, cut from the graph: no gradient flows back through them
    /// (only floats carry one).
    fn detached(values: Tensor<2, Self>) -> Tensor<2, Self> {
        values
    }

    #[doc(hidden)]
    /// `rows[at] = values` at distinct rows `at`, or at repeated ones that
    /// all write the same values.
    fn assign(rows: Tensor<2, Self>, at: Tensor<1, Int>, values: Tensor<2, Self>) -> Tensor<2, Self> {
        select_assign_rows(rows, at, values, burn_tensor::IndexingUpdateOp::Assign)
    }

    #[doc(hidden)]
    /// `flat[region] op= values` for `min` and `max`: in rounds, and on
    /// floats on a device with autodiff, with a tie's gradient shared.
    fn min_max(rows: Tensor<2, Self>, region: &Region, values: Tensor<2, Self>, op: Op) -> Tensor<2, Self> {
        super::flat::in_rounds(rows, region, values, op)
    }
}

mod sealed {
    /// Closes [`BurnKind`](super::BurnKind) to burn's kinds.
    pub trait Sealed {}
    impl Sealed for burn_tensor::Float {}
    impl Sealed for burn_tensor::Int {}
    impl Sealed for burn_tensor::Bool {}
}

/// A host vector of the kind's elements as a rank-1 tensor on `device` of
/// data type `dtype`.
pub(crate) fn upload<K: BurnKind>(values: Vec<K::Elem>, device: &burn_tensor::Device, dtype: DType) -> Tensor<1, K> {
    let len = values.len();
    Tensor::from_data(TensorData::new(values, [len]), (device, dtype))
}

/// `rows.select(0, at)`. Rows of one element go through burn's kernels
/// for one axis, which are faster there.
pub(crate) fn select_rows<K: BurnKind>(rows: Tensor<2, K>, at: Tensor<1, Int>) -> Tensor<2, K> {
    let [len, row_len] = rows.dims();
    if row_len != 1 {
        return rows.select(0, at);
    }
    let count = at.dims()[0];
    rows.shaped([len]).select(0, at).shaped([count, 1])
}

/// `rows.select_assign(0, at, values, op)`, as [`select_rows`] selects.
pub(crate) fn select_assign_rows<K: BurnKind>(
    rows: Tensor<2, K>,
    at: Tensor<1, Int>,
    values: Tensor<2, K>,
    op: burn_tensor::IndexingUpdateOp,
) -> Tensor<2, K> {
    let [len, row_len] = rows.dims();
    if row_len != 1 {
        return rows.select_assign(0, at, values, op);
    }
    let count = values.dims()[0];
    rows.shaped([len]).select_assign(0, at, values.shaped([count]), op).shaped([len, 1])
}

/// Integer positions as a rank-1 tensor of `i64` on `device`.
pub(crate) fn positions(values: Vec<i64>, device: &burn_tensor::Device) -> Tensor<1, Int> {
    let len = values.len();
    Tensor::from_data(TensorData::new(values, [len]), (device, DType::I64))
}

fn compare_numeric<K: burn_tensor::kind::Ordered>(
    tensor: Tensor<1, K>,
    compare: crate::element::Compare,
    scalar: impl Element,
) -> Tensor<1, Bool> {
    use crate::element::Compare;
    match compare {
        Compare::Lt => tensor.lower_elem(scalar),
        Compare::Le => tensor.lower_equal_elem(scalar),
        Compare::Gt => tensor.greater_elem(scalar),
        Compare::Ge => tensor.greater_equal_elem(scalar),
        Compare::Eq => tensor.equal_elem(scalar),
        Compare::Ne => tensor.not_equal_elem(scalar),
    }
}

impl BurnKind for Float {
    type Elem = f64;
    const ONE: f64 = 1.0;
    const ADD_IDENTITY: f64 = -0.0;
    const NAME: &'static str = "Float";

    fn has(op: Op) -> bool {
        matches!(op, Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Pow | Op::Rem | Op::Min | Op::Max)
    }

    fn detached(values: Tensor<2, Float>) -> Tensor<2, Float> {
        values.detach()
    }

    // Whether or not this call is tracked (burn tells that only with its
    // `autodiff` feature).
    fn on_autodiff(rows: &Tensor<2, Float>) -> bool {
        rows.is_autodiff()
    }

    fn negated(values: Tensor<2, Float>) -> Tensor<2, Float> {
        -values
    }

    fn min_max(rows: Tensor<2, Float>, region: &Region, values: Tensor<2, Float>, op: Op) -> Tensor<2, Float> {
        match Self::on_autodiff(&rows) {
            true => super::ties::shared(rows, region, values, op),
            false => super::flat::in_rounds(rows, region, values, op),
        }
    }

    fn compare(tensor: Tensor<1, Float>, compare: crate::element::Compare, scalar: f64) -> Tensor<1, Bool> {
        compare_numeric(tensor, compare, scalar)
    }

    fn combine(cur: Tensor<2, Float>, op: Op, value: Tensor<2, Float>) -> Option<Tensor<2, Float>> {
        Some(match op {
            Op::Add => cur + value,
            Op::Sub => cur - value,
            Op::Mul => cur * value,
            Op::Div => cur / value,
            Op::Pow => cur.powf(value),
            Op::Rem => cur.remainder(value),
            // NaN propagates: the current element is kept when it is NaN
            // or wins, the value otherwise (ties included), as on the CPU.
            Op::Min => {
                let keep = cur.clone().is_nan().bool_or(cur.clone().lower(value.clone()));
                value.mask_where(keep, cur)
            }
            Op::Max => {
                let keep = cur.clone().is_nan().bool_or(cur.clone().greater(value.clone()));
                value.mask_where(keep, cur)
            }
            _ => return None,
        })
    }
}

impl BurnKind for Int {
    type Elem = i64;
    const ONE: i64 = 1;
    const ADD_IDENTITY: i64 = 0;
    const NAME: &'static str = "Int";

    fn has(_: Op) -> bool {
        true
    }

    fn negated(values: Tensor<2, Int>) -> Tensor<2, Int> {
        -values
    }

    fn compare(tensor: Tensor<1, Int>, compare: crate::element::Compare, scalar: i64) -> Tensor<1, Bool> {
        compare_numeric(tensor, compare, scalar)
    }

    fn combine(cur: Tensor<2, Int>, op: Op, value: Tensor<2, Int>) -> Option<Tensor<2, Int>> {
        Some(match op {
            Op::Add => cur + value,
            Op::Sub => cur - value,
            Op::Mul => cur * value,
            // `MIN / -1` and `MIN % -1` panic in Rust, in every build, and
            // so inside burn: a divisor of -1 negates (wrapping, as on the
            // CPU, where overflow checks are off) and leaves no remainder.
            Op::Div => {
                let (minus_one, divisor) = without_minus_one(value);
                (cur.clone() / divisor).mask_where(minus_one, -cur)
            }
            Op::Rem => {
                let (minus_one, divisor) = without_minus_one(value);
                cur.remainder(divisor).mask_fill(minus_one, 0)
            }
            Op::Pow => cur.powi(value),
            Op::Min => cur.min_pair(value),
            Op::Max => cur.max_pair(value),
            Op::BitAnd => cur.bitwise_and(value),
            Op::BitOr => cur.bitwise_or(value),
            Op::BitXor => cur.bitwise_xor(value),
        })
    }
}

impl BurnKind for Bool {
    type Elem = bool;
    const ONE: bool = true;
    const ADD_IDENTITY: bool = false;
    const NAME: &'static str = "Bool";

    fn has(_: Op) -> bool {
        false
    }

    fn negated(values: Tensor<2, Bool>) -> Tensor<2, Bool> {
        values
    }

    // burn writes booleans by index only with `or`: the written positions
    // are cleared first, then `or`ed with their values.
    fn assign(rows: Tensor<2, Bool>, at: Tensor<1, Int>, values: Tensor<2, Bool>) -> Tensor<2, Bool> {
        let (device, [len, row_len], count) = (rows.device(), rows.dims(), values.dims()[0]);
        let none = || Tensor::<2, Bool>::full([len, row_len], false, &device);
        let hit = none().select_assign(
            0,
            at.clone(),
            Tensor::full([count, row_len], true, &device),
            burn_tensor::IndexingUpdateOp::Add,
        );
        let placed = none().select_assign(0, at, values, burn_tensor::IndexingUpdateOp::Add);
        rows.mask_where(hit, placed)
    }

    fn compare(tensor: Tensor<1, Bool>, compare: crate::element::Compare, scalar: bool) -> Tensor<1, Bool> {
        use crate::element::Compare;
        // Booleans order false < true, as Rust's do.
        let every = |tensor: Tensor<1, Bool>, holds: bool| match holds {
            true => tensor.clone().equal(tensor),
            false => tensor.clone().not_equal(tensor),
        };
        match (compare, scalar) {
            (Compare::Eq, _) => tensor.equal_elem(scalar),
            (Compare::Ne, _) => tensor.not_equal_elem(scalar),
            (Compare::Lt, true) | (Compare::Le, false) => tensor.bool_not(),
            (Compare::Gt, false) | (Compare::Ge, true) => tensor,
            (Compare::Lt, false) | (Compare::Gt, true) => every(tensor, false),
            (Compare::Le, true) | (Compare::Ge, false) => every(tensor, true),
        }
    }

    fn combine(_: Tensor<2, Bool>, _: Op, _: Tensor<2, Bool>) -> Option<Tensor<2, Bool>> {
        None
    }

    fn adds(_: Op) -> bool {
        false
    }
}

/// Where `divisor` is -1, and `divisor` with 1 there.
fn without_minus_one(divisor: Tensor<2, Int>) -> (Tensor<2, Bool>, Tensor<2, Int>) {
    let minus_one = divisor.clone().equal_elem(-1);
    (minus_one.clone(), divisor.mask_fill(minus_one, 1))
}

/// The error for an operation `kind` has no kernel for.
pub(crate) fn unsupported<K: BurnKind>(op: Op) -> BurnError {
    BurnError::Unsupported {
        operation: op.symbol(),
        reason: format!("burn's {} tensors have no such operation", K::NAME),
    }
}
