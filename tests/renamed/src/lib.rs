//! A crate that depends on tensor-at as `ta` (no `tensor_at` in scope), so
//! that an expansion naming `::tensor_at` fails to build: the macros reach
//! their runtime through `$crate`.

#[cfg(test)]
mod tests {
    use ta::ndarray::{Array1, Array2, array};
    use ta::{IndexError, at, set, try_at, try_set};

    #[test]
    fn every_macro_expands_under_another_name() {
        let mut x = Array2::<f64>::zeros((3, 4));
        at!(x[:, 1:4:2] = 1.0);
        at!(x[.., 0] += array![1.0, 2.0, 3.0]);
        at!(x[x > 2.5] *= 10.0);
        at!(x[1:, 3] = x[:-1, 1]);
        let row = at!(x[2, ..]);
        assert_eq!(row, array![30.0, 1.0, 0.0, 1.0]);
        let element: f64 = at!(x[1, -1]);
        assert_eq!(element, 1.0);
        let y = set!(x[0] = 7.0);
        assert_eq!(y.row(0), array![7.0, 7.0, 7.0, 7.0]);
        assert_eq!(x.row(0), array![1.0, 1.0, 0.0, 1.0]);

        let error = try_at!(x[[0, 9]] = 0.0).unwrap_err();
        assert!(matches!(error, IndexError::OutOfBounds { index: 9, axis: 0, len: 3 }), "{error}");
        assert!(try_set!(x[5] = 0.0).is_err());

        let mut hist = Array1::<i64>::zeros(3);
        let bins = vec![0usize, 2, 2];
        at!(hist[bins] += 1);
        assert_eq!(hist, array![1, 0, 2]);
        let mut batched = Array2::<i64>::zeros((2, 3));
        at!(batched[[[0], [2]]] = 5; batch = 1);
        assert_eq!(batched, array![[5, 0, 0], [0, 0, 5]]);
        let mut grid = Array2::<i64>::zeros((3, 3));
        at!(grid[ix_([0, 2], [1])] = 4);
        assert_eq!(at!(grid[ix_([2], [1, 0])]), array![[4, 0]]);
    }
}
