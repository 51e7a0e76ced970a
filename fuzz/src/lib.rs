//! What the fuzz targets do with their input, written once for libFuzzer
//! (`fuzz_targets/`) and AFL++ (`afl/`): read the bytes as a bag, and as a
//! RealSense recording, through every reading path, touching what comes
//! out. Any panic, hang or runaway allocation is a finding; errors are
//! the expected answer to damaged input.

use std::ops::Bound;
use std::time::Duration;

use rsbag::bag::Bag;
use rsbag::playback::check::check_recording;
use rsbag::playback::{FrameReader, Recording, SyncOptions};

/// Messages, frames or events read at most per pass, so that one input
/// stays quick.
const MOST: usize = 5_000;

/// The bag layer: through the index and by a scan.
pub fn bag_reader(data: &[u8]) {
    if let Ok(bag) = Bag::from_bytes(data.to_vec()) {
        read_bag(&bag);
    }
    if let Ok(bag) = Bag::scan_bytes(data.to_vec()) {
        read_bag(&bag);
    }
}

fn read_bag(bag: &Bag) {
    let ids: Vec<u32> = bag.connections().iter().map(|c| c.id).collect();
    let mut sum = 0usize;
    for id in &ids {
        sum ^= bag.message_count(*id) as usize;
    }
    for message in bag.messages().take(MOST).flatten() {
        sum ^= message.data.len() ^ usize::from(message.data.first().copied().unwrap_or(0));
    }
    let (start, end) = (bag.start_time(), bag.end_time());
    let middle = start / 2 + end / 2;
    let some: Vec<u32> = ids.iter().copied().step_by(2).collect();
    let query = bag
        .query()
        .connections(some.clone())
        .time((Bound::Included(middle), Bound::Unbounded));
    for message in query.messages().take(MOST).flatten() {
        sum ^= message.data.len();
    }
    if let Some((first, last)) = bag.time_span(&some) {
        sum ^= (first ^ last) as usize;
    }
    for chunk in bag.chunks().iter().take(64) {
        if let Ok(entries) = bag.chunk_entries(chunk) {
            sum ^= entries.len();
        }
    }
    std::hint::black_box(sum);
}

/// The RealSense layer: the description, every event, frames by index,
/// number and time, framesets, the check, and frames made into images.
pub fn recording_reader(data: &[u8]) {
    let bag = match Bag::from_bytes(data.to_vec()) {
        Ok(bag) => bag,
        Err(_) => match Bag::scan_bytes(data.to_vec()) {
            Ok(bag) => bag,
            Err(_) => return,
        },
    };
    let Ok(recording) = Recording::from_bag(bag) else {
        return;
    };
    let mut sum = 0usize;
    for event in recording.events(..).take(MOST).flatten() {
        sum ^= event.time as usize;
    }
    let (checked, errors) = check_recording(&recording, |_| {});
    sum ^= checked.len() ^ errors.len();
    let Ok(reader) = FrameReader::from_recording(recording) else {
        return;
    };
    for frame in reader.frames().into_iter().flatten().take(MOST).flatten() {
        if let Ok(image) = rsbag::processing::image(&frame.frame) {
            sum ^= image.data.len();
        }
    }
    for stream in reader.streams() {
        let count = reader.frame_count(stream).unwrap_or(0);
        for k in [0, count / 2, count.saturating_sub(1), count] {
            if let Ok(frame) = reader.frame(stream, k) {
                sum ^= frame.frame.data.len();
                if let Ok(Some(again)) = reader.frame_by_number(stream, frame.frame.number) {
                    sum ^= again.index as usize;
                }
            }
        }
        let middle = reader.duration() / 2;
        if let Ok(Some(frame)) = reader.frame_nearest(stream, middle) {
            sum ^= frame.index as usize;
        }
        let _ = reader.frame_at_or_after(stream, Duration::ZERO);
    }
    if let Ok(sets) = reader.select().framesets(SyncOptions::default()) {
        for set in sets.take(MOST).flatten() {
            sum ^= set.timestamp() as usize;
        }
    }
    std::hint::black_box(sum);
}
