//! xxHash32, the checksum of LZ4 frames: with a write that copies the
//! bytes it hashes, and several hashes taken at once.
//!
//! The checksum runs at about 2 bytes a cycle, bound by its
//! multiplications, which leaves the load and store units idle: copying
//! a stored LZ4 block to its place in the same pass costs almost nothing,
//! where copying it first and hashing it after read every byte twice (a
//! quarter more time for a chunk of camera frames). Each of a hash's four
//! accumulators is a chain of multiplications that cannot be split, but
//! the chains of different hashes are independent: [`hash_many`] runs two
//! or four hashes side by side in AVX2's vector multiplier, several times
//! the speed of one hash at a time (the writer of LZ4 bag chunks hashes
//! its chunks in batches for that). No hashing crate offers either, hence
//! this one.

const P1: u32 = 0x9E37_79B1;
const P2: u32 = 0x85EB_CA77;
const P3: u32 = 0xC2B2_AE3D;
const P4: u32 = 0x27D4_EB2F;
const P5: u32 = 0x1656_67B1;

/// Bytes the four accumulators take in at a time.
const STRIPE: usize = 16;

/// A running xxHash32.
#[derive(Clone, Debug)]
pub(crate) struct Xxh32 {
    seed: u32,
    accumulators: [u32; 4],
    /// Bytes hashed so far, modulo 2^32 as the algorithm counts them.
    total: u32,
    /// Whether a whole stripe has been taken in yet.
    long: bool,
    /// The start of a stripe not yet complete.
    pending: [u8; STRIPE],
    pending_len: usize,
}

impl Xxh32 {
    pub(crate) fn new(seed: u32) -> Xxh32 {
        Xxh32 {
            seed,
            accumulators: [
                seed.wrapping_add(P1).wrapping_add(P2),
                seed.wrapping_add(P2),
                seed,
                seed.wrapping_sub(P1),
            ],
            total: 0,
            long: false,
            pending: [0; STRIPE],
            pending_len: 0,
        }
    }

    /// The hash of `data`.
    pub(crate) fn oneshot(seed: u32, data: &[u8]) -> u32 {
        let mut hasher = Xxh32::new(seed);
        hasher.update(data);
        hasher.finish()
    }

    /// Hash `data`.
    pub(crate) fn update(&mut self, data: &[u8]) {
        self.total = self.total.wrapping_add(data.len() as u32);
        let data = self.fill_pending(data);
        let whole = data.len() / STRIPE * STRIPE;
        self.take_stripes(&data[..whole]);
        self.keep_pending(&data[whole..]);
    }

    /// Take in `stripes`, whole stripes, none pending.
    fn take_stripes(&mut self, stripes: &[u8]) {
        debug_assert!(stripes.len().is_multiple_of(STRIPE));
        if stripes.is_empty() {
            return;
        }
        // The accumulators in locals, not behind `&mut self`: kept in
        // registers across the loop.
        let mut accumulators = self.accumulators;
        for stripe in stripes.chunks_exact(STRIPE) {
            accumulators = round(accumulators, stripe_of(stripe));
        }
        self.accumulators = accumulators;
        self.long = true;
    }

    /// Copy `source` into `target` (of the same length) and hash it, in
    /// one pass.
    pub(crate) fn copy_and_update(&mut self, source: &[u8], target: &mut [u8]) {
        assert_eq!(source.len(), target.len(), "copy between equal lengths");
        self.total = self.total.wrapping_add(source.len() as u32);
        let head = source.len() - self.fill_pending(source).len();
        target[..head].copy_from_slice(&source[..head]);
        let (source, target) = (&source[head..], &mut target[head..]);
        let whole = source.len() / STRIPE * STRIPE;
        for (from, to) in source[..whole]
            .chunks_exact(STRIPE)
            .zip(target[..whole].chunks_exact_mut(STRIPE))
        {
            let stripe = stripe_of(from);
            to.copy_from_slice(&stripe);
            self.take_stripe(stripe);
        }
        target[whole..].copy_from_slice(&source[whole..]);
        self.keep_pending(&source[whole..]);
    }

    /// The hash of everything taken in so far.
    pub(crate) fn finish(&self) -> u32 {
        let [a, b, c, d] = self.accumulators;
        let mut hash = if self.long {
            a.rotate_left(1)
                .wrapping_add(b.rotate_left(7))
                .wrapping_add(c.rotate_left(12))
                .wrapping_add(d.rotate_left(18))
        } else {
            self.seed.wrapping_add(P5)
        };
        hash = hash.wrapping_add(self.total);
        let rest = &self.pending[..self.pending_len];
        let mut words = rest.chunks_exact(4);
        for word in &mut words {
            let word = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
            hash = hash
                .wrapping_add(word.wrapping_mul(P3))
                .rotate_left(17)
                .wrapping_mul(P4);
        }
        for &byte in words.remainder() {
            hash = hash
                .wrapping_add(u32::from(byte).wrapping_mul(P5))
                .rotate_left(11)
                .wrapping_mul(P1);
        }
        hash ^= hash >> 15;
        hash = hash.wrapping_mul(P2);
        hash ^= hash >> 13;
        hash = hash.wrapping_mul(P3);
        hash ^ (hash >> 16)
    }

    /// Complete a pending stripe from the start of `data` (taking it in
    /// when whole); returns the rest of `data`.
    fn fill_pending<'a>(&mut self, data: &'a [u8]) -> &'a [u8] {
        if self.pending_len == 0 {
            return data;
        }
        let n = (STRIPE - self.pending_len).min(data.len());
        self.pending[self.pending_len..self.pending_len + n].copy_from_slice(&data[..n]);
        self.pending_len += n;
        if self.pending_len == STRIPE {
            self.pending_len = 0;
            self.take_stripe(self.pending);
        }
        &data[n..]
    }

    /// Keep `rest` (less than a stripe) for the next call. Bytes remain
    /// only once the pending stripe was completed, or there was none.
    fn keep_pending(&mut self, rest: &[u8]) {
        if rest.is_empty() {
            return;
        }
        debug_assert_eq!(self.pending_len, 0);
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len();
    }

    #[inline(always)]
    fn take_stripe(&mut self, stripe: [u8; STRIPE]) {
        self.long = true;
        self.accumulators = round(self.accumulators, stripe);
    }
}

/// One stripe taken in by the four accumulators.
#[inline(always)]
fn round(mut accumulators: [u32; 4], stripe: [u8; STRIPE]) -> [u32; 4] {
    for (lane, word) in accumulators.iter_mut().zip(stripe.chunks_exact(4)) {
        let word = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        *lane = lane
            .wrapping_add(word.wrapping_mul(P2))
            .rotate_left(13)
            .wrapping_mul(P1);
    }
    accumulators
}

/// Take in each sequence of `sequences`, given as the pieces it is made
/// of, in order, into the hasher beside it: what [`Xxh32::update`] with
/// each piece in turn does.
///
/// With AVX2, the whole stripes of up to four sequences are taken in side
/// by side (as far as the shortest run among them reaches), in the time
/// one sequence takes alone; the few bytes around the end of a piece that
/// does not end on a stripe go through the scalar hash.
pub(crate) fn update_many(hashers: &mut [Xxh32], sequences: &[&[&[u8]]]) {
    assert_eq!(hashers.len(), sequences.len(), "a hasher per sequence");
    let mut cursors: Vec<Cursor<'_, '_>> = (hashers.iter_mut().zip(sequences))
        .map(|(hasher, pieces)| Cursor {
            pieces,
            piece: 0,
            at: 0,
            hasher,
        })
        .collect();
    let mut group = Vec::with_capacity(4);
    loop {
        group.clear();
        for (i, cursor) in cursors.iter_mut().enumerate() {
            let run = cursor.next_run();
            if !run.is_empty() && group.len() < 4 {
                group.push((i, run));
            }
        }
        let Some(len) = group.iter().map(|(_, run)| run.len()).min() else {
            break;
        };
        // Three hashes run as four, the fourth a copy of the first: the
        // vector code takes the same time either way.
        let width = group.len().next_power_of_two();
        let mut accumulators: Vec<[u32; 4]> = (group.iter())
            .map(|&(i, _)| cursors[i].hasher.accumulators)
            .collect();
        let mut runs: Vec<&[u8]> = group.iter().map(|&(_, run)| &run[..len]).collect();
        while runs.len() < width {
            runs.push(runs[0]);
            accumulators.push(accumulators[0]);
        }
        take_runs(&mut accumulators, &runs);
        for (&(i, _), accumulators) in group.iter().zip(accumulators) {
            let cursor = &mut cursors[i];
            cursor.hasher.accumulators = accumulators;
            cursor.hasher.long = true;
            cursor.hasher.total = cursor.hasher.total.wrapping_add(len as u32);
            cursor.advance(len);
        }
    }
}

/// Where one sequence of [`update_many`] is.
struct Cursor<'a, 'h> {
    pieces: &'a [&'a [u8]],
    /// The piece at hand and the position in it.
    piece: usize,
    at: usize,
    hasher: &'h mut Xxh32,
}

impl<'a> Cursor<'a, '_> {
    /// The whole stripes to take in next, straight from the piece at hand,
    /// once the bytes before them that are not (the end of a piece shorter
    /// than a stripe, or what completes a stripe begun in the piece
    /// before) went through the scalar hash; empty when all is taken in.
    fn next_run(&mut self) -> &'a [u8] {
        while let Some(&piece) = self.pieces.get(self.piece) {
            let rest = &piece[self.at..];
            let pending = self.hasher.pending_len;
            if pending == 0 && rest.len() >= STRIPE {
                return &rest[..rest.len() / STRIPE * STRIPE];
            }
            let n = if pending > 0 {
                (STRIPE - pending).min(rest.len())
            } else {
                rest.len()
            };
            self.hasher.update(&rest[..n]);
            self.advance(n);
        }
        &[]
    }

    fn advance(&mut self, n: usize) {
        self.at += n;
        if self.at == self.pieces[self.piece].len() {
            self.piece += 1;
            self.at = 0;
        }
    }
}

/// Take in the runs (whole stripes, all of one length) into the
/// accumulators of their hashes, side by side when there are two or four
/// and the processor has AVX2.
fn take_runs(accumulators: &mut [[u32; 4]], runs: &[&[u8]]) {
    assert_eq!(accumulators.len(), runs.len(), "a run per hash");
    let len = runs.first().map_or(0, |run| run.len());
    assert!(
        len.is_multiple_of(STRIPE) && runs.iter().all(|run| run.len() == len),
        "runs of whole stripes, of one length"
    );
    #[cfg(target_arch = "x86_64")]
    if matches!(runs.len(), 2 | 4) && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is present, and every run holds `len` bytes.
        unsafe {
            match runs.len() {
                2 => avx2::take_runs::<1>(accumulators, runs, len),
                _ => avx2::take_runs::<2>(accumulators, runs, len),
            }
        }
        return;
    }
    take_runs_scalar(accumulators, runs);
}

/// [`take_runs`] one hash after the other.
fn take_runs_scalar(accumulators: &mut [[u32; 4]], runs: &[&[u8]]) {
    for (accumulators, run) in accumulators.iter_mut().zip(runs) {
        for stripe in run.chunks_exact(STRIPE) {
            *accumulators = round(*accumulators, stripe_of(stripe));
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{P1, P2, STRIPE};
    use std::arch::x86_64::*;

    /// [`super::take_runs`] for `2 * VECTORS` hashes: each 256-bit vector
    /// holds the four accumulators of two hashes, and the vectors'
    /// multiplication chains overlap.
    ///
    /// # Safety
    /// AVX2 must be present; `accumulators` and `runs` hold `2 * VECTORS`
    /// items, and every run at least `len` bytes.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn take_runs<const VECTORS: usize>(
        accumulators: &mut [[u32; 4]],
        runs: &[&[u8]],
        len: usize,
    ) {
        let p1 = _mm256_set1_epi32(P1 as i32);
        let p2 = _mm256_set1_epi32(P2 as i32);
        let mut lanes = [_mm256_setzero_si256(); VECTORS];
        for (i, lane) in lanes.iter_mut().enumerate() {
            *lane = _mm256_loadu2_m128i(
                accumulators[2 * i + 1].as_ptr().cast(),
                accumulators[2 * i].as_ptr().cast(),
            );
        }
        let mut at = 0;
        while at < len {
            for (i, lane) in lanes.iter_mut().enumerate() {
                let words = _mm256_loadu2_m128i(
                    runs[2 * i + 1].as_ptr().add(at).cast(),
                    runs[2 * i].as_ptr().add(at).cast(),
                );
                let sum = _mm256_add_epi32(*lane, _mm256_mullo_epi32(words, p2));
                let rotated =
                    _mm256_or_si256(_mm256_slli_epi32::<13>(sum), _mm256_srli_epi32::<19>(sum));
                *lane = _mm256_mullo_epi32(rotated, p1);
            }
            at += STRIPE;
        }
        for (i, lane) in lanes.iter().enumerate() {
            _mm256_storeu2_m128i(
                accumulators[2 * i + 1].as_mut_ptr().cast(),
                accumulators[2 * i].as_mut_ptr().cast(),
                *lane,
            );
        }
    }
}

#[inline(always)]
fn stripe_of(bytes: &[u8]) -> [u8; STRIPE] {
    let mut stripe = [0; STRIPE];
    stripe.copy_from_slice(bytes);
    stripe
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(seed: u32, data: &[u8]) -> u32 {
        twox_hash::XxHash32::oneshot(seed, data)
    }

    fn noise(len: usize, mut state: u32) -> Vec<u8> {
        (0..len)
            .map(|_| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (state >> 24) as u8
            })
            .collect()
    }

    /// The test vectors of xxHash's own sanity check, and every length
    /// around the stripe size against the reference implementation.
    #[test]
    fn equals_the_reference() {
        assert_eq!(Xxh32::oneshot(0, b""), 0x02CC_5D05);
        assert_eq!(Xxh32::oneshot(P1, b""), 0x36B7_8AE7);
        let data = noise(300, 7);
        for len in 0..data.len() {
            for seed in [0, 1, P1] {
                assert_eq!(
                    Xxh32::oneshot(seed, &data[..len]),
                    reference(seed, &data[..len]),
                    "length {len} seed {seed}"
                );
            }
        }
    }

    /// Whatever the pieces, hashing them one after the other (plainly or
    /// while copying) gives the hash of the whole, and the copy is exact.
    #[test]
    fn pieces_hash_as_the_whole() {
        let data = noise(5000, 11);
        let whole = reference(0, &data);
        let mut cuts = noise(64, 3);
        for round in 0..200usize {
            cuts.rotate_left(1);
            let mut plain = Xxh32::new(0);
            let mut copying = Xxh32::new(0);
            let mut copy = vec![0u8; data.len()];
            let mut at = 0;
            for (i, &cut) in cuts.iter().enumerate() {
                // Pieces of 0 to ~250 bytes, and some long ones.
                let len = if (i + round) % 7 == 0 {
                    usize::from(cut) * 13
                } else {
                    usize::from(cut)
                };
                let end = (at + len).min(data.len());
                plain.update(&data[at..end]);
                copying.copy_and_update(&data[at..end], &mut copy[at..end]);
                at = end;
            }
            plain.update(&data[at..]);
            copying.copy_and_update(&data[at..], &mut copy[at..]);
            assert_eq!(plain.finish(), whole, "round {round}");
            assert_eq!(copying.finish(), whole, "round {round}");
            assert_eq!(copy, data, "round {round}");
        }
    }

    /// Sequences of pieces cut at random places out of `data`, so that
    /// pieces start at every alignment and end anywhere in a stripe.
    fn random_sequences<'a>(data: &'a [u8], cuts: &[u8], count: usize) -> Vec<Vec<&'a [u8]>> {
        let mut cuts = cuts.iter().map(|&c| usize::from(c)).cycle();
        let mut next = move || cuts.next().unwrap_or(0);
        (0..count)
            .map(|_| {
                let pieces = next() % 6;
                (0..pieces)
                    .map(|_| {
                        let start = next() * 17 % data.len();
                        let len = match next() % 4 {
                            0 => next() % 20,
                            1 => next() * 3,
                            _ => next() * next() * 7,
                        };
                        &data[start..(start + len).min(data.len())]
                    })
                    .collect()
            })
            .collect()
    }

    /// The hash of each sequence (its pieces joined), taken together.
    fn hash_many(seed: u32, sequences: &[&[&[u8]]]) -> Vec<u32> {
        let mut hashers = vec![Xxh32::new(seed); sequences.len()];
        update_many(&mut hashers, sequences);
        hashers.iter().map(Xxh32::finish).collect()
    }

    fn check_hash_many(seed: u32, sequences: &[Vec<&[u8]>]) {
        let views: Vec<&[&[u8]]> = sequences.iter().map(|s| &s[..]).collect();
        let hashes = hash_many(seed, &views);
        assert_eq!(hashes.len(), sequences.len());
        for (pieces, hash) in sequences.iter().zip(hashes) {
            let joined = pieces.concat();
            assert_eq!(hash, reference(seed, &joined), "{} bytes", joined.len());
        }
    }

    /// Any number of sequences of any pieces, of every length and
    /// alignment, hash as the reference hashes them joined.
    #[test]
    fn hash_many_equals_the_reference() {
        let data = noise(600_000, 5);
        for round in 0..300u32 {
            let cuts = noise(64, round);
            let count = (round % 9) as usize;
            check_hash_many(
                round.wrapping_mul(P1),
                &random_sequences(&data, &cuts, count),
            );
        }
        check_hash_many(0, &[]);
        check_hash_many(0, &[vec![], vec![&[][..]], vec![&data[..1]]]);
        // Long runs side by side: four, then three, two, one left.
        let four: Vec<Vec<&[u8]>> = (0..4)
            .map(|i| vec![&data[i..100_000 * (i + 1) + i * 3]])
            .collect();
        check_hash_many(7, &four);
    }

    /// The vector kernel takes runs in as the scalar one does.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_vector_kernel_equals_the_scalar_one() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let data = noise(4 * 4096 + 64, 9);
        for width in [2, 4] {
            for len in [0, 16, 32, 4096] {
                let runs: Vec<&[u8]> = (0..width).map(|i| &data[i * 4097 + i..][..len]).collect();
                let start: Vec<[u32; 4]> = (0..width as u32).map(|i| [i, P1, P2 ^ i, 3]).collect();
                let mut scalar = start.clone();
                take_runs_scalar(&mut scalar, &runs);
                let mut vector = start;
                // SAFETY: AVX2 is present, every run holds `len` bytes.
                unsafe {
                    match width {
                        2 => avx2::take_runs::<1>(&mut vector, &runs, len),
                        _ => avx2::take_runs::<2>(&mut vector, &runs, len),
                    }
                }
                assert_eq!(vector, scalar, "width {width} length {len}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn hash_many_is_the_hash_of_each_joined(
            seed: u32,
            sequences in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::collection::vec(proptest::num::u8::ANY, 0..200), 0..6),
                0..7),
        ) {
            let sequences: Vec<Vec<&[u8]>> = (sequences.iter())
                .map(|pieces| pieces.iter().map(|p| &p[..]).collect())
                .collect();
            check_hash_many(seed, &sequences);
        }
    }
}
