//! libFuzzer: RVL depth decoding, and its round trip.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rsbag_fuzz::rvl(data));
