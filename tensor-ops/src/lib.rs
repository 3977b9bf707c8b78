//! The accumulating operations ([`Op`]) and mask comparisons ([`Compare`])
//! of tensor-at.
//!
//! The macros parse `+=` or `.max(v)` to an [`Op`] and `x < s` to a
//! [`Compare`]; the CPU runtime applies them; the GPU kernels take them as
//! compile-time parameters. Each is defined here once, so that no crate
//! keeps a mirror of another's enum and a table between the two.
//!
//! Both enums are exhaustive: a new operation is a new release of every
//! crate that matches on them, and the compiler finds each match.

#![no_std]

/// An accumulating operation: `x[i] op= v` for each occurrence, in index order.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Op {
    /// `+=`, `np.add.at`.
    Add,
    /// `-=`, `np.subtract.at`.
    Sub,
    /// `*=`, `np.multiply.at`.
    Mul,
    /// `/=`, `np.divide.at`; integer division truncates toward zero, as Rust's `/`.
    Div,
    /// `np.power.at`.
    Pow,
    /// `np.minimum.at`: NaN propagates.
    Min,
    /// `np.maximum.at`: NaN propagates.
    Max,
    /// `%=`, `np.remainder.at`: the remainder takes the divisor's sign, as
    /// in NumPy and Python (not Rust's `%`); an integer divisor of zero is
    /// an error, a float one gives NaN.
    Rem,
    /// `&=`, `np.bitwise_and.at` (`np.logical_and.at` on `bool`): integers
    /// and `bool` only.
    BitAnd,
    /// `|=`, `np.bitwise_or.at`: integers and `bool` only.
    BitOr,
    /// `^=`, `np.bitwise_xor.at`: integers and `bool` only.
    BitXor,
}

impl Op {
    /// Every operation, in declaration order ([`Op::index`]).
    pub const ALL: [Op; 11] = [
        Op::Add,
        Op::Sub,
        Op::Mul,
        Op::Div,
        Op::Pow,
        Op::Min,
        Op::Max,
        Op::Rem,
        Op::BitAnd,
        Op::BitOr,
        Op::BitXor,
    ];

    /// The place of `self` in [`Op::ALL`], for sets and tables of operations.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The operator or method that writes `self` in the macros, for messages.
    pub const fn symbol(self) -> &'static str {
        match self {
            Op::Add => "+=",
            Op::Sub => "-=",
            Op::Mul => "*=",
            Op::Div => "/=",
            Op::Pow => "pow",
            Op::Min => "min",
            Op::Max => "max",
            Op::Rem => "%=",
            Op::BitAnd => "&=",
            Op::BitOr => "|=",
            Op::BitXor => "^=",
        }
    }

    /// The variant's name, as code that names it writes it (`Op::Add`): what
    /// the macros' expansions refer to.
    pub const fn name(self) -> &'static str {
        match self {
            Op::Add => "Add",
            Op::Sub => "Sub",
            Op::Mul => "Mul",
            Op::Div => "Div",
            Op::Pow => "Pow",
            Op::Min => "Min",
            Op::Max => "Max",
            Op::Rem => "Rem",
            Op::BitAnd => "BitAnd",
            Op::BitOr => "BitOr",
            Op::BitXor => "BitXor",
        }
    }

    /// Whether the operation works on the bits of its elements, so needs
    /// integers or `bool`.
    pub const fn bitwise(self) -> bool {
        matches!(self, Op::BitAnd | Op::BitOr | Op::BitXor)
    }
}

/// The comparison of a mask written on the target itself, `x[x < s]`.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Compare {
    /// `x < s`
    Lt,
    /// `x <= s`
    Le,
    /// `x > s`
    Gt,
    /// `x >= s`
    Ge,
    /// `x == s`
    Eq,
    /// `x != s` (true for NaN, as in Rust).
    Ne,
}

impl Compare {
    /// Every comparison, in declaration order.
    pub const ALL: [Compare; 6] = [Compare::Lt, Compare::Le, Compare::Gt, Compare::Ge, Compare::Eq, Compare::Ne];

    /// Whether `element compare threshold` holds, as Rust's operators
    /// evaluate it.
    pub fn holds<T: PartialOrd>(self, element: &T, threshold: &T) -> bool {
        match self {
            Compare::Lt => element < threshold,
            Compare::Le => element <= threshold,
            Compare::Gt => element > threshold,
            Compare::Ge => element >= threshold,
            Compare::Eq => element == threshold,
            Compare::Ne => element != threshold,
        }
    }

    /// The same test with its operands swapped: `s < x` is `x > s`.
    pub const fn swapped(self) -> Compare {
        match self {
            Compare::Lt => Compare::Gt,
            Compare::Gt => Compare::Lt,
            Compare::Le => Compare::Ge,
            Compare::Ge => Compare::Le,
            Compare::Eq | Compare::Ne => self,
        }
    }

    /// The operator, as Rust writes it.
    pub const fn symbol(self) -> &'static str {
        match self {
            Compare::Lt => "<",
            Compare::Le => "<=",
            Compare::Gt => ">",
            Compare::Ge => ">=",
            Compare::Eq => "==",
            Compare::Ne => "!=",
        }
    }

    /// The variant's name, as code that names it writes it (`Compare::Lt`).
    pub const fn name(self) -> &'static str {
        match self {
            Compare::Lt => "Lt",
            Compare::Le => "Le",
            Compare::Gt => "Gt",
            Compare::Ge => "Ge",
            Compare::Eq => "Eq",
            Compare::Ne => "Ne",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    extern crate std;
    use std::format;

    #[test]
    fn all_lists_each_operation_at_its_index() {
        for (k, op) in Op::ALL.into_iter().enumerate() {
            assert_eq!(op.index(), k);
            assert_eq!(format!("{op:?}"), op.name());
        }
        for compare in Compare::ALL {
            assert_eq!(format!("{compare:?}"), compare.name());
        }
    }

    #[test]
    fn swapped_comparisons_agree_with_the_operators() {
        let values = [-1.0, 0.0, 2.5, f64::NAN];
        for compare in Compare::ALL {
            assert_eq!(compare.swapped().swapped(), compare);
            for a in values {
                for b in values {
                    assert_eq!(
                        compare.holds(&a, &b),
                        compare.swapped().holds(&b, &a),
                        "{a} {} {b}",
                        compare.symbol()
                    );
                }
            }
        }
    }

    #[test]
    fn holds_is_the_operator_it_names() {
        type Operator = fn(&i32, &i32) -> bool;
        let operators: [(&str, Operator); 6] = [
            ("<", |a, b| a < b),
            ("<=", |a, b| a <= b),
            (">", |a, b| a > b),
            (">=", |a, b| a >= b),
            ("==", |a, b| a == b),
            ("!=", |a, b| a != b),
        ];
        for compare in Compare::ALL {
            let (_, operator) = operators.iter().find(|(symbol, _)| *symbol == compare.symbol()).unwrap();
            for (a, b) in [(1, 2), (2, 2), (3, 2)] {
                assert_eq!(compare.holds(&a, &b), operator(&a, &b));
            }
        }
    }
}
