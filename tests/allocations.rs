//! What allocates nothing, counted by a global allocator: the fused mask
//! update (`at!(x[x < s] = v)`, one pass over `x`), a few indices in a
//! vector (`at!(x[idx] += v)`; a read allocates its result only), and
//! basic indices (in place, or a view).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

use ndarray::Array1;
use tensor_at::at;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counter is a thread-local `Cell`, which allocates nothing itself.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which is System's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout (above).
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_in(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn fused_mask_updates_allocate_nothing() {
    let mut x = Array1::from_iter((0..1000).map(|i| f64::from(i) - 500.0));
    assert_eq!(allocations_in(|| at!(x[x < 0.0] = 0.0)), 0);
    assert_eq!(allocations_in(|| at!(x[(x > 10.0) & (x < 20.0)] *= 2.0)), 0);
    assert_eq!(allocations_in(|| at!(x[x >= 400.0] += 1.0)), 0);
    assert_eq!(x[0], 0.0);
    assert_eq!(x[511], 22.0);
    assert_eq!(x[999], 500.0);
    // Array values, one per selected element: a counting pass, still no allocation.
    let values = Array1::from_elem(501, 7.0); // x[0..=500] are 0.0
    assert_eq!(allocations_in(|| at!(x[x <= 0.0] = values)), 0);
    assert_eq!(x[0], 7.0);
    // The counter does count: a mask of another array allocates it.
    let y = x.clone();
    assert!(allocations_in(|| at!(x[y < 1.0] = 5.0)) > 0);
}

#[test]
fn a_few_indices_in_a_vector_allocate_nothing_but_a_read() {
    let mut x = Array1::<f64>::zeros(16);
    let idx = [1usize, 5, 9, 5];
    let signed = vec![-1i64, 0, 2];
    let values = Array1::from(vec![1.0, 2.0, 3.0, 4.0]);
    assert_eq!(allocations_in(|| at!(x[idx] += values)), 0);
    assert_eq!(allocations_in(|| at!(x[signed] -= 0.5)), 0);
    assert_eq!(allocations_in(|| at!(x[idx].max(values))), 0);
    assert_eq!(allocations_in(|| at!(x[idx] = values)), 0);
    assert_eq!(x[5], 4.0);
    assert_eq!(x[15], -0.5);
    // A read allocates its result, once.
    let grid = ndarray::Array2::from_shape_fn((4, 4), |(i, j)| (i * 4 + j) as f64);
    let rows = [2usize, 0];
    assert_eq!(allocations_in(|| drop(black_box(at!(grid[rows])))), 1);
    assert_eq!(at!(grid[rows]), ndarray::array![[8.0, 9.0, 10.0, 11.0], [0.0, 1.0, 2.0, 3.0]]);
    // Basic indices: a scalar written in place, a view or an element read.
    assert_eq!(allocations_in(|| at!(x[2:8:2] = 1.0)), 0);
    assert_eq!(allocations_in(|| at!(x[-1] = 7.0)), 0);
    assert_eq!(allocations_in(|| at!(x[4] *= 3.0)), 0);
    assert_eq!((x[15], x[4]), (7.0, 3.0));
    assert_eq!(
        allocations_in(|| {
            black_box(at!(grid[1:3, -1]));
        }),
        0
    );
    assert_eq!(
        allocations_in(|| {
            black_box(at!(grid[1, 2]));
        }),
        0
    );
}
