//! AFL++: the same harness as the libFuzzer target rvl.
fn main() {
    afl::fuzz!(|data: &[u8]| rsbag_fuzz::rvl(data));
}
