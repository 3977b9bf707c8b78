//! Everyday image slicing on an H×W×3 `u8` image, ported from NumPy:
//! crop, paste, checkerboard, threshold, and an RGB→BGR channel swap.
//!
//! Run with `cargo run --example image`. The NumPy original:
//!
//! ```python
//! import numpy as np
//!
//! H, W = 24, 32
//! i, j, c = np.indices((H, W, 3))
//! img = ((7 * i + 13 * j + 60 * c) % 256).astype(np.uint8)
//!
//! crop = img[10:20, 5:15]
//! canvas = np.zeros_like(img)
//! y, x = 2, 20
//! h, w = crop.shape[:2]
//! canvas[y:y+h, x:x+w] = crop
//!
//! board = np.zeros((6, 6), np.uint8)
//! board[::2, 1::2] = 1
//! board[1::2, ::2] = 1
//!
//! bright = img.copy()
//! bright[bright > 200] = 255
//!
//! bgr = img[..., ::-1]
//! swapped = img.copy()
//! swapped[..., [0, 2]] = swapped[..., [2, 0]]
//!
//! print(crop.shape, crop[0, 0].tolist(), crop.sum())
//! print(canvas.sum(), canvas[y, x].tolist(), canvas[y+h-1, x+w-1].tolist(), canvas[y+h, x].tolist())
//! print(board.tolist())
//! print((bright == 255).sum(), bright.sum())
//! print(img[3, 4].tolist(), bgr[3, 4].tolist(), (bgr == swapped).all())
//! ```

use tensor_at::at;
use tensor_at::ndarray::{Array2, Array3, array};

/// The sum NumPy prints for a `uint8` array: widened first, so no wrap-around.
fn total<'a>(pixels: impl IntoIterator<Item = &'a u8>) -> u64 {
    pixels.into_iter().map(|&v| u64::from(v)).sum()
}

fn main() {
    let (height, width) = (24, 32);
    let img = Array3::from_shape_fn((height, width, 3), |(i, j, c)| ((7 * i + 13 * j + 60 * c) % 256) as u8);

    // Basic slicing reads are views: the crop shares img's pixels.
    let crop = at!(img[10:20, 5:15]);
    assert_eq!(crop.as_ptr(), &img[[10, 5, 0]] as *const u8);
    let (h, w, _) = crop.dim();
    let corner = at!(crop[0, 0]);
    println!(
        "crop img[10:20, 5:15]: shape {:?}, top-left pixel {corner}, sum {}",
        crop.dim(),
        total(crop)
    );

    // Paste: the slice bounds are ordinary expressions, as in Python.
    let mut canvas = Array3::<u8>::zeros(img.dim());
    let (y, x) = (2, 20);
    at!(canvas[y:y + h, x:x + w] = crop);
    println!("paste at ({y}, {x}): canvas sum {}", total(&canvas));

    // Two strided writes, one per parity of the row.
    let mut board = Array2::<u8>::zeros((6, 6));
    at!(board[::2, 1::2] = 1);
    at!(board[1::2, ::2] = 1);
    println!("checkerboard:\n{board}");

    // Fused mask: compared and written in one pass over bright, no bool array between.
    let mut bright = img.clone();
    at!(bright[bright > 200] = 255);
    let saturated = bright.iter().filter(|&&v| v == 255).count();
    println!("threshold > 200: {saturated} values set to 255, sum {}", total(&bright));

    // A reversed last axis is a view with a negative stride: no copy.
    let bgr = at!(img[..., ::-1]);
    // Writing with an advanced index on the last axis; the right-hand side is
    // gathered (copied) before the write, so the swap does not clobber itself.
    let mut swapped = img.clone();
    at!(swapped[..., [0, 2]] = at!(swapped[..., [2, 0]]));
    println!("RGB {} -> BGR {}", at!(img[3, 4]), at!(bgr[3, 4]));

    // expected: printed by the NumPy program above
    assert_eq!((crop.dim(), total(crop)), ((10, 10, 3), 34812));
    assert_eq!(corner, array![135, 195, 255]);
    assert_eq!(total(&canvas), 34812);
    assert_eq!(at!(canvas[y, x]), array![135, 195, 255]);
    assert_eq!(at!(canvas[y + h - 1, x + w - 1]), array![59, 119, 179]);
    assert_eq!(at!(canvas[y + h, x]), array![0, 0, 0]);
    let expected_board = array![
        [0, 1, 0, 1, 0, 1],
        [1, 0, 1, 0, 1, 0],
        [0, 1, 0, 1, 0, 1],
        [1, 0, 1, 0, 1, 0],
        [0, 1, 0, 1, 0, 1],
        [1, 0, 1, 0, 1, 0]
    ];
    assert_eq!(board, expected_board);
    assert_eq!((saturated, total(&bright)), (517, 311794));
    assert_eq!(at!(img[3, 4]), array![73, 133, 193]);
    assert_eq!(at!(bgr[3, 4]), array![193, 133, 73]);
    assert_eq!(bgr, swapped);
}
