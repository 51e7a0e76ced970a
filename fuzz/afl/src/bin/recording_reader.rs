//! AFL++: the RealSense recording reader, frame reader and check.
fn main() {
    afl::fuzz!(|data: &[u8]| rsbag_fuzz::recording_reader(data));
}
