//! Instruction sets beyond the x86-64 baseline, as a token: code built for
//! them (`#[target_feature]`) is called only through an [`Isa`] that says
//! the processor has them, and only detection says so.

/// The instruction sets of this processor that builds of the hot loops use.
/// Its fields are private: an `Isa` claiming AVX comes only from
/// [`Isa::detect`], so code that runs AVX instructions when it says so is
/// sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Isa {
    avx: bool,
    avx2: bool,
    avx512f: bool,
}

impl Isa {
    /// What this processor has (cached by the standard library after the
    /// first call).
    #[inline]
    #[cfg_attr(miri, allow(dead_code))] // Miri's machine is fixed
    pub(crate) fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        return Isa {
            avx: std::arch::is_x86_feature_detected!("avx"),
            avx2: std::arch::is_x86_feature_detected!("avx2"),
            avx512f: std::arch::is_x86_feature_detected!("avx512f"),
        };
        #[cfg(not(target_arch = "x86_64"))]
        Isa::baseline()
    }

    /// The baseline only: every processor runs it.
    pub(crate) const fn baseline() -> Self {
        Isa {
            avx: false,
            avx2: false,
            avx512f: false,
        }
    }

    /// Whether 32-byte vector stores (AVX) run here.
    pub(crate) fn avx(self) -> bool {
        self.avx
    }

    /// Whether AVX2 runs here: 64-bit integer comparisons in vectors, and
    /// three-operand selects.
    pub(crate) fn avx2(self) -> bool {
        self.avx2
    }

    /// Whether AVX-512F runs here: 64-byte vector stores, a whole cache
    /// line in one instruction.
    pub(crate) fn avx512f(self) -> bool {
        self.avx512f
    }

    /// These instruction sets, none wider than `ceiling`: only ever fewer
    /// than detection found, so still sound to run.
    #[cfg(any(test, feature = "forced-machine"))]
    pub(crate) fn at_most(self, ceiling: IsaCeiling) -> Self {
        Isa {
            avx: self.avx && ceiling >= IsaCeiling::Avx,
            avx2: self.avx2 && ceiling >= IsaCeiling::Avx2,
            avx512f: self.avx512f && ceiling >= IsaCeiling::Avx512f,
        }
    }
}

/// The widest instruction set a forced machine lets the hot loops use
/// (feature `forced-machine`), in order: a ceiling, never more than the
/// processor has.
#[cfg(any(test, feature = "forced-machine"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum IsaCeiling {
    /// The x86-64 baseline (SSE2).
    Baseline,
    /// AVX.
    Avx,
    /// AVX2.
    Avx2,
    /// AVX-512F.
    Avx512f,
}

#[cfg(test)]
mod tests {
    use super::Isa;

    #[test]
    fn detection_claims_nothing_the_processor_lacks() {
        let isa = Isa::detect();
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(isa.avx(), std::arch::is_x86_feature_detected!("avx"));
            assert_eq!(isa.avx2(), std::arch::is_x86_feature_detected!("avx2"));
            assert_eq!(isa.avx512f(), std::arch::is_x86_feature_detected!("avx512f"));
        }
        let baseline = Isa::baseline();
        assert!(!baseline.avx() && !baseline.avx2() && !baseline.avx512f());
        // AVX2 extends AVX, and AVX-512F extends AVX2.
        assert!(!isa.avx2() || isa.avx());
        assert!(!isa.avx512f() || isa.avx2());
    }

    #[test]
    fn a_ceiling_only_takes_instruction_sets_away() {
        use super::IsaCeiling;
        let isa = Isa::detect();
        assert_eq!(isa.at_most(IsaCeiling::Avx512f), isa);
        assert_eq!(isa.at_most(IsaCeiling::Baseline), Isa::baseline());
        let avx2 = isa.at_most(IsaCeiling::Avx2);
        assert_eq!((avx2.avx(), avx2.avx2(), avx2.avx512f()), (isa.avx(), isa.avx2(), false));
        assert_eq!(Isa::baseline().at_most(IsaCeiling::Avx512f), Isa::baseline());
    }
}
