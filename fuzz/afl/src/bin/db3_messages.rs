//! AFL++: the same harness as the libFuzzer target db3_messages.
fn main() {
    afl::fuzz!(|data: &[u8]| rsbag_fuzz::db3_messages(data));
}
