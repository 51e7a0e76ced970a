//! xxHash32, the checksum of LZ4 frames, with a write that copies the
//! bytes it hashes.
//!
//! The checksum runs at about 2 bytes a cycle, bound by the latency of its
//! multiplications, which leaves the load and store units idle: copying
//! a stored LZ4 block to its place in the same pass costs almost nothing,
//! where copying it first and hashing it after read every byte twice (a
//! quarter more time for a chunk of camera frames). No hashing crate
//! offers that pass, hence this one.

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
        for stripe in data[..whole].chunks_exact(STRIPE) {
            self.take_stripe(stripe_of(stripe));
        }
        self.keep_pending(&data[whole..]);
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
        for (lane, word) in self.accumulators.iter_mut().zip(stripe.chunks_exact(4)) {
            let word = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
            *lane = lane
                .wrapping_add(word.wrapping_mul(P2))
                .rotate_left(13)
                .wrapping_mul(P1);
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
}
