//! What the writer writes, the reader reads back identically, through the
//! index and through the scan; and an independent reader (the `rosbag`
//! crate) agrees.

use crate::common;

use common::{time_order, write_bag, Written};
use proptest::prelude::*;
use rsbag::storage::bag::{Bag, Compression};
use rsbag::storage::Message;

fn compression() -> impl Strategy<Value = Compression> {
    prop_oneof![
        Just(Compression::None),
        Just(Compression::Lz4),
        Just(Compression::Bz2)
    ]
}

fn topics() -> impl Strategy<Value = Vec<(String, String)>> {
    prop::collection::vec(
        (
            "/[a-z_]{1,12}(/[a-z0-9_]{1,8}){0,3}",
            "[a-z_]{1,10}/[A-Z][a-zA-Z0-9]{0,12}",
        ),
        1..6,
    )
}

fn bag_case() -> impl Strategy<Value = (Vec<(String, String)>, Vec<Written>, Compression, usize)> {
    topics().prop_flat_map(|topics| {
        let n = topics.len() as u32;
        let message = (
            0..n,
            0u64..5_000_000_000,
            prop::collection::vec(any::<u8>(), 0..3000),
        )
            .prop_map(|(conn, time, data)| Written { conn, time, data });
        (
            Just(topics),
            prop::collection::vec(message, 0..60),
            compression(),
            prop_oneof![Just(1usize), 100usize..20_000, Just(768 * 1024)],
        )
    })
}

fn as_written(messages: Vec<Message>) -> Vec<Written> {
    messages
        .into_iter()
        .map(|m| Written {
            conn: m.conn,
            time: m.time,
            data: m.data.to_vec(),
        })
        .collect()
}

fn read_all(bag: &Bag) -> Vec<Written> {
    as_written(
        bag.messages()
            .collect::<Result<_, _>>()
            .expect("read every message"),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn indexed_and_scanned_reads_give_back_what_was_written(
        (topics, messages, compression, threshold) in bag_case()
    ) {
        let bytes = write_bag(&topics, &messages, compression, threshold);
        let expected = time_order(&messages);

        let indexed = Bag::from_bytes(bytes.clone()).expect("open through the index");
        prop_assert_eq!(read_all(&indexed), expected.clone());
        prop_assert_eq!(indexed.total_message_count(), messages.len() as u64);
        for (id, (topic, msg_type)) in topics.iter().enumerate() {
            let conn = indexed.connection(id as u32).expect("connection");
            prop_assert_eq!(&conn.topic, topic);
            prop_assert_eq!(&conn.msg_type, msg_type);
            let count = messages.iter().filter(|m| m.conn == id as u32).count() as u64;
            prop_assert_eq!(indexed.message_count(id as u32), count);
        }

        let scanned = Bag::scan_bytes(bytes).expect("scan");
        prop_assert!(scanned.scan_report().is_some_and(|r| r.is_clean()));
        prop_assert_eq!(read_all(&scanned), expected);
    }

    #[test]
    fn queries_filter_by_topic_and_time(
        (topics, messages, compression, threshold) in bag_case(),
        from in 0u64..5_000_000_000,
        span in 0u64..3_000_000_000,
    ) {
        let bytes = write_bag(&topics, &messages, compression, threshold);
        let bag = Bag::from_bytes(bytes).expect("open");
        let topic = &topics[0].0;
        let wanted: Vec<u32> = topics.iter().enumerate()
            .filter(|(_, (t, _))| t == topic).map(|(i, _)| i as u32).collect();
        let expected: Vec<Written> = time_order(&messages).into_iter()
            .filter(|m| wanted.contains(&m.conn) && (from..from + span).contains(&m.time))
            .collect();
        let got = bag.query().topics([topic]).time(from..from + span).messages()
            .collect::<Result<Vec<_>, _>>().expect("query");
        prop_assert_eq!(as_written(got), expected);
    }
}

/// The `rosbag` crate, an independent reader, sees the same messages.
#[test]
fn the_rosbag_crate_reads_what_we_write() {
    use rosbag::{ChunkRecord, MessageRecord, RosBag};
    let topics = vec![
        ("/a".to_string(), "std_msgs/String".to_string()),
        ("/b/c".to_string(), "sensor_msgs/Image".to_string()),
    ];
    let messages: Vec<Written> = (0..50u32)
        .map(|i| Written {
            conn: i % 2,
            time: 1_000 + u64::from(i) * 33_333_333,
            data: vec![i as u8; (i as usize) * 97],
        })
        .collect();
    for compression in Compression::ALL {
        let bytes = write_bag(&topics, &messages, compression, 2_000);
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("x.bag");
        std::fs::write(&path, &bytes).expect("write bag");
        let bag = RosBag::new(&path).expect("rosbag opens it");
        let mut seen = Vec::new();
        for record in bag.chunk_records() {
            if let ChunkRecord::Chunk(chunk) = record.expect("chunk record") {
                for m in chunk.messages() {
                    if let MessageRecord::MessageData(m) = m.expect("message record") {
                        seen.push(Written {
                            conn: m.conn_id,
                            time: m.time,
                            data: m.data.to_vec(),
                        });
                    }
                }
            }
        }
        assert_eq!(seen, messages, "{compression}");
        assert_eq!(bag.get_conn_count(), 2);
    }
}
