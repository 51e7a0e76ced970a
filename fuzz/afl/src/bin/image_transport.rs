//! AFL++: the same harness as the libFuzzer target image_transport.
fn main() {
    afl::fuzz!(|data: &[u8]| rsbag_fuzz::image_transport(data));
}
