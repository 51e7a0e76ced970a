//! AFL++: the same harness as the libFuzzer target ros1_to_cdr.
fn main() {
    afl::fuzz!(|data: &[u8]| rsbag_fuzz::ros1_to_cdr(data));
}
