//! `rsbag info`: what a bag holds, from its index alone.

use std::path::PathBuf;

use rsbag::bag::Bag;
use rsbag::Result;

/// Show a bag's size, duration, chunks and topics, read from the index.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The bag to describe.
    file: PathBuf,
}

pub fn run(args: Args) -> Result<()> {
    let bag = Bag::open_or_scan(&args.file)?;
    let mut out = String::new();
    let seconds = |ns: u64| ns as f64 / 1e9;
    outln!(out, "file:        {}", args.file.display());
    outln!(out, "size:        {} bytes", bag.file_size());
    if let Some(report) = bag.scan_report() {
        outln!(
            out,
            "index:       missing or damaged; recovered by scanning ({} complete chunks)",
            report.complete_chunks
        );
    }
    outln!(
        out,
        "time:        {:.6} s .. {:.6} s ({:.3} s)",
        seconds(bag.start_time()),
        seconds(bag.end_time()),
        seconds(bag.end_time() - bag.start_time())
    );
    let mut compressions = std::collections::BTreeMap::new();
    for chunk in bag.chunks() {
        *compressions
            .entry(bag.chunk_compression(chunk)?.as_str())
            .or_insert(0) += 1;
    }
    let compressions: Vec<String> = compressions
        .iter()
        .map(|(c, n)| format!("{n} {c}"))
        .collect();
    outln!(
        out,
        "chunks:      {} ({})",
        bag.chunks().len(),
        compressions.join(", ")
    );
    outln!(out, "messages:    {}", bag.total_message_count());
    outln!(out, "topics:");
    for conn in bag.connections() {
        outln!(
            out,
            "  {:<60} {:>7}  {}",
            conn.topic,
            bag.message_count(conn.id),
            conn.msg_type
        );
    }
    super::emit(&out);
    Ok(())
}
