//! Cut-off and damaged bags: the scan path recovers every complete chunk,
//! the indexed path fails with a clear error, and nothing panics.

use crate::common;

use common::{time_order, write_bag, Written};
use proptest::prelude::*;
use rsbag::storage::bag::record::read_record;
use rsbag::storage::bag::{Bag, Compression};
use rsbag::Error;

fn sample_messages() -> (Vec<(String, String)>, Vec<Written>) {
    let topics = vec![
        ("/camera/depth".to_string(), "sensor_msgs/Image".to_string()),
        (
            "/camera/info".to_string(),
            "diagnostic_msgs/KeyValue".to_string(),
        ),
        ("/imu".to_string(), "sensor_msgs/Imu".to_string()),
    ];
    let messages = (0..40u32)
        .map(|i| Written {
            conn: i % 3,
            time: 1 + u64::from(i) * 10_000_000,
            data: (0..(i * 13 % 200)).map(|b| (b ^ i) as u8).collect(),
        })
        .collect();
    (topics, messages)
}

/// One chunk of a bag: where its record starts and ends, and its messages
/// in the order they were written, each with where its record ends in the
/// chunk's data (and so, for an uncompressed chunk, in the file).
struct ChunkLayout {
    start: u64,
    end: u64,
    data_offset: u64,
    messages: Vec<(u64, Written)>,
}

fn chunk_layout(bytes: &[u8]) -> Vec<ChunkLayout> {
    let bag = Bag::from_bytes(bytes.to_vec()).expect("the whole bag opens");
    bag.chunks()
        .iter()
        .map(|chunk| {
            let record =
                read_record(bytes, chunk.info.chunk_pos as usize, 0).expect("chunk record");
            let data = bag.chunk_data(chunk).expect("chunk data");
            let mut entries = bag.chunk_entries(chunk).expect("entries").to_vec();
            entries.sort_by_key(|e| e.offset);
            let messages = entries
                .iter()
                .map(|e| {
                    let message = read_record(&data, e.offset as usize, 0).expect("message");
                    let written = Written {
                        conn: e.conn,
                        time: e.time,
                        data: message.data.to_vec(),
                    };
                    (message.end(), written)
                })
                .collect();
            ChunkLayout {
                start: record.offset,
                end: record.end(),
                data_offset: record.data_offset,
                messages,
            }
        })
        .collect()
}

fn scanned_messages(bytes: &[u8]) -> Result<Vec<Written>, Error> {
    let bag = Bag::scan_bytes(bytes.to_vec())?;
    bag.messages()
        .map(|m| {
            m.map(|m| Written {
                conn: m.conn,
                time: m.time,
                data: m.data.to_vec(),
            })
        })
        .collect()
}

/// Every complete chunk, and of the chunk the cut falls in: every message
/// whose record lies whole before the cut (uncompressed), the messages of
/// what decodes before the cut (LZ4: a start of them, more the later the
/// cut), nothing (bz2).
#[test]
fn a_bag_cut_at_any_offset_yields_every_complete_chunk_and_message() {
    let (topics, messages) = sample_messages();
    for compression in Compression::ALL {
        let bytes = write_bag(&topics, &messages, compression, 600);
        let layout = chunk_layout(&bytes);
        assert!(
            layout.len() >= 5,
            "want several chunks, got {}",
            layout.len()
        );
        let header_end = read_record(&bytes, 13, 0).expect("bag header").end() as usize;
        let index_pos = Bag::from_bytes(bytes.clone())
            .expect("open")
            .header()
            .index_pos as usize;
        // Of the chunk cut off: (its start, messages recovered at the
        // cut before).
        let mut recovered_before = (0, 0);
        let mut recovered_from_cut_chunks = 0;
        for cut in 0..bytes.len() {
            let cut_bytes = &bytes[..cut];
            if cut < index_pos {
                // The index is gone: the indexed path must say so, cleanly.
                let err =
                    Bag::from_bytes(cut_bytes.to_vec()).expect_err("cut bag must not open indexed");
                assert!(!err.to_string().is_empty());
            } else {
                let _ = Bag::from_bytes(cut_bytes.to_vec()).map(|bag| bag.messages().count());
            }
            if cut < header_end {
                assert!(
                    scanned_messages(cut_bytes).is_err(),
                    "cut {cut}: no header, no bag"
                );
                continue;
            }
            let whole: Vec<Written> = layout
                .iter()
                .filter(|c| c.end as usize <= cut)
                .flat_map(|c| c.messages.iter().map(|(_, m)| m.clone()))
                .collect();
            let cut_chunk = layout
                .iter()
                .find(|c| (c.start as usize) < cut && cut < c.end as usize);
            let got = scanned_messages(cut_bytes)
                .unwrap_or_else(|e| panic!("{compression} cut at {cut}: scan failed: {e}"));
            let report = Bag::scan_bytes(cut_bytes.to_vec())
                .expect("scan")
                .scan_report()
                .cloned()
                .expect("report");
            let Some(chunk) = cut_chunk else {
                assert_eq!(got, time_order(&whole), "{compression} cut at {cut}");
                assert_eq!(report.cut_chunk_messages, 0);
                continue;
            };
            let from_cut = got
                .len()
                .checked_sub(whole.len())
                .unwrap_or_else(|| panic!("{compression} cut at {cut}: a complete chunk lost"));
            let mut expected = whole.clone();
            expected.extend(chunk.messages[..from_cut].iter().map(|(_, m)| m.clone()));
            assert_eq!(got, time_order(&expected), "{compression} cut at {cut}");
            assert_eq!(report.cut_chunk_messages, from_cut as u64, "cut at {cut}");
            match compression {
                Compression::None => {
                    let complete = chunk
                        .messages
                        .iter()
                        .filter(|(end, _)| (chunk.data_offset + end) as usize <= cut)
                        .count();
                    assert_eq!(from_cut, complete, "cut at {cut}");
                }
                Compression::Bz2 => assert_eq!(from_cut, 0, "cut at {cut}"),
                _ => {}
            }
            // The later the cut, the more of the chunk.
            if recovered_before.0 == chunk.start {
                assert!(from_cut >= recovered_before.1, "{compression} cut at {cut}");
            }
            recovered_before = (chunk.start, from_cut);
            if cut + 1 == chunk.end as usize {
                recovered_from_cut_chunks += from_cut;
            }
        }
        // Cut just before its end, a chunk gives all but its last
        // messages, unless it decodes only whole.
        let all_but_last: usize = layout.iter().map(|c| c.messages.len() - 1).sum();
        match compression {
            Compression::Bz2 => assert_eq!(recovered_from_cut_chunks, 0),
            Compression::None => assert_eq!(recovered_from_cut_chunks, all_but_last),
            _ => assert!(
                recovered_from_cut_chunks * 2 > all_but_last,
                "{recovered_from_cut_chunks} of {all_but_last}"
            ),
        }
    }
}

#[test]
fn a_bag_whose_index_was_never_written_is_recovered_whole() {
    let (topics, messages) = sample_messages();
    let mut bytes = write_bag(&topics, &messages, Compression::Lz4, 600);
    let index_pos = Bag::from_bytes(bytes.clone())
        .expect("open")
        .header()
        .index_pos as usize;
    bytes.truncate(index_pos);
    // What a crashed recording looks like: index_pos still 0 in the header.
    let pos = bytes
        .windows(10)
        .position(|w| w == b"index_pos=")
        .expect("index_pos field")
        + 10;
    bytes[pos..pos + 8].copy_from_slice(&0u64.to_le_bytes());
    match Bag::from_bytes(bytes.clone()) {
        Err(Error::MissingIndex { .. }) => {}
        other => panic!("expected MissingIndex, got {other:?}"),
    }
    let bag = Bag::scan_bytes(bytes).expect("scan");
    assert!(
        bag.scan_report().is_some_and(|r| r.is_clean()),
        "{:?}",
        bag.scan_report()
    );
    assert_eq!(bag.connections().len(), 3);
    let got: Vec<Written> = bag
        .messages()
        .map(|m| {
            m.map(|m| Written {
                conn: m.conn,
                time: m.time,
                data: m.data.to_vec(),
            })
        })
        .collect::<Result<_, _>>()
        .expect("messages");
    assert_eq!(got, time_order(&messages));
}

#[test]
fn not_a_bag_is_said_plainly() {
    for bytes in [
        &b""[..],
        b"hello world",
        b"#ROSBAG V1.2\n",
        b"#ROSBAG V2.0\n",
    ] {
        assert!(Bag::from_bytes(bytes.to_vec()).is_err());
        assert!(Bag::scan_bytes(bytes.to_vec()).is_err());
    }
    assert!(matches!(
        Bag::from_bytes(b"GIF89a...".to_vec()),
        Err(Error::NotABag)
    ));
    let dir = tempfile::tempdir().expect("tempdir");
    let empty = dir.path().join("empty.bag");
    std::fs::write(&empty, b"").expect("write");
    let err = Bag::open(&empty).expect_err("empty file");
    assert!(err.to_string().contains("empty.bag"), "{err}");
    let err = Bag::open(dir.path().join("missing.bag")).expect_err("missing file");
    assert!(err.to_string().contains("missing.bag"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Flipped bytes anywhere (header, chunks, index) never panic either
    /// path, and reading every message ends.
    #[test]
    fn bit_flips_never_panic(
        flips in prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..4),
        compression in prop_oneof![Just(Compression::None), Just(Compression::Lz4), Just(Compression::Bz2)],
    ) {
        let (topics, messages) = sample_messages();
        let mut bytes = write_bag(&topics, &messages, compression, 600);
        for (at, mask) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= mask;
        }
        if let Ok(bag) = Bag::from_bytes(bytes.clone()) {
            let _ = bag.messages().count();
        }
        if let Ok(bag) = Bag::scan_bytes(bytes) {
            let _ = bag.messages().count();
        }
    }
}

/// Every byte of the file set to 0xFF in turn (lengths and counts become
/// huge): both paths end cleanly, without a panic or a huge allocation.
#[test]
fn every_byte_maxed_out_is_survived() {
    let (topics, messages) = sample_messages();
    // bz2 is left to the random flips: decompressing it at every offset
    // takes a minute.
    for compression in [Compression::None, Compression::Lz4] {
        let bytes = write_bag(&topics, &messages, compression, 600);
        for i in 0..bytes.len() {
            let mut damaged = bytes.clone();
            damaged[i] = 0xFF;
            if let Ok(bag) = Bag::from_bytes(damaged.clone()) {
                let _ = bag.messages().count();
            }
            if let Ok(bag) = Bag::scan_bytes(damaged) {
                let _ = bag.messages().count();
            }
        }
    }
}
