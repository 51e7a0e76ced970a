//! libFuzzer: the bag reader (index and scan paths).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rsbag_fuzz::bag_reader(data));
