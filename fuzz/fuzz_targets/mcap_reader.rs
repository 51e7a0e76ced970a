//! libFuzzer: the bytes as an MCAP file read as a camera bag, and checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rsbag_fuzz::mcap_reader(data));
