//! libFuzzer: the bytes as a .db3 read as a RealSense recording, and checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rsbag_fuzz::db3_reader(data));
