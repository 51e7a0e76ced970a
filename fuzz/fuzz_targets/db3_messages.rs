//! libFuzzer: the .db3 message decoders (CDR, key=value strings, PNG/zstd images).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rsbag_fuzz::db3_messages(data));
