//! The unwinder rustc's Android target links as `-lunwind`: the `unwinding` crate's
//! `_Unwind_*` functions, packaged as a static library.
#![no_std]

extern crate unwinding;

/// A `no_std` static library must name a panic handler. It sits in this crate's own
/// object file, which the linker never takes from the archive: the app's `std`
/// already defines the symbol, and nothing refers to this copy.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
