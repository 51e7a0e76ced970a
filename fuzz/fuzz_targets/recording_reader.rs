//! libFuzzer: the RealSense recording reader, frame reader and check.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rsbag_fuzz::recording_reader(data));
