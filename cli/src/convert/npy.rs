//! The NumPy `.npy` format, version 1.0, written by hand: a fixed magic,
//! a header that is a Python dict literal, then the array's bytes. The
//! format is a page long (numpy's `numpy.lib.format`), so a crate for it
//! would add more than it saves.

/// The header of a `.npy` file holding a C-order array of `shape` whose
/// elements are `descr` (`<f4`, `<u2`: little-endian float32, uint16);
/// the array's bytes follow it.
pub(super) fn header(descr: &str, shape: &[usize]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    // A one-element tuple needs its comma: `(5,)`.
    let shape = match dims.as_slice() {
        [one] => format!("({one},)"),
        _ => format!("({})", dims.join(", ")),
    };
    let mut dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Magic (6), version (2) and length (2), then the dict padded with
    // spaces and ended by a newline to a multiple of 64 bytes, so that the
    // data is aligned.
    let unpadded = 10 + dict.len() + 1;
    dict.extend(std::iter::repeat_n(
        ' ',
        unpadded.next_multiple_of(64) - unpadded,
    ));
    dict.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((dict.len() as u16).to_le_bytes());
    out.extend(dict.into_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_numpys_and_aligned() {
        let header = header("<f4", &[48, 64]);
        assert_eq!(header.len() % 64, 0);
        assert_eq!(&header[..8], b"\x93NUMPY\x01\x00");
        assert_eq!(
            usize::from(u16::from_le_bytes([header[8], header[9]])),
            header.len() - 10
        );
        let text = std::str::from_utf8(&header[10..]).expect("ascii");
        assert!(text.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (48, 64), }"));
        assert!(text.ends_with(" \n"));
        let one = super::header("<u2", &[5]);
        assert!(std::str::from_utf8(&one[10..])
            .expect("ascii")
            .contains("'shape': (5,)"));
    }
}
