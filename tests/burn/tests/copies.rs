//! What crosses from the device to the host: nothing for host indices;
//! for device index arrays, one small copy in mode `error` (the indices'
//! extremes) and nothing in the other modes, and for the operations that
//! run in rounds how many, in that copy or alone (none where the indices
//! are promised distinct); a mask's selection where it sets the region's
//! shape.

use burn_tensor::{Int, Tensor};
use ndarray::{ArrayD, IxDyn, array};
use tensor_at::at;
use tensor_at::burn::{copies_to_host, unique};
use tensor_at_burn_tests::{float, int, plain};

/// The copies to the host `call` makes.
fn copies(call: impl FnOnce()) -> usize {
    let before = copies_to_host();
    call();
    copies_to_host() - before
}

fn target() -> Tensor<2> {
    float(
        &ArrayD::from_shape_fn(IxDyn(&[4, 5]), |at| (at[0] * 5 + at[1]) as f64 - 9.5),
        &plain(),
    )
}

fn indices() -> Tensor<1, Int> {
    int(&array![4, 0, 4, -1].into_dyn(), &plain())
}

#[test]
fn host_indices_copy_nothing() {
    let mut x = target();
    assert_eq!(copies(|| at!(x[1.., [4, 0, 4]] += 1.0)), 0);
    assert_eq!(copies(|| at!(x[[1, 2], [4, 0]] = array![1.0, 2.0])), 0);
    assert_eq!(copies(|| at!(x[[3, 3]] *= 2.0)), 0);
    assert_eq!(
        copies(|| {
            let _read: Tensor<2> = at!(x[[0, 3], 1..]);
        }),
        0
    );
    assert_eq!(copies(|| at!(x[x < 0.0] = 0.0)), 0);
    assert_eq!(copies(|| at!(x[x > 1.0] *= 0.5)), 0);
}

#[test]
fn device_indices_copy_their_extremes_in_mode_error_only() {
    let mut x = target();
    let i = indices();
    assert_eq!(copies(|| at!(x[.., &i] += 1.0)), 1);
    assert_eq!(copies(|| at!(x[.., &i] = 2.0)), 1);
    assert_eq!(
        copies(|| {
            let _read: Tensor<2> = at!(x[.., &i]);
        }),
        1
    );
    assert_eq!(copies(|| at!(x[.., &i] += 1.0; mode = clip)), 0);
    assert_eq!(copies(|| at!(x[.., &i] = 1.0; mode = drop)), 0);
    assert_eq!(copies(|| at!(x[.., &i] -= 1.0; mode = wrap)), 0);
    assert_eq!(
        copies(|| {
            let _read: Tensor<2> = at!(x[.., &i]; mode = fill(0.0));
        }),
        0
    );
}

#[test]
fn rounds_copy_their_count_and_selections_their_positions() {
    let mut x = target();
    let i = indices();
    // `*=` runs in rounds on the device: how many is one number read back,
    // in mode `error` in the copy of the extremes.
    assert_eq!(copies(|| at!(x[.., &i] *= 2.0; mode = clip)), 1);
    assert_eq!(copies(|| at!(x[.., &i] *= 2.0)), 1);
    assert_eq!(copies(|| at!(x[.., &i].max(1.0); mode = wrap)), 1);
    // Rows promised distinct take one round: nothing to count.
    let distinct: Tensor<1, Int> = int(&array![3, 0, -2].into_dyn(), &plain());
    assert_eq!(copies(|| at!(x[unique(&distinct)] *= 2.0; mode = clip)), 0);
    assert_eq!(copies(|| at!(x[unique(&distinct)].max(1.0); mode = wrap)), 0);
    assert_eq!(copies(|| at!(x[unique(&distinct)] /= 2.0)), 1);
    // Past four rounds, the positions too.
    let many: Tensor<1, Int> = int(&array![0, 0, 0, 0, 0].into_dyn(), &plain());
    assert_eq!(copies(|| at!(x[.., &many] *= 2.0; mode = clip)), 2);
    assert_eq!(copies(|| at!(x[.., &many] *= 2.0)), 2);
    // With autodiff, `max`'s shared ties read the positions back once.
    let mut tracked: Tensor<2> = float(
        &ArrayD::from_shape_fn(IxDyn(&[4, 5]), |at| at[1] as f64),
        &tensor_at_burn_tests::autodiff(),
    );
    let on_autodiff: Tensor<1, Int> = int(&array![4, 0, 4, -1].into_dyn(), &tensor_at_burn_tests::autodiff());
    assert_eq!(copies(|| at!(tracked[.., &on_autodiff].max(1.0); mode = clip)), 1);
    // A read by a mask has the count of its selection as its shape.
    assert_eq!(
        copies(|| {
            let _read: Tensor<1> = at!(x[x > 0.0]);
        }),
        1
    );
}
