//! The comparison of the mask sugar `x[x < s]`.

/// The comparison of a mask `x OP s` (the mask sugar `at!(x[x < s] = v)`).
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
    /// The comparison on the host, as Rust's operators evaluate it (the
    /// kernels evaluate it the same way).
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
}
