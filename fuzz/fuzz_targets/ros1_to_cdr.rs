//! libFuzzer: ROS1 messages converted to CDR, over a fixed definition and
//! over the input's own.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rsbag_fuzz::ros1_to_cdr(data));
