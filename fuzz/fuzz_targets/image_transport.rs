//! libFuzzer: image_transport's compressed images (JPEG, PNG, compressedDepth PNG and RVL).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rsbag_fuzz::image_transport(data));
