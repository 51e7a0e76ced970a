//! Bad `.db3` input: clear errors that name the file and what is wrong or
//! missing, the rest of the file still read, never a panic.

use crate::common;

use std::path::{Path, PathBuf};

use rsbag::msg::ros2;
use rsbag::recording::{Event, FrameReader, Recording};
use rsbag::storage::rosbag2::Db3Writer;
use rsbag::ErrorKind;

/// A copy of librealsense 2.59's depth + color recording (10 frames each)
/// in `dir`, changed by `edit`.
fn edited(dir: &Path, name: &str, edit: impl FnOnce(&rusqlite::Connection)) -> PathBuf {
    let path = dir.join(name);
    std::fs::copy(common::reference("db3/rec259_dc.db3"), &path).expect("copy");
    let db = rusqlite::Connection::open(&path).expect("open");
    edit(&db);
    drop(db);
    path
}

#[test]
fn a_generic_rosbag2_is_not_a_realsense_recording() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("chatter.db3");
    let mut writer = Db3Writer::create(&path).expect("create");
    let topic = writer
        .add_topic(
            "/chatter",
            &rsbag::msg::ros2_definitions::message_type(ros2::STRING),
            "",
        )
        .expect("topic");
    writer
        .write(topic, 5, &ros2::encode_string(b"hello"))
        .expect("write");
    writer.finish().expect("finish");
    let error = Recording::open(&path).expect_err("not RealSense");
    assert_eq!(error.kind(), ErrorKind::NotARecording);
    let text = error.to_string();
    assert!(text.starts_with(&path.display().to_string()), "{text}");
    assert!(text.contains("/file_version"), "{text}");
}

#[test]
fn an_sqlite_file_without_the_rosbag2_tables_is_named_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = edited(dir.path(), "no-messages.db3", |db| {
        db.execute_batch("DROP TABLE messages").expect("drop");
    });
    let error = Recording::open(&path).expect_err("no messages table");
    assert_eq!(error.kind(), ErrorKind::WrongFormat);
    assert!(error.to_string().contains("no `messages` table"), "{error}");
    // Not SQLite at all, not a bag either.
    let other = dir.path().join("text.db3");
    std::fs::write(&other, b"hello, this is not a recording").expect("write");
    let error = Recording::open(&other).expect_err("text");
    assert_eq!(error.kind(), ErrorKind::WrongFormat);
}

#[test]
fn a_message_that_does_not_decode_is_named_and_the_rest_is_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = edited(dir.path(), "bad-frame.db3", |db| {
        // The PNG of the third depth frame loses its middle.
        db.execute(
            "UPDATE messages SET data = substr(data, 1, 200) || zeroblob(64) || substr(data, 265) \
             WHERE id = (SELECT m.id FROM messages m JOIN topics t ON t.id = m.topic_id \
             WHERE t.name LIKE '%Depth_0/image/data%' ORDER BY m.timestamp LIMIT 1 OFFSET 2)",
            [],
        )
        .expect("damage");
    });
    let recording = Recording::open(&path).expect("the description is intact");
    let (mut frames, mut errors) = (0, Vec::new());
    for event in recording.events(..) {
        match event {
            Ok(e) if matches!(e.event, Event::Frame { .. }) => frames += 1,
            Ok(_) => {}
            Err(e) => errors.push(e),
        }
    }
    assert_eq!(frames, 19);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].kind(), ErrorKind::Damaged);
    let text = errors[0].to_string();
    assert!(
        text.contains("/device_0/sensor_0/Depth_0/image/data/compressedDepth"),
        "{text}"
    );
    assert!(text.contains("bag time"), "{text}");
    // The frame reader still reads every other frame, by index too.
    let reader = FrameReader::open(&path).expect("open");
    assert_eq!(
        reader
            .frames()
            .expect("frames")
            .filter(|f| f.is_ok())
            .count(),
        19
    );
}

#[test]
fn a_damaged_database_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = std::fs::read(common::reference("db3/rec259_dc.db3")).expect("read");
    for (name, bytes) in [
        ("cut.db3", source[..source.len() / 2].to_vec()),
        ("header.db3", {
            let mut b = source.clone();
            b[16..100].fill(0xA5);
            b
        }),
        ("pages.db3", {
            let mut b = source.clone();
            let end = b.len().min(4096 * 6);
            b[4096 * 2..end].fill(0x5A);
            b
        }),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).expect("write");
        let error = Recording::open(&path)
            .and_then(|r| r.events(..).collect::<rsbag::Result<Vec<_>>>().map(|_| ()))
            .expect_err(name);
        assert!(
            matches!(
                error.kind(),
                ErrorKind::Damaged | ErrorKind::WrongFormat | ErrorKind::NotARecording
            ),
            "{name}: {error:?}"
        );
        assert!(error.to_string().contains(name), "{name}: {error}");
    }
}

#[test]
fn a_notification_with_bytes_that_are_not_utf8_is_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = edited(dir.path(), "notification.db3", |db| {
        let text = b"category=Frames Timeout;severity=Warn;description=bad \xff\xfe byte;timestamp=1e+03;data={\"a\":1;\"b\"=2}";
        db.execute(
            "INSERT INTO topics (id, name, type, serialization_format, offered_qos_profiles) \
             VALUES (100, '/device_0/sensor_0/notification/Frames Timeout', 'std_msgs/msg/String', 'cdr', '')",
            [],
        )
        .expect("topic");
        db.execute(
            "INSERT INTO messages (topic_id, timestamp, data) VALUES (100, 5000000, ?1)",
            [ros2::encode_string(text)],
        )
        .expect("message");
    });
    let recording = Recording::open(&path).expect("open");
    let notifications: Vec<_> = recording
        .events(..)
        .filter_map(|e| match e.expect("event").event {
            Event::Notification { notification, .. } => Some(notification),
            _ => None,
        })
        .collect();
    assert_eq!(notifications.len(), 1);
    let n = &notifications[0];
    assert_eq!(n.description, "bad \u{fffd}\u{fffd} byte");
    assert_eq!(n.serialized_data, "{\"a\":1;\"b\"=2}");
    assert_eq!(n.timestamp, 1000.0);
}
