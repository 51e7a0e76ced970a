//! The bag layer against `rosbags`, an independent ROS bag implementation:
//! bags rsbag writes read back intact there, and the reference bag written
//! by librealsense reads the same through both.

use crate::common;

use std::path::Path;

use rsbag::storage::bag::{Bag, Compression};
use rsbag::storage::ConnectionExt;
use serde_json::Value;
use sha2::{Digest, Sha256};

fn dump(path: &Path, deserialize: bool) -> Value {
    let path = path.to_str().expect("utf-8 path");
    let args: Vec<&str> = if deserialize {
        vec![path, "--deserialize"]
    } else {
        vec![path]
    };
    serde_json::from_str(&common::python("rosbags_dump.py", &args)).expect("rosbags dump JSON")
}

/// (topic, time, size, sha256) of every message, in rsbag's order.
fn our_messages(bag: &Bag) -> Vec<(String, u64, u64, String)> {
    bag.messages()
        .map(|m| {
            let m = m.expect("message");
            let topic = bag.connection(m.conn).expect("connection").topic.clone();
            let sha: String = Sha256::digest(&m.data)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            (topic, m.time, m.data.len() as u64, sha)
        })
        .collect()
}

fn their_messages(dump: &Value) -> Vec<(String, u64, u64, String)> {
    dump["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| {
            (
                m["topic"].as_str().expect("topic").to_owned(),
                m["time"].as_u64().expect("time"),
                m["size"].as_u64().expect("size"),
                m["sha256"].as_str().expect("sha256").to_owned(),
            )
        })
        .collect()
}

#[test]
fn rosbags_reads_what_rsbag_writes_in_every_compression() {
    let md5s = common::reference_md5sums();
    for compression in Compression::ALL {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("written.bag");
        common::rs::write(&path, 40, compression);
        let bag = Bag::open(&path).expect("open");
        let theirs = dump(&path, true);
        assert_eq!(
            their_messages(&theirs),
            our_messages(&bag),
            "{compression}: same messages, same bytes, same order"
        );
        assert_eq!(
            theirs["chunk_count"].as_u64(),
            Some(bag.chunks().len() as u64)
        );
        let mut checked = 0;
        for c in theirs["connections"].as_array().expect("connections") {
            let msgtype = c["msgtype"].as_str().expect("type");
            if let Some(expected) = md5s.get(msgtype) {
                assert_eq!(
                    c["md5sum"].as_str(),
                    Some(expected.as_str()),
                    "{compression}: {msgtype}"
                );
                checked += 1;
            }
        }
        assert!(
            checked >= 8,
            "{checked} connections checked against the reference"
        );
    }
}

#[test]
fn the_reference_bag_reads_the_same_through_rsbag_and_rosbags() {
    let path = common::reference("librealsense-2.55-depth-color.bag");
    let bag = Bag::open(&path).expect("open the reference bag");
    let theirs = dump(&path, true);
    assert_eq!(their_messages(&theirs), our_messages(&bag));
    let connections = theirs["connections"].as_array().expect("connections");
    assert_eq!(connections.len(), bag.connections().len());
    for c in connections {
        let ours = bag
            .connection(c["id"].as_u64().expect("id") as u32)
            .expect("same connection ids");
        assert_eq!(c["topic"].as_str(), Some(ours.topic.as_str()));
        assert_eq!(c["msgtype"].as_str(), Some(ours.msg_type.as_str()));
        assert_eq!(c["md5sum"].as_str(), Some(ours.digest.as_str()));
        assert_eq!(c["msgdef"].as_str(), Some(ours.message_definition.as_str()));
        let ConnectionExt::Ros1 { callerid, .. } = &ours.ext else {
            panic!("a bag's connection is ROS1's: {ours:?}");
        };
        assert_eq!(c["callerid"].as_str(), callerid.as_deref());
    }
    // The scan path, which ignores the index, agrees too.
    let scanned = Bag::scan(&path).expect("scan");
    assert_eq!(our_messages(&scanned), our_messages(&bag));
}
