//! NumPy's broadcasting of shapes, written once: the index arrays of an
//! advanced index (`advanced.rs`), `along`'s index against its target
//! (`along.rs`), and a backend's operands that broadcast together (a mask
//! compared with another tensor's elements).

/// The length two axes broadcast to: the same length, or either one 1;
/// `None` when they differ otherwise.
pub fn broadcast_len(a: usize, b: usize) -> Option<usize> {
    match (a, b) {
        _ if a == b || b == 1 => Some(a),
        (1, b) => Some(b),
        _ => None,
    }
}

/// The shape `shapes` broadcast to, aligned at their last axes (a missing
/// leading axis counts as length 1); `None` when two of them do not
/// broadcast.
pub fn broadcast_shapes<'s>(shapes: impl IntoIterator<Item = &'s [usize]>) -> Option<Vec<usize>> {
    let mut out: Vec<usize> = Vec::new();
    for shape in shapes {
        if shape.len() > out.len() {
            out.splice(0..0, std::iter::repeat_n(1, shape.len() - out.len()));
        }
        let offset = out.len() - shape.len();
        for (len, &other) in out[offset..].iter_mut().zip(shape) {
            *len = broadcast_len(*len, other)?;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_broadcast_where_equal_or_one() {
        assert_eq!(broadcast_len(3, 3), Some(3));
        assert_eq!(broadcast_len(1, 4), Some(4));
        assert_eq!(broadcast_len(4, 1), Some(4));
        assert_eq!(broadcast_len(0, 1), Some(0));
        assert_eq!(broadcast_len(1, 0), Some(0));
        assert_eq!(broadcast_len(0, 2), None);
        assert_eq!(broadcast_len(2, 3), None);
    }

    #[test]
    fn shapes_broadcast_aligned_at_their_last_axes() {
        let shapes = |list: &[&[usize]]| broadcast_shapes(list.iter().copied());
        assert_eq!(shapes(&[&[3, 1], &[4]]), Some(vec![3, 4]));
        assert_eq!(shapes(&[&[2, 3], &[2, 3]]), Some(vec![2, 3]));
        assert_eq!(shapes(&[&[], &[5]]), Some(vec![5]));
        assert_eq!(shapes(&[&[5, 1, 2], &[4, 1], &[1]]), Some(vec![5, 4, 2]));
        assert_eq!(shapes(&[&[0], &[1, 1]]), Some(vec![1, 0]));
        assert_eq!(shapes(&[]), Some(vec![]));
        assert_eq!(shapes(&[&[3], &[4]]), None);
        assert_eq!(shapes(&[&[2, 1], &[3, 3], &[2, 3]]), None);
    }
}
