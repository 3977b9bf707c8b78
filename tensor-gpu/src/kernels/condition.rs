//! A mask's condition as a kernel evaluates it at one position: comparisons
//! of the element there with scalars, of another tensor's element there
//! (its buffer one of a sequence of operands), of flags marked by an
//! earlier pass (a comparison the kernel cannot read in place), and
//! `& | ^ !`. The condition is a compile-time parameter, so each
//! expression shape is its own kernel, and the comparisons run in the pass
//! that writes or gathers the element. One comparison is tensor-core's
//! [`Compare`], a compile-time parameter, evaluated on the device by
//! [`holds()`], here and in the passes that mark flags
//! ([`masked`](super::masked)).

use cubecl::prelude::*;
use tensor_core::element::Compare;

use crate::buffer::Buffer;
use crate::device::Gpu;

/// `element compare threshold` on the device; NaN compares false except
/// with `Ne`, as on the host.
#[cube]
pub(crate) fn holds<T: Numeric>(element: T, threshold: T, #[comptime] compare: Compare) -> bool {
    match compare {
        Compare::Lt => element < threshold,
        Compare::Le => element <= threshold,
        Compare::Gt => element > threshold,
        Compare::Ge => element >= threshold,
        Compare::Eq => element == threshold,
        Compare::Ne => !(element == threshold),
    }
}

/// A condition ready to launch: its program, the scalars its comparisons
/// read, and the rows of flags its [`Step::Flag`]s read (one row per
/// position of the region), on the device.
pub(crate) struct Condition<T> {
    program: Program,
    scalars: Buffer<T>,
    flags: Buffer<u32>,
    /// The tensors its [`Step::Operand`]s read (in C order from their
    /// origin), and those origins.
    operands: Vec<Buffer<T>>,
    offsets: Buffer<u32>,
}

/// A [`Condition`] as a kernel argument.
#[derive(CubeType, CubeLaunch)]
pub(crate) struct ConditionArg<T: Numeric> {
    scalars: Box<[T]>,
    flags: Box<[u32]>,
    operands: Sequence<Box<[T]>>,
    offsets: Box<[u32]>,
    /// Compile-time: each program is its own kernel.
    #[cube(comptime)]
    pub(crate) program: Program,
}

impl<T: Numeric + CubeElement> Condition<T> {
    /// `program` reading `scalars` and the rows of `flags`.
    pub(crate) fn new(gpu: &Gpu, program: Program, scalars: &[T], flags: Option<Buffer<u32>>) -> Self {
        Condition::with_operands(gpu, program, scalars, flags, Vec::new())
    }

    /// `program` reading `scalars`, the rows of `flags`, and `operands`
    /// (each a buffer and the origin its elements are read from).
    pub(crate) fn with_operands(
        gpu: &Gpu,
        program: Program,
        scalars: &[T],
        flags: Option<Buffer<u32>>,
        operands: Vec<(Buffer<T>, u32)>,
    ) -> Self {
        // A kernel's array argument is never empty.
        let scalars = match scalars {
            [] => gpu.constant(&[T::from_int(0)]),
            scalars => gpu.constant(scalars),
        };
        let flags = flags.unwrap_or_else(|| gpu.constant(&[0u32]));
        let mut offsets: Vec<u32> = operands.iter().map(|(_, offset)| *offset).collect();
        if offsets.is_empty() {
            offsets.push(0);
        }
        Condition {
            program,
            scalars,
            flags,
            operands: operands.into_iter().map(|(buffer, _)| buffer).collect(),
            offsets: gpu.constant(&offsets),
        }
    }

    /// The condition as a kernel argument.
    pub(crate) fn arg(&self) -> ConditionArgLaunch<T> {
        let mut operands = SequenceArg::new();
        for operand in &self.operands {
            operands.push(operand.arg());
        }
        ConditionArgLaunch::new(
            self.scalars.arg(),
            self.flags.arg(),
            operands,
            self.offsets.arg(),
            self.program.clone(),
        )
    }

    /// `element compare threshold`.
    pub(crate) fn compare(gpu: &Gpu, (compare, threshold): (Compare, T)) -> Self {
        Condition::new(gpu, Program::compare(compare), &[threshold], None)
    }
}

/// One step of a condition, in postfix order.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub(crate) enum Step {
    /// `element compare scalars[scalar]`.
    Compare { compare: Compare, scalar: usize },
    /// `flags[row * len + position] != 0`.
    Flag { row: usize },
    /// `operands[operand][offsets[operand] + position] compare scalars[scalar]`:
    /// a comparison on another tensor of the element's type, read in the
    /// same pass.
    Operand { compare: Compare, scalar: usize, operand: usize },
    /// Both of the two conditions before it.
    And,
    /// Either.
    Or,
    /// Exactly one.
    Xor,
    /// Not the condition before it.
    Not,
}

/// A whole condition: its steps in postfix order, the root last.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub(crate) struct Program {
    steps: Vec<Step>,
}

impl Program {
    /// The condition of `steps` (postfix, well formed: every operator has
    /// its operands before it, and one condition is left).
    pub(crate) fn new(steps: Vec<Step>) -> Self {
        let program = Program { steps };
        debug_assert_eq!(program.start(program.root()), 0, "a well-formed postfix condition");
        program
    }

    /// `element compare scalars[0]`.
    pub(crate) fn compare(compare: Compare) -> Self {
        Program::new(vec![Step::Compare { compare, scalar: 0 }])
    }

    /// The position of the root step.
    pub(crate) fn root(&self) -> usize {
        self.steps.len() - 1
    }

    /// Whether any step compares the element (else the kernels need not
    /// read it).
    pub(crate) fn reads_element(&self) -> bool {
        self.steps.iter().any(|step| matches!(step, Step::Compare { .. }))
    }

    /// The step at `at`.
    fn step(&self, at: usize) -> Step {
        self.steps[at]
    }

    /// The first step of the condition whose root is at `at`.
    fn start(&self, at: usize) -> usize {
        match self.steps[at] {
            Step::Compare { .. } | Step::Flag { .. } | Step::Operand { .. } => at,
            Step::Not => self.start(at - 1),
            Step::And | Step::Or | Step::Xor => self.start(self.start(at - 1) - 1),
        }
    }

    /// The roots of the operands of the operator at `at`: `(left, right)`
    /// for a binary one (`left` is unused for `!`).
    fn operands(&self, at: usize) -> (usize, usize) {
        let right = at - 1;
        match self.steps[at] {
            Step::And | Step::Or | Step::Xor => (self.start(right) - 1, right),
            _ => (right, right),
        }
    }

    fn is_compare(&self, at: usize) -> bool {
        matches!(self.step(at), Step::Compare { .. })
    }
    fn is_operand(&self, at: usize) -> bool {
        matches!(self.step(at), Step::Operand { .. })
    }
    fn operand(&self, at: usize) -> (Compare, usize, usize) {
        match self.step(at) {
            Step::Operand { compare, scalar, operand } => (compare, scalar, operand),
            _ => unreachable!("an operand step"),
        }
    }
    fn is_flag(&self, at: usize) -> bool {
        matches!(self.step(at), Step::Flag { .. })
    }
    fn is_not(&self, at: usize) -> bool {
        matches!(self.step(at), Step::Not)
    }
    fn is(&self, at: usize, step: Step) -> bool {
        self.step(at) == step
    }
    fn comparison(&self, at: usize) -> (Compare, usize) {
        match self.step(at) {
            Step::Compare { compare, scalar } => (compare, scalar),
            _ => unreachable!("a comparison step"),
        }
    }
    fn row(&self, at: usize) -> usize {
        match self.step(at) {
            Step::Flag { row } => row,
            _ => unreachable!("a flag step"),
        }
    }
}

/// Whether `condition` holds for `element` at `position` (of `len`).
#[cube]
pub(crate) fn evaluate<T: Numeric>(element: T, position: u32, condition: &ConditionArg<T>, len: u32) -> bool {
    evaluate_step::<T>(element, position, condition, len, comptime!(condition.program.root()))
}

/// Whether the condition rooted at step `at` holds; expanded at compile
/// time into straight-line code.
#[cube]
fn evaluate_step<T: Numeric>(element: T, position: u32, condition: &ConditionArg<T>, len: u32, #[comptime] at: usize) -> bool {
    let program = comptime!(condition.program.clone());
    if comptime!(program.is_compare(at)) {
        let (compare, scalar) = comptime!(program.comparison(at));
        holds::<T>(element, condition.scalars[scalar], compare)
    } else if comptime!(program.is_operand(at)) {
        let (compare, scalar, operand) = comptime!(program.operand(at));
        let value = condition.operands[operand][(condition.offsets[operand] + position) as usize];
        holds::<T>(value, condition.scalars[scalar], compare)
    } else if comptime!(program.is_flag(at)) {
        let row = comptime!(program.row(at)) as u32;
        condition.flags[(row * len + position) as usize] != 0
    } else if comptime!(program.is_not(at)) {
        let inner = comptime!(program.operands(at).1);
        !evaluate_step::<T>(element, position, condition, len, inner)
    } else {
        let (left, right) = comptime!(program.operands(at));
        let left = evaluate_step::<T>(element, position, condition, len, left);
        let right = evaluate_step::<T>(element, position, condition, len, right);
        if comptime!(program.is(at, Step::And)) {
            left && right
        } else if comptime!(program.is(at, Step::Or)) {
            left || right
        } else {
            left != right
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_are_found_in_postfix_order() {
        // (a & !f) | b
        let a = Step::Compare {
            compare: Compare::Gt,
            scalar: 0,
        };
        let b = Step::Compare {
            compare: Compare::Lt,
            scalar: 1,
        };
        let program = Program::new(vec![a, Step::Flag { row: 0 }, Step::Not, Step::And, b, Step::Or]);
        assert_eq!(program.root(), 5);
        assert_eq!(program.operands(5), (3, 4));
        assert_eq!(program.operands(3), (0, 2));
        assert_eq!(program.operands(2).1, 1);
        assert_eq!(program.start(3), 0);
        assert!(program.reads_element());
        assert!(!Program::new(vec![Step::Flag { row: 0 }]).reads_element());
    }
}
