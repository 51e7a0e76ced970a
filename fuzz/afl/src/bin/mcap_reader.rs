//! AFL++: the same harness as the libFuzzer target mcap_reader.
fn main() {
    afl::fuzz!(|data: &[u8]| rsbag_fuzz::mcap_reader(data));
}
