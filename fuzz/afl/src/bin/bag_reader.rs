//! AFL++: the bag reader (index and scan paths).
fn main() {
    afl::fuzz!(|data: &[u8]| rsbag_fuzz::bag_reader(data));
}
