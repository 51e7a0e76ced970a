//! Errors by kind: a damaged file, a bag that is not a RealSense recording,
//! a bad argument and an I/O failure are told apart through the context
//! that names the file, and each part of a message is printed once.

use crate::common;

use std::error::Error as _;

use common::{rs, write_bag, Written};
use rsbag::device::{StreamId, StreamKind};
use rsbag::recording::{FrameReader, Recording};
use rsbag::storage::bag::{Bag, Compression};
use rsbag::{Error, ErrorKind};

#[test]
fn a_file_that_is_not_a_bag_is_not_a_bag_through_its_file_context() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, bytes) in [("empty.bag", &b""[..]), ("text.bag", b"hello, world\n")] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("write");
        let error = Bag::open(&path).expect_err("not a bag");
        assert!(matches!(error, Error::InFile { .. }), "{error:?}");
        assert_eq!(error.kind(), ErrorKind::WrongFormat, "{error}");
        assert!(matches!(error.root(), Error::NotABag));
        assert_eq!(error.path(), Some(path.as_path()));
        let error = Recording::open(&path).expect_err("not a recording");
        assert_eq!(error.kind(), ErrorKind::WrongFormat, "{error}");
    }
}

#[test]
fn a_bag_of_another_ros_tool_is_not_a_recording() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("chatter.bag");
    let topics = [("/chatter".to_owned(), "std_msgs/String".to_owned())];
    let messages = [Written {
        conn: 0,
        time: 1_000,
        data: vec![2, 0, 0, 0, b'h', b'i'],
    }];
    std::fs::write(
        &path,
        write_bag(&topics, &messages, Compression::None, 4096),
    )
    .expect("write");
    let error = Recording::open(&path).expect_err("not a RealSense recording");
    assert_eq!(error.kind(), ErrorKind::NotARecording, "{error}");
    assert!(error.to_string().contains("/file_version"), "{error}");
    assert_eq!(error.path(), Some(path.as_path()));
    let error = FrameReader::open(&path).expect_err("not a RealSense recording");
    assert_eq!(error.kind(), ErrorKind::NotARecording, "{error}");
}

#[test]
fn a_cut_off_file_is_damaged_and_a_missing_one_is_io() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = dir.path().join("good.bag");
    rs::write(&good, 10, Compression::Lz4);
    let bytes = std::fs::read(&good).expect("read");
    let cut = dir.path().join("cut.bag");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("write");
    let error = Bag::open(&cut).expect_err("no index");
    assert_eq!(error.kind(), ErrorKind::Damaged, "{error}");

    let missing = dir.path().join("missing.bag");
    let error = Recording::open(&missing).expect_err("no file");
    assert_eq!(error.kind(), ErrorKind::Io, "{error}");
    assert_eq!(
        error.io_error().map(std::io::Error::kind),
        Some(std::io::ErrorKind::NotFound)
    );
    assert_eq!(error.path(), Some(missing.as_path()));
}

#[test]
fn a_frame_past_the_end_is_a_bad_argument() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("small.bag");
    rs::write(&path, 10, Compression::None);
    let reader = FrameReader::open(&path).expect("open");
    let depth = StreamId::new(StreamKind::Depth, 0);
    let error = reader.frame(depth, 10).expect_err("past the end");
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
}

/// The message is complete and the context does not hand out what it
/// already printed, so a program printing the chain of sources (as anyhow
/// or eyre do) prints every part once.
#[test]
fn each_part_of_a_message_is_printed_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("empty.bag");
    std::fs::write(&path, b"").expect("write");
    let error = Bag::open(&path).expect_err("not a bag");
    let mut chain = vec![error.to_string()];
    let mut source = error.source();
    while let Some(s) = source {
        chain.push(s.to_string());
        source = s.source();
    }
    let printed = chain.join(": ");
    let name = path.display().to_string();
    assert_eq!(printed.matches(&name).count(), 1, "{printed}");
    assert_eq!(printed.matches("not a ROS bag").count(), 1, "{printed}");
}
